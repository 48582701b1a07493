// The chesshpc command line as a user meets it: exit codes, messages, text and JSON.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "tests/sanitizers.h"

namespace {

struct Result {
  int code;
  std::string out, err;
};

// Runs chesshpc with the given arguments (already shell-quoted as needed), after `prefix`
// (a command that runs it, such as prlimit).
Result chesshpc(const std::string& args, const std::string& prefix = "") {
  // One file per test: ctest runs the tests of this file concurrently.
  std::string err_file = testing::TempDir() + testing::UnitTest::GetInstance()->current_test_info()->name() + ".stderr";
  std::string cmd = prefix + std::string(CHESSHPC_BIN) + " " + args + " 2>" + err_file;
  Result r{};
  FILE* p = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream e(err_file);
  r.err.assign(std::istreambuf_iterator<char>(e), {});
  return r;
}

const std::string KIWIPETE = "'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'";

// Inputs that crashed: 24 queens overflowed the move list (perft counted 157,714 of
// 157,736 at depth 3), 24 pawns a side the packed bytes of a selfplay position.
const std::string QUEENS = "knQQQQQQ/pp5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/QQQQQQQK w - - 0 1";
const std::string PAWNS = "4k3/pppppppp/pppppppp/pppppppp/PPPPPPPP/PPPPPPPP/PPPPPPPP/4K3 w - - 0 1";

std::string write_file(const std::string& name, const std::string& text) {
  std::string path = testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

bool exists(const std::string& path) { return std::ifstream(path).good(); }

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A full disk, without root or a mount: files beyond `bytes` cannot grow (RLIMIT_FSIZE),
// and with SIGXFSZ ignored (which exec keeps) a write past it fails with EFBIG, "File too
// large", as it fails with ENOSPC on a full disk.
std::string file_size_limit(long bytes) {
  std::signal(SIGXFSZ, SIG_IGN);
  return "prlimit --fsize=" + std::to_string(bytes) + " ";
}

int lines(const std::string& text) { return int(std::count(text.begin(), text.end(), '\n')); }

// A fresh directory of the test's own for result files.
std::string test_dir() {
  std::string dir = testing::TempDir() + testing::UnitTest::GetInstance()->current_test_info()->name();
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir + "/";
}

}  // namespace

// The version is CMakeLists.txt's project() version, and CHANGELOG.md's newest entry.
TEST(Cli, VersionIsTheProjectVersionAndTheChangelogs) {
  Result r = chesshpc("--version");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out.rfind(std::string("chesshpc ") + CHESSHPC_PROJECT_VERSION + " (", 0), 0u) << r.out;
  EXPECT_EQ(lines(r.out), 1) << r.out;
  EXPECT_EQ(r.err, "");
  std::ifstream changelog(CHESSHPC_CHANGELOG);
  std::string line;
  while (std::getline(changelog, line) && !line.starts_with("## ")) {
  }
  EXPECT_EQ(line.rfind(std::string("## ") + CHESSHPC_PROJECT_VERSION + " ", 0), 0u) << line;
}

TEST(Cli, PerftTextReportsNodes) {
  Result r = chesshpc("perft --depth 4 --quiet");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("nodes 197281 "), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "");
}

TEST(Cli, PerftJsonHasFieldsDivideAndCounters) {
  Result r = chesshpc("perft --fen " + KIWIPETE + " --depth 2 --divide --detailed --json --threads 2");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("{\"fen\": \"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\", "
                        "\"depth\": 2, \"nodes\": 2039, \"seconds\": ",
                        0),
            0u)
      << r.out;
  for (const char* field : {"\"nps\": ", "\"threads\": 2", "\"e1g1\": 43", "\"e1c1\": 43", "\"captures\": 351",
                            "\"en_passant\": 1", "\"castles\": 91", "\"checks\": 3", "\"checkmates\": 0"})
    EXPECT_NE(r.out.find(field), std::string::npos) << field << " in " << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1);
}

TEST(Cli, DivideListsEveryRootMove) {
  Result r = chesshpc("perft --depth 2 --divide --quiet");
  ASSERT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("e2e4: 20\n"), std::string::npos);
  EXPECT_NE(r.out.find("g1f3: 20\n"), std::string::npos);
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), ':'), 20);
}

