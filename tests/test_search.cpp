// The search and its parts: exact mate scores, draws by stalemate, repetition and the
// 50-move rule, static exchange values, evaluation symmetry, determinism, limits, and
// the bench signature.
#include <gtest/gtest.h>

#include <chrono>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/eval.h"
#include "core/movegen.h"
#include "core/search.h"
#include "core/see.h"
#include "core/uci.h"
#include "jobs/bench/search_bench.h"

using namespace chess;

namespace {

// The bench's node count at its fixed depth. A change of the search or the evaluation
// changes it: update it in the same commit (chesshpc bench search prints it).
constexpr uint64_t BENCH_SIGNATURE = 1489681;

SearchResult search_depth(std::string_view fen, int depth, const std::vector<Key>& history = {}) {
  Search search(size_t(4) << 20);
  SearchLimits limits;
  limits.depth = depth;
  return search.run(Position::from_fen(fen), history, limits);
}

Move uci_move(std::string_view fen, std::string_view move) {
  auto m = parse_uci(Position::from_fen(fen), move);
  EXPECT_TRUE(m.has_value()) << move;
  return m.value_or(Move::none());
}

}  // namespace

TEST(Search, MateInOneScoresOnePly) {
  constexpr std::string_view fen = "6k1/5ppp/8/8/8/8/8/R6K w - - 0 1";
  SearchResult r = search_depth(fen, 4);
  EXPECT_EQ(r.best, uci_move(fen, "a1a8"));
  EXPECT_EQ(r.score, VALUE_MATE - 1);
  EXPECT_EQ(mate_in_moves(r.score), 1);
}

TEST(Search, MateInTwoScoresThreePlies) {
  // 1. Rd8+ Rxd8 2. Rxd8#
  constexpr std::string_view fen = "r5k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1";
  SearchResult r = search_depth(fen, 6);
  EXPECT_EQ(r.best, uci_move(fen, "d2d8"));
  EXPECT_EQ(r.score, VALUE_MATE - 3);
  EXPECT_EQ(mate_in_moves(r.score), 2);
}

TEST(Search, MateInThreeScoresFivePlies) {
  // The king hunt: 1... Bc5+ 2. Kxc5 Qb6+ 3. Kd5 Qd6#
  constexpr std::string_view fen = "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1";
  SearchResult r = search_depth(fen, 7);
  EXPECT_EQ(r.best, uci_move(fen, "f8c5"));
  EXPECT_EQ(r.score, VALUE_MATE - 5);
  EXPECT_EQ(mate_in_moves(r.score), 3);
}

TEST(Search, BeingMatedScoresNegative) {
  // Black's only move, Kb8, allows Rh8#.
  SearchResult r = search_depth("k7/8/1K6/8/8/8/8/7R b - - 0 1", 5);
  EXPECT_EQ(r.score, -(VALUE_MATE - 2));
  EXPECT_EQ(mate_in_moves(r.score), -1);
}

TEST(Search, CheckmatedAndStalematedRootsHaveNoMove) {
  SearchResult mated = search_depth("R5k1/5ppp/8/8/8/8/8/7K b - - 0 1", 3);
  EXPECT_TRUE(mated.best.is_none());
  EXPECT_EQ(mated.score, -VALUE_MATE);
  SearchResult stalemate = search_depth("8/8/8/8/8/6k1/5q2/7K w - - 0 1", 3);
  EXPECT_TRUE(stalemate.best.is_none());
  EXPECT_EQ(stalemate.score, VALUE_DRAW);
}

TEST(Search, StalemateInTheTreeIsADraw) {
  // White, a rook, a knight and two pawns down, plays Qb8+: whichever piece takes,
  // White's king (g1 and g2 covered, h2 blocked) has no move.
  constexpr std::string_view fen = "k1r5/pp6/1q6/8/5Q2/7p/4n2P/7K w - - 0 1";
  EXPECT_LT(evaluate(Position::from_fen(fen)), -500);
  SearchResult r = search_depth(fen, 6);
  EXPECT_EQ(r.best, uci_move(fen, "f4b8"));
  EXPECT_EQ(r.score, VALUE_DRAW);
}

