// Basic chess vocabulary shared by every module: colors, pieces, squares and moves.
#pragma once

#include <cstdint>

namespace chess {

using Bitboard = uint64_t;
using Key = uint64_t;

enum Color : uint8_t { WHITE, BLACK, COLOR_NB = 2 };

constexpr Color operator~(Color c) { return Color(c ^ 1); }

// clang-format off
// Piece types index the position's bitboards directly, so PAWN is 0.
enum PieceType : uint8_t { PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, PIECE_TYPE_NB, NO_PIECE_TYPE = 7 };

// A piece packs its color in bit 3 and its type in bits 0-2.
enum Piece : uint8_t {
  W_PAWN = 0, W_KNIGHT, W_BISHOP, W_ROOK, W_QUEEN, W_KING,
  B_PAWN = 8, B_KNIGHT, B_BISHOP, B_ROOK, B_QUEEN, B_KING,
  NO_PIECE = 15, PIECE_NB = 16
};

// clang-format on
constexpr Piece make_piece(Color c, PieceType pt) { return Piece((c << 3) | pt); }
constexpr Color color_of(Piece p) { return Color(p >> 3); }
constexpr PieceType type_of(Piece p) { return PieceType(p & 7); }

// clang-format off
enum Square : uint8_t {
  SQ_A1, SQ_B1, SQ_C1, SQ_D1, SQ_E1, SQ_F1, SQ_G1, SQ_H1,
  SQ_A2, SQ_B2, SQ_C2, SQ_D2, SQ_E2, SQ_F2, SQ_G2, SQ_H2,
  SQ_A3, SQ_B3, SQ_C3, SQ_D3, SQ_E3, SQ_F3, SQ_G3, SQ_H3,
  SQ_A4, SQ_B4, SQ_C4, SQ_D4, SQ_E4, SQ_F4, SQ_G4, SQ_H4,
  SQ_A5, SQ_B5, SQ_C5, SQ_D5, SQ_E5, SQ_F5, SQ_G5, SQ_H5,
  SQ_A6, SQ_B6, SQ_C6, SQ_D6, SQ_E6, SQ_F6, SQ_G6, SQ_H6,
  SQ_A7, SQ_B7, SQ_C7, SQ_D7, SQ_E7, SQ_F7, SQ_G7, SQ_H7,
  SQ_A8, SQ_B8, SQ_C8, SQ_D8, SQ_E8, SQ_F8, SQ_G8, SQ_H8,
  SQ_NONE, SQUARE_NB = 64
};
// clang-format on

// clang-format off
enum File : uint8_t { FILE_A, FILE_B, FILE_C, FILE_D, FILE_E, FILE_F, FILE_G, FILE_H };
enum Rank : uint8_t { RANK_1, RANK_2, RANK_3, RANK_4, RANK_5, RANK_6, RANK_7, RANK_8 };

constexpr Square make_square(File f, Rank r) { return Square((r << 3) | f); }
constexpr File file_of(Square s) { return File(s & 7); }
constexpr Rank rank_of(Square s) { return Rank(s >> 3); }
constexpr bool is_ok(Square s) { return s < SQUARE_NB; }
constexpr Square operator+(Square s, int d) { return Square(int(s) + d); }
constexpr Square operator-(Square s, int d) { return Square(int(s) - d); }
// The same square seen from the other side of the board (a1 <-> a8).
constexpr Square flip_rank(Square s) { return Square(s ^ 56); }
constexpr Rank relative_rank(Color c, Rank r) { return Rank(r ^ (c * 7)); }
constexpr Rank relative_rank(Color c, Square s) { return relative_rank(c, rank_of(s)); }

enum Direction : int8_t {
  NORTH = 8, EAST = 1, SOUTH = -8, WEST = -1,
  NORTH_EAST = 9, NORTH_WEST = 7, SOUTH_EAST = -7, SOUTH_WEST = -9
};

constexpr Direction pawn_push(Color c) { return c == WHITE ? NORTH : SOUTH; }

enum CastlingRights : uint8_t {
  NO_CASTLING = 0,
  WHITE_OO = 1, WHITE_OOO = 2, BLACK_OO = 4, BLACK_OOO = 8,
  WHITE_CASTLING = WHITE_OO | WHITE_OOO, BLACK_CASTLING = BLACK_OO | BLACK_OOO,
  ALL_CASTLING = WHITE_CASTLING | BLACK_CASTLING, CASTLING_RIGHT_NB = 16
};

// clang-format on
constexpr CastlingRights castling_rights(Color c) { return c == WHITE ? WHITE_CASTLING : BLACK_CASTLING; }

enum MoveKind : uint8_t { NORMAL, PROMOTION, EN_PASSANT, CASTLING };

// A move in 16 bits: destination (bits 0-5), origin (6-11), promotion piece minus KNIGHT (12-13)
// and kind (14-15). Castling is encoded as the king taking its own rook (e1h1), for standard
// chess too: the one form that names every Chess960 castling (the king may stay where it is);
// core/uci.h writes e1g1 for standard chess.
class Move {
 public:
  constexpr Move() = default;
  constexpr Move(Square from, Square to) : data_(uint16_t((from << 6) | to)) {}
  constexpr Move(Square from, Square to, MoveKind kind, PieceType promo = KNIGHT)
      : data_(uint16_t((kind << 14) | ((promo - KNIGHT) << 12) | (from << 6) | to)) {}

  constexpr Square from() const { return Square((data_ >> 6) & 63); }
  constexpr Square to() const { return Square(data_ & 63); }
  constexpr MoveKind kind() const { return MoveKind(data_ >> 14); }
  constexpr PieceType promotion() const { return PieceType(((data_ >> 12) & 3) + KNIGHT); }
  constexpr uint16_t raw() const { return data_; }
  constexpr bool is_none() const { return data_ == 0; }

  static constexpr Move none() { return Move(); }
  constexpr bool operator==(const Move&) const = default;

 private:
  uint16_t data_ = 0;
};

}  // namespace chess
