// A position without its clocks in 34 bytes, for routing and storing hundreds of millions
// of positions (distributed perft, jobs/perft/dedup.h). Two positions have equal codes
// exactly when they are the same position in the sense of the repetition rule: the same
// pieces on the same squares, side to move, castling rights and en-passant square (which
// Position keeps only when a capture there is legal). The clocks are not part of it.
//
// Layout: four bitboards and a state word. A square's piece has the code type + 1 (pawn 1
// to king 6, empty 0) spread over the first three bitboards, one bit each; the fourth
// holds the black pieces. Encoding and decoding are a few bitwise operations per board,
// no loop over pieces: nibble packing (core/pack.h) costs a step per piece, and at 300
// million children per level that is seconds.
//   q[0]  bit 0 of the code: pawns, bishops, queens
//   q[1]  bit 1: knights, bishops, kings
//   q[2]  bit 2: rooks, queens, kings
//   q[3]  black pieces
//   state bit 0 side to move (1 black), bits 1-4 castling rights (their rooks' files are the
//         root's: see decode), bits 5-11 en-passant
//         square or 64 for none
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/position.h"

namespace chess {

struct BoardCode {
  static constexpr size_t BYTES = 34;  // on the wire: q, then state, little-endian

  uint64_t q[4] = {0, 0, 0, 0};
  uint16_t state = 0;

  bool operator==(const BoardCode& o) const {
    return q[0] == o.q[0] && q[1] == o.q[1] && q[2] == o.q[2] && q[3] == o.q[3] && state == o.state;
  }
  // A 64-bit hash of the code, well mixed in every bit (not the Zobrist key: computing
  // that would cost more than the whole code).
  uint64_t hash() const;

  void write(unsigned char* out) const {
    std::memcpy(out, q, 32);
    std::memcpy(out + 32, &state, 2);
  }
  static BoardCode read(const unsigned char* in) {
    BoardCode c;
    std::memcpy(c.q, in, 32);
    std::memcpy(&c.state, in + 32, 2);
    return c;
  }
};

BoardCode encode(const Position& pos);
// The position of a code that encode() made. With_key false leaves the key zero: enough
// for counting without a table. Clocks are 0 and 1. Codes from elsewhere are not checked.
// The code keeps the four rights, not their rooks' files: setup gives them (and the
// Chess960 flag), the root's for every position of one perft, which shares them.
Position decode(const BoardCode& code, bool with_key = true, const CastlingSetup& setup = {});

inline uint64_t BoardCode::hash() const {
  // Each word multiplied by its own odd constant, summed, and finished as in splitmix64.
  uint64_t h = q[0] * 0x9E3779B97F4A7C15ULL + q[1] * 0xC2B2AE3D27D4EB4FULL + q[2] * 0x165667B19E3779F9ULL +
               q[3] * 0xD6E8FEB86659FD93ULL + state;
  h ^= h >> 31, h *= 0xBF58476D1CE4E5B9ULL;
  h ^= h >> 27, h *= 0x94D049BB133111EBULL;
  return h ^ (h >> 31);
}

}  // namespace chess
