// chesshpc verify as a user runs it: a deliberately broken engine (tests/verify_engine,
// one fault switched on) pinned to the exact position and move from depth 5, crashes and
// timeouts reported and the engine restarted, Stockfish and chesshpc itself without a
// mismatch, and the reference answers (perftree, go perft) in their tools' formats.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/run_command.h"

namespace {

using Result = chesshpc::testing_support::CommandResult;

Result run(const std::string& command) {
  return chesshpc::testing_support::run_command(
      command, testing::TempDir() + testing::UnitTest::GetInstance()->current_test_info()->name() + ".stderr");
}

Result verify(const std::string& args) { return run(std::string(CHESSHPC_BIN) + " verify " + args); }

// The broken engine with one fault, as --engine's value.
std::string engine(const std::string& fault) { return "'" + std::string(VERIFY_ENGINE) + " --fault " + fault + "'"; }

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

std::string write_file(const std::string& name, const std::string& text) {
  std::string path = testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

const std::string STOCKFISH = "/usr/games/stockfish";
const std::string START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const std::string SUITE = std::string(CHESSHPC_TEST_DATA) + "/perftsuite.epd";

// Three positions; the second is the only one counted at depth 3.
const std::string THREE =
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D2 66\n" + START + " ;D3 8902\n" + "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D2 66\n";

}  // namespace

// Each fault shows only four plies down: the drill-down follows the first move whose
// count differs, one query a ply, and stops where the engine's move list is wrong.
TEST(Verify, NoUnderPromotionOnCapturePinnedFromDepth5) {
  Result r =
      verify("--engine " + engine("no-underpromotion-capture") + " --fen 'r6k/8/8/1P6/8/8/8/4K3 w - - 0 1' --depth 5");
  EXPECT_EQ(r.code, 1) << r.err;
  ASSERT_EQ(lines_of(r.out).size(), 2u) << r.out;
  EXPECT_EQ(lines_of(r.out)[0],
            "mismatch at \"r7/1P6/5k2/8/8/8/8/4K3 w - - 1 3\" depth 1 (from \"r6k/8/8/1P6/8/8/8/4K3 w - - 0 1\" after "
            "b5b6 h8g7 b6b7 g7f6, i.e. 1. b6 Kg7 2. b7 Kf6): engine misses b7a8r (bxa8=R), b7a8b (bxa8=B), b7a8n "
            "(bxa8=N)");
  EXPECT_EQ(lines_of(r.out)[1].rfind("verify: 1 position, 69805 nodes, 1 fault, 5 engine queries, ", 0), 0u) << r.out;
}

TEST(Verify, NoEnPassantInCheckPinnedFromDepth5OverPerftree) {
  Result r = verify("--engine " + engine("no-ep-in-check") +
                    " --protocol perftree --fen '7k/3p4/8/4P3/8/8/4K3/8 w - - 0 1' --depth 5");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(lines_of(r.out).at(0),
            "mismatch at \"8/6k1/8/3pP3/2K5/8/8/8 w - d6 0 3\" depth 1 (from \"7k/3p4/8/4P3/8/8/4K3/8 w - - 0 1\" "
            "after e2d3 h8g7 d3c4 d7d5, i.e. 1. Kd3 Kg7 2. Kc4 d5+): engine misses e5d6 (exd6)");
}

// The same fault found the same way over both protocols, and the query count in the JSON
// (at most depth + 1 per fault: here exactly one a ply).
TEST(Verify, CastlingOutOfCheckPinnedFromDepth5BothProtocols) {
  const std::string line =
      "mismatch at \"4r3/5k2/8/8/P7/8/8/4K2R w K - 1 3\" depth 1 (from \"r5k1/8/8/8/8/8/P7/4K2R w K - 0 1\" after "
      "a2a3 g8f7 a3a4 a8e8, i.e. 1. a3 Kf7 2. a4 Re8+): engine adds illegal e1g1 (O-O)";
  for (std::string protocol : {"uci", "perftree"}) {
    Result r = verify("--engine " + engine("castle-out-of-check") + " --protocol " + protocol +
                      " --fen 'r5k1/8/8/8/8/8/P7/4K2R w K - 0 1' --depth 5");
    EXPECT_EQ(r.code, 1) << protocol << r.err;
    EXPECT_EQ(lines_of(r.out).at(0), line) << protocol;
    Result json = verify("--engine " + engine("castle-out-of-check") + " --protocol " + protocol +
                         " --fen 'r5k1/8/8/8/8/8/P7/4K2R w K - 0 1' --depth 5 --json");
    EXPECT_EQ(json.code, 1);
    EXPECT_NE(json.out.find("\"queries\": 5,"), std::string::npos) << json.out;
    EXPECT_NE(json.out.find("\"illegal\": [{\"uci\": \"e1g1\", \"san\": \"O-O\"}]"), std::string::npos) << json.out;
    EXPECT_NE(json.out.find("\"path\": [\"a2a3\",\"g8f7\",\"a3a4\",\"a8e8\"]"), std::string::npos) << json.out;
  }
}

// --moves first (SAN or UCI): the path starts with them, and the drill-down goes on from there.
TEST(Verify, MovesGivenFirstStartThePath) {
  Result r = verify("--engine " + engine("castle-out-of-check") +
                    " --fen 'r5k1/8/8/8/8/8/P7/4K2R w K - 0 1' --moves 'a3 Kf7' --depth 3");
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(
      lines_of(r.out).at(0),
      "mismatch at \"4r3/5k2/8/8/P7/8/8/4K2R w K - 1 3\" depth 1 (from \"r5k1/8/8/8/8/8/P7/4K2R w K - 0 1\" after "
      "a2a3 g8f7 a3a4 a8e8, i.e. 1. a3 Kf7 2. a4 Re8+): engine adds illegal e1g1 (O-O)");
}

// A crash and a timeout: reported with the position, the engine restarted, and the
// positions after it checked (the first and third agree).
TEST(Verify, CrashAndTimeoutReportedEngineRestartedRunGoesOn) {
  std::string epd = write_file("three.epd", THREE);
  for (std::string protocol : {"uci", "perftree"}) {
    Result crash = verify("--engine " + engine("crash-at-depth-3") + " --protocol " + protocol + " --epd " + epd);
    EXPECT_EQ(crash.code, 1) << protocol;
    std::vector<std::string> lines = lines_of(crash.out);
    ASSERT_EQ(lines.size(), 2u) << crash.out;
    EXPECT_EQ(lines[0].rfind(
                  "crash at \"" + START + "\" depth 3: engine '" + VERIFY_ENGINE + " --fault crash-at-depth-3' ", 0),
              0u)
        << lines[0];
    EXPECT_NE(lines[0].find("(restarted)"), std::string::npos) << lines[0];
    // 66 + 8902 + 66: chesshpc's counts, the crashed position's too; the others agreed.
    EXPECT_EQ(lines[1].rfind("verify: 3 positions, 9034 nodes, 1 fault, 3 engine queries", 0), 0u) << lines[1];
    EXPECT_EQ(crash.err, "") << protocol;  // chesshpc's counts are the suite's

    Result hang = verify("--engine " + engine("hang-at-depth-3") + " --protocol " + protocol + " --epd " + epd +
                         " --timeout 0.5 --json");
    EXPECT_EQ(hang.code, 1) << protocol;
    EXPECT_NE(hang.out.find("\"fault\": \"timeout\", \"fault_fen\": \"" + START + "\", \"fault_depth\": 3"),
              std::string::npos)
        << hang.out;
    EXPECT_NE(hang.out.find("did not answer in time (restarted)"), std::string::npos) << hang.out;
    EXPECT_NE(hang.out.find("\"positions\": 3, \"faults\": 1,"), std::string::npos) << hang.out;
  }
}

// A suite's count that chesshpc does not reach is no standard to judge an engine by: each
// such line is named on stderr with both counts, and the run exits 1 though the engine
// agrees with chesshpc.
TEST(Verify, SuiteCountChesshpcDoesNotReachIsReported) {
  std::string epd =
      write_file("wrong_suite.epd", START + " ;D1 20 ;D2 401\n" + "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D2 66\n");
  Result r = verify("--engine " + STOCKFISH + " --epd " + epd);
  EXPECT_EQ(r.code, 1) << r.out;
  EXPECT_EQ(r.err, "chesshpc verify: " + epd + ":1: chesshpc counts 400 at depth 2 where the file says 401\n");
  EXPECT_EQ(r.out.rfind("verify: 2 positions, 466 nodes, 0 faults, ", 0), 0u) << r.out;
  Result shallow = verify("--engine " + STOCKFISH + " --epd " + epd + " --max-depth 1");
  EXPECT_EQ(shallow.code, 0) << shallow.err;  // depth 1's 20 is right; the second line has no depth 1
  EXPECT_EQ(shallow.out.rfind("verify: 1 position, 20 nodes, 0 faults, ", 0), 0u) << shallow.out;
}

// Counts that lie while every move list is right, as a hash table's fault shows: the
// engine agrees one ply down after a wrong count. Each is caught where its counts disagree
// with each other, over both protocols (perftree's processes keep the queries answered in
// a state file, fresh for each run): the one fault line, exit 1, and the JSON's kind.
void expect_inconsistent(const std::string& fault, const std::string& args, const std::string& line,
                         const std::string& summary) {
  const std::string state = testing::TempDir() + fault + ".state";
  for (std::string protocol : {"uci", "perftree"}) {
    for (bool json : {false, true}) {
      std::filesystem::remove(state);
      Result r = verify("--engine " + engine(fault + " --state " + state) + " --protocol " + protocol + " " + args +
                        (json ? " --json" : ""));
      EXPECT_EQ(r.code, 1) << fault << " " << protocol << r.err;
      if (json) {
        EXPECT_NE(r.out.find("\"faults\": 1, "), std::string::npos) << r.out;
        EXPECT_NE(r.out.find("\"fault\": \"inconsistent\", "), std::string::npos) << r.out;
        continue;
      }
      std::vector<std::string> lines = lines_of(r.out);
      ASSERT_EQ(lines.size(), 2u) << fault << " " << protocol << r.out;
      EXPECT_EQ(lines[0], line) << fault << " " << protocol;
      EXPECT_EQ(lines[1].rfind(summary, 0), 0u) << lines[1];
    }
  }
}

const std::string KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const std::string AFTER_KD1 =
    "inconsistent counts at \"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R2K3R b kq - 1 1\" depth 2 (from \"" +
    KIWIPETE + "\" after e1d1, i.e. 1. Kd1): engine's total 1894 is not the 1895 it gave for e1d1 at depth 3";

// Kiwipete depth 3, the root's total and one move one more on the first
// answer only; the engine's total 97863 against chesshpc's 97862 is no longer "none".
TEST(Verify, LieAtTheRootOnlyCaughtOnePlyDown) {
  expect_inconsistent("lie-at-root", "--fen '" + KIWIPETE + "' --depth 3", AFTER_KD1,
                      "verify: 1 position, 97862 nodes, 1 fault, 2 engine queries, ");
  Result json = verify("--engine " + engine("lie-at-root") + " --fen '" + KIWIPETE + "' --depth 3 --json");
  EXPECT_NE(json.out.find("\"nodes\": 97862, \"engine_nodes\": 97863, "), std::string::npos) << json.out;
}

// One node moved from the second move's count to the first: the total is right.
TEST(Verify, CountsMovedBetweenMovesCaughtOnePlyDown) {
  expect_inconsistent("shift-at-root", "--fen '" + KIWIPETE + "' --depth 3", AFTER_KD1,
                      "verify: 1 position, 97862 nodes, 1 fault, 2 engine queries, ");
}

// Every subtree 2 plies deep one too many: consistent down to depth 2, caught at depth 1.
TEST(Verify, LieAtDepthKOnlyCaughtBelowIt) {
  expect_inconsistent(
      "lie-at-depth-2", "--fen '" + START + "' --depth 4",
      "inconsistent counts at \"r1bqkbnr/pppppppp/n7/8/8/N4N2/PPPPPPPP/R1BQKB1R b KQkq - 3 2\" depth 1 (from \"" +
          START +
          "\" after b1a3 b8a6 g1f3, i.e. 1. Na3 Na6 2. Nf3): engine's total 20 is not the 21 it gave for g1f3 at "
          "depth 2",
      "verify: 1 position, 197281 nodes, 1 fault, 4 engine queries, ");
}

// The suite's first and third lines are the same position: the third answer lies.
TEST(Verify, LieOnASecondQueryOfAPositionCaught) {
  expect_inconsistent("lie-on-second-query", "--epd " + write_file("three_again.epd", THREE),
                      "inconsistent counts at \"4k3/8/8/8/8/8/8/3K3R b - - 1 1\" depth 1 (from \"4k3/8/8/8/8/8/8/4K2R "
                      "w K - 0 1\" after e1d1, i.e. 1. Kd1): engine's total 5 is not the 6 it gave for e1d1 at depth 2",
                      "verify: 3 positions, 9034 nodes, 1 fault, 4 engine queries, ");
}

// True for the first query (the first line), then one lie: the second line's root.
TEST(Verify, LieAfterNQueriesCaught) {
  expect_inconsistent("lie-after-1", "--epd " + write_file("three_after.epd", THREE),
                      "inconsistent counts at \"rnbqkbnr/pppppppp/8/8/8/N7/PPPPPPPP/R1BQKBNR b KQkq - 1 1\" depth 2 "
                      "(from \"" +
                          START +
                          "\" after b1a3, i.e. 1. Na3): engine's total 400 is not the 401 it gave for b1a3 at depth 3",
                      "verify: 3 positions, 9034 nodes, 1 fault, 4 engine queries, ");
}

TEST(Verify, WrongNodesSearchedTotalReported) {
  Result r = verify("--engine " + engine("wrong-total") + " --fen '" + START + "' --depth 3");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(lines_of(r.out).at(0),
            "mismatch at \"" + START + "\" depth 3: engine's total 8903 is not its divide's sum 8902");
}

// Upper-case promotion letters and castling written as the king taking its rook are the
// engine's notation, not a fault.
TEST(Verify, EngineNotationNormalised) {
  for (std::string protocol : {"uci", "perftree"}) {
    Result r = verify("--engine " + engine("notation") + " --protocol " + protocol +
                      " --fen 'r3k2r/1P6/8/8/8/8/6p1/R3K2R w KQkq - 0 1' --depth 3");
    EXPECT_EQ(r.code, 0) << protocol << r.out << r.err;
    EXPECT_NE(r.out.find(" 0 faults, "), std::string::npos) << r.out;
  }
}

TEST(Verify, StockfishOverPerftsuiteDepth5NoMismatch) {
  Result r = verify("--engine " + STOCKFISH + " --epd " + SUITE + " --max-depth 5 --threads 2 --quiet");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.rfind("verify: 126 positions, 382938880 nodes, 0 faults, 126 engine queries", 0), 0u) << r.out;
}

