// Engines that misbehave, as verify and selfplay meet them: an engine that prints lines
// forever without its handshake's answer, one endless line, an engine that exits or hangs
// mid-batch, one that cannot be started again. Each ends on its deadline with one line
// and the documented exit code, and a selfplay batch goes on past a failed game. The
// stand-in engines are shell scripts each test writes into its own directory; every run
// is bounded by timeout(1), so that a deadline that never comes fails the test, not the
// suite.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "jobs/io/h5.h"
#include "jobs/selfplay/game.h"
#include "jobs/selfplay/tables.h"
#include "jobs/uci/engine.h"
#include "tests/run_command.h"

namespace {

namespace fs = std::filesystem;

using Result = chesshpc::testing_support::CommandResult;

// A fresh directory of the test's own.
std::string test_dir() {
  std::string dir =
      testing::TempDir() + "engine_faults_" + testing::UnitTest::GetInstance()->current_test_info()->name();
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir + "/";
}

// chesshpc with `args` (shell-quoted as needed), killed after 30 s: a run that should end
// on a deadline of a second or two and does not exits 124.
Result run(const std::string& args) {
  return chesshpc::testing_support::run_command("timeout 30 " + std::string(CHESSHPC_BIN) + " " + args,
                                                testing::TempDir() + "engine_faults_" +
                                                    testing::UnitTest::GetInstance()->current_test_info()->name() +
                                                    ".stderr");
}

// An executable script in dir.
std::string script(const std::string& dir, const std::string& name, const std::string& text) {
  const std::string path = dir + name;
  std::ofstream(path) << "#!/bin/sh\n" << text;
  fs::permissions(path, fs::perms::owner_all);
  return path;
}

const std::string START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

// Answers the handshake; on `go`, one line without an end.
const std::string ENDLESS_ANSWER =
    "while read -r cmd rest; do\n"
    "  case $cmd in uci) echo uciok ;; isready) echo readyok ;; go) yes | tr -d '\\n' ;; esac\n"
    "done\n";

// A stand-in UCI engine for selfplay: it plays the knights out and back (g1f3 g8f6 f3g1
// f6g8, by the number of moves so far), so that every game is a threefold repetition in 8
// plies. `fake DIR FAULT...`: the go commands of every process started with DIR are counted
// together, and each FAULT says what happens at some of them: "N:exit" exits at go N, "N:hang"
// stops answering, "N:die" exits and no later start answers.
const std::string FAKE =
    "dir=$1\nshift\nfaults=\" $* \"\n"
    "if [ -e \"$dir/dead\" ]; then read -r line; exit 1; fi\n"
    "moves=0\n"
    "while read -r cmd rest; do\n"
    "  case $cmd in\n"
    "    uci) echo 'id name fake'; echo uciok ;;\n"
    "    isready) echo readyok ;;\n"
    "    position) set -- $rest; moves=$(($# > 8 ? $# - 8 : 0)) ;;\n"
    "    go) n=$(($(cat \"$dir/gos\" 2>/dev/null || echo 0) + 1)); echo $n > \"$dir/gos\"\n"
    "      case $faults in\n"
    "        *\" $n:exit \"*) exit 3 ;;\n"
    "        *\" $n:hang \"*) exec sleep 60 ;;\n"
    "        *\" $n:die \"*) : > \"$dir/dead\"; exit 3 ;;\n"
    "      esac\n"
    "      case $((moves % 4)) in 0) m=g1f3 ;; 1) m=g8f6 ;; 2) m=f3g1 ;; *) m=f6g8 ;; esac\n"
    "      echo 'info depth 1 score cp 0'; echo \"bestmove $m\" ;;\n"
    "    quit) exit 0 ;;\n"
    "  esac\n"
    "done\n";

// A batch of `games` between the stand-in with `faults` (the first player) and a sound
// one, on one thread, into dir/s.h5; returns the command line after "chesshpc ".
std::string fake_batch(const std::string& dir, int games, const std::string& faults, const std::string& extra) {
  const std::string fake = script(dir, "fake.sh", FAKE);
  fs::create_directories(dir + "first"), fs::create_directories(dir + "second");
  return "selfplay --games " + std::to_string(games) + " --nodes 10 --threads 1 --quiet --engine 'cmd=uci:" + fake +
         " " + dir + "first " + faults + "' --engine 'cmd=uci:" + fake + " " + dir + "second none' --out " + dir +
         "s.h5 " + extra;
}

std::string fake_command(const std::string& dir, const std::string& faults) {
  return dir + "fake.sh " + dir + "first " + faults;
}

chesshpc::SelfplayTables games_of(const std::string& path) {
  return chesshpc::read_selfplay_tables(chesshpc::h5::open_read(path));
}

std::vector<std::string> terminations(const chesshpc::SelfplayTables& t) { return t.games.termination; }

}  // namespace