TEST(Search, DeadMaterialIsADraw) {
  SearchResult r = search_depth("8/8/4k3/8/8/3NK3/8/8 w - - 0 1", 6);
  EXPECT_EQ(r.score, VALUE_DRAW);
}

TEST(Search, RepetitionWithTheGameHistoryIsADraw) {
  // Black, a queen and a rook down, can only shuffle the knight; the position after
  // Nf6 stood twice before in the game (4 and 8 plies before it), so it is a third
  // occurrence: a draw.
  constexpr std::string_view fen = "6nk/8/8/8/8/8/8/QR4K1 b - - 10 40";
  Position root = Position::from_fen(fen);
  Move nf6 = uci_move(fen, "g8f6");
  Key repeated = root.after(nf6).key();
  std::vector<Key> history = {1, 2, repeated, 3, 4, 5, repeated, 6, 7};
  SearchResult draw = search_depth(fen, 5, history);
  EXPECT_EQ(draw.best, nf6);
  EXPECT_EQ(draw.score, VALUE_DRAW);

  // Seen only once before the root: not yet a draw, and black is lost.
  std::vector<Key> once = {1, 2, 11, 3, 4, 5, repeated, 6, 7};
  SearchResult lost = search_depth(fen, 5, once);
  EXPECT_LT(lost.score, -500);
}

TEST(Search, RepetitionInsideTheTreeIsADraw) {
  // Perpetual check: White, a queen and a rook down, checks forever with Qe8+ Kh7 Qh5+
  // Kg8 (g7 cannot block on the h-file, and nothing of Black's reaches f8 or h6).
  constexpr std::string_view fen = "6k1/6p1/8/8/r7/8/q3Q1PP/7K w - - 0 1";
  SearchResult r = search_depth(fen, 9);
  EXPECT_EQ(r.best, uci_move(fen, "e2e8"));
  EXPECT_EQ(r.score, VALUE_DRAW);
}

TEST(Search, FiftyMoveRuleDrawsUnlessMate) {
  // After any white move the half-move clock reaches 100: a draw, however won.
  SearchResult won = search_depth("7k/8/8/8/8/8/8/KQ6 w - - 0 80", 4);
  EXPECT_GT(won.score, 800);
  SearchResult drawn = search_depth("7k/8/8/8/8/8/8/KQ6 w - - 99 80", 4);
  EXPECT_EQ(drawn.score, VALUE_DRAW);
  // A mate delivered with the 100th half-move stands.
  constexpr std::string_view mate = "7k/8/6K1/8/8/8/8/1Q6 w - - 99 80";
  SearchResult mates = search_depth(mate, 4);
  EXPECT_EQ(mates.best, uci_move(mate, "b1b8"));
  EXPECT_EQ(mates.score, VALUE_MATE - 1);
}