TEST(Verify, Stockfish200RandomPositionsDepth4NoMismatch) {
  Result r = verify("--engine " + STOCKFISH + " --random 200 --seed 1 --depth 4 --threads 2 --quiet");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.rfind("verify: 200 positions, ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find(" 0 faults, 200 engine queries"), std::string::npos) << r.out;
  // Every trap is drawn for 20 positions; the rarest fall back to another trap.
  EXPECT_NE(r.out.find("traps: double-check "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" promotion-capture 20 promotion 20 "), std::string::npos) << r.out;
}

TEST(Verify, ChesshpcThroughUciAndPerftreeNoMismatch) {
  const std::string self = std::string("'") + CHESSHPC_BIN;
  Result suite = verify("--engine " + self + " uci' --epd " + SUITE + " --max-depth 4 --threads 2");
  EXPECT_EQ(suite.code, 0) << suite.out << suite.err;
  EXPECT_EQ(suite.out.rfind("verify: 126 positions, ", 0), 0u) << suite.out;
  EXPECT_NE(suite.out.find(" 0 faults, 126 engine queries"), std::string::npos) << suite.out;
  Result c960 = verify("--engine " + self + " uci' --random 40 --seed 9 --depth 3 --chess960");
  EXPECT_EQ(c960.code, 0) << c960.out << c960.err;
  Result tree = verify("--engine " + self + " perftree' --protocol perftree --random 20 --seed 3 --depth 3");
  EXPECT_EQ(tree.code, 0) << tree.out << tree.err;
}

// The positions written with chesshpc's counts check again as an EPD suite.
TEST(Verify, SavedEpdRepeatsTheRun) {
  std::string epd = testing::TempDir() + "saved.epd";
  std::filesystem::remove(epd);
  Result r = verify("--engine " + STOCKFISH + " --random 20 --seed 5 --depth 3 --save-epd " + epd);
  EXPECT_EQ(r.code, 0) << r.err;
  std::ifstream in(epd);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  std::vector<std::string> lines = lines_of(text);
  ASSERT_EQ(lines.size(), 20u);
  for (const std::string& l : lines) EXPECT_NE(l.find(" ;D3 "), std::string::npos) << l;
  Result again = verify("--engine " + STOCKFISH + " --epd " + epd);
  EXPECT_EQ(again.code, 0) << again.err;
  // The same positions and nodes as the run that wrote them.
  const std::string same = "verify: 20 positions, ";
  EXPECT_EQ(again.out.substr(0, again.out.find(", engine ")), r.out.substr(0, r.out.find(", engine ")));
  EXPECT_EQ(r.out.rfind(same, 0), 0u) << r.out;
}

// --save-epd obeys --out's rules, before any work (no line printed): an existing file needs
// --force, and the run's own --epd input (here named through another path: the same
// device and inode) is refused even with it. Neither file is touched.
TEST(Verify, SaveEpdExistingNeedsForceItsInputNever) {
  const std::string dir = testing::TempDir() + "save_epd/";
  std::filesystem::create_directories(dir);
  const std::string epd = write_file("save_epd/suite.epd", START + " ;D1 20 ;D2 400\n");
  const std::string kept = write_file("save_epd/kept.epd", "kept\n");
  auto bytes = [](const std::string& path) {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  Result exists = verify("--engine " + STOCKFISH + " --epd " + epd + " --save-epd " + kept);
  EXPECT_EQ(exists.code, 2);
  EXPECT_EQ(lines_of(exists.err).at(0), "chesshpc: '" + kept + "' exists: add --force to overwrite it");
  EXPECT_EQ(exists.out, "");
  EXPECT_EQ(bytes(kept), "kept\n");
  const std::string same = dir + "../save_epd/suite.epd";
  for (std::string force : {"", " --force"}) {
    Result input = verify("--engine " + STOCKFISH + " --epd " + epd + " --save-epd " + same + force);
    EXPECT_EQ(input.code, 2) << force;
    EXPECT_EQ(lines_of(input.err).at(0),
              "chesshpc: --save-epd '" + same + "' is the input '" + epd + "': write the result to another file")
        << input.err;
    EXPECT_EQ(input.out, "");
    EXPECT_EQ(bytes(epd), START + " ;D1 20 ;D2 400\n");
  }
  Result dir_out = verify("--engine " + STOCKFISH + " --epd " + epd + " --save-epd " + dir);
  EXPECT_EQ(dir_out.code, 4);
  EXPECT_EQ(dir_out.err, "chesshpc verify: cannot write '" + dir + "': it is a directory\n");
  EXPECT_EQ(dir_out.out, "");
  Result both =
      verify("--engine " + STOCKFISH + " --epd " + epd + " --save-epd " + dir + "both --out " + dir + "./both --force");
  EXPECT_EQ(both.code, 2);
  EXPECT_EQ(lines_of(both.err).at(0),
            "chesshpc: --save-epd and --out name the same file '" + dir + "both': give each its own");
  EXPECT_FALSE(std::filesystem::exists(dir + "both"));
  Result forced = verify("--engine " + STOCKFISH + " --epd " + epd + " --save-epd " + kept + " --force");
  EXPECT_EQ(forced.code, 0) << forced.err;
  EXPECT_EQ(bytes(kept), START + " ;D2 400\n");
  // As every written file (jobs/io/publish.h): a symbolic link's file is written and the
  // link kept; a fifo is refused with --force, before any work, and left as it is.
  const std::string link = dir + "link.epd";
  std::filesystem::remove(link);
  std::filesystem::create_symlink("kept.epd", link);
  Result linked = verify("--engine " + STOCKFISH + " --epd " + epd + " --save-epd " + link + " --force --max-depth 1");
  EXPECT_EQ(linked.code, 0) << linked.err;
  EXPECT_TRUE(std::filesystem::is_symlink(link));
  EXPECT_EQ(bytes(kept), START + " ;D1 20\n");
  EXPECT_FALSE(std::filesystem::exists(dir + "kept.epd.partial"));
  const std::string fifo = dir + "fifo.epd";
  std::filesystem::remove(fifo);
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  Result piped = verify("--engine " + STOCKFISH + " --epd " + epd + " --save-epd " + fifo + " --force");
  EXPECT_EQ(piped.code, 4);
  EXPECT_EQ(piped.err, "chesshpc verify: cannot write '" + fifo + "': it is a fifo, not a regular file\n");
  EXPECT_EQ(piped.out, "");
  EXPECT_TRUE(std::filesystem::is_fifo(fifo));
}

// A directory as the engine is a file problem, said as the engine that cannot start is
// (exit 3, one line), over both protocols: not a fault of an engine that never ran.
TEST(Verify, EngineThatIsADirectoryCannotStart) {
  const std::string dir = testing::TempDir() + "engine_dir";
  std::filesystem::create_directories(dir);
  for (std::string protocol : {"uci", "perftree"}) {
    Result r = verify("--engine " + dir + " --protocol " + protocol + " --fen '" + START + "' --depth 2");
    EXPECT_EQ(r.code, 3) << protocol << r.out;
    EXPECT_EQ(r.err, "chesshpc verify: cannot start engine '" + dir + "': it is a directory\n") << protocol;
    EXPECT_EQ(r.out, "") << protocol;
  }
}

TEST(Verify, EngineThatCannotStartExits3BadUsageExits2) {
  Result missing = verify("--engine '/nonexistent/engine --x' --fen '" + START + "' --depth 2");
  EXPECT_EQ(missing.code, 3);
  EXPECT_EQ(missing.err, "chesshpc verify: cannot start engine '/nonexistent/engine --x': No such file or directory\n");
  EXPECT_EQ(missing.out, "");
  Result tree = verify("--engine /nonexistent/engine --protocol perftree --fen '" + START + "' --depth 2");
  EXPECT_EQ(tree.code, 3);
  EXPECT_EQ(tree.err, "chesshpc verify: cannot start engine '/nonexistent/engine': no such executable\n");
  Result none = verify("--engine " + STOCKFISH + " --depth 2");
  EXPECT_EQ(none.code, 2);
  EXPECT_EQ(lines_of(none.err).at(0), "chesshpc: verify checks one of --fen FEN, --epd FILE or --random N");
  Result fen = verify("--engine " + STOCKFISH + " --fen 'x' --depth 2");
  EXPECT_EQ(fen.code, 3);
  Result move = verify("--engine " + STOCKFISH + " --fen '" + START + "' --moves 'e2e5' --depth 2");
  EXPECT_EQ(move.code, 3);
  EXPECT_EQ(move.err.rfind("chesshpc verify: illegal move 'e2e5' at ply 1 (position ", 0), 0u) << move.err;
}

// chesshpc perftree prints exactly what perftree reads: "move count" lines, a blank line,
// the total.
TEST(Verify, PerftreeReferenceOutputExact) {
  Result r = run(std::string(CHESSHPC_BIN) + " perftree 3 '" + START + "'");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out,
            "b1a3 400\nb1c3 440\ng1f3 440\ng1h3 400\na2a3 380\nb2b3 420\nc2c3 420\nd2d3 539\ne2e3 599\nf2f3 380\n"
            "g2g3 420\nh2h3 380\na2a4 420\nb2b4 421\nc2c4 441\nd2d4 560\ne2e4 600\nf2f4 401\ng2g4 421\nh2h4 420\n"
            "\n8902\n");
  Result after = run(std::string(CHESSHPC_BIN) + " perftree 1 '" + START + "' 'e2e4 e7e5 g1f3'");
  EXPECT_EQ(lines_of(after.out).back(), "29");
}

// chesshpc uci's `go perft` in Stockfish's format: the same lines (in another order) and
// the same "Nodes searched" ending.
TEST(Verify, UciGoPerftInStockfishFormat) {
  const std::string commands = "printf 'position startpos moves e2e4 c7c5\\ngo perft 3\\nquit\\n' | ";
  std::vector<std::string> ours = lines_of(run(commands + CHESSHPC_BIN + " uci").out);
  std::vector<std::string> theirs = lines_of(run(commands + STOCKFISH).out);
  theirs.erase(theirs.begin());  // Stockfish's greeting
  ASSERT_GE(ours.size(), 3u);
  EXPECT_EQ(std::vector<std::string>(ours.end() - 3, ours.end()),
            (std::vector<std::string>{"", "Nodes searched: 20035", ""}));
  std::sort(ours.begin(), ours.end());
  std::sort(theirs.begin(), theirs.end());
  EXPECT_EQ(ours, theirs);
}
