// chesshpc uci driven through a pipe, as a chess interface drives it, and the bench command.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <algorithm>
#include <array>
#include <cstdio>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "core/movegen.h"
#include "core/uci.h"
#include "jobs/uci/server.h"
#include "tests/sanitizers.h"

namespace {

// Feeds script to "chesshpc uci" through a shell (script may hold sleeps between
// printf calls), run after prefix (such as prlimit), and returns what the engine wrote.
std::string run_engine(const std::string& script, const std::string& prefix = "") {
  std::string cmd = "(" + script + ") | " + prefix + std::string(CHESSHPC_BIN) + " uci";
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  int status = pclose(p);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  return out;
}

std::vector<std::string> lines_starting(const std::string& out, const std::string& prefix) {
  std::vector<std::string> found;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) found.push_back(line);
  return found;
}

// The first word of every line of out but info, id and option lines, in order: the
// answers (uciok, readyok, bestmove) whose order and number a test asserts.
std::vector<std::string> answers(const std::string& out) {
  std::vector<std::string> found;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    const std::string word = line.substr(0, line.find(' '));
    if (word != "info" && word != "id" && word != "option") found.push_back(word);
  }
  return found;
}

std::string bestmove_of(const std::string& line) {
  std::istringstream in(line);
  std::string word, move;
  in >> word >> move;
  return move;
}

// Sends commands (printf text), waits `seconds`, then sends isready and quits: whatever a
// search answers by itself comes before "readyok".
std::string run_then_ready(const std::string& commands, double seconds) {
  return run_engine("printf '" + commands + "'; sleep " + std::to_string(seconds) +
                    "; printf 'isready\\n'; sleep 0.2; printf 'quit\\n'");
}

// The bestmove lines of out, after checking there are `count` and each is legal in pos.
std::vector<std::string> legal_bestmoves(const std::string& out, const chess::Position& pos, size_t count) {
  std::vector<std::string> best = lines_starting(out, "bestmove ");
  EXPECT_EQ(best.size(), count) << out;
  for (const std::string& b : best) EXPECT_TRUE(chess::parse_uci(pos, bestmove_of(b)).has_value()) << b;
  return best;
}

}  // namespace

TEST(Uci, HandshakeAndReady) {
  std::string out = run_engine("printf 'uci\\nisready\\nquit\\n'");
  EXPECT_NE(out.find("id name chesshpc"), std::string::npos) << out;
  EXPECT_NE(out.find("option name Hash type spin"), std::string::npos) << out;
  EXPECT_EQ(answers(out), (std::vector<std::string>{"uciok", "readyok"})) << out;
}

TEST(Uci, GoDepthGivesInfoAndALegalBestmove) {
  std::string out = run_engine(
      "printf 'uci\\nucinewgame\\nsetoption name Hash value 8\\nposition startpos moves e2e4 e7e5 g1f3\\n"
      "go depth 6\\n'");
  auto best = lines_starting(out, "bestmove ");
  ASSERT_EQ(best.size(), 1u) << out;
  chess::Position pos = chess::Position::start();
  for (const char* m : {"e2e4", "e7e5", "g1f3"}) pos.do_move(*chess::parse_uci(pos, m));
  EXPECT_TRUE(chess::parse_uci(pos, bestmove_of(best[0])).has_value()) << best[0];
  auto infos = lines_starting(out, "info depth ");
  ASSERT_EQ(infos.size(), 6u) << out;
  for (const char* field : {" seldepth ", " score cp ", " nodes ", " nps ", " time ", " pv "})
    EXPECT_NE(infos.back().find(field), std::string::npos) << field << " in " << infos.back();
  EXPECT_EQ(infos.back().rfind("info depth 6 ", 0), 0u);
}

TEST(Uci, MateScoreAndFenPosition) {
  std::string out = run_engine("printf 'position fen 6k1/5ppp/8/8/8/8/8/R6K w - - 0 1\\ngo depth 3\\n'");
  EXPECT_NE(out.find("score mate 1 "), std::string::npos) << out;
  EXPECT_NE(out.find("bestmove a1a8"), std::string::npos) << out;
}