TEST(Cli, BadFenIsInputErrorNamingTheField) {
  Result r = chesshpc("perft --fen 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1' --depth 1");
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.err.find("piece placement"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("'X'"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

namespace {

// Runs chesshpc with args, which must succeed quietly with an output starting with prefix.
Result expect_output_starts(const std::string& args, const std::string& prefix) {
  Result r = chesshpc(args);
  EXPECT_EQ(r.code, 0) << args << ": " << r.err;
  EXPECT_EQ(r.out.rfind(prefix, 0), 0u) << args << ": " << r.out;
  EXPECT_EQ(r.err, "") << args;
  return r;
}

}  // namespace

// --moves: perft counts from the position after the moves (UCI or SAN), in one process and
// split into units alike (counts from Stockfish 15.1: position ... moves ..., go perft N).
TEST(Cli, PerftMovesCountsFromThePositionAfterThem) {
  for (const std::string split : {"", " --split-depth 1"})
    expect_output_starts("perft --moves e2e4 --depth 3 --quiet" + split,
                         "perft 3 of rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\nnodes 13160 in ");
  expect_output_starts(
      "perft --fen " + KIWIPETE + " --moves 'e1g1  h3g2' --depth 3 --quiet",
      "perft 3 of r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q2/PPPBBPpP/R4RK1 w kq - 0 2\nnodes 103491 in ");
  expect_output_starts("perft --moves 'e4 e5 Nf3' --depth 4 --quiet",
                       "perft 4 of rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2\nnodes 665063 in ");
  expect_output_starts("perft --moves 'e2e4 e7e5 g1f3' --depth 4 --json --quiet",
                       "{\"fen\": \"rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2\", "
                       "\"moves\": \"e2e4 e7e5 g1f3\", \"depth\": 4, \"nodes\": 665063, \"seconds\": ");
}

// A move of --moves that is unreadable, illegal or ambiguous where it is played: one line
// naming the move, its number and the position, exit 3, nothing counted; in one process and split into units alike.
TEST(Cli, PerftMovesBadMoveIsInputErrorNamingMoveAndNumber) {
  struct Case {
    std::string moves, message;
  };
  const Case cases[] = {
      {"e2e4 e7e5 e1e2x",
       "chesshpc perft: unreadable move 'e1e2x' at ply 3 (position "
       "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2)\n"},
      {"e2e4 e2e4",
       "chesshpc perft: illegal move 'e2e4' at ply 2 (position rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq "
       "- 0 1)\n"},
      {"e4 e5 Nc3 Nc6 Ne2",
       "chesshpc perft: ambiguous move 'Ne2' at ply 5 (position "
       "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 2 3)\n"},
  };
  for (const Case& c : cases)
    for (const std::string split : {"", " --split-depth 1"}) {
      Result r = chesshpc("perft --moves '" + c.moves + "' --depth 2 --quiet" + split);
      EXPECT_EQ(r.code, 3) << c.moves << split;
      EXPECT_EQ(r.err, c.message) << split;
      EXPECT_EQ(r.out, "") << c.moves << split;
    }
}

// --upto D: every depth from 1 to D with its count, then the summary of depth D; in JSON
// an "upto" array; split into units, rank 0 counts the shallower depths at the end.
TEST(Cli, PerftUptoPrintsEveryDepth) {
  Result r =
      expect_output_starts("perft --upto 4 --quiet",
                           "depth 1: 20\ndepth 2: 400\ndepth 3: 8902\ndepth 4: 197281\n"
                           "perft 4 of rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nnodes 197281 in ");
  EXPECT_EQ(lines(r.out), 6) << r.out;
  expect_output_starts("perft --moves e2e4 --upto 3 --split-depth 1 --quiet",
                       "depth 1: 20\ndepth 2: 600\ndepth 3: 13160\nperft 3 of ");
  for (const std::string units : {"", " --split-depth 1"}) {
    Result json = expect_output_starts("perft --upto 3 --json --quiet" + units, "{\"fen\": ");
    EXPECT_EQ(lines(json.out), 1) << json.out;
    std::string rest = json.out;
    for (const char* depth :
         {"\"upto\": [{\"depth\": 1, \"nodes\": 20, \"seconds\": ", "}, {\"depth\": 2, \"nodes\": 400, \"seconds\": ",
          "}, {\"depth\": 3, \"nodes\": 8902, \"seconds\": "}) {
      size_t at = rest.find(depth);
      ASSERT_NE(at, std::string::npos) << depth << " in " << json.out;
      rest = rest.substr(at);
    }
    EXPECT_EQ(json.out.find("{\"depth\": 4"), std::string::npos) << json.out;
  }
}

// Chess960: numbered starts, castling written king-takes-rook in the divide,
// FENs printed as read or in the style asked for, and castling fields that cannot be.
TEST(Cli, PerftChess960StartByNumberWithDivide) {
  Result r = chesshpc("perft --fen chess960:0 --depth 3 --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')), "perft 3 of bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
  EXPECT_NE(r.out.find("nodes 9006 in"), std::string::npos) << r.out;
  r = chesshpc("perft --fen '4k3/8/8/8/8/8/8/4K1R1 w K - 0 1' --depth 1 --divide --quiet --fen-style shredder");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("e1g1: 1\n"), std::string::npos) << r.out;  // the castling: king takes rook on g1
  EXPECT_NE(r.out.find("perft 1 of 4k3/8/8/8/8/8/8/4K1R1 w G - 0 1\n"), std::string::npos) << r.out;
  r = chesshpc("perft --fen dfrc:518,0 --depth 2 --divide --quiet --fen-style xfen");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("perft 2 of bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"), std::string::npos);
  EXPECT_NE(r.out.find("nodes 400 in"), std::string::npos) << r.out;
}

TEST(Cli, PerftShredderFenIsPrintedAsRead) {
  Result r = chesshpc("perft --fen 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1' --depth 2 --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("perft 2 of rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1\n"), std::string::npos);
  EXPECT_EQ(chesshpc("perft --depth 1 --fen-style fischer").code, 2);
}

TEST(Cli, BadChess960CastlingIsInputErrorNamingTheField) {
  for (const char* fen :
       {"4k3/8/8/8/8/8/8/4K2R w B - 0 1", "4k3/8/8/8/8/8/8/4K1RR w HG - 0 1", "4k3/8/8/8/8/8/4K3/R6R w K - 0 1"}) {
    Result r = chesshpc(std::string("perft --fen '") + fen + "' --depth 1");
    EXPECT_EQ(r.code, 3) << fen;
    EXPECT_NE(r.err.find("chesshpc perft: bad FEN: castling: "), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  Result r = chesshpc("perft --fen chess960:960 --depth 1");
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.err.find("a Chess960 start position is a number from 0 to 959"), std::string::npos) << r.err;
}

TEST(Cli, ImpossibleMaterialIsBadInputForPerftAndRules) {
  Result perft = chesshpc("perft --fen '" + QUEENS + "' --depth 3");
  EXPECT_EQ(perft.code, 3);
  EXPECT_EQ(perft.err, "chesshpc perft: bad FEN: piece placement: white has 25 pieces and pawns, more than 16\n");
  EXPECT_EQ(perft.out, "");
  Result rules = chesshpc("rules --fen '" + QUEENS + "' --moves h2b8");
  EXPECT_EQ(rules.code, 3);
  EXPECT_EQ(rules.err, "chesshpc rules: bad FEN: piece placement: white has 25 pieces and pawns, more than 16\n");
  EXPECT_EQ(rules.out, "");
  Result pawns = chesshpc("perft --fen '" + PAWNS + "' --depth 1");
  EXPECT_EQ(pawns.code, 3);
  EXPECT_EQ(pawns.err, "chesshpc perft: bad FEN: piece placement: white has 24 pawns, more than 8\n");
}

// A book line of impossible material exited 0 with corrupted /positions rows: now the
// book is refused before any game, naming its line, and no file or part is written.
TEST(Cli, SelfplayBookOfImpossibleMaterialIsBadInput) {
  std::string book = write_file("pawns.epd", "# 24 pawns a side\n" + PAWNS + "\n");
  std::string out = testing::TempDir() + "pawns.h5";
  Result r = chesshpc("selfplay --games 2 --nodes 50 --book " + book + " --out " + out + " --quiet");
  EXPECT_EQ(r.code, 3);
  EXPECT_EQ(r.err, "chesshpc selfplay: " + book + ":2: bad FEN: piece placement: white has 24 pawns, more than 8\n");
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(exists(out));
  EXPECT_FALSE(exists(out + ".parts/part-000000.h5"));
}

TEST(Cli, BadOptionsAreUsageErrors) {
  Result unknown = chesshpc("perft --depht 3");
  EXPECT_EQ(unknown.code, 2);
  EXPECT_NE(unknown.err.find("unknown option --depht"), std::string::npos) << unknown.err;

  Result no_depth = chesshpc("perft");
  EXPECT_EQ(no_depth.code, 2);
  EXPECT_NE(no_depth.err.find("--depth"), std::string::npos);

  Result bad_depth = chesshpc("perft --depth x");
  EXPECT_EQ(bad_depth.code, 2);
  EXPECT_NE(bad_depth.err.find("--depth must be a whole number"), std::string::npos) << bad_depth.err;

  Result zero_threads = chesshpc("perft --depth 2 --threads 0");
  EXPECT_EQ(zero_threads.code, 2);

  Result missing_value = chesshpc("perft --depth");
  EXPECT_EQ(missing_value.code, 2);
  EXPECT_NE(missing_value.err.find("needs a value"), std::string::npos);

  Result command = chesshpc("perfect");
  EXPECT_EQ(command.code, 2);
  EXPECT_NE(command.err.find("unknown command 'perfect'"), std::string::npos);
}

TEST(Cli, EpdSuitePassesAndReportsMismatchesAndBadLines) {
  std::string dir = testing::TempDir();
  {
    std::ofstream f(dir + "good.epd");
    f << "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;D1 20 ;D2 400 ;D3 8902\r\n"
      << "4k3/8/8/8/8/8/8/4K2R w K - ;D1 15 ;D2 66\r\n";
  }
  Result good = chesshpc("perft --epd " + dir + "good.epd --quiet");
  EXPECT_EQ(good.code, 0) << good.err;
  EXPECT_NE(good.out.find("2 positions, 5 counts checked, 0 mismatches, 0 unreadable lines"), std::string::npos)
      << good.out;

  {
    std::ofstream f(dir + "bad.epd");
    f << "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;D1 20 ;D2 401\n"
      << "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - ;D1 20\n"
      << "4k3/8/8/8/8/8/8/4K2R w K - ;D1 15 ;D2 66\n";
  }
  Result bad = chesshpc("perft --epd " + dir + "bad.epd --quiet");
  EXPECT_EQ(bad.code, 1);
  EXPECT_NE(bad.err.find(":1 depth 2: expected 401, got 400"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find(":2: unreadable line"), std::string::npos) << bad.err;
  EXPECT_NE(bad.out.find("2 positions, 4 counts checked, 1 mismatch, 1 unreadable line"), std::string::npos) << bad.out;

  Result json = chesshpc("perft --epd " + dir + "bad.epd --json --max-depth 1 --quiet");
  EXPECT_EQ(json.code, 1);
  EXPECT_NE(json.out.find("{\"line\": 1, \"fen\": \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\", "
                          "\"depth\": 1, \"expected\": 20, \"nodes\": 20, \"seconds\": "),
            std::string::npos)
      << json.out;
  EXPECT_NE(json.out.find("\"ok\": true}"), std::string::npos);
  EXPECT_NE(json.out.find("{\"line\": 2, \"error\": "), std::string::npos);
  EXPECT_EQ(std::count(json.out.begin(), json.out.end(), '\n'), 3);  // 2 checks at depth 1, 1 bad line
}

TEST(Cli, UnreadableEpdFileIsIoError) {
  Result r = chesshpc("perft --epd /nonexistent/suite.epd");
  EXPECT_EQ(r.code, 4);
  EXPECT_NE(r.err.find("cannot read EPD file '/nonexistent/suite.epd'"), std::string::npos);
}

TEST(Cli, ProgressOnStderrUnlessQuiet) {
  Result shown = chesshpc("perft --depth 6 --threads 1 --progress 0.02");
  ASSERT_EQ(shown.code, 0);
  EXPECT_NE(shown.err.find("perft: "), std::string::npos) << shown.err;
  EXPECT_NE(shown.err.find(" units, "), std::string::npos) << shown.err;
  EXPECT_NE(shown.err.find(" Mnps, elapsed "), std::string::npos) << shown.err;
  EXPECT_NE(shown.err.find(", ETA "), std::string::npos) << shown.err;
  EXPECT_EQ(shown.out.find("perft: "), std::string::npos) << "progress must not reach stdout";

  Result quiet = chesshpc("perft --depth 6 --threads 1 --progress 0.02 --quiet");
  ASSERT_EQ(quiet.code, 0);
  EXPECT_EQ(quiet.err, "");

  Result bad = chesshpc("perft --depth 2 --progress soon");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--progress must be a number"), std::string::npos) << bad.err;
}

TEST(Cli, RulesJsonForFoolsMate) {
  Result r = chesshpc("rules --moves 'f2f3 e7e5 g2g4 Qh4#' --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out,
            "{\"termination\": \"checkmate\", \"result\": \"0-1\", \"plies\": 4, \"perpetual_check\": false, "
            "\"first_fire\": {\"checkmate\": 4, \"stalemate\": null, \"insufficient_material\": null, "
            "\"threefold_repetition\": null, \"fivefold_repetition\": null, \"fifty_moves\": null, "
            "\"seventy_five_moves\": null, \"site_thirty_moves\": null, \"site_ten_checks\": null, "
            "\"site_thirty_checks\": null}}\n");
}

TEST(Cli, RulesStopsAtTheFirstEndingPosition) {
  const std::string shuffle = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6";
  Result fide = chesshpc("rules --moves '" + shuffle + "' --json");
  ASSERT_EQ(fide.code, 0) << fide.err;
  EXPECT_NE(fide.out.find("\"termination\": \"threefold_repetition\", \"result\": \"1/2-1/2\", \"plies\": 8"),
            std::string::npos)
      << fide.out;
  EXPECT_NE(fide.err.find("2 further move(s) not played"), std::string::npos) << fide.err;

  Result site = chesshpc("rules --ruleset site --moves '" + shuffle + "' --json");
  ASSERT_EQ(site.code, 0) << site.err;
  EXPECT_NE(site.out.find("\"termination\": null, \"result\": \"*\", \"plies\": 10"), std::string::npos) << site.out;
  EXPECT_NE(site.out.find("\"threefold_repetition\": 8"), std::string::npos) << site.out;
}

TEST(Cli, RulesIllegalMoveNamesMoveAndPly) {
  Result r = chesshpc("rules --moves 'e2e4 e7e5 e4e5'");
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.err.find("illegal move 'e4e5' at ply 3"), std::string::npos) << r.err;
  Result bad = chesshpc("rules --moves e2e4 --ruleset lichess");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--ruleset must be fide or site"), std::string::npos) << bad.err;
}

TEST(Cli, HashedAndVerificationRunsAgree) {
  Result plain = chesshpc("perft --depth 5 --json --quiet");
  Result hashed = chesshpc("perft --depth 5 --hash 16M --json --quiet");
  Result verify = chesshpc("perft --depth 5 --hash 16M --verify-keys --json --quiet");
  for (const Result* r : {&plain, &hashed, &verify}) {
    ASSERT_EQ(r->code, 0) << r->err;
    EXPECT_NE(r->out.find("\"nodes\": 4865609,"), std::string::npos) << r->out;
  }
  // perft(5) stores at most 9,324 subtrees: one 2 MB page holds them (16 MB were asked).
  EXPECT_NE(hashed.out.find("\"hash_bytes\": 2097152"), std::string::npos) << hashed.out;
  EXPECT_NE(hashed.out.find("\"zobrist_seed\": 2246800662264969608"), std::string::npos) << hashed.out;
  EXPECT_NE(verify.out.find("\"zobrist_seed\": 7822362180758744021"), std::string::npos) << verify.out;
  // Where the time went beside the counting: the table's making, the CPU time counting.
  for (const char* field : {", \"setup_seconds\": ", ", \"user_seconds\": ", ", \"system_seconds\": "})
    EXPECT_NE(hashed.out.find(field), std::string::npos) << field << hashed.out;

  Result bad = chesshpc("perft --depth 2 --hash lots");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--hash takes a size"), std::string::npos);
}

// ---- bench ----------------------------------------------------------------------------

TEST(Cli, BenchUnusableStockfishIsInputError) {
  std::string out = testing::TempDir() + "bench_stockfish.h5";
  Result r = chesshpc("bench --suite quick --stockfish /nonexistent --out " + out);
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.err.find("chesshpc bench: cannot use Stockfish: '/nonexistent' is not an executable file"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(std::ifstream(out)) << "no result file without a run";
  EXPECT_FALSE(std::ifstream(out + ".partial"));
}

TEST(Cli, BenchUnwritableOutIsIoErrorBeforeMeasuring) {
  Result r = chesshpc("bench --suite quick --stockfish none --out /nonexistent/dir/bench.h5 --progress 0.01");
  EXPECT_EQ(r.code, 4);
  EXPECT_EQ(r.err,
            "chesshpc bench: cannot write '/nonexistent/dir/bench.h5': there is no directory '/nonexistent/dir'\n");
  EXPECT_EQ(r.out, "");
}

TEST(Cli, BenchBadOptionsAreUsageErrors) {
  Result suite = chesshpc("bench --suite fast");
  EXPECT_EQ(suite.code, 2);
  EXPECT_NE(suite.err.find("--suite must be standard, quick, perft or perft-quick, not 'fast'"), std::string::npos)
      << suite.err;
  Result repeats = chesshpc("bench --repeats 0");
  EXPECT_EQ(repeats.code, 2);
  EXPECT_NE(repeats.err.find("--repeats must be a whole number from 1"), std::string::npos) << repeats.err;
  Result kind = chesshpc("bench searches");
  EXPECT_EQ(kind.code, 2);
  EXPECT_NE(kind.err.find("suite (the default) or search, not 'searches'"), std::string::npos) << kind.err;
  Result mixed = chesshpc("bench search --suite quick");
  EXPECT_EQ(mixed.code, 2);
  EXPECT_NE(mixed.err.find("unknown option --suite for 'bench search'"), std::string::npos) << mixed.err;
}

TEST(Cli, BenchSearchKeepsItsOptions) {
  Result r = chesshpc("bench search --depth 3 --hash 4 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("{\"positions\": 40, \"depth\": 3, \"hash_mb\": 4, \"nodes\": ", 0), 0u) << r.out;
  Result option_first = chesshpc("bench --depth 3 search");
  ASSERT_EQ(option_first.code, 0) << option_first.err;
  EXPECT_NE(option_first.out.find("bench search: 40 positions, depth 3"), std::string::npos) << option_first.out;
}

TEST(Cli, BenchQuickPrintsTheSummaryTable) {
  Result r = chesshpc("bench --suite quick --repeats 1 --threads 1 --stockfish none --quiet --out " + test_dir() +
                      "bench_quick.h5");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("bench quick (suite version 2): 1 thread, 1 rank, 1 repeat on ", 0), 0u) << r.out;
  for (const char* row : {"\nperft            start         4       1     1        197281 ",
                          "\nperft            chess960      4       1     1        201143 ",
                          "\nhashed_perft     start         5       1     1       4865609 ",
                          "\ncluster_perft    start         5       1     1       4865609 ",
                          "\nStockfish: none (--stockfish PATH to compare)\n", " 15 measurements in "})
    EXPECT_NE(r.out.find(row), std::string::npos) << row << " in " << r.out;
  EXPECT_EQ(r.err, "");
}

// --memory bounds a deduplicated run: a plan that cannot fit is refused before any work,
// with what it needs; auto takes the deepest dedup ply that fits with a table below it,
// here D - 3.
TEST(Cli, DedupMemoryPlanIsRefusedOrChosenBeforeAnyWork) {
  Result refused = chesshpc("perft --depth 8 --dedup-ply 6 --memory 500M --threads 1");
  EXPECT_EQ(refused.code, 2);
  EXPECT_EQ(refused.out, "");
  EXPECT_NE(refused.err.find("chesshpc perft: the plan needs about "), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("positions at ply 6), over --memory 500 MB"), std::string::npos) << refused.err;
  EXPECT_EQ(refused.err.find("ply 3:"), std::string::npos) << "routing started: " << refused.err;

  Result chosen = chesshpc("perft --depth 6 --dedup-ply auto --memory 64M --threads 1 --json");
  ASSERT_EQ(chosen.code, 0) << chosen.err;
  EXPECT_NE(chosen.out.find("\"nodes\": 119060324,"), std::string::npos) << chosen.out;
  EXPECT_NE(chosen.out.find("\"dedup_ply\": 3, \"unique_positions\": 5362,"), std::string::npos) << chosen.out;
  EXPECT_NE(chosen.err.find("chesshpc perft: plan: depth 6, dedup ply 3: levels 3 to 3"), std::string::npos)
      << chosen.err;

  // The table grows with the positions a rank counts (32 bytes each, at least 16 MB), up to
  // what the positions leave: 5,362 positions of ply 3 get the least, not the 1 GB left.
  Result capped = chesshpc("perft --depth 6 --dedup-ply 3 --memory 1G --threads 1 --json");
  ASSERT_EQ(capped.code, 0) << capped.err;
  EXPECT_NE(capped.out.find("\"hash_bytes\": 16777216,"), std::string::npos) << capped.out;
  EXPECT_NE(capped.err.find(", table 16 MB per rank (--memory 1024 MB);"), std::string::npos) << capped.err;

  for (const char* bad : {"perft --depth 6 --dedup-ply auto", "perft --depth 6 --memory 1G",
                          "perft --depth 6 --dedup-ply 4 --memory lots"}) {
    Result r = chesshpc(bad);
    EXPECT_EQ(r.code, 2) << bad;
  }
}

// ---- A full disk -------------------------------------------------------------------------

// Every writer whose first write fails: one line naming the file and the cause, exit 4, and
// no file left behind (HDF5 printed its error stack and the process died in HDF5's exit
// clean-up with SIGSEGV).
TEST(Cli, FullDiskAtTheFirstWriteIsOneLineAndExitFour) {
  const std::string dir = test_dir(), limit = file_size_limit(4096);
  const std::string pgn = write_file("full_disk.pgn", "[Event \"x\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n");
  struct Writer {
    const char* command;
    std::string args, written;  // the file whose partial fails
  };
  const Writer writers[] = {
      {"perft", "perft --depth 4 --split-depth 2 --out " + dir + "p.h5", dir + "p.h5"},
      {"perft", "perft --depth 4 --dedup-ply 3 --split-depth 2 --out " + dir + "d.h5", dir + "d.h5"},
      {"selfplay", "selfplay --games 2 --nodes 50 --out " + dir + "s.h5", dir + "s.h5.parts/part-000000.h5"},
      {"drawstats", "drawstats " + pgn + " --out " + dir + "w.h5", dir + "w.h5"},
  };
  for (const Writer& w : writers) {
    Result r = chesshpc(w.args + " --quiet", limit);
    SCOPED_TRACE(w.args);
    EXPECT_EQ(r.code, 4);
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_EQ(r.err.rfind(std::string("chesshpc ") + w.command + ": cannot ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(" '" + w.written + ".partial': File too large\n"), std::string::npos) << r.err;
    EXPECT_FALSE(exists(w.written)) << "a file after a failed write";
    EXPECT_FALSE(exists(w.written + ".partial")) << "the partial file of a failed write";
  }
  EXPECT_FALSE(std::filesystem::exists(dir + "s.h5.parts")) << "an empty parts directory passes for a batch";
  // drawstats still printed what it computed.
  Result stats = chesshpc("drawstats " + pgn + " --out " + dir + "w.h5 --quiet", limit);
  EXPECT_NE(stats.out.find(pgn + ": 1 game replayed, 0 skipped"), std::string::npos) << stats.out;
}

// The disk fills after the first write: the total is still printed, then one line saying
// that the file keeps its last checkpoint; exit 4; --resume from that file gives the total.
// (The first file of 72,078 undone units takes 6.05 MB, the complete one 6.3 MB.)
TEST(Cli, PerftDiskFullAtTheLastWritePrintsTheTotalAndKeepsTheCheckpoint) {
  const std::string out = test_dir() + "p.h5", run = "perft --depth 6 --split-depth 4 --threads 1 --quiet --out " + out;
  Result r = chesshpc(run, file_size_limit(6'150'000));
  EXPECT_EQ(r.code, 4);
  EXPECT_NE(r.out.find("nodes 119060324 in "), std::string::npos) << r.out;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_EQ(r.err.rfind("chesshpc perft: cannot ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(" '" + out + ".partial': File too large; '" + out +
                       "' keeps the last checkpoint (--resume continues from it)\n"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(exists(out + ".partial"));
  Result resumed = chesshpc(run + " --resume");
  EXPECT_EQ(resumed.code, 0) << resumed.err;
  EXPECT_NE(resumed.out.find("nodes 119060324 in "), std::string::npos) << resumed.out;
}

// A selfplay dataset that cannot be written: the summary, one line, exit 4; the parts
// stay, and --resume writes the dataset with every game. (An empty part takes 40 KB, six
// games about 200 KB.)
TEST(Cli, SelfplayDiskFullAtTheEndKeepsThePartsForResume) {
  const std::string out = test_dir() + "s.h5", run = "selfplay --games 6 --nodes 200 --threads 1 --quiet --out " + out;
  Result r = chesshpc(run, file_size_limit(60'000));
  EXPECT_EQ(r.code, 4);
  EXPECT_EQ(r.out.rfind("selfplay: 6 games (0 resumed), ", 0), 0u) << r.out;
  const std::string last = r.err.substr(r.err.rfind('\n', r.err.size() - 2) + 1);
  EXPECT_EQ(last.rfind("chesshpc selfplay: cannot ", 0), 0u) << r.err;
  EXPECT_NE(last.find(" '" + out + ".partial': File too large; the games written so far stay in '" + out +
                      ".parts' (--resume plays the others and writes the file)\n"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(exists(out));
  EXPECT_TRUE(exists(out + ".parts/part-000000.h5"));
  Result resumed = chesshpc(run + " --resume");
  EXPECT_EQ(resumed.code, 0) << resumed.err;
  EXPECT_EQ(resumed.out.rfind("selfplay: 6 games (", 0), 0u) << resumed.out;
  EXPECT_TRUE(exists(out));
  EXPECT_FALSE(std::filesystem::exists(out + ".parts"));
}

// A part that HDF5 cannot read (a copy cut short, a crash of the machine) is set
// aside with a line, and --resume plays its games again: the dataset is that of a run
// never stopped (its export, the Date tag aside), with no part left behind.
TEST(Cli, SelfplayResumeRedoesThePartsItCannotRead) {
  const std::string dir = test_dir(), args = " --games 6 --nodes 200 --threads 1 --quiet";
  Result ref = chesshpc("selfplay" + args + " --out " + dir + "ref.h5");
  ASSERT_EQ(ref.code, 0) << ref.err;
  const std::string out = dir + "s.h5", parts = out + ".parts/";
  std::filesystem::create_directories(parts);
  const std::string whole = read_all(dir + "ref.h5");
  std::ofstream(parts + "part-000000.h5", std::ios::binary) << whole.substr(0, whole.size() / 2);
  std::ofstream(parts + "part-000001.h5", std::ios::binary) << "not HDF5 at all\n";
  Result r = chesshpc("selfplay" + args + " --json --out " + out + " --resume");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.err, "chesshpc selfplay: cannot open '" + parts + "part-000000.h5' as an HDF5 file: set aside as " +
                       "'part-000000.h5.unreadable', its games are played again\nchesshpc selfplay: cannot open '" +
                       parts + "part-000001.h5' as an HDF5 file: set aside as 'part-000001.h5.unreadable', its " +
                       "games are played again\n");
  EXPECT_NE(r.out.find("\"games\": 6, \"games_resumed\": 0, \"games_played\": 6,"), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(out + ".parts"));
  // The games as played: without the date, the games' durations and each move's time (the
  // same width here, every move well under 10 s, so the lines wrap alike).
  auto without_date = [](const std::string& pgn) {
    static const std::regex clock(R"(\[(Date|GameDuration) [^\n]*\n| [0-9]+\.[0-9]{3}s)");
    return std::regex_replace(pgn, clock, "");
  };
  Result a = chesshpc("export --pgn " + dir + "ref.h5"), b = chesshpc("export --pgn " + out);
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(lines(a.out), lines(b.out));
  EXPECT_EQ(without_date(b.out), without_date(a.out));
}

// bench measures, then cannot write: the table is printed with "no file written", exit 4.
TEST(Cli, BenchDiskFullAtTheEndPrintsTheMeasurements) {
  const std::string out = test_dir() + "b.h5";
  Result r = chesshpc("bench --suite quick --repeats 1 --threads 1 --stockfish none --quiet --out " + out,
                      file_size_limit(4096));
  EXPECT_EQ(r.code, 4);
  EXPECT_NE(r.out.find("\nno file written: 15 measurements in "), std::string::npos) << r.out;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(" '" + out + ".partial': File too large\n"), std::string::npos) << r.err;
  EXPECT_FALSE(exists(out));
  EXPECT_FALSE(exists(out + ".partial"));
}

// ---- export of a --dedup dataset ----------------------------------------------------------

// --dedup keeps a position's first row only, so every game after the first lacks rows (its
// start position at least): the export took the moves from /positions and failed ("game 2
// ply 1: illegal move"). It takes them from /games/moves; the PGN replays in drawstats with
// every game and every ply.
TEST(Cli, ExportOfADedupDatasetHasEveryMove) {
  const std::string dir = test_dir(), h5 = dir + "dedup.h5", pgn = dir + "dedup.pgn";
  Result play = chesshpc(
      "selfplay --games 4 --nodes 100 --random-plies 2 --seed 3 --threads 1 --dedup --quiet --json --out " + h5);
  ASSERT_EQ(play.code, 0) << play.err;
  EXPECT_NE(play.out.find("\"duplicates_dropped\": "), std::string::npos) << play.out;
  EXPECT_EQ(play.out.find("\"duplicates_dropped\": 0,"), std::string::npos) << "nothing to drop: " << play.out;
  Result exported = chesshpc("export --pgn " + h5);
  ASSERT_EQ(exported.code, 0) << exported.err;
  EXPECT_EQ(exported.err, "");
  std::ofstream(pgn) << exported.out;
  int games = 0, plies = 0;
  for (size_t at = 0; (at = exported.out.find("[PlyCount \"", at)) != std::string::npos; ++games)
    plies += std::stoi(exported.out.substr(at += 11));
  EXPECT_EQ(games, 4);
  Result replay = chesshpc("drawstats " + pgn + " --json --quiet");
  ASSERT_EQ(replay.code, 0) << replay.err;
  EXPECT_NE(replay.out.find("\"games\": 4, \"skipped\": 0, \"plies\": " + std::to_string(plies) + ","),
            std::string::npos)
      << replay.out;
}

// ---- selfplay --games beyond the cap -------------------------------------------------------

TEST(Cli, SelfplayGamesBeyondTheCapIsUsageErrorAtOnce) {
  const std::string out = test_dir() + "many.h5";
  Result r = chesshpc("selfplay --games 2147483648 --nodes 10 --out " + out);
  EXPECT_EQ(r.code, 2);
  // The usage error's line, then the usage every usage error prints.
  EXPECT_EQ(r.err.substr(0, r.err.find('\n') + 1),
            "chesshpc: --games must be at most 10000000 (rank 0 keeps every game of a batch in memory); play more "
            "as several batches with other --seed\n");
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(std::filesystem::exists(out + ".parts"));
}

// Below the dedup ply the owners' tables key positions by Zobrist keys: either key set
// gives the published count, and the file says which set counted.
TEST(Cli, DedupWithTableAgreesUnderBothKeySets) {
  for (const char* keys : {"", " --verify-keys"}) {
    Result r = chesshpc("perft --fen " + KIWIPETE + " --depth 5 --dedup-ply 2 --hash 16M --threads 1 --json" + keys);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("\"nodes\": 193690690,"), std::string::npos) << keys << ": " << r.out;
    EXPECT_NE(r.out.find("\"dedup_ply\": 2,"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"hash_bytes\": 16777216,"), std::string::npos) << r.out;
  }
}

// ---- Sizes, inputs and outputs checked before any work -----------------------------------

// What a usage error prints: its line, then where the command's options are listed.
std::string usage_error(const std::string& line, const std::string& command) {
  return "chesshpc: " + line + "\nsee 'chesshpc " + command + " --help'\n";
}

// --hash 100T reported "std::bad_alloc" with exit 1 (a result mismatch): every memory size
// beyond the machine's memory is now a usage error before any work.
TEST(Cli, MemorySizeBeyondTheMachineIsUsageErrorBeforeAnyWork) {
  const std::string dir = test_dir(),
                    mb = std::to_string(uint64_t(sysconf(_SC_PHYS_PAGES)) * uint64_t(sysconf(_SC_PAGE_SIZE)) >> 20);
  struct Case {
    std::string args, command, line;
  };
  const Case cases[] = {
      {"perft --depth 7 --hash 100T", "perft", "--hash 100T is more than this machine's memory (" + mb + " MB)"},
      {"perft --depth 7 --dedup-ply 5 --memory 100T --out " + dir + "d.h5", "perft",
       "--memory 100T is more than this machine's memory (" + mb + " MB)"},
      {"selfplay --games 2 --nodes 10 --hash 100T --out " + dir + "s.h5", "selfplay",
       "--hash 100T is more than this machine's memory (" + mb + " MB)"},
  };
  for (const Case& c : cases) {
    Result r = chesshpc(c.args);
    SCOPED_TRACE(c.args);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err, usage_error(c.line, c.command));
    EXPECT_EQ(r.out, "");
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir)) << "a file before any work";
}

// Memory that runs out anyway (here an address-space limit below the table) is one line
// and exit 2, not "chesshpc: error: std::bad_alloc" and exit 1.
TEST(Cli, OutOfMemoryIsOneLineAndExitTwo) {
  SKIP_UNDER_ASAN_WITH_ADDRESS_LIMIT();
  Result r = chesshpc("perft --depth 8 --hash 1G --threads 1", "prlimit --as=400000000 ");  // a tree that fills 1 GB
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "chesshpc perft: out of memory: the run needs more than this machine gives it (ask for a smaller --hash or "
            "--memory, or fewer --threads)\n");
  EXPECT_EQ(r.out, "");
}

// An error no exit code names is exit 6 and one line, never "chesshpc: error: ..." and
// exit 1, the code of a result mismatch. Forced without a hook: a stack limit (4 GB, which
// glibc takes as a new thread's stack size) beyond the address space (2 GB) leaves
// drawstats's progress thread no room, so std::thread throws: exit 6, one line, no file
// left.
TEST(Cli, InternalErrorIsExitSixNotAMismatch) {
  SKIP_UNDER_ASAN_WITH_ADDRESS_LIMIT();
  const std::string dir = test_dir(), pgn = write_file("internal.pgn", "[Event \"x\"]\n\n1. e4 e5 *\n");
  Result r = chesshpc("drawstats " + pgn + " --progress 1 --threads 1 --out " + dir + "s.h5",
                      "prlimit --stack=4000000000 --as=2000000000 ");
  EXPECT_EQ(r.code, 6);
  EXPECT_EQ(r.err, "chesshpc: internal error: Resource temporarily unavailable\n");
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(exists(dir + "s.h5"));
  EXPECT_FALSE(exists(dir + "s.h5.partial"));
}

// A directory read as an EPD suite exited 0 with nothing checked.
TEST(Cli, EpdDirectoryIsIoError) {
  const std::string dir = test_dir();
  Result r = chesshpc("perft --epd " + dir);
  EXPECT_EQ(r.code, 4);
  EXPECT_EQ(r.err, "chesshpc perft: cannot read EPD file '" + dir + "': it is a directory\n");
  EXPECT_EQ(r.out, "");
}

// `drawstats ok.pgn --out ok.pgn` overwrote its input: an --out that is an input (by
// device and inode, whatever the path says) is refused, even with --force.
TEST(Cli, OutThatIsAnInputIsRefusedAndTheInputKept) {
  const std::string dir = test_dir(), pgn = dir + "ok.pgn", book = dir + "book.epd";
  const std::string games = "[Event \"x\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n", line = "4k3/8/8/8/8/8/8/4K2R w K - 0 1\n";
  std::ofstream(pgn) << games;
  std::ofstream(book) << line;
  struct Case {
    std::string args, command, out, input;
  };
  const Case cases[] = {
      {"drawstats " + pgn + " --out " + pgn, "drawstats", pgn, pgn},
      {"drawstats " + pgn + " --force --out " + dir + "../" +
           std::filesystem::path(dir).parent_path().filename().string() + "/ok.pgn",
       "drawstats", dir + "../" + std::filesystem::path(dir).parent_path().filename().string() + "/ok.pgn", pgn},
      {"selfplay --games 2 --nodes 10 --book " + book + " --out " + book, "selfplay", book, book},
  };
  for (const Case& c : cases) {
    Result r = chesshpc(c.args);
    SCOPED_TRACE(c.args);
    EXPECT_EQ(r.code, 2);
    EXPECT_EQ(r.err,
              usage_error("--out '" + c.out + "' is the input '" + c.input + "': write the result to another file",
                          c.command));
    EXPECT_EQ(r.out, "");
  }
  EXPECT_EQ(read_all(pgn), games);
  EXPECT_EQ(read_all(book), line);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 2) << "a file besides the inputs";
}

// selfplay --out /tmp played every game, then failed and left /tmp.parts/; drawstats failed
// at the end too. Every command that writes a file checks its --out first: a directory, a
// missing directory, a directory it cannot write in; one line, exit 4, nothing created.
TEST(Cli, UnwritableOutIsIoErrorBeforeAnyWork) {
  const std::string dir = test_dir(), pgn = write_file("unwritable_out.pgn", "1. f3 e5 2. g4 Qh4# 0-1\n");
  const std::string locked = dir + "locked";
  std::filesystem::create_directory(locked);
  std::filesystem::permissions(locked, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec |
                                           std::filesystem::perms::group_read | std::filesystem::perms::group_exec |
                                           std::filesystem::perms::others_read | std::filesystem::perms::others_exec);
  // root writes anywhere: the locked directory is tried as nobody.
  const std::string as_user = geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
  const std::pair<std::string, std::string> commands[] = {
      {"perft", "perft --depth 5 --split-depth 2 --out "},
      {"selfplay", "selfplay --games 2 --nodes 50 --out "},
      {"drawstats", "drawstats " + pgn + " --out "},
      {"bench", "bench --suite quick --stockfish none --out "},
  };
  for (const auto& [command, args] : commands) {
    const std::string missing = dir + "no/such/r.h5", denied = locked + "/r.h5", here = dir.substr(0, dir.size() - 1);
    const std::pair<std::string, std::string> cases[] = {
        {here, "cannot write '" + here + "': it is a directory"},
        {missing, "cannot write '" + missing + "': there is no directory '" + dir + "no/such'"},
        {denied, "cannot write '" + denied + "': cannot create files in '" + locked + "': Permission denied"},
    };
    for (const auto& [out, line] : cases) {
      Result r = chesshpc(args + out + " --quiet", out == denied ? as_user : "");
      SCOPED_TRACE(args + out);
      EXPECT_EQ(r.code, 4);
      EXPECT_EQ(r.err, "chesshpc " + command + ": " + line + "\n");
      EXPECT_EQ(r.out, "");
    }
    EXPECT_FALSE(std::filesystem::exists(here + ".parts"));
  }
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1) << "a file besides the locked directory";
  EXPECT_TRUE(std::filesystem::is_empty(locked));
}

// ---- A finished file is not overwritten ---------------------------------------------------

// Running the same command again overwrote a finished result file silently: now it is
// refused, the file kept byte for byte, unless --force (or --resume where the job can).
TEST(Cli, ExistingResultFileIsKeptWithoutForce) {
  const std::string dir = test_dir(), pgn = write_file("existing.pgn", "1. f3 e5 2. g4 Qh4# 0-1\n");
  struct Case {
    std::string command, args, out, line;
  };
  const Case cases[] = {
      {"perft", "perft --depth 4 --split-depth 2 --threads 1 --out " + dir + "p.h5", dir + "p.h5",
       "'" + dir + "p.h5' exists: add --force to overwrite it, or --resume to continue its job"},
      {"selfplay", "selfplay --games 2 --nodes 50 --threads 1 --out " + dir + "s.h5", dir + "s.h5",
       "'" + dir + "s.h5' exists: add --force to overwrite it, or --resume to continue its job"},
      {"drawstats", "drawstats " + pgn + " --out " + dir + "d.h5", dir + "d.h5",
       "'" + dir + "d.h5' exists: add --force to overwrite it"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args);
    Result first = chesshpc(c.args + " --quiet");
    ASSERT_EQ(first.code, 0) << first.err;
    const std::string written = read_all(c.out);
    Result again = chesshpc(c.args + " --quiet");
    EXPECT_EQ(again.code, 2);
    EXPECT_EQ(again.err, usage_error(c.line, c.command));
    EXPECT_EQ(again.out, "");
    EXPECT_EQ(read_all(c.out), written) << "the file changed";
    std::filesystem::last_write_time(c.out, std::filesystem::file_time_type());  // the epoch: was it written?
    Result forced = chesshpc(c.args + " --quiet --force");
    EXPECT_EQ(forced.code, 0) << forced.err;
    EXPECT_NE(std::filesystem::last_write_time(c.out), std::filesystem::file_time_type()) << "not rewritten";
  }
  Result resumed = chesshpc(cases[0].args + " --resume --json --quiet");
  EXPECT_EQ(resumed.code, 0) << resumed.err;
  EXPECT_NE(resumed.out.find("\"nodes\": 197281,"), std::string::npos) << resumed.out;
}

// ---- Help and usage errors ----------------------------------------------------------------

// uci refused --help, bench search printed two helps: every command answers --help and -h
// with its own usage and options only.
TEST(Cli, EveryCommandAnswersHelpAndDashH) {
  for (const char* command : {"perft", "rules", "drawstats", "selfplay", "rescore", "positions", "export", "convert",
                              "shuffle", "interleave", "stats", "verify", "perftree", "uci", "bench", "bench search"}) {
    SCOPED_TRACE(command);
    Result help = chesshpc(std::string(command) + " --help"), h = chesshpc(std::string(command) + " -h");
    EXPECT_EQ(help.code, 0);
    EXPECT_EQ(h.code, 0);
    const std::string usage = "usage: chesshpc " + std::string(command);
    EXPECT_EQ(help.out.rfind(usage, 0), 0u) << help.out;
    EXPECT_NE(std::string(" \n").find(help.out[usage.size()]), std::string::npos) << help.out;
    EXPECT_EQ(h.out, help.out);
    EXPECT_EQ(help.err + h.err, "");
    EXPECT_NE(help.out.find("\n  --help                show this help\n"), std::string::npos) << help.out;
  }
  Result search = chesshpc("bench search --help");
  EXPECT_EQ(search.out.find("usage: ", 1), std::string::npos) << "two helps: " << search.out;
  EXPECT_EQ(search.out.find("--suite"), std::string::npos) << search.out;
  EXPECT_EQ(chesshpc("bench suite --help").out, chesshpc("bench --help").out);
}

// A usage error printed the list of commands: now its one line, then where the command's
// options are (the kind's, for bench search).
TEST(Cli, UsageErrorPointsToTheCommandsHelp) {
  const std::pair<std::string, std::string> cases[] = {
      {"perft --depht 3", usage_error("unknown option --depht for 'perft' (did you mean --depth?)", "perft")},
      {"selfplay --games", usage_error("--games needs a value (N)", "selfplay")},
      {"uci --hash 16", usage_error("unknown option --hash for 'uci'", "uci")},
      {"bench search --suite quick", usage_error("unknown option --suite for 'bench search'", "bench search")},
      {"drawstats a.pgn b.pgn", usage_error("unexpected argument 'b.pgn' for 'drawstats'", "drawstats")},
  };
  for (const auto& [args, err] : cases) {
    Result r = chesshpc(args);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_EQ(r.err, err) << args;
    EXPECT_EQ(r.out, "") << args;
  }
}

// A corpus on standard input many times larger than the 1 MiB read block (40 MB
// here, as a pipe brings it) is streamed through: every game counted, none lost or doubled
// where the blocks meet. Each game carries a 2,000-byte comment, so that 40 MB stays
// 20,000 games.
TEST(Cli, DrawstatsStreamsACorpusManyBlocksLongFromAPipe) {
  std::string game = "[Event \"x\"]\n\n1. f3 {" + std::string(2000, 'c') + "} e5 2. g4 Qh4# 0-1\n\n";
  std::string corpus;
  for (int i = 0; i < 100; ++i) corpus += game;
  const std::string pgn = write_file("stream.pgn", corpus);  // 200 KB
  Result r = chesshpc("drawstats - --json --quiet --threads 2", "for i in $(seq 200); do cat " + pgn + "; done | ");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"pgn\": \"-\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"games\": 20000, \"skipped\": 0, \"plies\": 80000,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"checkmate\": {\"fired\": 20000, \"ended\": 20000,"), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "");
}

// A game longer than the bound (16 MB) is one line naming the stream, the game and its
// line, exit 3: the reading does not grow without end on a file that is no PGN.
TEST(Cli, DrawstatsGameLongerThanTheBoundIsOneLineExitThree) {
  const std::string pgn = write_file("long_game.pgn", "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4 {");
  Result r = chesshpc("drawstats - --quiet",
                      "(cat " + pgn + "; head -c 17000000 /dev/zero | tr '\\0' c; printf '} e5 *\\n') | ");
  EXPECT_EQ(r.code, 3);
  EXPECT_EQ(r.err, "chesshpc drawstats: -:5: game 1 is longer than 16 MB, the most one game may take\n");
  EXPECT_EQ(r.out, "");
}

namespace {

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

}  // namespace

// An EPD line's ;Dn past --depth's cap would run for years: the whole file is bad input,
// its line named, before any count, and the suite is left as it was.
TEST(Cli, EpdDepthPastTheCapIsBadInputNamingTheLine) {
  const std::string text =
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;D1 20\n# deep\n4k3/8/8/8/8/8/8/4K2R w K - ;D1 15 ;D21 1\n";
  std::string epd = write_file("deep.epd", text);
  Result r = chesshpc("perft --epd " + epd + " --quiet");
  EXPECT_EQ(r.code, 3);
  EXPECT_EQ(r.err,
            "chesshpc perft: " + epd + ":3: depth 21 is past perft's cap of 20 (as for --depth); no count checked\n");
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(read_all(epd), text);
  Result max = chesshpc("perft --epd " + epd + " --max-depth 21");
  EXPECT_EQ(max.code, 2);
  EXPECT_EQ(first_line(max.err), "chesshpc: --max-depth must be a whole number from 1 to 20, not '21'");
}

// A malformed clock ("--tc 1+", once read as 1+0) is a usage error, with no file or part
// written.
TEST(Cli, SelfplayMalformedTimeControlIsUsageError) {
  const std::string dir = test_dir();
  for (const char* tc : {"1+", "+1", "1+x", "-1+0", "1++1", ""}) {
    Result r = chesshpc("selfplay --games 2 --tc '" + std::string(tc) + "' --out " + dir + "tc.h5 --quiet");
    EXPECT_EQ(r.code, 2) << tc;
    EXPECT_EQ(first_line(r.err),
              "chesshpc: --tc takes BASE+INC in seconds (BASE above 0, each at most 86400), e.g. "
              "10+0.1, not '" +
                  std::string(tc) + "'")
        << tc;
    EXPECT_EQ(r.out, "");
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir));
}

// SAN marks that the move belies (Nxf3 capturing nothing, e4# not mating, Nf3+
// not checking) are refused, the move and its ply (rules), line and game (a PGN) named.
TEST(Cli, SanMarksTheMoveBeliesAreBadInput) {
  const std::string start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  Result capture = chesshpc("rules --moves 'Nxf3'");
  EXPECT_EQ(capture.code, 3);
  EXPECT_EQ(capture.err, "chesshpc rules: move 'Nxf3' marks a capture ('x') but captures nothing at ply 1 (position " +
                             start + ")\n");
  EXPECT_EQ(capture.out, "");
  Result scholar = chesshpc("rules --moves 'e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7+'");  // a mate is a check
  EXPECT_EQ(scholar.code, 0) << scholar.err;
  Result not_mate = chesshpc("rules --moves 'e4#'");
  EXPECT_EQ(not_mate.code, 3);
  EXPECT_EQ(not_mate.err,
            "chesshpc rules: move 'e4#' marks a mate ('#') but does not mate at ply 1 (position " + start + ")\n");
  Result check = chesshpc("rules --moves 'e4 e5 Nf3+'");
  EXPECT_EQ(check.code, 3);
  EXPECT_EQ(first_line(check.err),
            "chesshpc rules: move 'Nf3+' marks a check ('+') but gives no check at ply 3 "
            "(position rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2)");
  Result fools = chesshpc("rules --moves 'f3 e5 g4 Qh4#' --json");  // a true mark stands
  EXPECT_EQ(fools.code, 0) << fools.err;

  // A selfplay book: refused before any game, its line named, no file written.
  const std::string pgn_text = "[Event \"a\"]\n\n1. e4 e5 2. Nxf3 *\n";
  std::string book = write_file("marks.pgn", pgn_text);
  std::string out = testing::TempDir() + "marks.h5";
  Result r = chesshpc("selfplay --games 2 --nodes 50 --book " + book + " --out " + out + " --quiet");
  EXPECT_EQ(r.code, 3);
  EXPECT_NE(r.err.find(book + ":"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("move 'Nxf3' marks a capture ('x') but captures nothing at ply 3\n"), std::string::npos)
      << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_FALSE(exists(out));
  EXPECT_EQ(read_all(book), pgn_text);

  // A corpus: the game is skipped with its line and index; the reading goes on.
  const std::string corpus_text = "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 d5 2. e4# *\n";
  std::string corpus = write_file("marks_corpus.pgn", corpus_text);
  Result d = chesshpc("drawstats " + corpus);
  EXPECT_EQ(d.code, 0) << d.err;
  EXPECT_EQ(first_line(d.err), "chesshpc drawstats: " + corpus +
                                   ":7: game 1 skipped: move 'e4#' marks a mate ('#') but does not mate at ply 3");
  EXPECT_NE(d.out.find(": 1 game replayed, 1 skipped as malformed"), std::string::npos) << d.out;
  EXPECT_EQ(read_all(corpus), corpus_text);
}

// The move number is 16 bits (a Position stays 88 bytes). A FEN beyond is bad
// input, and a game that would carry it past 65535 stops there, saying so, rather than
// wrap to 0.
TEST(Cli, MoveNumberPastItsSixteenBitsIsRefusedNeverWrapped) {
  Result fen = chesshpc("perft --fen '4k3/8/8/8/8/8/8/4K2R b - - 0 65536' --depth 1");
  EXPECT_EQ(fen.code, 3);
  EXPECT_EQ(fen.err, "chesshpc perft: bad FEN: move number: '65536' is out of range (at most 65535)\n");
  EXPECT_EQ(fen.out, "");
  const std::string last = "--fen '4k3/8/8/8/8/8/8/4K2R w - - 0 65535' ";
  Result white = chesshpc("rules " + last + "--moves 'Rh2' --json");
  EXPECT_EQ(white.code, 0) << white.err;
  Result black = chesshpc("rules " + last + "--moves 'Rh2 Kd7'");
  EXPECT_EQ(black.code, 3);
  EXPECT_EQ(black.err,
            "chesshpc rules: move 'Kd7' at ply 2: the move number would pass 65535, the most chesshpc keeps\n");
  EXPECT_EQ(black.out, "");
  // A corpus: the game is skipped, its line named, and the file left as it was; the
  // half-move clock alike (a corpus is replayed past the game's end).
  auto skipped = [](const std::string& name, const std::string& fen, const std::string& movetext) {
    const std::string text = "[Event \"a\"]\n[SetUp \"1\"]\n[FEN \"" + fen + "\"]\n\n" + movetext + " *\n";
    std::string corpus = write_file(name, text);
    Result d = chesshpc("drawstats " + corpus);
    EXPECT_EQ(d.code, 0) << d.err;
    EXPECT_EQ(read_all(corpus), text);
    return first_line(d.err).substr(std::min(first_line(d.err).size(), ("chesshpc drawstats: " + corpus).size()));
  };
  EXPECT_EQ(skipped("last_move.pgn", "4k3/8/8/8/8/8/8/4K2R b - - 0 65535", "65535... Kd7"),
            ":5: game 0 skipped: move 'Kd7' at ply 1: the move number would pass 65535, the most chesshpc keeps");
  EXPECT_EQ(skipped("last_clock.pgn", "4k3/8/8/8/8/8/8/4K2R w - - 65535 9", "9. Rh2"),
            ":5: game 0 skipped: move 'Rh2' at ply 1: the half-move clock would pass 65535, the most chesshpc keeps");
}

// Messages never echo whole fields or raw bytes: every quote of what the user gave is
// an excerpt of at most 60 characters, escaped, with "..." when cut.
TEST(Cli, MessagesQuoteBoundedEscapedExcerpts) {
  const std::string huge(100000, 'w');
  Result fen = chesshpc("perft --fen '4k3/8/8/8/8/8/8/4K3 " + huge + " - - 0 1' --depth 1");
  EXPECT_EQ(fen.code, 3);
  EXPECT_EQ(fen.err,
            "chesshpc perft: bad FEN: side to move: '" + std::string(60, 'w') + "...' is neither 'w' nor 'b'\n");
  Result option = chesshpc("perft --depth \"$(printf '3\\001\\033[31m')\"");
  EXPECT_EQ(option.code, 2);
  EXPECT_EQ(first_line(option.err), "chesshpc: --depth must be a whole number from 1 to 20, not '3\\x01\\x1B[31m'");
  Result name = chesshpc("perft --" + std::string(1000, 'd'));
  EXPECT_EQ(name.code, 2);
  EXPECT_EQ(first_line(name.err), "chesshpc: unknown option --" + std::string(60, 'd') + "... for 'perft'");

  const std::string epd_text = "4k3/8/8/8/8/8/8/4K2R w K - ;D1 15 ;D2 \xC3\xA9" + std::string(200, '6') + "\n";
  std::string epd = write_file("bytes.epd", epd_text);
  Result e = chesshpc("perft --epd " + epd + " --quiet");
  EXPECT_EQ(e.code, 1);
  EXPECT_EQ(first_line(e.err), "chesshpc perft: " + epd + ":1: unreadable line: 'D2 \\xC3\\xA9" + std::string(49, '6') +
                                   "...' does not end in one non-negative count");
  EXPECT_EQ(read_all(epd), epd_text);

  const std::string pgn_text = "[Event \"a\"]\n\n1. e4 " + std::string(5000, 'Q') + " *\n";
  std::string corpus = write_file("long_move.pgn", pgn_text);
  Result d = chesshpc("drawstats " + corpus);
  EXPECT_EQ(first_line(d.err), "chesshpc drawstats: " + corpus + ":3: game 0 skipped: unreadable move '" +
                                   std::string(60, 'Q') + "...' at ply 2");
}

// ---- Chess960 selfplay and rules ------------------------------------------------------------

// rules plays a Chess960 game by its start's number, castling in SAN or king-takes-rook.
TEST(Cli, RulesPlaysChess960CastlingInSanAndUci) {
  for (const std::string moves : {"Nf3 Nf6 O-O O-O Ng5 Ng4 Nf3 Nf6 Ng5 Ng4 Nf3 Nf6",
                                  "g1f3 g8f6 f1h1 f8h8 f3g5 f6g4 g5f3 g4f6 f3g5 f6g4 g5f3 g4f6"}) {
    Result r = chesshpc("rules --fen chess960:192 --moves '" + moves + "' --json");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out.rfind("{\"termination\": \"threefold_repetition\", \"result\": \"1/2-1/2\", \"plies\": 12,", 0), 0u)
        << r.out;
  }
}

// --variant takes three names, and a book is refused with it: a variant draws the start.
TEST(Cli, SelfplayVariantIsCheckedAndRefusesABook) {
  const std::string out = test_dir() + "s.h5";
  Result bad = chesshpc("selfplay --games 2 --nodes 10 --variant crazyhouse --out " + out);
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--variant must be standard, chess960 or dfrc, not 'crazyhouse'"), std::string::npos)
      << bad.err;
  const std::string book = write_file("variant_book.epd", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n");
  Result both = chesshpc("selfplay --games 2 --nodes 10 --variant dfrc --book " + book + " --out " + out);
  EXPECT_EQ(both.code, 2);
  EXPECT_NE(both.err.find("--book cannot be combined with --variant dfrc: the variant draws each game pair's start "
                          "position (add --random-plies for variety)"),
            std::string::npos)
      << both.err;
  EXPECT_EQ(both.err.rfind("chesshpc: --book cannot be combined with --variant dfrc", 0), 0u) << both.err;
  EXPECT_FALSE(exists(out));
}

// ---- export to the trainers' formats ------------------------------------------------------

// A file of another job (exit 3), a missing file (exit 4), an unknown format (exit 2), an
// --out in a missing directory (exit 4): one line each, and nothing written.
TEST(Cli, ExportBadInputOneLineAndExitCode) {
  const std::string dir = test_dir(), perft = dir + "p.h5", out = dir + "x.bin";
  ASSERT_EQ(chesshpc("perft --depth 3 --split-depth 1 --out " + perft).code, 0);
  Result other = chesshpc("export --format bin " + perft + " --out " + out);
  EXPECT_EQ(other.code, 3);
  EXPECT_EQ(other.err, "chesshpc export: '" + perft + "' is not a chesshpc selfplay file\n");
  Result missing = chesshpc("export --format bin " + dir + "none.h5 --out " + out);
  EXPECT_EQ(missing.code, 4);
  EXPECT_EQ(missing.err, "chesshpc export: cannot read '" + dir + "none.h5': No such file or directory\n");
  Result format = chesshpc("export --format csv " + perft);
  EXPECT_EQ(format.code, 2);
  EXPECT_EQ(format.err,
            "chesshpc: --format must be plain|bin|binpack|bullet|bullet-text|epd|pgn, not 'csv'\n"
            "see 'chesshpc export --help'\n");
  Result unwritable = chesshpc("export --format bin " + perft + " --out " + dir + "no/x.bin");
  EXPECT_EQ(unwritable.code, 4);
  EXPECT_EQ(unwritable.err,
            "chesshpc export: cannot write '" + dir + "no/x.bin': there is no directory '" + dir + "no'\n");
  EXPECT_FALSE(exists(out));
  EXPECT_FALSE(exists(out + ".partial"));
}

// --format pgn is --pgn; an existing --out is kept without --force and replaced with it,
// and the summary line counts what was written.
TEST(Cli, ExportFormatsToFilesKeepAndForce) {
  const std::string dir = test_dir(), h5 = dir + "s.h5", out = dir + "s.plain";
  ASSERT_EQ(chesshpc("selfplay --games 2 --nodes 100 --random-plies 2 --seed 3 --threads 1 --quiet --out " + h5).code,
            0);
  EXPECT_EQ(chesshpc("export --format pgn " + h5).out, chesshpc("export --pgn " + h5).out);
  std::ofstream(out) << "keep me";
  Result kept = chesshpc("export --format plain " + h5 + " --out " + out);
  EXPECT_EQ(kept.code, 2);
  EXPECT_EQ(kept.err, "chesshpc: '" + out + "' exists: add --force to overwrite it\nsee 'chesshpc export --help'\n");
  EXPECT_EQ(read_all(out), "keep me");
  Result forced = chesshpc("export --format plain " + h5 + " --out " + out + " --force");
  ASSERT_EQ(forced.code, 0) << forced.err;
  EXPECT_EQ(forced.out, "");
  const std::string text = read_all(out);
  size_t records = 0;
  for (size_t at = 0; (at = text.find("\ne\n", at)) != std::string::npos; at += 3) ++records;
  char per[32];
  std::snprintf(per, sizeof per, "%.1f", double(text.size()) / double(records));
  EXPECT_EQ(forced.err, "chesshpc export: " + std::to_string(records) + " of " + std::to_string(records) +
                            " positions written as plain (" + std::to_string(text.size()) + " bytes, " + per +
                            " a position)\n");
  Result piped = chesshpc("export --format plain " + h5);
  EXPECT_EQ(piped.out, text);
}

// ---- Sizes reported as allocated, threads that run, every path written ---------------------

namespace {

// What a shell command prints on standard output.
std::string shell_output(const std::string& command) {
  std::string out;
  FILE* p = popen(command.c_str(), "r");
  std::array<char, 4096> buf;
  for (size_t n; (n = fread(buf.data(), 1, buf.size(), p)) > 0;) out.append(buf.data(), n);
  pclose(p);
  return out;
}

// The number that follows `label` in text, or -1.
long number_after(const std::string& text, const std::string& label) {
  const size_t at = text.find(label);
  return at == std::string::npos ? -1 : std::atol(text.c_str() + at + label.size());
}

}  // namespace

// perft --hash 100M allocated a power-of-two table of 64 MB, and a tree too small to fill
// a table still touched all of it; now the table is the size in whole 2 MB, cut to what
// the tree can fill, and the run prints, stores and writes the table it used. A bare number
// is MB, as UCI's and Stockfish's Hash (--hash 64 was 64 bytes).
TEST(Cli, PerftReportsTheTableItAllocated) {
  Result text = chesshpc("perft --depth 7 --hash 100M --threads 1 --quiet");
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find(", 1 thread, hash 100 MB\n"), std::string::npos) << text.out;
  Result json = chesshpc("perft --depth 7 --hash 100M --threads 1 --json --quiet");
  EXPECT_NE(json.out.find("\"hash_bytes\": 104857600,"), std::string::npos) << json.out;
  // perft(6) stores at most 206,604 subtrees (plies 0-4): 6 MB of 32 bytes each.
  Result cut = chesshpc("perft --depth 6 --hash 8 --threads 1 --json");
  EXPECT_NE(cut.out.find("\"hash_bytes\": 6291456,"), std::string::npos) << cut.out;
  EXPECT_NE(cut.out.find("\"nodes\": 119060324,"), std::string::npos) << cut.out;
  EXPECT_NE(cut.err.find("chesshpc perft: a table of 6 MB, not 8 MB: perft 6 of this position stores too few "
                         "subtrees to fill more\n"),
            std::string::npos)
      << cut.err;
  for (const char* size : {"8MB", "8m", "8MiB", "8192K"}) {
    Result r = chesshpc(std::string("perft --depth 3 --hash ") + size + " --threads 1 --json --quiet");
    EXPECT_NE(r.out.find("\"hash_bytes\": 2097152,"), std::string::npos) << size << ": " << r.out << r.err;
    EXPECT_EQ(r.err, "") << "--quiet";
  }
  // A run split into units keeps the size asked: the file's hash_bytes, where HDF5's tools
  // are installed to read it.
  const std::string dir = test_dir();
  Result split = chesshpc("perft --depth 3 --split-depth 1 --hash 100M --threads 1 --quiet --out " + dir + "p.h5");
  ASSERT_EQ(split.code, 0) << split.err;
  EXPECT_NE(split.out.find(", hash 100 MB\n"), std::string::npos) << split.out;
  if (std::system("command -v h5dump >/dev/null 2>&1") == 0) {
    const std::string attr = shell_output("h5dump -a /hash_bytes " + dir + "p.h5");
    EXPECT_NE(attr.find("(0): 104857600"), std::string::npos) << attr;
  }
}

// A dedup run planned "table 128 MB per rank" and reported "hash 255 MB": the table gets
// its share (32 bytes a position of ply L, at least 16 MB, within what the positions
// leave) as it allocates it, and both lines say that.
TEST(Cli, DedupPlanAndReportAgreeOnTheTable) {
  Result r = chesshpc("perft --depth 5 --dedup-ply 2 --memory 100M --threads 1");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find(" per rank for positions, table 16 MB per rank (--memory 100 MB); then perft 3 of each"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.out.find("deduplicated at ply 2 (400 unique positions), hash 16 MB\n"), std::string::npos) << r.out;
}

// --memory 1 was one byte and said "--memory 0 MB per rank holds no dedup ply".
TEST(Cli, MemoryOfOneIsOneMegabyte) {
  Result r = chesshpc("perft --depth 6 --dedup-ply auto --memory 1 --threads 1");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err,
            "chesshpc perft: --memory 1 MB per rank holds no dedup ply: even ply 1 needs more (give more memory)\n");
  Result k = chesshpc("perft --depth 6 --dedup-ply auto --memory 1K");
  EXPECT_EQ(k.code, 2);
  EXPECT_EQ(k.err, usage_error("--memory takes at least 1 MB, not '1K'", "perft"));
}

