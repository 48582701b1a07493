// The 34-byte board code of distributed perft (core/board_code.h): exact words for the
// start position, and over every position three plies from positions with castling, en
// passant and promotions, decode(encode(p)) is p (pieces, side, rights, en passant, key)
// and two positions share a code exactly when they share a FEN without its clocks.
#include <gtest/gtest.h>

#include <array>
#include <map>
#include <string>

#include "core/board_code.h"
#include "core/game.h"
#include "core/movegen.h"

using namespace chess;

TEST(BoardCode, StartPositionWords) {
  const BoardCode c = encode(Position::start());
  // bit 0 of type + 1: pawns (1), bishops (3) and queens (5).
  EXPECT_EQ(c.q[0], 0x00FF'0000'0000'FF00ULL | 0x2C00'0000'0000'002CULL);
  // bit 1: knights (2), bishops (3) and kings (6).
  EXPECT_EQ(c.q[1], 0x7600'0000'0000'0076ULL);
  // bit 2: rooks (4), queens (5) and kings (6).
  EXPECT_EQ(c.q[2], 0x9900'0000'0000'0099ULL);
  EXPECT_EQ(c.q[3], 0xFFFF'0000'0000'0000ULL);
  EXPECT_EQ(c.state, 0x1E | 64 << 5);  // white, KQkq, no en passant
  unsigned char bytes[BoardCode::BYTES];
  c.write(bytes);
  EXPECT_EQ(BoardCode::read(bytes), c);
}

namespace {

std::string fen_without_clocks(const Position& p) {
  std::string fen = p.fen();
  return fen.substr(0, fen.rfind(' ', fen.rfind(' ') - 1));
}

void walk(const Position& p, int plies, std::map<std::string, BoardCode>& seen, size_t& checked) {
  const BoardCode c = encode(p);
  const Position back = decode(c);
  ASSERT_TRUE(same_position(back, p)) << p.fen();
  ASSERT_EQ(back.key(), p.key()) << p.fen();
  ASSERT_EQ(decode(c, false).key(), 0u);
  ASSERT_EQ(c.hash(), encode(back).hash());
  auto [it, fresh] = seen.emplace(fen_without_clocks(p), c);
  if (!fresh) {
    ASSERT_EQ(it->second, c) << p.fen();
  }
  ++checked;
  if (plies)
    for (Move m : legal_moves(p)) walk(p.after(m), plies - 1, seen, checked);
}

}  // namespace

TEST(BoardCode, RoundTripsAndIdentity) {
  const char* fens[] = {
      "startpos",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",  // Kiwipete
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",                             // en passant pins
      "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",      // promotions
      "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
  };
  for (const char* fen : fens) {
    std::map<std::string, BoardCode> seen;
    size_t checked = 0;
    walk(Position::from_fen(fen), 3, seen, checked);
    // Distinct FENs, distinct codes.
    std::map<std::array<uint64_t, 5>, std::string> fen_of;
    for (const auto& [f, c] : seen) {
      auto [it, fresh] = fen_of.emplace(std::array<uint64_t, 5>{c.q[0], c.q[1], c.q[2], c.q[3], c.state}, f);
      EXPECT_TRUE(fresh) << f << " and " << it->second << " share a code";
    }
    EXPECT_GT(checked, 300u) << fen;
  }
}