// UCI_Chess960: offered as a check option, off by default; on, a Chess960
// position is read and its castling written king-takes-rook. Here the only mate is
// O-O-O (a normal rook move from a1 to d1 is blocked by the king on b1).
TEST(Uci, Chess960OptionPlaysAndWritesCastlingKingTakesRook) {
  const std::string fen = "2rkr3/2p1p3/8/8/8/8/8/RK6 w Q - 0 1";
  const std::string KIWIPETE_FEN = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
  std::string out =
      run_engine("printf 'uci\\nsetoption name UCI_Chess960 value true\\nposition fen " + fen + "\\ngo depth 3\\n'");
  EXPECT_NE(out.find("option name UCI_Chess960 type check default false\n"), std::string::npos) << out;
  EXPECT_NE(out.find("score mate 1 "), std::string::npos) << out;
  EXPECT_NE(out.find("bestmove b1a1"), std::string::npos) << out;
  // Off (the default), the same FEN is no standard chess position, and e1h1 no move
  // (Kiwipete castles as e1g1).
  out = run_engine("printf 'position fen " + fen + "\\nposition fen " + KIWIPETE_FEN + " moves e1h1\\nquit\\n'");
  EXPECT_NE(out.find("info string bad FEN: castling: 'Q' but no king on e1"), std::string::npos) << out;
  EXPECT_NE(out.find("info string illegal move 'e1h1'"), std::string::npos) << out;
  out = run_engine("printf 'setoption name UCI_Chess960 value maybe\\nquit\\n'");
  EXPECT_NE(out.find("info string UCI_Chess960 is true or false, not 'maybe'"), std::string::npos) << out;
}

TEST(Uci, NodesLimitAndMovetime) {
  std::string out = run_engine("printf 'position startpos\\ngo nodes 3000\\ngo movetime 100\\n'");
  EXPECT_EQ(lines_starting(out, "bestmove ").size(), 2u) << out;
  for (const std::string& info : lines_starting(out, "info depth ")) {
    std::istringstream in(info.substr(info.find(" nodes ") + 7));
    uint64_t nodes = 0;
    in >> nodes;
    EXPECT_LE(nodes, 3000u) << info;
    break;
  }
}

TEST(Uci, BadLinesAreReportedAndIgnored) {
  std::string out = run_engine(
      "printf 'hello\\nposition fen 8/8/8/8/8/8/8/8 w - - 0 1\\nposition startpos moves e2e5\\nposition sideways\\n"
      "setoption name Hash value lots\\nsetoption name Nonsense value 1\\ngo depth 2 banana\\ngo depth x\\n"
      "isready\\nquit\\n'");
  EXPECT_GE(lines_starting(out, "info string ").size(), 7u) << out;
  EXPECT_NE(out.find("info string unknown command: 'hello'"), std::string::npos) << out;
  EXPECT_NE(out.find("illegal move 'e2e5'"), std::string::npos) << out;
  // The bad position lines left the start position in place: the search still ran.
  auto best = lines_starting(out, "bestmove ");
  ASSERT_EQ(best.size(), 2u) << out;
  EXPECT_TRUE(chess::parse_uci(chess::Position::start(), bestmove_of(best[0])).has_value()) << best[0];
  EXPECT_NE(out.find("readyok"), std::string::npos);
}