// An option the mode does not use is refused, never reported as used: --detailed counts
// without a table (it printed "hash 64 MB"), and a dedup ply two plies above the depth
// counts each subtree once.
TEST(Cli, HashWhereNoTableIsUsedIsRefused) {
  Result detailed = chesshpc("perft --depth 3 --detailed --hash 64M");
  EXPECT_EQ(detailed.code, 2);
  EXPECT_EQ(detailed.out, "");
  EXPECT_EQ(detailed.err, usage_error("--detailed counts without a table; drop --hash", "perft"));
  Result dedup = chesshpc("perft --depth 5 --dedup-ply 3 --hash 16M --threads 1");
  EXPECT_EQ(dedup.code, 2);
  EXPECT_EQ(dedup.out, "");
  EXPECT_EQ(dedup.err,
            "chesshpc perft: --dedup-ply 3 of --depth 5 counts subtrees of depth 2 once each, with no table: drop "
            "--hash\n");
}

// bench search and UCI's Hash read sizes the same way and say what the table holds.
TEST(Cli, SearchTablesReportWhatTheyHold) {
  Result bench = chesshpc("bench search --depth 2 --hash 100 --json");
  ASSERT_EQ(bench.code, 0) << bench.err;
  EXPECT_EQ(bench.out.rfind("{\"positions\": 40, \"depth\": 2, \"hash_mb\": 64, \"nodes\": ", 0), 0u) << bench.out;
  Result text = chesshpc("bench search --depth 2 --hash 40MiB");
  EXPECT_NE(text.out.find("bench search: 40 positions, depth 2, hash 32 MB\n"), std::string::npos) << text.out;
  Result uci = chesshpc("uci",
                        "printf 'setoption name Hash value 100\\nsetoption name Hash value 1G\\n"
                        "setoption name Hash value 0\\nisready\\nquit\\n' | ");
  EXPECT_EQ(uci.out,
            "info string Hash 100 MB is a table of 64 MB (a power of two)\n"
            "info string Hash takes a size from 1 to 65536 MB (a bare number is MB), not '0'\n"
            "readyok\n");
}

