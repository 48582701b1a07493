// An external UCI engine as a player: Debian's Stockfish (installed by scripts/setup.sh)
// for real answers, and stand-ins that crash, hang or are missing for the failures.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "core/threads.h"
#include "core/uci.h"
#include "jobs/uci/engine.h"

using namespace chesshpc;

namespace {

const char* STOCKFISH = "/usr/games/stockfish";

bool legal(const std::string& fen, const std::string& move) {
  chess::Position pos = fen == "startpos" ? chess::Position::start() : chess::Position::from_fen(fen);
  return chess::parse_uci(pos, move).has_value();
}

// A stand-in that answers uci and isready, and `other` (a case of the shell's), nothing
// else: an executable script in the test's temp dir.
std::string handshake_only(const std::string& name, const std::string& other) {
  std::string path = testing::TempDir() + name;
  std::ofstream(path) << "#!/bin/sh\nwhile read -r c rest; do\n  case \"$c\" in\n    uci) echo uciok ;;\n"
                      << "    isready) echo readyok ;;\n    " << other << "\n  esac\ndone\n";
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  return path;
}

}  // namespace

TEST(UciEngine, StockfishAnswersWithALegalMove) {
  UciEngine sf(STOCKFISH, {{"Threads", "1"}, {"Hash", "16"}});
  EXPECT_NE(sf.name().find("Stockfish"), std::string::npos) << sf.name();
  UciLimits limits;
  limits.depth = 6;
  UciAnswer a = sf.go("startpos", {"e2e4", "e7e5"}, limits);
  chess::Position pos = chess::Position::start();
  for (const char* m : {"e2e4", "e7e5"}) pos = pos.after(*chess::parse_uci(pos, m));
  EXPECT_TRUE(chess::parse_uci(pos, a.bestmove).has_value()) << a.bestmove;
  EXPECT_GE(a.depth, 6);
  EXPECT_GT(a.nodes, 0);
  EXPECT_TRUE(a.score_cp.has_value());
}

TEST(UciEngine, MateScoresComeAsMateInMoves) {
  UciEngine sf(STOCKFISH);
  UciLimits limits;
  limits.depth = 4;
  const std::string fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
  UciAnswer a = sf.go(fen, {}, limits);
  EXPECT_EQ(a.bestmove, "a1a8");
  ASSERT_TRUE(a.mate_in.has_value());
  EXPECT_EQ(*a.mate_in, 1);
  EXPECT_TRUE(legal(fen, a.bestmove));
}

// Stockfish on one thread with a node limit is deterministic: the same position after a
// new game gives the same move and node count, as a reproducible dataset needs.
TEST(UciEngine, NodeLimitedSearchRepeats) {
  UciEngine sf(STOCKFISH, {{"Threads", "1"}});
  UciLimits limits;
  limits.nodes = 5000;
  sf.new_game();
  UciAnswer a = sf.go("startpos", {"d2d4"}, limits);
  sf.new_game();
  UciAnswer b = sf.go("startpos", {"d2d4"}, limits);
  EXPECT_EQ(a.bestmove, b.bestmove);
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_LE(a.nodes, 5000 + 1000);  // Stockfish checks the limit every few hundred nodes
}

TEST(UciEngine, MissingEngineIsAnError) {
  try {
    UciEngine e("/nonexistent/engine --flag");
    FAIL() << "started a missing engine";
  } catch (const UciError& e) {
    EXPECT_EQ(std::string(e.what()), "cannot start engine '/nonexistent/engine --flag': No such file or directory");
  }
}

// An engine that exits at once: "uci" meets a closed pipe or, sent before the exit, an
// output that ends; the two messages are the only answers.
TEST(UciEngine, EngineThatExitsIsAnError) {
  try {
    UciEngine e("true");
    FAIL() << "no uciok from 'true'";
  } catch (const UciExited& e) {
    const std::string what = e.what();
    EXPECT_TRUE(what == "engine 'true' exited" || what == "engine 'true' exited or stopped reading its input") << what;
  }
}

// An engine that reads "uci" and exits: the line is sent, and the output ends before uciok.
TEST(UciEngine, EngineThatExitsAfterUciIsExited) {
  const std::string path = testing::TempDir() + "uci_reads_one_line.sh";
  std::ofstream(path) << "#!/bin/sh\nread -r line\n";
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  try {
    UciEngine e(path);
    FAIL() << "no uciok from " << path;
  } catch (const UciExited& e) {
    EXPECT_EQ(std::string(e.what()), "engine '" + path + "' exited");
  }
}

TEST(UciEngine, EngineThatHangsTimesOut) {
  auto t0 = std::chrono::steady_clock::now();
  try {
    UciEngine e("sleep 30", {}, 0.3);
    FAIL() << "no uciok from 'sleep'";
  } catch (const UciTimeout& e) {
    EXPECT_STREQ(e.what(), "engine 'sleep 30' sent no uciok within 0.3 s of uci");
  }
  // The destructor kills the hung process instead of waiting for it.
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 10);
}

