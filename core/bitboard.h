// Bitboards and attack tables. Leaper attacks are constexpr tables; slider attacks use
// PEXT where the build has BMI2 and magic multiplication otherwise, filling the same
// table layout, so both paths return identical sets.
#pragma once

#include <array>
#include <bit>
#include <string>

#include "core/types.h"

// A file compiled for BMI2 by a target pragma (core/perft_x86_64_v3.cpp) defines
// CHESSHPC_USE_PEXT itself: GCC's C++ front end leaves __BMI2__ as the command line set it.
#if !defined(CHESSHPC_USE_PEXT)
#if defined(__BMI2__) && !defined(CHESSHPC_NO_PEXT)
#define CHESSHPC_USE_PEXT 1
#else
#define CHESSHPC_USE_PEXT 0
#endif
#endif
#if CHESSHPC_USE_PEXT
#include <immintrin.h>
#endif

namespace chess {

constexpr Bitboard FILE_A_BB = 0x0101010101010101ULL;
constexpr Bitboard FILE_H_BB = FILE_A_BB << 7;
constexpr Bitboard RANK_1_BB = 0xFFULL;
constexpr Bitboard RANK_2_BB = RANK_1_BB << 8;
constexpr Bitboard RANK_3_BB = RANK_1_BB << 16;
constexpr Bitboard RANK_4_BB = RANK_1_BB << 24;
constexpr Bitboard RANK_5_BB = RANK_1_BB << 32;
constexpr Bitboard RANK_6_BB = RANK_1_BB << 40;
constexpr Bitboard RANK_7_BB = RANK_1_BB << 48;
constexpr Bitboard RANK_8_BB = RANK_1_BB << 56;
constexpr Bitboard DARK_SQUARES = 0xAA55AA55AA55AA55ULL;

constexpr Bitboard square_bb(Square s) { return 1ULL << s; }
constexpr Bitboard file_bb(File f) { return FILE_A_BB << f; }
constexpr Bitboard rank_bb(Rank r) { return RANK_1_BB << (8 * r); }

inline int popcount(Bitboard b) { return std::popcount(b); }
inline Square lsb(Bitboard b) { return Square(std::countr_zero(b)); }
inline Square msb(Bitboard b) { return Square(63 - std::countl_zero(b)); }
inline Square pop_lsb(Bitboard& b) {
  Square s = lsb(b);
  b &= b - 1;
  return s;
}
constexpr bool more_than_one(Bitboard b) { return b & (b - 1); }

template <Direction D>
constexpr Bitboard shift(Bitboard b) {
  if constexpr (D == NORTH) return b << 8;
  if constexpr (D == SOUTH) return b >> 8;
  if constexpr (D == EAST) return (b & ~FILE_H_BB) << 1;
  if constexpr (D == WEST) return (b & ~FILE_A_BB) >> 1;
  if constexpr (D == NORTH_EAST) return (b & ~FILE_H_BB) << 9;
  if constexpr (D == NORTH_WEST) return (b & ~FILE_A_BB) << 7;
  if constexpr (D == SOUTH_EAST) return (b & ~FILE_H_BB) >> 7;
  if constexpr (D == SOUTH_WEST) return (b & ~FILE_A_BB) >> 9;
  return 0;
}

// Squares attacked by all pawns of color C in b.
template <Color C>
constexpr Bitboard pawn_attacks_bb(Bitboard b) {
  return C == WHITE ? shift<NORTH_WEST>(b) | shift<NORTH_EAST>(b) : shift<SOUTH_WEST>(b) | shift<SOUTH_EAST>(b);
}

namespace detail {

// The square reached from s by (df, dr), or 0 when that leaves the board.
constexpr Bitboard step(int s, int df, int dr) {
  int f = s % 8 + df, r = s / 8 + dr;
  return (f >= 0 && f < 8 && r >= 0 && r < 8) ? 1ULL << (r * 8 + f) : 0;
}

template <int N>
constexpr std::array<Bitboard, 64> leaper_table(const int (&deltas)[N][2]) {
  std::array<Bitboard, 64> t{};
  for (int s = 0; s < 64; ++s)
    for (const auto& d : deltas) t[s] |= step(s, d[0], d[1]);
  return t;
}

// Attacks of a slider on an empty board: every square along its rays.
constexpr std::array<Bitboard, 64> ray_table(const int (&dirs)[4][2]) {
  std::array<Bitboard, 64> t{};
  for (int s = 0; s < 64; ++s)
    for (const auto& d : dirs)
      for (int k = 1; k < 8; ++k) t[s] |= step(s, d[0] * k, d[1] * k);
  return t;
}

constexpr int ROOK_DIRECTIONS[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int BISHOP_DIRECTIONS[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
constexpr int KNIGHT_DELTAS[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
constexpr int KING_DELTAS[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
constexpr int WHITE_PAWN_DELTAS[2][2] = {{-1, 1}, {1, 1}};
constexpr int BLACK_PAWN_DELTAS[2][2] = {{-1, -1}, {1, -1}};

}  // namespace detail

constexpr std::array<Bitboard, 64> KNIGHT_ATTACKS = detail::leaper_table(detail::KNIGHT_DELTAS);
constexpr std::array<Bitboard, 64> KING_ATTACKS = detail::leaper_table(detail::KING_DELTAS);
constexpr std::array<std::array<Bitboard, 64>, 2> PAWN_ATTACKS = {detail::leaper_table(detail::WHITE_PAWN_DELTAS),
                                                                  detail::leaper_table(detail::BLACK_PAWN_DELTAS)};

constexpr std::array<Bitboard, 64> ROOK_RAYS = detail::ray_table(detail::ROOK_DIRECTIONS);
constexpr std::array<Bitboard, 64> BISHOP_RAYS = detail::ray_table(detail::BISHOP_DIRECTIONS);

// One slider's lookup: the relevant occupancy mask and where its attack sets start.
struct SliderEntry {
  Bitboard mask;
  Bitboard magic;  // unused with PEXT
  Bitboard* attacks;
  unsigned shift;  // unused with PEXT

  unsigned index(Bitboard occupied) const {
#if CHESSHPC_USE_PEXT
    return unsigned(_pext_u64(occupied, mask));
#else
    return unsigned(((occupied & mask) * magic) >> shift);
#endif
  }
};

extern SliderEntry ROOK_TABLE[64];
extern SliderEntry BISHOP_TABLE[64];
extern Bitboard BETWEEN[64][64];  // squares strictly between two aligned squares, else 0
extern Bitboard LINE[64][64];     // the whole line through two aligned squares, else 0

namespace bitboards {
// Fills the slider and line tables; idempotent. Called by a static initializer, so
// code that runs after main() starts may rely on the tables.
void init();
std::string pretty(Bitboard b);
}  // namespace bitboards

inline Bitboard rook_attacks(Square s, Bitboard occupied) {
  const SliderEntry& e = ROOK_TABLE[s];
  return e.attacks[e.index(occupied)];
}
inline Bitboard bishop_attacks(Square s, Bitboard occupied) {
  const SliderEntry& e = BISHOP_TABLE[s];
  return e.attacks[e.index(occupied)];
}
inline Bitboard queen_attacks(Square s, Bitboard occupied) {
  return rook_attacks(s, occupied) | bishop_attacks(s, occupied);
}

// Attacks of a non-pawn piece type from s.
inline Bitboard attacks_bb(PieceType pt, Square s, Bitboard occupied) {
  switch (pt) {
    case KNIGHT: return KNIGHT_ATTACKS[s];
    case BISHOP: return bishop_attacks(s, occupied);
    case ROOK: return rook_attacks(s, occupied);
    case QUEEN: return queen_attacks(s, occupied);
    case KING: return KING_ATTACKS[s];
    default: return 0;
  }
}

inline bool aligned(Square a, Square b, Square c) { return LINE[a][b] & square_bb(c); }

}  // namespace chess