TEST(See, KnownExchanges) {
  auto see_of = [](std::string_view fen, std::string_view move) {
    return see(Position::from_fen(fen), uci_move(fen, move));
  };
  EXPECT_EQ(see_of("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 100);           // free pawn
  EXPECT_EQ(see_of("4k3/8/2p5/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 0);           // pawn for pawn
  EXPECT_EQ(see_of("4k3/8/2p5/3p4/8/4N3/8/4K3 w - - 0 1", "e3d5"), 100 - 320);   // knight for pawn
  EXPECT_EQ(see_of("4k3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"), 100);        // x-ray rook behind
  EXPECT_EQ(see_of("3rk3/3r4/8/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5"), 100 - 500);  // two defenders
  EXPECT_EQ(see_of("4k3/8/8/3p4/8/8/5N2/4K3 w - - 0 1", "f2e4"), -320);          // quiet move en prise
  EXPECT_EQ(see_of("4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1", "d1d4"), 0);              // quiet and safe
  EXPECT_EQ(see_of("8/4P3/8/8/8/8/k7/4K3 w - - 0 1", "e7e8q"), 850);             // promotion
  EXPECT_EQ(see_of("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), 100);           // en passant
  EXPECT_EQ(see_of("3qk3/8/8/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"), 100 - 950);     // queen for pawn
  EXPECT_EQ(see_of("3qk3/8/8/3p4/8/8/3R4/3QK3 w - - 0 1", "d2d5"), 100);         // queen behind the rook
  EXPECT_TRUE(see_ge(Position::from_fen("4k3/8/2p5/3p4/4P3/8/8/4K3 w - - 0 1"),
                     uci_move("4k3/8/2p5/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 0));
  EXPECT_FALSE(see_ge(Position::from_fen("4k3/8/2p5/3p4/8/4N3/8/4K3 w - - 0 1"),
                      uci_move("4k3/8/2p5/3p4/8/4N3/8/4K3 w - - 0 1", "e3d5"), 0));
}

TEST(Eval, MirroredPositionsEvaluateTheSame) {
  // The bench's positions and every position of seeded random games from them.
  std::mt19937_64 rng(12345);
  int checked = 0;
  for (std::string_view fen : chesshpc::bench_positions()) {
    Position pos = Position::from_fen(fen);
    for (int ply = 0; ply < 60; ++ply) {
      Position mirror = Position::from_fen(mirrored_fen(pos));
      ASSERT_EQ(evaluate(pos), evaluate(mirror)) << pos.fen() << " vs " << mirror.fen();
      ++checked;
      MoveList moves = legal_moves(pos);
      if (moves.empty()) break;
      pos.do_move(moves[rng() % moves.size()]);
    }
  }
  EXPECT_GT(checked, 1000);
}

TEST(Eval, PawnCacheGivesTheUncachedEvaluation) {
  // One cache over thousands of positions, so that its 2048 slots are reused by other
  // structures: a hit must never be a stale or foreign entry.
  PawnCache cache;
  std::mt19937_64 rng(777);
  int checked = 0;
  for (int round = 0; round < 3; ++round)
    for (std::string_view fen : chesshpc::bench_positions()) {
      Position pos = Position::from_fen(fen);
      for (int ply = 0; ply < 80; ++ply) {
        ASSERT_EQ(evaluate(pos, cache), evaluate(pos)) << pos.fen();
        ++checked;
        MoveList moves = legal_moves(pos);
        if (moves.empty()) break;
        pos.do_move(moves[rng() % moves.size()]);
      }
    }
  EXPECT_GT(checked, 5000);
}

TEST(Eval, TunerWeightsEvaluateAsTheDefaults) {
  // A copy of the default weights takes the tuner's path (its own table each call).
  EvalParams copy = DEFAULT_EVAL_PARAMS;
  for (std::string_view fen : chesshpc::bench_positions()) {
    Position pos = Position::from_fen(fen);
    EXPECT_EQ(evaluate(pos), evaluate(pos, copy)) << fen;
  }
}

TEST(Eval, StartPositionIsNearlyBalanced) {
  int v = evaluate(Position::start());
  EXPECT_GT(v, -50);
  EXPECT_LT(v, 50);
  // A queen up is clearly winning for either side.
  EXPECT_GT(evaluate(Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")), 600);
  EXPECT_LT(evaluate(Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1")), -600);
}

TEST(Search, SameSearchTwiceGivesTheSameResult) {
  constexpr std::string_view fen = "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2PP1N2/PP3PPP/RNBQ1RK1 w - - 1 7";
  SearchResult a = search_depth(fen, 9), b = search_depth(fen, 9);
  EXPECT_EQ(a.best, b.best);
  EXPECT_EQ(a.score, b.score);
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_EQ(a.pv, b.pv);
}

TEST(Search, ConcurrentSearchesMatchSerialOnes) {
  const std::vector<std::string_view> fens = {"r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2PP1N2/PP3PPP/RNBQ1RK1 w - - 1 7",
                                              "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"};
  std::vector<SearchResult> serial, parallel(fens.size());
  for (auto fen : fens) serial.push_back(search_depth(fen, 8));
  std::vector<std::thread> threads;
  for (size_t i = 0; i < fens.size(); ++i) threads.emplace_back([&, i] { parallel[i] = search_depth(fens[i], 8); });
  for (auto& t : threads) t.join();
  for (size_t i = 0; i < fens.size(); ++i) {
    EXPECT_EQ(serial[i].best, parallel[i].best);
    EXPECT_EQ(serial[i].score, parallel[i].score);
    EXPECT_EQ(serial[i].nodes, parallel[i].nodes);
  }
}

TEST(Search, NodeLimitIsExact) {
  for (uint64_t limit : {1ULL, 777ULL, 12345ULL}) {
    Search search(size_t(1) << 20);
    SearchLimits limits;
    limits.nodes = limit;
    SearchResult r = search.run(Position::start(), {}, limits);
    EXPECT_EQ(r.nodes, limit);
    EXPECT_TRUE(legal_moves(Position::start()).contains(r.best));
  }
}

TEST(Search, DepthLimitIsTheDepthReached) {
  SearchResult r = search_depth("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6);
  EXPECT_EQ(r.depth, 6);
  EXPECT_GE(r.seldepth, 6);
  EXPECT_FALSE(r.pv.empty());
  EXPECT_EQ(r.pv[0], r.best);
}

TEST(Search, MovetimeAndStopEndTheSearch) {
  Search search(size_t(1) << 20);
  SearchLimits timed;
  timed.movetime = 100;
  auto start = std::chrono::steady_clock::now();
  SearchResult r = search.run(Position::start(), {}, timed);
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(ms, 1000);
  EXPECT_FALSE(r.best.is_none());

  SearchLimits infinite;
  infinite.infinite = true;
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    search.stop();
  });
  start = std::chrono::steady_clock::now();
  r = search.run(Position::start(), {}, infinite);
  ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  stopper.join();
  EXPECT_LT(ms, 2000);
  EXPECT_TRUE(legal_moves(Position::start()).contains(r.best));
}

TEST(Search, ClockGivesAShareOfTheRemainingTime) {
  Search search(size_t(1) << 20);
  SearchLimits clock;
  clock.wtime = 2000;
  clock.winc = 20;
  auto start = std::chrono::steady_clock::now();
  SearchResult r = search.run(Position::start(), {}, clock);
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(ms, 1500);  // hard limit 320 ms; the rest is slack for a busy machine
  EXPECT_FALSE(r.best.is_none());
}

// An increment of 2^63 - 1 overflowed the plan (UBSan) and the search answered after one
// node; clocks are capped at 2^40 ms, so this one searches within the second it has.
TEST(Search, HugeIncrementSearchesWithinTheClock) {
  Search search(size_t(1) << 20);
  SearchLimits clock;
  clock.wtime = 1000;
  clock.winc = INT64_MAX;
  clock.btime = 1000;
  clock.binc = INT64_MAX;
  auto start = std::chrono::steady_clock::now();
  SearchResult r = search.run(Position::start(), {}, clock);
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(ms, 2500);  // hard limit 970 ms (the clock less the overhead); slack for a busy machine
  EXPECT_GE(r.depth, 4) << "answered without searching";
  EXPECT_TRUE(legal_moves(Position::start()).contains(r.best));
}

TEST(Bench, SignatureIsUnchanged) {
  chesshpc::SearchBenchResult r = chesshpc::bench_search(chesshpc::BENCH_DEPTH, 16);
  EXPECT_EQ(r.nodes, BENCH_SIGNATURE) << "the search changed: update BENCH_SIGNATURE with the bench's node count";
}