// --threads 4096 on a machine of fewer cores leaked TBB's warning and reported 4096
// threads: the cores run, and one line of ours says so.
TEST(Cli, ThreadsBeyondTheCoresRunTheCores) {
  Result r = chesshpc("perft --depth 3 --threads 4096 --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  const long cores = number_after(r.err, "is more than the ");
  ASSERT_GT(cores, 0) << r.err;
  const std::string n = std::to_string(cores);
  EXPECT_EQ(r.err, "chesshpc perft: --threads 4096 is more than the " + n + (cores == 1 ? " core" : " cores") +
                       " this process may use: running " + n + "\n");
  EXPECT_NE(r.out.find(", " + n + (cores == 1 ? " thread\n" : " threads\n")), std::string::npos) << r.out;
}

// perft --help said auto picks L <= D - 2; the code picks D - 3 (measured faster: a table
// below L).
TEST(Cli, DedupAutoIsHelpedAsItChooses) {
  Result help = chesshpc("perft --help");
  EXPECT_NE(help.out.find("auto: the deepest L <= D - 3 (D - 2 below depth 4) that --memory holds"), std::string::npos)
      << help.out;
  Result chosen = chesshpc("perft --depth 6 --dedup-ply auto --memory 1G --threads 1 --json --quiet");
  EXPECT_NE(chosen.out.find("\"dedup_ply\": 3,"), std::string::npos) << chosen.out;
}

namespace {

// Every command that writes a file, with out as its file (and --force).
std::vector<std::string> writers(const std::string& dir, const std::string& out) {
  const std::string pgn = write_file("writers.pgn", "1. e4 e5 2. Nf3 Nc6 1/2-1/2\n");
  return {"perft --depth 3 --split-depth 1 --threads 1 --quiet --force --out " + out,
          "selfplay --games 2 --nodes 20 --threads 1 --quiet --force --out " + out,
          "drawstats " + pgn + " --quiet --force --out " + out,
          "bench --suite quick --repeats 1 --stockfish none --quiet --force --out " + out,
          "export --format plain " + dir + "d.h5 --force --out " + out,
          "convert " + dir + "d.h5 " + out + " --to plain --quiet --force",
          "shuffle " + dir + "d.h5 " + out + " --to bin --quiet --force",
          "interleave " + dir + "d.h5 " + dir + "d.h5 --out " + out + " --to bin --quiet --force",
          "positions " + pgn + " --quiet --force --out " + out,
          "rescore " + dir + "d.h5 --out " + out + " --depth 1 --threads 1 --quiet --force"};
}

}  // namespace

// As root, export --out /dev/full --force left /dev/full a 766 KB regular file; perft,
// selfplay and drawstats did the same to a device node. Anything that exists and is not a
// regular file is refused before any work: one line, exit 4, the node untouched.
TEST(Cli, OutThatIsAFifoIsRefusedByEveryWriter) {
  const std::string dir = test_dir(), fifo = dir + "fifo";
  ASSERT_EQ(chesshpc("selfplay --games 2 --nodes 20 --threads 1 --quiet --out " + dir + "d.h5").code, 0);
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& args : writers(dir, fifo)) {
    Result r = chesshpc(args);
    EXPECT_EQ(r.code, 4) << args;
    EXPECT_EQ(r.out, "") << args;
    const std::string command = args.substr(0, args.find(' '));
    EXPECT_EQ(r.err, "chesshpc " + command + ": cannot write '" + fifo + "': it is a fifo, not a regular file\n")
        << args;
    EXPECT_TRUE(std::filesystem::is_fifo(fifo)) << args;
  }
  EXPECT_FALSE(std::filesystem::exists(fifo + ".partial"));
}