// `yes` prints lines forever and never uciok: the handshake's deadline counts from `uci`,
// whatever comes meanwhile. An engine that cannot start is bad input (exit 3), one line.
TEST(EngineFaults, VerifyEngineThatPrintsLinesForeverWithoutUciokEndsOnTheTimeout) {
  Result r = run("verify --engine yes --timeout 0.5 --fen '" + START + "' --depth 2");
  EXPECT_EQ(r.code, 3);
  EXPECT_EQ(r.err, "chesshpc verify: engine 'yes' sent no uciok within 0.5 s of uci\n");
  EXPECT_EQ(r.out, "");
}

// uciok, then lines forever and never readyok: isready has its deadline too.
TEST(EngineFaults, VerifyEngineWithoutReadyokEndsOnTheTimeout) {
  const std::string engine = script(test_dir(), "uciok_then_yes.sh", "read -r line\necho uciok\nexec yes\n");
  Result r = run("verify --engine " + engine + " --timeout 0.5 --fen '" + START + "' --depth 2");
  EXPECT_EQ(r.code, 3);
  EXPECT_EQ(r.err, "chesshpc verify: engine '" + engine + "' sent no readyok within 0.5 s of isready\n");
}

// One line without an end: read up to the cap (jobs/uci/engine.h: MAX_LINE_BYTES), then
// an engine fault, long before the deadline; memory stays at the cap.
TEST(EngineFaults, VerifyEndlessLineIsAFaultAtTheHandshakeAndInAQuery) {
  const std::string dir = test_dir();
  const std::string endless = script(dir, "endless.sh", "yes | tr -d '\\n'\n");
  Result start = run("verify --engine " + endless + " --timeout 20 --fen '" + START + "' --depth 2");
  EXPECT_EQ(start.code, 3);
  EXPECT_EQ(start.err, "chesshpc verify: engine '" + endless + "' sent a line longer than 1048576 bytes\n");

  const std::string answer = script(dir, "endless_answer.sh", ENDLESS_ANSWER);
  Result query = run("verify --engine " + answer + " --timeout 20 --fen '" + START + "' --depth 2");
  EXPECT_EQ(query.code, 1);
  EXPECT_EQ(query.out.substr(0, query.out.find('\n') + 1), "protocol at \"" + START + "\" depth 2: engine '" + answer +
                                                               "' sent a line longer than 1048576 bytes (restarted)\n")
      << query.out;
}

// selfplay's players have the same handshake, with --timeout's deadline.
TEST(EngineFaults, SelfplayEngineThatPrintsLinesForeverWithoutUciokEndsOnTheTimeout) {
  Result r = run("selfplay --games 2 --nodes 10 --white uci:yes --timeout 0.5 --quiet");
  EXPECT_EQ(r.code, 3);
  EXPECT_EQ(r.err, "chesshpc selfplay: engine 'yes' sent no uciok within 0.5 s of uci\n");
}

// The engine exits at its third move: that game is an error game, as an illegal bestmove
// is (result *, termination "error: NAME: what"), the engine starts again for the next
// game, and the batch ends normally.
TEST(EngineFaults, SelfplayEngineThatExitsMidGameEndsThatGameOnly) {
  const std::string dir = test_dir();
  Result r = run(fake_batch(dir, 4, "3:exit", ""));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\nterminations: error 1 threefold_repetition 3\n"), std::string::npos) << r.out;
  chesshpc::SelfplayTables t = games_of(dir + "s.h5");
  EXPECT_EQ(terminations(t),
            (std::vector<std::string>{"error: fake: engine '" + fake_command(dir, "3:exit") + "' exited",
                                      "threefold_repetition", "threefold_repetition", "threefold_repetition"}));
  EXPECT_EQ(t.games.result, (std::vector<std::string>{"*", "1/2-1/2", "1/2-1/2", "1/2-1/2"}));
  EXPECT_EQ(t.games.plies, (std::vector<int32_t>{4, 8, 8, 8}));
}

// The engine stops answering at its third move: after --timeout (no time in a node
// limit, so the margin alone) the game is an error game and the engine is replaced.
TEST(EngineFaults, SelfplayEngineThatHangsMidGameEndsThatGameOnly) {
  const std::string dir = test_dir();
  Result r = run(fake_batch(dir, 4, "3:hang", "--timeout 0.5"));
  ASSERT_EQ(r.code, 0) << r.err;
  chesshpc::SelfplayTables t = games_of(dir + "s.h5");
  EXPECT_EQ(terminations(t),
            (std::vector<std::string>{
                "error: fake: engine '" + fake_command(dir, "3:hang") + "' sent no bestmove within 0.5 s of go",
                "threefold_repetition", "threefold_repetition", "threefold_repetition"}));
  EXPECT_EQ(t.games.plies, (std::vector<int32_t>{4, 8, 8, 8}));
}

