// The 32-byte position encoding of selfplay datasets: exact bytes for a known position,
// and pack/unpack round trips over positions from seeded random games.
#include <gtest/gtest.h>

#include "core/movegen.h"
#include "core/pack.h"
#include "core/random.h"

using namespace chess;

TEST(Pack, StartPositionBytes) {
  PackedPosition b = pack(Position::start());
  // Ranks 1, 2, 7 and 8 occupied.
  const uint8_t occupancy[8] = {0xFF, 0xFF, 0, 0, 0, 0, 0xFF, 0xFF};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(b[i], occupancy[i]) << i;
  // a1 rook (3) then b1 knight (1): low nibble first.
  EXPECT_EQ(b[8], 0x13);
  EXPECT_EQ(b[9], 0x42);   // c1 bishop, d1 queen
  EXPECT_EQ(b[10], 0x25);  // e1 king, f1 bishop
  EXPECT_EQ(b[11], 0x31);  // g1 knight, h1 rook
  EXPECT_EQ(b[12], 0x00);  // pawns
  EXPECT_EQ(b[16], 0x66);  // black pawns
  EXPECT_EQ(b[20], 0x79);  // a8 rook (9), b8 knight (7)
  EXPECT_EQ(b[24], 0x1E);  // white to move, KQkq
  EXPECT_EQ(b[25], 255);
  EXPECT_EQ(b[26] | b[27] << 8, 0);
  EXPECT_EQ(b[28] | b[29] << 8, 1);
  EXPECT_EQ(unpack(b).fen(), Position::start().fen());
}

TEST(Pack, EnPassantAndClocksSurvive) {
  Position p = Position::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 300");
  PackedPosition b = pack(p);
  EXPECT_EQ(b[25], 45);  // f6
  EXPECT_EQ(b[28] | b[29] << 8, 300);
  EXPECT_EQ(unpack(b).fen(), p.fen());
}

TEST(Pack, RoundTripsOverRandomGames) {
  Random rng(2026);
  int positions = 0;
  for (int game = 0; game < 200; ++game) {
    Position pos = Position::start();
    for (int ply = 0; ply < 150; ++ply) {
      ASSERT_EQ(unpack(pack(pos)).fen(), pos.fen());
      ++positions;
      MoveList moves = legal_moves(pos);
      if (moves.size() == 0) break;
      pos = pos.after(moves[rng.below(moves.size())]);
    }
  }
  EXPECT_GT(positions, 20000);
}

TEST(Pack, BadBytesAreRefused) {
  PackedPosition b = pack(Position::start());
  b[8] = 0xFC;  // a1 holds code 12: no such piece
  EXPECT_THROW(unpack(b), FenError);
  b = pack(Position::start());
  b[10] = 0x20;  // e1 now a white pawn: white has no king
  EXPECT_THROW(unpack(b), FenError);
}