TEST(Cli, OutThatIsADeviceIsRefusedAndTheDeviceKept) {
  if (geteuid() != 0) GTEST_SKIP() << "making a device node needs root";
  const std::string dir = test_dir(), full = dir + "full";
  ASSERT_EQ(chesshpc("selfplay --games 2 --nodes 20 --threads 1 --quiet --out " + dir + "d.h5").code, 0);
  ASSERT_EQ(mknod(full.c_str(), S_IFCHR | 0666, makedev(1, 7)), 0);  // /dev/full's numbers
  for (const std::string& args : writers(dir, full)) {
    Result r = chesshpc(args);
    EXPECT_EQ(r.code, 4) << args;
    const std::string command = args.substr(0, args.find(' '));
    EXPECT_EQ(r.err,
              "chesshpc " + command + ": cannot write '" + full + "': it is a character device, not a regular file\n")
        << args;
    struct stat st {};
    ASSERT_EQ(stat(full.c_str(), &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode)) << args;
    EXPECT_EQ(st.st_rdev, makedev(1, 7)) << args;
  }
}

// A compressed name changes nothing: the file's kind is judged before an encoder opens it.
TEST(Cli, CompressedOutThatIsNotARegularFileIsRefused) {
  const std::string dir = test_dir(), fifo = dir + "fifo.bin.zst";
  ASSERT_EQ(chesshpc("selfplay --games 2 --nodes 20 --threads 1 --quiet --out " + dir + "d.h5").code, 0);
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string command : {"convert", "shuffle"}) {
    Result r = chesshpc(command + " " + dir + "d.h5 " + fifo + " --quiet --force");
    EXPECT_EQ(r.code, 4) << command;
    EXPECT_EQ(r.err, "chesshpc " + command + ": cannot write '" + fifo + "': it is a fifo, not a regular file\n");
    EXPECT_TRUE(std::filesystem::is_fifo(fifo)) << command;
  }
  if (geteuid() != 0) return;  // making a device node needs root
  const std::string full = dir + "full.plain.gz";
  ASSERT_EQ(mknod(full.c_str(), S_IFCHR | 0666, makedev(1, 7)), 0);
  Result r = chesshpc("convert " + dir + "d.h5 " + full + " --quiet --force");
  EXPECT_EQ(r.code, 4);
  EXPECT_EQ(r.err, "chesshpc convert: cannot write '" + full + "': it is a character device, not a regular file\n");
  struct stat st {};
  ASSERT_EQ(stat(full.c_str(), &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

// A symbolic link as --out: the file it names is written (FILE.partial beside it, renamed
// over it), and the link stays a link (it was replaced by a regular file).
TEST(Cli, SymbolicLinkOutWritesTheFileItNames) {
  const std::string dir = test_dir();
  std::filesystem::create_directories(dir + "results");
  ASSERT_EQ(chesshpc("selfplay --games 2 --nodes 20 --threads 1 --quiet --out " + dir + "d.h5").code, 0);
  // export into a link to a file not there yet, and over a link to one that is.
  std::filesystem::create_symlink("results/d.plain", dir + "new-link");
  Result made = chesshpc("export --format plain " + dir + "d.h5 --out " + dir + "new-link");
  ASSERT_EQ(made.code, 0) << made.err;
  EXPECT_TRUE(std::filesystem::is_symlink(dir + "new-link"));
  EXPECT_EQ(read_all(dir + "results/d.plain"), chesshpc("export --format plain " + dir + "d.h5").out);
  std::ofstream(dir + "results/old.epd") << "old\n";
  std::filesystem::create_symlink("results/old.epd", dir + "old-link");
  Result forced = chesshpc("export --format epd " + dir + "d.h5 --force --out " + dir + "old-link");
  ASSERT_EQ(forced.code, 0) << forced.err;
  EXPECT_TRUE(std::filesystem::is_symlink(dir + "old-link"));
  EXPECT_EQ(read_all(dir + "results/old.epd"), chesshpc("export --format epd " + dir + "d.h5").out);
  // An HDF5 result file (perft) the same way, and nothing left beside either.
  std::filesystem::create_symlink("results/p.h5", dir + "p-link");
  Result perft = chesshpc("perft --depth 3 --split-depth 1 --threads 1 --quiet --out " + dir + "p-link");
  ASSERT_EQ(perft.code, 0) << perft.err;
  EXPECT_TRUE(std::filesystem::is_symlink(dir + "p-link"));
  EXPECT_EQ(read_all(dir + "results/p.h5").substr(0, 4), "\x89HDF");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir + "results"), {}), 3);
}