// One unit of four games: a hang of a second in game 0 (checkpoints every 0.05 s find no
// new game and write nothing), then the engine dies in game 2 and cannot start again. The
// batch stops with one line, exit 3; the parts hold open()'s first part (empty, written to
// fail an unwritable --out at once) and one part with the three finished games; --resume,
// once the engine starts again, plays the last game and writes the file.
TEST(EngineFaults, SelfplayEngineThatCannotStartAgainStopsTheBatchKeepingItsGames) {
  const std::string dir = test_dir();
  const std::string line = fake_batch(dir, 4, "2:hang 9:die", "--timeout 1 --games-per-unit 4 --checkpoint 0.05");
  Result r = run(line);
  EXPECT_EQ(r.code, 3);
  const std::string command = fake_command(dir, "2:hang 9:die");
  const std::string head = "chesshpc selfplay: player 'uci:" + command + "' could not be started again: engine '" +
                           command + "' exited; the batch stops: its 3 finished games of 4 are kept in '" + dir +
                           "s.h5.parts', and --resume continues it: ";
  EXPECT_EQ(r.err.substr(0, head.size()), head) << r.err;
  EXPECT_EQ(r.err.substr(r.err.size() - std::min(r.err.size(), size_t(10))), " --resume\n") << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;

  std::set<std::string> parts;
  for (const auto& e : fs::directory_iterator(dir + "s.h5.parts")) parts.insert(e.path().filename().string());
  EXPECT_EQ(parts, (std::set<std::string>{"part-000000.h5", "part-000001.h5"}));
  EXPECT_EQ(games_of(dir + "s.h5.parts/part-000000.h5").games.size(), 0u);
  chesshpc::SelfplayTables kept = games_of(dir + "s.h5.parts/part-000001.h5");
  EXPECT_EQ(kept.games.game, (std::vector<uint64_t>{0, 1, 2}));
  EXPECT_EQ(kept.games.termination[0], "error: fake: engine '" + command + "' sent no bestmove within 1 s of go");
  EXPECT_EQ(kept.games.termination[1], "threefold_repetition");
  EXPECT_EQ(kept.games.termination[2], "error: fake: engine '" + command + "' exited");

  fs::remove(dir + "first/dead");
  Result resumed = run(line + " --resume");
  ASSERT_EQ(resumed.code, 0) << resumed.err;
  EXPECT_EQ(resumed.out.rfind("selfplay: 4 games (3 resumed), ", 0), 0u) << resumed.out;
  EXPECT_EQ(games_of(dir + "s.h5").games.plies, (std::vector<int32_t>{2, 8, 4, 8}));
}

namespace {

// A player whose engine is gone before the game: new_game() throws, as UciEngine's does
// when the engine exited between games.
struct GonePlayer : chesshpc::Player {
  std::string name() const override { return "gone"; }
  void new_game() override { throw chesshpc::UciExited("engine 'gone' exited"); }
  chesshpc::MoveChoice choose(const chess::Game&, const std::optional<chesshpc::Clocks>&, chess::Random&) override {
    ADD_FAILURE() << "asked for a move";
    return {};
  }
};

// Plays the first legal move.
struct FirstMovePlayer : chesshpc::Player {
  std::string name() const override { return "first"; }
  void new_game() override {}
  chesshpc::MoveChoice choose(const chess::Game& game, const std::optional<chesshpc::Clocks>&,
                              chess::Random&) override {
    chesshpc::MoveChoice c;
    c.move = c.best = chess::legal_moves(game.position())[0];
    return c;
  }
};

}  // namespace

// The error comes before the first move: the game ends there as an error game, as an
// error at a move does (it escaped play_game, and so ended the batch as exit 6).
TEST(EngineFaults, PlayerThatFailsItsNewGameEndsTheGameBeforeAMove) {
  GonePlayer gone;
  FirstMovePlayer other;
  for (uint64_t index : {0, 1}) {  // White, then Black
    chesshpc::GameRecord g = chesshpc::play_game(chesshpc::GameSpec{}, index, gone, other);
    EXPECT_EQ(g.ending, chesshpc::Ending::ERROR);
    EXPECT_EQ(g.result, chess::Result::ONGOING);
    EXPECT_EQ(g.termination, "error: gone: engine 'gone' exited");
    EXPECT_EQ(g.plies.size(), 0u);
  }
}
