// A position in 32 bytes, for datasets with millions of positions. Layout (little-endian):
//   bytes  0-7   occupancy: bit s set when square s (a1 = 0, b1 = 1, ..., h8 = 63) holds a piece
//   bytes  8-23  the pieces of the occupied squares in square order, 4 bits each, the first in
//                the low nibble of byte 8: 0-5 white pawn, knight, bishop, rook, queen, king;
//                6-11 the same for black (at most 32 pieces fill the 16 bytes)
//   byte  24     bit 0: side to move (1 black); bits 1-4: castling rights K, Q, k, q
//   byte  25     en-passant square (0-63; only when a capture there is legal) or 255
//   bytes 26-27  half-move clock (uint16)
//   bytes 28-29  full-move number (uint16)
//   bytes 30-31  zero for standard chess; for Chess960 (uint16) bit 15 set and, per castling
//                right held, its rook's file (0 a ... 7 h) in 3 bits: bits 0-2 K, 3-5 Q,
//                6-8 k, 9-11 q (0 for a right not held)
#pragma once

#include <array>
#include <cstdint>

#include "core/position.h"

namespace chess {

using PackedPosition = std::array<uint8_t, 32>;
constexpr int MAX_PACKED_PIECES = 32;  // the nibbles of bytes 8-23

// Throws std::length_error for more than MAX_PACKED_PIECES pieces (no position from_fen
// accepts has them).
PackedPosition pack(const Position& pos);
// Throws FenError when the bytes do not describe a legal position.
Position unpack(const PackedPosition& bytes);
// The same for bytes pack() wrote (a dataset this program made), without unpack's checks
// and its detour through FEN, and without its key (zero): for reading millions of
// positions, not for playing on.
Position unpack_trusted(const uint8_t* bytes);
// unpack_trusted's position, checked first: throws FenError when the bytes are no position
// FEN reading accepts (the pieces' codes, then Position::validate). For bytes read from a
// file, which may be damaged, at a fraction of unpack's cost (no detour through FEN).
Position unpack_checked(const uint8_t* bytes);

}  // namespace chess