// ---- Resume of the other perft file, dedup's split depth --------------------------------

// A dedup file resumed without --dedup-ply, a split file with it: each named as what it is,
// with how to resume it, exit 3 (a result file of another job); a dedup resume with another
// --split-depth is another job too, the difference named.
TEST(Cli, ResumeOfTheOtherPerftFileSaysWhatItIs) {
  const std::string dir = test_dir(), dedup = dir + "d.h5", split = dir + "s.h5";
  ASSERT_EQ(chesshpc("perft --depth 4 --dedup-ply 2 --threads 1 --quiet --out " + dedup).code, 0);
  ASSERT_EQ(chesshpc("perft --depth 4 --split-depth 2 --threads 1 --quiet --out " + split).code, 0);
  Result undeduplicated = chesshpc("perft --depth 4 --split-depth 2 --threads 1 --quiet --resume --out " + dedup);
  EXPECT_EQ(undeduplicated.code, 3);
  EXPECT_EQ(undeduplicated.err, "chesshpc perft: cannot resume from '" + dedup +
                                    "': it is a deduplicated perft file: resume it with --dedup-ply 2\n");
  Result deduplicated = chesshpc("perft --depth 4 --dedup-ply 2 --threads 1 --quiet --resume --out " + split);
  EXPECT_EQ(deduplicated.code, 3);
  EXPECT_EQ(deduplicated.err, "chesshpc perft: cannot resume from '" + split +
                                  "': it is a perft file without deduplication: resume it without --dedup-ply\n");
  Result other_split =
      chesshpc("perft --depth 4 --dedup-ply 2 --split-depth 1 --threads 1 --quiet --resume --out " + dedup);
  EXPECT_EQ(other_split.code, 3);
  EXPECT_EQ(other_split.err, "chesshpc perft: cannot resume from '" + dedup +
                                 "': it holds another job: its split depth is 2, this run's is 1\n");
  Result same = chesshpc("perft --depth 4 --dedup-ply 2 --threads 1 --quiet --resume --out " + dedup);
  EXPECT_EQ(same.code, 0) << same.err;
  EXPECT_NE(same.out.find("nodes 197281 "), std::string::npos) << same.out;
}