// A line is quoted back as an excerpt: at most 60 characters, escaped.
TEST(Uci, LongAndBinaryLinesAreQuotedAsExcerpts) {
  std::string out = run_engine("printf 'hel\\001lo" + std::string(5000, 'x') +
                               "\\nposition startpos moves e2e4 \\033[2J\\nisready\\nquit\\n'");
  EXPECT_EQ(
      lines_starting(out, "info string "),
      (std::vector<std::string>{"info string unknown command: 'hel\\x01lo" + std::string(51, 'x') + "...'",
                                "info string illegal move '\\x1B[2J' in "
                                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1; position unchanged"}))
      << out;
}

// 24 queens overflowed the search's move list: the position is refused, and the engine
// searches the position it had.
TEST(Uci, ImpossibleMaterialIsRefusedAndThePositionKept) {
  std::string out =
      run_engine("printf 'position fen knQQQQQQ/pp5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/QQQQQQQK w - - 0 1\\ngo depth 2\\n'");
  EXPECT_NE(out.find("info string bad FEN: piece placement: white has 25 pieces and pawns, more than 16\n"),
            std::string::npos)
      << out;
  legal_bestmoves(out, chess::Position::start(), 1);
}

// A Hash the machine cannot give (here beyond an address-space limit) ended the engine with
// std::bad_alloc: it is said, the table kept, and the engine plays on.
TEST(Uci, HashThatCannotBeAllocatedKeepsTheTable) {
  SKIP_UNDER_ASAN_WITH_ADDRESS_LIMIT();
  std::string out = run_engine(
      "printf 'setoption name Hash value 4096\\nposition startpos\\ngo depth 4\\n'; sleep 1; printf 'quit\\n'",
      "prlimit --as=800000000 ");
  EXPECT_NE(out.find("info string Hash 4096 MB cannot be allocated; it stays 16 MB\n"), std::string::npos) << out;
  legal_bestmoves(out, chess::Position::start(), 1);
}

// movetime 0 or below and a clock of -1 searched until "stop" (they read as "no limit"):
// each is the shortest search and answers by itself, before the isready sent a second later.
TEST(Uci, NonPositiveTimesSearchBrieflyAndAnswer) {
  std::string out = run_then_ready(
      "position startpos\\ngo movetime 0\\ngo movetime -100\\ngo wtime -1\\ngo wtime 0 btime 0\\n"
      "go wtime -5 winc -7\\n",
      1.5);
  legal_bestmoves(out, chess::Position::start(), 5);
  EXPECT_EQ(answers(out),
            (std::vector<std::string>{"bestmove", "bestmove", "bestmove", "bestmove", "bestmove", "readyok"}))
      << "a search waited for quit: " << out;
  EXPECT_EQ(out.find("a search is running"), std::string::npos) << out;
}

// winc 2^63 - 1 overflowed (UBSan) and answered at depth 1; capped, the search uses its
// second: several iterations, and the answer before the isready sent 2.5 s later.
TEST(Uci, HugeIncrementSearchesWithinTheClock) {
  std::string out = run_then_ready("position startpos\\ngo wtime 1000 winc 9223372036854775807\\n", 2.5);
  legal_bestmoves(out, chess::Position::start(), 1);
  EXPECT_EQ(answers(out), (std::vector<std::string>{"bestmove", "readyok"})) << out;
  EXPECT_GE(lines_starting(out, "info depth ").size(), 4u) << "answered without searching: " << out;
}

TEST(Uci, StopEndsGoInfinite) {
  std::string out = run_engine(
      "printf 'position startpos moves d2d4\\ngo infinite\\n'; sleep 0.5; printf 'isready\\n'; sleep 0.2; "
      "printf 'stop\\n'; sleep 0.2; printf 'quit\\n'");
  // The search was still running when isready came, and bestmove waited for stop.
  EXPECT_EQ(answers(out), (std::vector<std::string>{"readyok", "bestmove"})) << out;
  legal_bestmoves(out, chess::Position::start().after(*chess::parse_uci(chess::Position::start(), "d2d4")), 1);
}

TEST(Uci, NoLegalMoveGivesNullBestmove) {
  std::string out = run_engine("printf 'position fen R5k1/5ppp/8/8/8/8/8/7K b - - 0 1\\ngo depth 3\\n'");
  EXPECT_NE(out.find("score mate 0"), std::string::npos) << out;
  EXPECT_NE(out.find("bestmove 0000"), std::string::npos) << out;
}

TEST(BenchSearch, JsonReportsTheSignatureFields) {
  std::string out;
  FILE* p = popen((std::string(CHESSHPC_BIN) + " bench search --depth 3 --json").c_str(), "r");
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  EXPECT_EQ(pclose(p), 0);
  for (const char* field : {"\"positions\": 40", "\"depth\": 3", "\"hash_mb\": 16", "\"nodes\": ", "\"nps\": "})
    EXPECT_NE(out.find(field), std::string::npos) << field << " in " << out;
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1);
}

// `go`'s arguments read alone, without a process (parse_go_limits, as Stockfish keeps
// parse_limits apart from go): each limit's exact value, the clamps, the infinite search
// and the notes for what is not taken, in argument order.
namespace {

chesshpc::GoLimits go_limits(const std::string& args) {
  std::vector<std::string> words;
  std::istringstream in(args);
  for (std::string w; in >> w;) words.push_back(w);
  return chesshpc::parse_go_limits(words);
}

// depth, nodes, movetime, wtime, btime, winc, binc, movestogo, infinite
using LimitFields = std::tuple<int, uint64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int, bool>;
LimitFields fields(const chess::SearchLimits& l) {
  return {l.depth, l.nodes, l.movetime, l.wtime, l.btime, l.winc, l.binc, l.movestogo, l.infinite};
}

}  // namespace

TEST(UciGoLimits, EveryLimitReadExactly) {
  const chesshpc::GoLimits go =
      go_limits("wtime 300000 btime 290000 winc 2000 binc 1500 movestogo 40 depth 12 nodes 500000 movetime 7000");
  EXPECT_EQ(fields(go.limits), LimitFields(12, 500000, 7000, 300000, 290000, 2000, 1500, 40, false));
  EXPECT_TRUE(go.notes.empty());
  EXPECT_EQ(fields(go_limits("btime 1000").limits), LimitFields(0, 0, 0, -1, 1000, 0, 0, 0, false));
}

TEST(UciGoLimits, NoLimitOrInfiniteSearchesUntilStop) {
  EXPECT_EQ(fields(go_limits("").limits), LimitFields(0, 0, 0, -1, -1, 0, 0, 0, true));
  EXPECT_EQ(fields(go_limits("infinite").limits), LimitFields(0, 0, 0, -1, -1, 0, 0, 0, true));
  EXPECT_EQ(fields(go_limits("depth 3 infinite").limits), LimitFields(3, 0, 0, -1, -1, 0, 0, 0, true));
  // Increments and movestogo alone are no limit.
  EXPECT_EQ(fields(go_limits("winc 100 binc 100 movestogo 10").limits),
            LimitFields(0, 0, 0, -1, -1, 100, 100, 10, true));
}

// A time given is a limit whatever its value: 0 or less is the shortest search, never "none".
TEST(UciGoLimits, ValuesClampedIntoWhatTheSearchTakes) {
  EXPECT_EQ(fields(go_limits("depth 0 nodes 0 movetime 0 wtime -1 btime -1 winc -7 binc -9 movestogo 5000").limits),
            LimitFields(1, 1, 1, 0, 0, 0, 0, 1000, false));
  EXPECT_EQ(fields(go_limits("depth 99999999999 nodes -3 movetime -5 movestogo -2").limits),
            LimitFields(127, 1, 1, -1, -1, 0, 0, 0, false));
}

TEST(UciGoLimits, MalformedLimitsAreNotedAndSkipped) {
  // A limit without a whole number takes nothing: the word after it is read as an argument.
  chesshpc::GoLimits go = go_limits("depth x nodes 500 movetime 5x wtime 99999999999999999999 ponder");
  EXPECT_EQ(fields(go.limits), LimitFields(0, 500, 0, -1, -1, 0, 0, 0, false));
  EXPECT_EQ(go.notes,
            (std::vector<std::string>{
                "info string go: 'depth' needs a whole number; ignored", "info string go: ignoring unknown 'x'",
                "info string go: 'movetime' needs a whole number; ignored", "info string go: ignoring unknown '5x'",
                "info string go: 'wtime' needs a whole number; ignored",
                "info string go: ignoring unknown '99999999999999999999'",
                "info string ponder is not supported; searching normally"}));
  // A limit last, without its number: none given, so the search is infinite.
  go = go_limits("nodes");
  EXPECT_EQ(fields(go.limits), LimitFields(0, 0, 0, -1, -1, 0, 0, 0, true));
  EXPECT_EQ(go.notes, std::vector<std::string>{"info string go: 'nodes' needs a whole number; ignored"});
}

// searchmoves is not supported: the word and its moves are noted and ignored, the other
// limits kept.
TEST(UciGoLimits, SearchmovesIgnoredWithItsMoves) {
  const chesshpc::GoLimits go = go_limits("searchmoves e2e4 d2d4 depth 3");
  EXPECT_EQ(fields(go.limits), LimitFields(3, 0, 0, -1, -1, 0, 0, 0, false));
  EXPECT_EQ(go.notes, (std::vector<std::string>{"info string go: ignoring unknown 'searchmoves'",
                                                "info string go: ignoring unknown 'e2e4'",
                                                "info string go: ignoring unknown 'd2d4'"}));
}
