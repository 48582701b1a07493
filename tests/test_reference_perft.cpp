// Perft of the fast core against the independent mailbox reference (tests/reference),
// plain and detailed. The reference plays every leaf move and tests legality by making
// the move, so agreement means the core's pins, check evasions and bulk counting
// reproduce the rules as the simplest reading of them gives.
#include <gtest/gtest.h>

#include <string>

#include "core/movegen.h"
#include "core/perft.h"
#include "core/uci.h"
#include "tests/reference/slow_chess.h"

using namespace chess;

namespace {

const std::string START = std::string(START_FEN);
const std::string KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const std::string ROOK_ENDGAME = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const std::string PROMOTIONS = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const std::string TALKCHESS = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
const std::string MIDDLEGAME = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

// A path of UCI moves from the root to the first position whose legal move sets differ,
// found by descending into a root move whose subtree counts disagree. Empty when the
// counts agree. Only used to explain a failure.
std::string first_difference(const Position& pos, const reference::Board& ref, int depth) {
  MoveList moves = legal_moves(pos);
  std::vector<std::string> ref_moves = reference::legal_moves_uci(ref);
  if (moves.size() != ref_moves.size() || depth <= 1)
    return "at " + pos.fen() + ": core has " + std::to_string(moves.size()) + " moves, reference " +
           std::to_string(ref_moves.size());
  for (Move m : moves) {
    Position child = pos.after(m);
    reference::Board ref_child = reference::play_uci(ref, to_uci(m));
    if (perft::count(child, depth - 1) != reference::perft(ref_child, depth - 1))
      return to_uci(m) + " " + first_difference(child, ref_child, depth - 1);
  }
  return "no single subtree differs at " + pos.fen();
}

void expect_same_counts(const std::string& fen, int max_depth) {
  Position pos = Position::from_fen(fen);
  reference::Board ref = reference::from_fen(fen);
  for (int depth = 1; depth <= max_depth; ++depth) {
    uint64_t core = perft::count(pos, depth), slow = reference::perft(ref, depth);
    EXPECT_EQ(core, slow) << fen << " depth " << depth << "; path " << first_difference(pos, ref, depth);
    if (core != slow) return;
  }
}

reference::Counters narrow(const perft::Counters& c) {
  return {uint64_t(c.nodes),      uint64_t(c.captures),      uint64_t(c.en_passant),
          uint64_t(c.castles),    uint64_t(c.promotions),    uint64_t(c.checks),
          uint64_t(c.discovered), uint64_t(c.double_checks), uint64_t(c.checkmates)};
}

void expect_same_counters(const std::string& fen, int depth) {
  reference::Counters core = narrow(perft::detailed(Position::from_fen(fen), depth));
  reference::Counters slow = reference::detailed_perft(reference::from_fen(fen), depth);
  EXPECT_EQ(reference::to_string(core), reference::to_string(slow)) << fen << " depth " << depth;
}

}  // namespace

// The reference must stand on its own: it reproduces published counts without the core.
TEST(ReferencePerft, ReproducesPublishedCounts) {
  EXPECT_EQ(reference::perft(reference::from_fen(START), 4), 197281u);
  EXPECT_EQ(reference::perft(reference::from_fen(KIWIPETE), 3), 97862u);
  EXPECT_EQ(reference::perft(reference::from_fen(ROOK_ENDGAME), 5), 674624u);
  EXPECT_EQ(reference::perft(reference::from_fen(PROMOTIONS), 4), 422333u);
  EXPECT_EQ(reference::perft(reference::from_fen(TALKCHESS), 3), 62379u);
  EXPECT_EQ(reference::perft(reference::from_fen(MIDDLEGAME), 3), 89890u);

  reference::Counters kiwipete{97862, 17102, 45, 3162, 0, 993, 0, 0, 1};
  EXPECT_EQ(reference::to_string(reference::detailed_perft(reference::from_fen(KIWIPETE), 3)),
            reference::to_string(kiwipete));
  reference::Counters start{197281, 1576, 0, 0, 0, 469, 0, 0, 8};
  EXPECT_EQ(reference::to_string(reference::detailed_perft(reference::from_fen(START), 4)),
            reference::to_string(start));
}

TEST(ReferencePerft, StartPosition) {
  expect_same_counts(START, 5);
  expect_same_counters(START, 4);
}

TEST(ReferencePerft, Kiwipete) {
  expect_same_counts(KIWIPETE, 4);
  expect_same_counters(KIWIPETE, 4);
}

TEST(ReferencePerft, RookEndgame) {
  expect_same_counts(ROOK_ENDGAME, 6);
  expect_same_counters(ROOK_ENDGAME, 5);
}

TEST(ReferencePerft, Promotions) {
  expect_same_counts(PROMOTIONS, 4);
  expect_same_counters(PROMOTIONS, 4);
}

TEST(ReferencePerft, TalkchessPosition) {
  expect_same_counts(TALKCHESS, 4);
  expect_same_counters(TALKCHESS, 3);
}

TEST(ReferencePerft, Middlegame) {
  expect_same_counts(MIDDLEGAME, 4);
  expect_same_counters(MIDDLEGAME, 3);
}

// En-passant captures that would expose the king, made legal or illegal by pins along a
// rank, a file and a diagonal, and a double push that checks and may be taken en passant.
TEST(ReferencePerft, EnPassantPins) {
  for (const char* fen : {"8/8/8/KPp4r/8/8/8/7k w - c6 0 2", "8/2p5/8/KP5r/8/8/8/7k b - - 0 1",
                          "3k4/8/8/8/3p4/8/4P3/3RK3 w - - 0 1", "7b/3p4/8/4P3/8/8/1K6/7k b - - 0 1",
                          "8/8/8/3k4/1p6/8/2P5/4K3 w - - 0 1", "8/8/3k4/8/2pP4/8/8/3K2B1 b - d3 0 1"}) {
    expect_same_counts(fen, 6);
    expect_same_counters(fen, 5);
  }
}
