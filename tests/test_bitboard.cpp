#include <gtest/gtest.h>

#include <random>

#include "core/bitboard.h"

using namespace chess;

namespace {

Bitboard walk(Square s, Bitboard occupied, const int (&dirs)[4][2]) {
  Bitboard a = 0;
  for (const auto& d : dirs)
    for (int f = file_of(s) + d[0], r = rank_of(s) + d[1]; f >= 0 && f < 8 && r >= 0 && r < 8; f += d[0], r += d[1]) {
      a |= square_bb(make_square(File(f), Rank(r)));
      if (occupied & square_bb(make_square(File(f), Rank(r)))) break;
    }
  return a;
}

constexpr int ROOK_DIRS[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int BISHOP_DIRS[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

}  // namespace

// Whichever lookup this build uses (PEXT or magics), it must agree with walking the rays.
TEST(Bitboard, SliderLookupsMatchRayWalk) {
  std::mt19937_64 rng(7);
  for (int s = 0; s < 64; ++s)
    for (int i = 0; i < 2000; ++i) {
      Bitboard occ = rng() & rng();
      ASSERT_EQ(rook_attacks(Square(s), occ), walk(Square(s), occ, ROOK_DIRS)) << s;
      ASSERT_EQ(bishop_attacks(Square(s), occ), walk(Square(s), occ, BISHOP_DIRS)) << s;
    }
}

TEST(Bitboard, LeaperTables) {
  EXPECT_EQ(popcount(KNIGHT_ATTACKS[SQ_A1]), 2);
  EXPECT_EQ(popcount(KNIGHT_ATTACKS[SQ_D4]), 8);
  EXPECT_EQ(KNIGHT_ATTACKS[SQ_G1], square_bb(SQ_E2) | square_bb(SQ_F3) | square_bb(SQ_H3));
  EXPECT_EQ(popcount(KING_ATTACKS[SQ_H8]), 3);
  EXPECT_EQ(PAWN_ATTACKS[WHITE][SQ_A2], square_bb(SQ_B3));
  EXPECT_EQ(PAWN_ATTACKS[BLACK][SQ_E5], square_bb(SQ_D4) | square_bb(SQ_F4));
}

TEST(Bitboard, BetweenAndLine) {
  EXPECT_EQ(BETWEEN[SQ_A1][SQ_D4], square_bb(SQ_B2) | square_bb(SQ_C3));
  EXPECT_EQ(BETWEEN[SQ_A1][SQ_B3], 0u);
  EXPECT_EQ(BETWEEN[SQ_E1][SQ_E2], 0u);
  EXPECT_EQ(LINE[SQ_C3][SQ_E5], square_bb(SQ_A1) | square_bb(SQ_B2) | square_bb(SQ_C3) | square_bb(SQ_D4) |
                                    square_bb(SQ_E5) | square_bb(SQ_F6) | square_bb(SQ_G7) | square_bb(SQ_H8));
  EXPECT_EQ(LINE[SQ_A1][SQ_B3], 0u);
  EXPECT_TRUE(aligned(SQ_A1, SQ_H1, SQ_E1));
  EXPECT_FALSE(aligned(SQ_A1, SQ_H1, SQ_E2));
}