// ---- other tools' command lines and the hints of mistakes ---------------------------------

namespace {

// The PGN tags named `tag`, in order.
std::vector<std::string> pgn_tags(const std::string& pgn, const std::string& tag) {
  std::vector<std::string> values;
  const std::regex line("\\[" + tag + " \"([^\"]*)\"\\]");
  for (std::sregex_iterator it(pgn.begin(), pgn.end(), line), end; it != end; ++it) values.push_back((*it)[1]);
  return values;
}

}  // namespace

// fastchess's first man-page example (binary name aside; Stockfish at a node limit for
// time, which searches the same tree every time): its PGN names the players by name=
// and ends each game with its tag's result, and the summary gives fastchess's lines,
// whose counts are those of the PGN's results, by the first engine.
TEST(Cli, FastchessLineFromItsManPageRuns) {
  const std::string dir = test_dir();
  const std::string book = write_file("fastchess_book.epd",
                                      "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"
                                      "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\n");
  const std::string pgn = dir + "sprt.pgn";
  Result r = chesshpc(
      "selfplay -engine cmd=/usr/games/stockfish name=Engine1 -engine cmd=/usr/games/stockfish "
      "name=Engine2 -openings file=" +
      book + " format=epd order=random -each nodes=500 option.Hash=16 option.Threads=1 -rounds 2 " +
      "-repeat -concurrency 2 -pgnout notation=san nodes=true file=" + pgn + " --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string games = read_all(pgn);
  EXPECT_EQ(pgn_tags(games, "White"), (std::vector<std::string>{"Engine1", "Engine2", "Engine1", "Engine2"}));
  EXPECT_EQ(pgn_tags(games, "Black"), (std::vector<std::string>{"Engine2", "Engine1", "Engine2", "Engine1"}));
  const std::vector<std::string> results = pgn_tags(games, "Result");
  ASSERT_EQ(results.size(), 4u);
  // Each game's movetext ends with its tag's result; Engine1's points game by game.
  std::vector<double> points;
  size_t at = 0;
  for (const std::string& result : results) {
    at = games.find("\n\n", games.find("[Result \"" + result + "\"]", at));
    const size_t end = games.find("\n\n", at + 2);
    const std::string text = games.substr(at, end - at);
    EXPECT_EQ(text.substr(text.size() - result.size()), result) << text;
    const double white = result == "1-0" ? 1 : result == "0-1" ? 0 : 0.5;
    points.push_back(points.size() % 2 ? 1 - white : white);
    at = end;
  }
  int wins = 0, draws = 0, losses = 0;
  std::array<int, 5> ptnml{};
  for (size_t i = 0; i < 4; ++i) (points[i] == 1 ? wins : points[i] == 0 ? losses : draws)++;
  for (size_t i = 0; i < 4; i += 2) ++ptnml[size_t(2 * (points[i] + points[i + 1]))];
  char counts[160];
  std::snprintf(counts, sizeof counts, "\nGames: 4, Wins: %d, Losses: %d, Draws: %d, Points: %.1f (%.2f %%)\n", wins,
                losses, draws, wins + 0.5 * draws, (wins + 0.5 * draws) / 4 * 100);
  EXPECT_NE(r.out.find(counts), std::string::npos) << r.out;
  std::snprintf(counts, sizeof counts, "\nPtnml(0-2): [%d, %d, %d, %d, %d], WL/DD Ratio: ", ptnml[0], ptnml[1],
                ptnml[2], ptnml[3], ptnml[4]);
  EXPECT_NE(r.out.find(counts), std::string::npos) << r.out;
  const std::regex summary(
      "\n-{50}\nResults of Engine1 vs Engine2 \\(500 nodes, 1t, 16MB, fastchess_book\\.epd\\):\n"
      "Elo: -?[0-9.naif]+ \\+/- -?[0-9.naif]+, nElo: -?[0-9.naif]+ \\+/- -?[0-9.naif]+\n"
      "LOS: -?[0-9.naif]+ %, DrawRatio: [0-9.]+ %, PairsRatio: -?[0-9.naif]+\n"
      "Games: .*\nPtnml\\(0-2\\): .*\n-{50}\n$");
  EXPECT_TRUE(std::regex_search(r.out, summary)) << r.out;
}

// cutechess-cli's forms: proto=uci, st= in seconds, -games 2 with -rounds, -pgnout FILE.
TEST(Cli, CutechessLineRuns) {
  const std::string dir = test_dir();
  Result r = chesshpc(
      "selfplay -engine cmd=chesshpc name=A -engine cmd=/usr/games/stockfish proto=uci name=B "
      "-each st=0.01 -rounds 1 -games 2 -draw movenumber=40 movecount=8 score=10 -resign movecount=3 "
      "score=900 -maxmoves 60 -recover -srand 7 -pgnout " +
      dir + "c.pgn min --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(pgn_tags(read_all(dir + "c.pgn"), "White"), (std::vector<std::string>{"A", "B"}));
  EXPECT_NE(r.out.find("\nResults of A vs B (0.01/move, 1t - NULL, 2MB - NULL):\n"), std::string::npos) << r.out;
}

// What either tool's user writes wrong is said as they wrote it: a key as key=, an option
// with one dash, the closest known one offered.
TEST(Cli, FastchessMistakesAreNamedAsWritten) {
  const std::string engines = "selfplay -rounds 1 -engine cmd=chesshpc name=A -engine cmd=chesshpc name=B ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"-each nodes=abc", "chesshpc: nodes= must be a whole number from 1 to 2000000000, not 'abc'"},
      {"-each nodez=5", "chesshpc: unknown key nodez= for 'selfplay --engine' (did you mean nodes=?)"},
      {"-each nodes=5 proto=xboard", "chesshpc: --engine proto= takes uci, not 'xboard'"},
      {"-each tc=x/1", "chesshpc: tc= takes MOVES/BASE+INC with MOVES a whole number from 1 to 10000, not 'x/1'"},
      {"-each st=x", "chesshpc: st= must be a number from 0.001 to 86400, not 'x'"},
      {"-each nodes=5 -draw score=0", "chesshpc: -draw score= must be a whole number from 1 to 100000, not '0'"},
      {"-each nodes=5 -draw movecont=3 score=5",
       "chesshpc: unknown key movecont= for '-draw' (did you mean movecount=?)"},
      {"-each nodes=5 -concurrenc 2",
       "chesshpc: unknown option -concurrenc for 'selfplay' (did you mean -concurrency?)"},
      {"-each nodes=5 -games 3",
       "chesshpc: -games takes 2 (or -repeat): chesshpc plays each opening twice, colours "
       "swapped"},
      {"-each nodes=5 -sprt elo0=0 elo1=5 model=bayesian",
       "chesshpc: --sprt model= takes normalized or logistic, not 'bayesian'"},
      {"-each st=1 tc=1+0",
       "chesshpc: --engine takes one of nodes=, depth= (plies=), movetime= and st=, and tc= beside nodes= or "
       "depth= (each side has one limit per move, and a clock)"},
      {"-each nodes=5 timemargin=50",
       "chesshpc: --engine timemargin= goes with tc= (the time a flag may run below zero)"},
      {"-each nodes=5 dir=/", "chesshpc: --engine dir= is for an engine's command, not chesshpc"},
      {"-each nodes=5 -pgnout file=x.pgn seldepth=true",
       "chesshpc: -pgnout seldepth=true is not supported: chesshpc's move comments hold the score, depth, time and "
       "nodes"},
      {"-each nodes=5 -pgnout file=x.pgn min=true",
       "chesshpc: -pgnout min=true is not supported: chesshpc writes every tag and move comment"},
  };
  for (const auto& [args, message] : cases) {
    Result r = chesshpc(engines + args + " --quiet");
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_EQ(first_line(r.err), message) << args;
    EXPECT_EQ(r.out, "") << args;
  }
}

// fastchess's man page's second example as written (a node limit beside a clock, per-engine
// options, -pgnout with nodes=), an engine run in its dir=: each engine is sent both (go nodes N wtime ... movestogo
// for a clock with periods), the PGN names the clock, and -pgnout appends as fastchess does
// (append=false: a fresh file, so an existing one is refused).
TEST(Cli, FastchessClockBesideNodesAndPgnAppend) {
  const std::string dir = test_dir();
  // Stockfish behind a shell loop that logs each command it is sent.
  const std::string engine = dir + "logged_engine.sh";
  std::ofstream(engine)
      << "#!/bin/sh\nwhile IFS= read -r line; do printf '%s\\n' \"$line\" >>\"$0.log\"; "
         "printf '%s\\n' \"$line\"; [ \"$line\" = quit ] && break; done | exec /usr/games/stockfish\n";
  std::filesystem::permissions(engine, std::filesystem::perms::owner_all);
  const std::string pgn = dir + "sprt.pgn";
  const std::string line =
      "selfplay -engine cmd=./logged_engine.sh dir=" + dir + " name=Engine1 option.Threads=1 nodes=300 -engine " +
      "cmd=/usr/games/stockfish " +
      "name=Engine2 option.Threads=1 nodes=200 -each tc=40/60+0.5 option.Hash=16 -resign movecount=3 score=600 " +
      "-draw movenumber=34 movecount=8 score=20 -rounds 1 -concurrency 1 -pgnout notation=san nodes=true file=" + pgn;
  Result r = chesshpc(line + " --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\nResults of Engine1 vs Engine2 (40/60+0.5, 1t, 16MB):\n"), std::string::npos) << r.out;
  EXPECT_EQ(pgn_tags(read_all(pgn), "TimeControl"), (std::vector<std::string>{"40/60+0.5", "40/60+0.5"}));
  const std::string sent = read_all(engine + ".log");
  EXPECT_NE(sent.find("\ngo nodes 300 wtime 60000 btime 60000 winc 500 binc 500 movestogo 40\n"), std::string::npos)
      << sent;
  ASSERT_EQ(chesshpc(line + " --quiet").code, 0);
  EXPECT_EQ(pgn_tags(read_all(pgn), "White"), (std::vector<std::string>{"Engine1", "Engine2", "Engine1", "Engine2"}));
  Result fresh = chesshpc(line + " append=false --quiet");
  EXPECT_EQ(fresh.code, 2);
  EXPECT_EQ(first_line(fresh.err).rfind("chesshpc: '" + pgn + "' exists: add --force to overwrite it", 0), 0u)
      << fresh.err;
}

