// chesshpc verify as a user runs it: a deliberately broken engine (tests/verify_engine,
// one fault switched on) pinned to the exact position and move from depth 5, crashes and
// timeouts reported and the engine restarted, Stockfish and chesshpc itself without a
// mismatch, and the reference answers (perftree, go perft) in their tools' formats.
#include <gtest/gtest.h>

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
  EXPECT_EQ(lines_of(r.out)[1].rfind("verify: 1 positions, 69805 nodes, 1 faults, 5 engine queries, ", 0), 0u) << r.out;
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
    EXPECT_EQ(lines[1].rfind("verify: 3 positions, 9034 nodes, 1 faults, 3 engine queries", 0), 0u) << lines[1];
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
  EXPECT_EQ(shallow.out.rfind("verify: 1 positions, 20 nodes, 0 faults, ", 0), 0u) << shallow.out;
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