// `go perft` (a Stockfish extension) as the bench uses it: the count of the
// "Nodes searched" line, and the time from go to that line.
TEST(UciEngine, StockfishPerftCountsNodes) {
  UciEngine sf(STOCKFISH, {{"Threads", "1"}});
  UciPerft start = sf.perft("startpos", 4, 60);
  EXPECT_EQ(start.nodes, 197281u);
  EXPECT_GT(start.seconds, 0);
  EXPECT_EQ(sf.perft("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3, 60).nodes, 97862u);
}

TEST(UciEngine, PerftWithoutACountTimesOut) {
  // Answers the handshake, never a perft.
  std::string path = handshake_only("uci_no_perft.sh", "quit) exit 0 ;;");
  UciEngine e(path);
  try {
    e.perft("startpos", 3, 0.3);
    FAIL() << "a count from an engine that gives none";
  } catch (const UciTimeout& err) {
    EXPECT_EQ(std::string(err.what()), "engine '" + path + "' did not answer in time");
  }
}

namespace {

// The lines of `sh -c text`, read as an engine's are, until its end.
std::vector<std::string> lines_of(const std::string& text) {
  ChildProcess child({"sh", "-c", text}, "lines");
  std::vector<std::string> lines;
  const Deadline deadline = deadline_in(20);
  while (std::optional<std::string> line = child.next_line(deadline)) lines.push_back(*line);
  return lines;
}

}  // namespace

// A line of MAX_LINE_BYTES is read whole (and a last line without its end too); one byte
// more is an engine fault, so that an engine printing without end costs bounded memory.
TEST(UciEngine, LinesAreCappedAtMaxLineBytes) {
  ASSERT_EQ(MAX_LINE_BYTES, 1048576u);
  std::vector<std::string> lines = lines_of("head -c 1048576 /dev/zero | tr '\\0' x; echo; printf 'next\\r\\nlast'");
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], std::string(MAX_LINE_BYTES, 'x'));
  EXPECT_EQ(lines[1], "next");  // its CR dropped
  EXPECT_EQ(lines[2], "last");
  try {
    lines_of("head -c 1048577 /dev/zero | tr '\\0' x; echo");
    FAIL() << "a line past the cap was read";
  } catch (const UciError& e) {
    EXPECT_STREQ(e.what(), "engine 'lines' sent a line longer than 1048576 bytes");
  }
}

// A search that never ends: the bestmove's deadline is the limit's time plus the margin
// from go, the engine is marked failed (a late bestmove would answer the next go), and
// destroying it kills it at once.
TEST(UciEngine, BestmoveThatNeverComesTimesOutAndMarksTheEngineFailed) {
  std::string path = handshake_only("uci_no_bestmove.sh", "go) echo 'info depth 1' ;;");
  auto e = std::make_unique<UciEngine>(path);
  EXPECT_FALSE(e->failed());
  UciLimits limits;
  limits.movetime_ms = 100;
  try {
    e->go("startpos", {}, limits, 0.2);
    FAIL() << "a bestmove from an engine that gives none";
  } catch (const UciTimeout& err) {
    EXPECT_STREQ(err.what(), ("engine '" + path + "' sent no bestmove within 0.3 s of go").c_str());
  }
  EXPECT_TRUE(e->failed());
}

// queue_new_game's ucinewgame and isready go with the next go, before its position: the
// stand-in counts the new games it was sent and gives the count as the search's score.
// A new game lost, or sent after the search, gives a smaller count.
TEST(UciEngine, QueuedNewGameReachesTheEngineBeforeTheNextSearch) {
  std::string path = handshake_only("uci_count_new_games.sh",
                                    "ucinewgame) n=$((${n:-0} + 1)) ;;\n"
                                    "    position) : ;;\n"
                                    "    go) echo \"info depth 1 score cp ${n:-0}\"; echo 'bestmove e2e4' ;;");
  UciEngine e(path);
  UciLimits limits;
  limits.depth = 1;
  std::vector<int> scores;
  auto search = [&] {
    UciAnswer a = e.go("startpos", {}, limits);
    EXPECT_EQ(a.bestmove, "e2e4");
    scores.push_back(a.score_cp.value_or(-1));
  };
  e.queue_new_game(), search();
  e.queue_new_game(), search();
  search();
  e.new_game(), search();
  e.queue_new_game(), search();
  EXPECT_EQ(scores, (std::vector<int>{1, 2, 2, 3, 4}));
  EXPECT_FALSE(e.failed());
}

// A child started from a thread that runs on one CPU runs on that CPU, as rescore starts
// each engine on its own core; the thread that started the test is left as it was.
TEST(UciEngine, ChildOfAThreadOnOneCpuRunsOnThatCpu) {
  const std::vector<int> cpus = chess::allowed_cpus();
  if (cpus.size() < 2) GTEST_SKIP() << "one CPU: nothing to pin apart";
  std::string seen;
  std::thread([&] {
    ASSERT_TRUE(chess::run_on({cpus.back()}));
    EXPECT_EQ(chess::allowed_cpus(), std::vector<int>{cpus.back()});
    ChildProcess child({"grep", "Cpus_allowed_list", "/proc/self/status"}, "grep");
    seen = child.read_line(deadline_in(10));
  }).join();
  EXPECT_EQ(seen, "Cpus_allowed_list:\t" + std::to_string(cpus.back()));
  EXPECT_EQ(chess::allowed_cpus(), cpus);
}