// `chesshpc help CMD` is CMD's --help; a mistyped command or option is offered the
// closest one in one line (exit 2); an unquoted FEN is told to be quoted.
TEST(Cli, HelpOfACommandAndDidYouMean) {
  Result help = chesshpc("help perft");
  EXPECT_EQ(help.code, 0);
  EXPECT_EQ(help.out, chesshpc("perft --help").out);
  EXPECT_EQ(help.out.rfind("usage: chesshpc perft", 0), 0u) << help.out;
  Result typo = chesshpc("pertf --depth 3");
  EXPECT_EQ(typo.code, 2);
  EXPECT_EQ(typo.err,
            "chesshpc: unknown command 'pertf' (did you mean 'perft'?)\nrun 'chesshpc --help' for the "
            "commands\n");
  EXPECT_EQ(chesshpc("help pertf").err, typo.err);
  Result option = chesshpc("perft --dpeth 3");
  EXPECT_EQ(option.code, 2);
  EXPECT_EQ(first_line(option.err), "chesshpc: unknown option --dpeth for 'perft' (did you mean --depth?)");
  Result far = chesshpc("perft --zzzzzz 3");
  EXPECT_EQ(first_line(far.err), "chesshpc: unknown option --zzzzzz for 'perft'");
  Result fen = chesshpc("perft --depth 1 --fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  EXPECT_EQ(fen.code, 2);
  EXPECT_EQ(first_line(fen.err),
            "chesshpc: unexpected argument 'w' for 'perft' (a FEN is one argument: put it in quotes, e.g. --fen "
            "\"8/8/8/8/8/8/8/K1k5 w - - 0 1\")");
}

// One reader of --moves for rules, perft and verify, the PGN reader's: move numbers with or
// without a space ("1. e4", "1.e4", "2...Nf6"), SAN and UCI alike.
TEST(Cli, MovesReadAsThePgnReaderReadsThem) {
  const std::string start = "'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'";
  const std::string after = "perft 2 of rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2\n";
  for (const char* moves : {"1. e4 e5 2. Nf3", "1.e4 e5 2.Nf3", "1.e4 1...e5 2.g1f3", "e2e4 e7e5 g1f3"}) {
    Result perft = chesshpc("perft --depth 2 --moves '" + std::string(moves) + "'");
    EXPECT_EQ(perft.code, 0) << moves << perft.err;
    EXPECT_EQ(perft.out.substr(0, perft.out.find('\n') + 1), after) << moves;
    EXPECT_NE(perft.out.find("\nnodes 779 in "), std::string::npos) << perft.out;
    Result rules = chesshpc("rules --json --moves '" + std::string(moves) + "'");
    EXPECT_EQ(rules.code, 0) << moves << rules.err;
    EXPECT_NE(rules.out.find("\"plies\": 3"), std::string::npos) << rules.out;
    Result verify = chesshpc("verify --engine '" + std::string(CHESSHPC_BIN) + " uci' --depth 2 --fen " + start +
                             " --moves '" + moves + "'");
    EXPECT_EQ(verify.code, 0) << moves << verify.err;
    EXPECT_NE(verify.out.find(" 779 nodes, 0 faults"), std::string::npos) << verify.out;
  }
}

// Several selfplay files into one output, as their exports one after the other; a line
// of progress after each (none with --quiet); a bad file among them leaves no output.
TEST(Cli, ExportOfManyFilesIsTheirExportsInTurn) {
  const std::string dir = test_dir(), a = dir + "a.h5", b = dir + "b.h5";
  ASSERT_EQ(chesshpc("selfplay --games 2 --nodes 100 --seed 3 --threads 1 --quiet --out " + a).code, 0);
  ASSERT_EQ(chesshpc("selfplay --games 4 --nodes 100 --seed 4 --threads 1 --quiet --out " + b).code, 0);
  for (const char* format : {"epd", "pgn"}) {
    const std::string f = std::string("export --format ") + format + " ";
    Result both = chesshpc(f + a + " " + b + " --out " + dir + "both." + format);
    ASSERT_EQ(both.code, 0) << both.err;
    EXPECT_EQ(read_all(dir + "both." + format), chesshpc(f + a + " --quiet").out + chesshpc(f + b + " --quiet").out)
        << format;
    EXPECT_EQ(both.err.rfind("export: 1/2 files, ", 0), 0u) << both.err;
    EXPECT_NE(both.err.find("\nexport: 2/2 files, "), std::string::npos) << both.err;
    Result quiet = chesshpc(f + a + " " + b + " --quiet");
    EXPECT_EQ(quiet.err.find("/2 files, "), std::string::npos) << quiet.err;
  }
  Result bad = chesshpc("export --format epd " + a + " " + dir + "none.h5 --out " + dir + "bad.epd");
  EXPECT_EQ(bad.code, 4);
  EXPECT_EQ(bad.err, "chesshpc export: cannot read '" + dir + "none.h5': No such file or directory\n");
  EXPECT_FALSE(exists(dir + "bad.epd"));
  const std::string help = chesshpc("export --help").out;
  EXPECT_NE(help.find("\n  --out FILE "), std::string::npos) << help;
  EXPECT_EQ(help.find("--out FILE.h5"), std::string::npos) << help;
}

// perft --out splits the run into units by itself; --detailed, which runs in one
// process, is refused with it; an EPD suite writes its counts.
TEST(Cli, PerftOutWithoutSplitDepth) {
  const std::string dir = test_dir();
  Result r = chesshpc("perft --depth 3 --threads 1 --quiet --out " + dir + "p.h5");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("8902"), std::string::npos) << r.out;
  EXPECT_TRUE(exists(dir + "p.h5"));
  Result detailed = chesshpc("perft --depth 3 --detailed --out " + dir + "d.h5");
  EXPECT_EQ(detailed.code, 2);
  EXPECT_EQ(first_line(detailed.err), "chesshpc: --detailed runs in one process and writes no file; drop --out");
  // An EPD suite's --out holds every count checked (the Python package's test reads it
  // back); the mismatch still exits 1, the summary counts in words; a suite has nothing to
  // resume.
  const std::string epd = write_file("out_suite.epd", "8/8/8/8/8/8/8/K1k5 w - - 0 1 ;D1 3\n");
  Result suite = chesshpc("perft --epd " + epd + " --out " + dir + "e.h5 --quiet");
  EXPECT_EQ(suite.code, 1) << suite.err;
  EXPECT_EQ(suite.out.rfind(epd + ": 1 position, 1 count checked, 1 mismatch, 0 unreadable lines; 1 node in ", 0), 0u)
      << suite.out;
  EXPECT_TRUE(exists(dir + "e.h5"));
  Result again = chesshpc("perft --epd " + epd + " --out " + dir + "e.h5 --quiet");
  EXPECT_EQ(again.code, 2);
  EXPECT_EQ(first_line(again.err).rfind("chesshpc: '" + dir + "e.h5' exists: add --force to overwrite it", 0), 0u)
      << again.err;
  EXPECT_EQ(chesshpc("perft --epd " + epd + " --out " + dir + "e.h5 --force --quiet").code, 1);
  Result resume = chesshpc("perft --epd " + epd + " --out " + dir + "e.h5 --resume");
  EXPECT_EQ(resume.code, 2);
  EXPECT_EQ(first_line(resume.err),
            "chesshpc: --resume goes with a run split into units; --epd writes its --out once, at the end");
}

// A second bench writes bench-2.h5, said on stderr, and keeps bench.h5; the table marks
// ratios over Stockfish runs under a second "(short)", as the report does.
TEST(Cli, BenchWritesAFreshNameAndMarksShortRatios) {
  const std::string dir = test_dir(), in_dir = "cd " + dir + " && ";
  Result first = chesshpc("bench --suite quick --repeats 1 --quiet", in_dir);
  ASSERT_EQ(first.code, 0) << first.err;
  EXPECT_NE(first.out.find(" (short)\n"), std::string::npos) << first.out;
  EXPECT_NE(first.out.find("\n(short): 5 of 5 ratios: Stockfish ran under 1 s there, so the ratio measures its UCI "
                           "round trip more than its move generation\n"),
            std::string::npos)
      << first.out;
  Result second = chesshpc("bench --suite quick --repeats 1 --quiet --stockfish none", in_dir);
  ASSERT_EQ(second.code, 0) << second.err;
  EXPECT_EQ(second.err, "chesshpc bench: 'bench.h5' exists: writing 'bench-2.h5'\n");
  EXPECT_NE(second.out.find("\nwrote bench-2.h5: "), std::string::npos) << second.out;
  EXPECT_TRUE(exists(dir + "bench.h5") && exists(dir + "bench-2.h5"));
}

// The games in which a rule's condition held are "fired" in drawstats' table, its JSON,
// the HDF5 column and the report alike.
TEST(Cli, DrawstatsNamesFiredAsTheFileDoes) {
  const std::string pgn = write_file("fired.pgn", "[Event \"x\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n");
  Result text = chesshpc("drawstats " + pgn + " --quiet");
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("\nrule                        fired      ended       q1   median       q3\n"
                          "checkmate                       1          1        4        4        4\n"),
            std::string::npos)
      << text.out;
  Result json = chesshpc("drawstats " + pgn + " --quiet --json");
  EXPECT_NE(json.out.find("\"checkmate\": {\"fired\": 1, \"ended\": 1,"), std::string::npos) << json.out;
}

// -openings start=N plays from the book's line N on, plies=N cuts each PGN line to N
// plies (the games' Opening tag says what was played); a start past the book is bad input.
TEST(Cli, FastchessOpeningsStartAndPlies) {
  const std::string dir = test_dir();
  const std::string book = write_file("start_plies.pgn",
                                      "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n"
                                      "[Event \"b\"]\n\n1. d4 d5 2. c4 e6 *\n");
  const std::string line =
      "selfplay -engine cmd=chesshpc name=A -engine cmd=chesshpc name=B -each nodes=50 "
      "-rounds 1 -openings format=pgn file=" +
      book;
  Result r = chesshpc(line + " plies=3 start=2 -pgnout file=" + dir + "o.pgn --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string games = read_all(dir + "o.pgn");
  EXPECT_EQ(pgn_tags(games, "Opening"), (std::vector<std::string>{"d4 d5 c4", "d4 d5 c4"}));
  EXPECT_NE(games.find("\n1. d4 d5 2. c4 "), std::string::npos) << games;
  Result past = chesshpc(line + " start=3 --quiet");
  EXPECT_EQ(past.code, 3);
  EXPECT_EQ(past.err, "chesshpc selfplay: '" + book + "' has 2 lines: it cannot start at line 3\n");
}
