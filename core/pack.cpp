#include "core/pack.h"

#include <stdexcept>
#include <string>

#include "core/bitboard.h"
#include "core/uci.h"

namespace chess {

namespace {

constexpr char PIECE_CHARS[] = "PNBRQKpnbrqk";
constexpr CastlingRights RIGHTS[4] = {WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO};  // by right_index
constexpr uint16_t CHESS960_BIT = 0x8000;

int code(Piece p) { return int(p & 7) + (p >> 3) * 6; }

Bitboard occupancy(const uint8_t* b) {
  Bitboard occupied = 0;
  for (int i = 0; i < 8; ++i) occupied |= Bitboard(b[i]) << (8 * i);
  return occupied;
}

// Throws FenError for bytes that no position packs to: more pieces than the nibbles hold
// (whose codes would be read past the 32 bytes), a code that is no piece.
void check_piece_codes(const uint8_t* b) {
  const int pieces = popcount(occupancy(b));
  if (pieces > MAX_PACKED_PIECES)
    throw FenError(1, std::to_string(pieces) + " pieces, more than " + std::to_string(MAX_PACKED_PIECES));
  for (int n = 0; n < pieces; ++n)
    if (const int c = b[8 + n / 2] >> (4 * (n % 2)) & 15; c > 11) throw FenError(1, "piece code " + std::to_string(c));
}

}  // namespace

PackedPosition pack(const Position& pos) {
  PackedPosition b{};
  Bitboard occupied = pos.pieces();
  // 16 bytes hold 32 nibbles. from_fen refuses more pieces, so this never throws for a
  // position it read, but the bytes after the nibbles must not be overwritten if it did.
  if (popcount(occupied) > MAX_PACKED_PIECES)
    throw std::length_error("cannot pack " + std::to_string(popcount(occupied)) + " pieces: at most " +
                            std::to_string(MAX_PACKED_PIECES));
  for (int i = 0; i < 8; ++i) b[i] = uint8_t(occupied >> (8 * i));
  const Position::PiecePlanes planes = pos.piece_planes();
  int n = 0;
  for (Bitboard bb = occupied; bb; ++n) {
    int c = code(planes.on_occupied(pop_lsb(bb)));
    b[8 + n / 2] |= uint8_t(c << (4 * (n % 2)));
  }
  b[24] = uint8_t(pos.side_to_move() == BLACK) | uint8_t(pos.castling() << 1);
  b[25] = is_ok(pos.ep_square()) ? uint8_t(pos.ep_square()) : 255;
  b[26] = uint8_t(pos.rule50()), b[27] = uint8_t(pos.rule50() >> 8);
  b[28] = uint8_t(pos.fullmove()), b[29] = uint8_t(pos.fullmove() >> 8);
  if (pos.is_chess960()) {
    uint16_t files = CHESS960_BIT;
    for (int i = 0; i < 4; ++i)
      if (pos.castling() & RIGHTS[i]) files |= uint16_t(file_of(pos.castling_rook_square(RIGHTS[i])) << (3 * i));
    b[30] = uint8_t(files), b[31] = uint8_t(files >> 8);
  }
  return b;
}

// Through FEN, so that the bytes get every check a FEN gets.
Position unpack(const PackedPosition& b) {
  check_piece_codes(b.data());
  const Bitboard occupied = occupancy(b.data());
  char board[64];
  int n = 0;
  for (int s = 0; s < 64; ++s) {
    if (!(occupied >> s & 1)) {
      board[s] = 0;
      continue;
    }
    board[s] = PIECE_CHARS[b[8 + n / 2] >> (4 * (n % 2)) & 15];
    ++n;
  }
  std::string fen;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      char p = board[8 * rank + file];
      if (!p) {
        ++empty;
        continue;
      }
      if (empty) fen += char('0' + empty), empty = 0;
      fen += p;
    }
    if (empty) fen += char('0' + empty);
    if (rank) fen += '/';
  }
  fen += b[24] & 1 ? " b " : " w ";
  // Chess960 names each right's rook by its file (Shredder-FEN), which from_fen reads back.
  const uint16_t files = uint16_t(b[30] | b[31] << 8);
  const bool chess960 = files & CHESS960_BIT;
  std::string castling;
  for (int i = 0; i < 4; ++i)
    if (b[24] >> (1 + i) & 1) castling += chess960 ? char((i < 2 ? 'A' : 'a') + (files >> (3 * i) & 7)) : "KQkq"[i];
  fen += castling.empty() ? "-" : castling;
  fen += ' ';
  fen += b[25] < 64 ? square_to_string(Square(b[25])) : "-";
  fen += ' ' + std::to_string(b[26] | b[27] << 8) + ' ' + std::to_string(b[28] | b[29] << 8);
  return Position::from_fen(fen, chess960);
}

Position unpack_trusted(const uint8_t* b) {
  const Bitboard occupied = occupancy(b);
  Bitboard by_type[PIECE_TYPE_NB] = {}, black = 0;
  int n = 0;
  for (Bitboard bb = occupied; bb; ++n) {
    const Square s = pop_lsb(bb);
    const int c = b[8 + n / 2] >> (4 * (n % 2)) & 15;
    by_type[c % 6] |= square_bb(s);
    if (c >= 6) black |= square_bb(s);
  }
  const uint16_t files = uint16_t(b[30] | b[31] << 8);
  CastlingSetup setup;
  setup.chess960 = files & CHESS960_BIT;
  if (setup.chess960)
    for (int i = 0; i < 4; ++i) setup.rook_file[i] = File(files >> (3 * i) & 7);
  const Position pos = Position::from_bitboards(by_type, black, Color(b[24] & 1), CastlingRights(b[24] >> 1 & 15),
                                                b[25] < 64 ? Square(b[25]) : SQ_NONE, false, setup);
  return pos.with_clocks(b[26] | b[27] << 8, b[28] | b[29] << 8);
}

Position unpack_checked(const uint8_t* bytes) {
  check_piece_codes(bytes);
  const Position pos = unpack_trusted(bytes);
  pos.validate();
  return pos;
}

}  // namespace chess
