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

// ---- Chess960 castling rights ---------------------------------------------------------------

namespace {

// The same position back: pieces, side, rights with their rooks, flag and FEN.
void expect_round_trip(const Position& pos) {
  Position back = unpack(pack(pos));
  EXPECT_EQ(back.fen(FenStyle::SHREDDER), pos.fen(FenStyle::SHREDDER));
  EXPECT_EQ(back.fen(), pos.fen());
  EXPECT_EQ(back.is_chess960(), pos.is_chess960()) << pos.fen();
  EXPECT_EQ(back.castling_squares(), pos.castling_squares()) << pos.fen();
  EXPECT_EQ(back.key(), pos.key()) << pos.fen();
  EXPECT_TRUE(back == pos) << pos.fen();
}

}  // namespace

// Standard chess keeps its bytes: the start position's 32, in full, as before Chess960.
TEST(Pack, StandardBytesUnchanged) {
  const PackedPosition start = {0xFF, 0xFF, 0,    0,    0,    0,    0xFF, 0xFF, 0x13, 0x42, 0x25, 0x31, 0, 0, 0, 0,
                                0x66, 0x66, 0x66, 0x66, 0x79, 0xA8, 0x8B, 0x97, 0x1E, 255,  0,    0,    1, 0, 0, 0};
  EXPECT_EQ(pack(Position::start()), start);
  PackedPosition kiwipete = pack(Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w Kq -"));
  EXPECT_EQ(kiwipete[24], 0x12);  // white to move, K and q
  EXPECT_EQ(kiwipete[30], 0);
  EXPECT_EQ(kiwipete[31], 0);
}

// All 960 starts, and the classical one as Chess960, whose bytes 30-31 name its rooks.
TEST(Pack, Chess960StartsRoundTrip) {
  for (int n = 0; n < 960; ++n) {
    SCOPED_TRACE(n);
    expect_round_trip(Position::from_fen("chess960:" + std::to_string(n)));
  }
  PackedPosition classical = pack(Position::from_fen("chess960:518"));
  EXPECT_EQ(classical[30] | classical[31] << 8, 0x8000 | 7 | 0 << 3 | 7 << 6 | 0 << 9);  // h, a, h, a
  EXPECT_EQ(unpack(classical).fen(FenStyle::SHREDDER), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
}

// Mid-game Chess960 and DFRC positions with rights partly lost (random games), and inner
// castling rooks named by file.
TEST(Pack, Chess960MidGamePositionsRoundTrip) {
  for (const char* fen : {"1r2k1r1/8/8/8/8/8/8/R2K2R1 w GAg - 0 1", "4k3/8/8/8/8/8/8/1RK2R2 w F - 3 20",
                          "rk3r2/8/8/8/8/8/8/1R2KR2 b Fq - 0 9"})
    expect_round_trip(Position::from_fen(fen, true));
  Random rng(960);
  int positions = 0, partial = 0;
  for (int game = 0; game < 120; ++game) {
    Position pos =
        Position::from_fen(game % 2 ? "chess960:" + std::to_string(rng.below(960))
                                    : "dfrc:" + std::to_string(rng.below(960)) + "," + std::to_string(rng.below(960)));
    for (int ply = 0; ply < 120; ++ply) {
      expect_round_trip(pos);
      if (::testing::Test::HasFailure()) return;
      ++positions;
      partial += pos.castling() != NO_CASTLING && pos.castling() != ALL_CASTLING;
      MoveList moves = legal_moves(pos);
      if (moves.size() == 0) break;
      pos = pos.after(moves[rng.below(moves.size())]);
    }
  }
  EXPECT_GT(positions, 10000);
  EXPECT_GT(partial, 1000);
}

// unpack_checked refuses what FEN reading (unpack's detour) refuses, in its words, and takes
// the rest: positions of random games with their side and rights byte set to each of its
// values, their en-passant byte to each square, and each occupied square's code to each of
// the 16.
TEST(Pack, CheckedUnpackRefusesWhatFenReadingRefuses) {
  Random rng(23);
  int compared = 0, refused = 0;
  auto compare = [&](const PackedPosition& b) {
    std::string fen_error, checked_error;
    try {
      unpack(b);
    } catch (const FenError& e) {
      fen_error = e.what();
    }
    try {
      unpack_checked(b.data());
    } catch (const FenError& e) {
      checked_error = e.what();
    }
    EXPECT_EQ(checked_error, fen_error) << "byte 24 " << int(b[24]) << ", byte 25 " << int(b[25]);
    ++compared, refused += !fen_error.empty();
  };
  for (int game = 0; game < 20; ++game) {
    Position pos = Position::start();
    for (int ply = 0; ply < 80; ++ply) {
      if (ply % 8 == 0) {
        const PackedPosition b = pack(pos);
        for (int v = 0; v < 32; ++v) {
          PackedPosition d = b;
          d[24] = uint8_t(v);
          compare(d);
        }
        for (int sq = 0; sq < 64; ++sq) {
          PackedPosition d = b;
          d[25] = uint8_t(sq);
          compare(d);
        }
        for (int n = 0; n < popcount(pos.pieces()); ++n)
          for (int code = 0; code < 16; ++code) {
            PackedPosition d = b;
            d[8 + n / 2] = uint8_t((d[8 + n / 2] & (n % 2 ? 0x0F : 0xF0)) | code << (4 * (n % 2)));
            compare(d);
          }
      }
      MoveList moves = legal_moves(pos);
      if (moves.size() == 0) break;
      pos = pos.after(moves[rng.below(moves.size())]);
    }
  }
  EXPECT_GT(compared, 10000);
  EXPECT_GT(refused, compared / 4);
}
