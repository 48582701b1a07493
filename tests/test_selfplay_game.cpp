// One selfplay game: rule endings, adjudications, the clock, colour swaps, failing players,
// and a real game between two Stockfish processes.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/movegen.h"
#include "core/san.h"
#include "core/uci.h"
#include "jobs/export/run.h"
#include "jobs/io/h5.h"
#include "jobs/io/provenance.h"
#include "jobs/selfplay/batch_job.h"
#include "jobs/selfplay/file.h"
#include "jobs/selfplay/game.h"
#include "jobs/selfplay/game_bytes.h"
#include "jobs/selfplay/players.h"
#include "jobs/selfplay/request.h"
#include "jobs/selfplay/tables.h"

using namespace chesshpc;

namespace {

// Plays scripted SAN moves, then random ones from the game's stream; reports a fixed score
// and time.
class ScriptedPlayer : public Player {
 public:
  ScriptedPlayer(std::string name, std::vector<std::string> san = {}, std::optional<int> score = 0, double secs = 0)
      : name_(std::move(name)), san_(std::move(san)), score_(score), secs_(secs) {}
  std::string name() const override { return name_; }
  void new_game() override { next_ = 0, ++games_; }
  MoveChoice choose(const chess::Game& game, const std::optional<Clocks>&, chess::Random& rng) override {
    MoveChoice c;
    chess::MoveList legal = chess::legal_moves(game.position());
    if (next_ < san_.size())
      c.move = *chess::parse_move(game.position(), san_[next_++]);
    else
      c.move = legal[rng.below(legal.size())];
    c.best = c.move, c.score_cp = score_, c.seconds = secs_, c.depth = 1, c.nodes = 1;
    return c;
  }
  int games_ = 0;

 private:
  std::string name_;
  std::vector<std::string> san_;
  size_t next_ = 0;
  std::optional<int> score_;
  double secs_;
};

}  // namespace

TEST(SelfplayGame, CheckmateEndsTheGameByTheRules) {
  ScriptedPlayer a("a", {"f3", "g4"}), b("b", {"e5", "Qh4#"});
  GameRecord g = play_game(GameSpec{}, 0, a, b);
  EXPECT_EQ(g.ending, Ending::RULE);
  EXPECT_EQ(g.termination, "checkmate");
  EXPECT_EQ(g.result, chess::Result::BLACK_WINS);
  ASSERT_EQ(g.plies.size(), 4u);
  EXPECT_EQ(chess::to_uci(g.plies[3].move), "d8h4");
  EXPECT_EQ(g.white, "a");
  EXPECT_EQ(g.first_fire[int(chess::Rule::CHECKMATE)], 4);
  EXPECT_EQ(g.checks[1], 1);
}

TEST(SelfplayGame, OddGamesSwapColours) {
  ScriptedPlayer a("a"), b("b");
  GameSpec spec;
  spec.adjudication.max_plies = 6;
  GameRecord even = play_game(spec, 4, a, b), odd = play_game(spec, 5, a, b);
  EXPECT_EQ(even.white, "a");
  EXPECT_EQ(odd.white, "b");
  EXPECT_EQ(a.games_, 2);
}

TEST(SelfplayGame, ResignNeedsBothSidesToAgree) {
  ScriptedPlayer loser("loser", {}, -700), winner("winner", {}, 700), unsure("unsure", {}, 0);
  GameSpec spec;
  spec.adjudication.resign_score = 600, spec.adjudication.resign_moves = 3;
  GameRecord g = play_game(spec, 0, loser, winner);
  EXPECT_EQ(g.termination, "resign");
  EXPECT_EQ(g.result, chess::Result::BLACK_WINS);
  EXPECT_EQ(g.plies.size(), 6u);  // three moves each; White resigns at its fourth turn
  spec.adjudication.max_plies = 40;
  EXPECT_EQ(play_game(spec, 0, loser, unsure).termination, "max_length");
  spec.adjudication.resign_two_sided = false;
  EXPECT_EQ(play_game(spec, 0, loser, unsure).termination, "resign");
}

TEST(SelfplayGame, SiteRulesetResignsOnlyAfterMove15) {
  ScriptedPlayer loser("loser", {}, -700), winner("winner", {}, 700);
  GameSpec spec;
  spec.ruleset = chess::Ruleset::SITE;
  spec.adjudication.resign_score = 600, spec.adjudication.resign_moves = 3;
  GameRecord g = play_game(spec, 0, loser, winner);
  EXPECT_EQ(g.termination, "resign");
  EXPECT_EQ(g.plies.size(), 30u);  // White's 16th move is its first chance
}

TEST(SelfplayGame, LevelScoresAreAdjudicatedADraw) {
  ScriptedPlayer a("a", {}, 5), b("b", {}, -3);
  GameSpec spec;
  spec.adjudication.draw_score = 10, spec.adjudication.draw_moves = 4, spec.adjudication.draw_after_move = 10;
  GameRecord g = play_game(spec, 0, a, b);
  EXPECT_EQ(g.termination, "draw_adjudicated");
  EXPECT_EQ(g.result, chess::Result::DRAW);
  EXPECT_EQ(g.plies.size(), 26u);  // moves 10 to 13 of both sides, then White's turn at move 14
}

// A clock for one player only (--engine ... tc= against --engine ... nodes=): the clocked
// player is told both clocks, the opponent's as its own (as cutechess-cli and fastchess
// do), and is charged its time; the other moves by its own limits, told no clock, and
// never loses on time however long it thinks.
TEST(SelfplayGame, OnePlayerOnTheClockTheOtherByItsLimits) {
  class Recorder : public ScriptedPlayer {
   public:
    Recorder(std::string name, double secs) : ScriptedPlayer(std::move(name), {}, 0, secs) {}
    MoveChoice choose(const chess::Game& game, const std::optional<Clocks>& clocks, chess::Random& rng) override {
      seen.push_back(clocks);
      return ScriptedPlayer::choose(game, clocks, rng);
    }
    std::vector<std::optional<Clocks>> seen;
  };
  Recorder timed("timed", 0.25), untimed("untimed", 1000.0);
  GameSpec spec;
  spec.adjudication.max_plies = 12;
  spec.clocks = {{{2000, 100}, {}}};  // the first player's clock; none for the second
  for (uint64_t index : {0, 1}) {
    timed.seen.clear(), untimed.seen.clear();
    GameRecord g = play_game(spec, index, timed, untimed);
    EXPECT_EQ(g.termination, "max_length") << index;
    ASSERT_EQ(timed.seen.size(), 6u);
    ASSERT_EQ(untimed.seen.size(), 6u);
    const chess::Color us = index == 0 ? chess::WHITE : chess::BLACK;
    for (size_t k = 0; k < 6; ++k) {
      ASSERT_TRUE(timed.seen[k]) << k;
      const long left = 2000 - long(k) * 250 + long(k) * 100;  // 0.25 s a move, 0.1 s back
      EXPECT_EQ(timed.seen[k]->left_ms[us], left) << index << " " << k;
      EXPECT_EQ(timed.seen[k]->left_ms[~us], left) << index << " " << k;
      EXPECT_EQ(timed.seen[k]->increment_ms[~us], 100);
      EXPECT_FALSE(untimed.seen[k]) << k;
    }
  }
}

TEST(SelfplayGame, FlagFallLosesUnlessTheOpponentCannotMate) {
  std::vector<BookLine> book = {{"KR v K", chess::Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1"), {}}};
  ScriptedPlayer slow("slow", {}, 0, 1.0), fast("fast", {}, 0, 0.0);
  GameSpec spec;
  spec.openings.book = &book;
  spec.clocks = {{{2500, 0}, {2500, 0}}};
  GameRecord g = play_game(spec, 0, slow, fast);  // the rook side's flag falls at its third move
  EXPECT_EQ(g.termination, "flag_fall_draw");     // a bare king cannot mate
  EXPECT_EQ(g.result, chess::Result::DRAW);
  EXPECT_EQ(g.plies.size(), 4u);
  g = play_game(spec, 0, fast, slow);  // the bare king's flag falls: the rook side wins
  EXPECT_EQ(g.termination, "flag_fall");
  EXPECT_EQ(g.result, chess::Result::WHITE_WINS);
  spec.ruleset = chess::Ruleset::SITE;
  g = play_game(spec, 0, slow, fast);
  EXPECT_EQ(g.termination, "void");
  EXPECT_EQ(g.result, chess::Result::ONGOING);
}

// tc=3/1+0.1 with timemargin=300: 1 s for every 3 moves, BASE again with the move that ends
// a period (before it is charged, as fastchess does), movestogo counting down, and a flag
// that falls only 300 ms below zero.
TEST(SelfplayGame, ClockPeriodsComeBackAndTheMarginHoldsTheFlag) {
  class Recorder : public ScriptedPlayer {
   public:
    Recorder(std::string name, double secs) : ScriptedPlayer(std::move(name), {}, 0, secs) {}
    MoveChoice choose(const chess::Game& game, const std::optional<Clocks>& clocks, chess::Random& rng) override {
      seen.push_back(*clocks);
      return ScriptedPlayer::choose(game, clocks, rng);
    }
    std::vector<Clocks> seen;
  };
  Recorder white("white", 0.4), black("black", 0.0);
  GameSpec spec;
  spec.adjudication.max_plies = 14;
  const TimeControl tc{1000, 100, 3, 300};
  spec.clocks = {tc, tc};
  GameRecord g = play_game(spec, 0, white, black);
  EXPECT_EQ(g.termination, "max_length");
  ASSERT_EQ(white.seen.size(), 7u);
  // Each move: -400 + 100; the third of each period +1000 first.
  const std::vector<long> left = {1000, 700, 400, 1100, 800, 500, 1200};
  const std::vector<int> to_go = {3, 2, 1, 3, 2, 1, 3};
  for (size_t k = 0; k < left.size(); ++k) {
    EXPECT_EQ(white.seen[k].left_ms[chess::WHITE], left[k]) << k;
    EXPECT_EQ(white.seen[k].moves_to_go[chess::WHITE], to_go[k]) << k;
  }
  Recorder slow("slow", 1.25);  // 1000 - 1250 = -250: within the margin, so 0 + 100
  spec.clocks = {TimeControl{1000, 100, 0, 300}, tc};
  spec.adjudication.max_plies = 2;
  black.seen.clear();
  g = play_game(spec, 0, slow, black);
  EXPECT_EQ(g.termination, "max_length");
  ASSERT_EQ(black.seen.size(), 1u);
  EXPECT_EQ(black.seen[0].left_ms[chess::WHITE], 100);
  spec.clocks[0].margin_ms = 200;  // -250 is beyond it
  EXPECT_EQ(play_game(spec, 0, slow, black).termination, "flag_fall");
}

// fastchess's rules (its command lines): the losing side resigns right after the move that
// makes its run long enough, not at its next turn; the draw's run is counted from the start,
// and the move number asked only when it adjudicates.
TEST(SelfplayGame, FastchessRulesResignAtOnceAndCountDrawsFromTheStart) {
  ScriptedPlayer loser("loser", {}, -700), winner("winner", {}, 700);
  GameSpec spec;
  spec.adjudication.rules = AdjudicationRules::FASTCHESS;
  spec.adjudication.resign_score = 600, spec.adjudication.resign_moves = 3;
  spec.adjudication.resign_two_sided = false;
  GameRecord g = play_game(spec, 0, loser, winner);
  EXPECT_EQ(g.termination, "resign");
  EXPECT_EQ(g.result, chess::Result::BLACK_WINS);
  EXPECT_EQ(g.plies.size(), 5u);  // White's third losing move, and it resigns
  spec.adjudication.rules = AdjudicationRules::CHESSHPC;
  EXPECT_EQ(play_game(spec, 0, loser, winner).plies.size(), 6u);  // at its fourth turn

  ScriptedPlayer a("a", {"Nf3", "Ng1", "Nf3", "Ng1", "Nf3", "Ng1", "Nf3", "Ng1"}, 5),
      b("b", {"Nf6", "Ng8", "Nf6", "Ng8", "Nf6", "Ng8", "Nf6", "Ng8"}, -3);
  GameSpec level;
  level.claims = chess::ClaimPolicy::NEVER;
  level.adjudication.rules = AdjudicationRules::FASTCHESS;
  level.adjudication.draw_score = 10, level.adjudication.draw_moves = 2, level.adjudication.draw_after_move = 4;
  g = play_game(level, 0, a, b);
  EXPECT_EQ(g.termination, "draw_adjudicated");
  EXPECT_EQ(g.plies.size(), 6u);  // 4 plies near zero long before, asked at move 4
  level.adjudication.rules = AdjudicationRules::CHESSHPC;
  EXPECT_EQ(play_game(level, 0, a, b).plies.size(), 10u);  // moves 4 and 5 of both sides
}

TEST(SelfplayGame, AFailingPlayerEndsTheGameAsAnError) {
  class Broken : public ScriptedPlayer {
   public:
    Broken() : ScriptedPlayer("broken") {}
    MoveChoice choose(const chess::Game&, const std::optional<Clocks>&, chess::Random&) override {
      MoveChoice c;
      c.move = chess::Move(chess::SQ_A1, chess::SQ_A8);
      return c;
    }
  } broken;
  ScriptedPlayer fine("fine");
  GameRecord g = play_game(GameSpec{}, 0, broken, fine);
  EXPECT_EQ(g.ending, Ending::ERROR);
  EXPECT_EQ(g.termination, "error: broken played an illegal move");
  EXPECT_TRUE(g.plies.empty());
}

// Two Stockfish processes at 2,000 nodes a move, from 6 random plies: the game ends by the
// rules or by adjudication, every move replays legally, and the same game comes again.
TEST(SelfplayGame, StockfishAgainstStockfishIsReproducible) {
  UciPlayer a("/usr/games/stockfish", {{"Threads", "1"}, {"Hash", "8"}}, {2000, 0, 0});
  UciPlayer b("/usr/games/stockfish", {{"Threads", "1"}, {"Hash", "8"}}, {2000, 0, 0});
  GameSpec spec;
  spec.openings.random_plies = 6, spec.seed = 11;
  spec.adjudication.resign_score = 800, spec.adjudication.max_plies = 300;
  GameRecord g1 = play_game(spec, 3, a, b), g2 = play_game(spec, 3, a, b);
  ASSERT_EQ(g1.plies.size(), g2.plies.size());
  for (size_t i = 0; i < g1.plies.size(); ++i) EXPECT_EQ(g1.plies[i].move, g2.plies[i].move) << i;
  EXPECT_EQ(g1.termination, g2.termination);
  EXPECT_NE(g1.ending, Ending::ERROR) << g1.termination;
  chess::Game replay(g1.opening.start);
  for (const PlyRecord& p : g1.plies) {
    ASSERT_FALSE(replay.over());
    replay.play(p.move);
  }
  EXPECT_EQ(g1.plies[6].book, false);
  EXPECT_TRUE(g1.plies[6].score_cp || g1.plies[6].mate_in);
  EXPECT_GT(g1.plies[6].nodes, 0u);
}

// The dataset's columns: one row per game, one per position, results from the mover's
// view, and a file round trip that gives back every column.
TEST(SelfplayTables, ColumnsOfAGameAndAFileRoundTrip) {
  ScriptedPlayer a("a", {"f3", "g4"}, 12), b("b", {"e5", "Qh4#"}, -3);
  SelfplayTables t;
  t.append(play_game(GameSpec{}, 5, b, a));  // odd game: a has White
  t.append(play_game(GameSpec{}, 2, a, b));
  ASSERT_EQ(t.games.size(), 2u);
  ASSERT_EQ(t.positions.size(), 8u);
  t.sort_by_game();
  EXPECT_EQ(t.games.game, (std::vector<uint64_t>{2, 5}));
  EXPECT_EQ(t.positions.game.front(), 2u);
  EXPECT_EQ(t.games.moves[0], "f2f3 e7e5 g2g4 d8h4");
  EXPECT_EQ(t.games.result[0], "0-1");
  EXPECT_EQ(t.games.termination[0], "checkmate");
  EXPECT_EQ(t.positions.result[0], 0.0);  // White to move, White lost
  EXPECT_EQ(t.positions.result[1], 1.0);
  EXPECT_EQ(t.positions.score_cp[0], 12.0);
  EXPECT_EQ(t.positions.fen[2], "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2");
  chess::PackedPosition packed;
  std::copy_n(t.positions.packed.begin() + 64, 32, packed.begin());
  EXPECT_EQ(chess::unpack(packed).fen(), t.positions.fen[2]);

  std::string path = testing::TempDir() + "selfplay_tables.h5";
  {
    h5::File f(path);
    write_selfplay_tables(f, t);
    f.commit();
  }
  h5::Group f = h5::open_read(path);
  SelfplayTables back = read_selfplay_tables(f);
  EXPECT_EQ(back.games.moves, t.games.moves);
  EXPECT_EQ(back.games.first_fire, t.games.first_fire);
  EXPECT_EQ(back.positions.packed, t.positions.packed);
  EXPECT_EQ(back.positions.fen, t.positions.fen);
  EXPECT_EQ(back.positions.result, t.positions.result);
  EXPECT_EQ(back.positions.book, t.positions.book);

  EXPECT_EQ(t.dedup_positions(), 4u);  // the second game repeats the first's positions
  EXPECT_EQ(t.positions.size(), 4u);
}

// Games travel from ranks to rank 0 as bytes: they come back whole, and damaged bytes
// are an error, not a wrong game.
TEST(SelfplayGame, RecordsSurviveTheTripAsBytes) {
  ScriptedPlayer a("a", {"f3", "g4"}, 12), b("b", {"e5", "Qh4#"});
  GameSpec spec;
  spec.openings.random_plies = 2, spec.seed = 4;
  std::vector<GameRecord> games = {play_game(spec, 0, a, b), play_game(GameSpec{}, 7, b, a)};
  std::vector<char> bytes = encode_games(games);
  std::vector<GameRecord> back = decode_games(bytes);
  ASSERT_EQ(back.size(), 2u);
  SelfplayTables t1, t2;
  for (const GameRecord& g : games) t1.append(g);
  for (const GameRecord& g : back) t2.append(g);
  EXPECT_EQ(t1.games.moves, t2.games.moves);
  EXPECT_EQ(t1.games.opening, t2.games.opening);
  EXPECT_EQ(t1.games.termination, t2.games.termination);
  EXPECT_EQ(t1.games.first_fire, t2.games.first_fire);
  EXPECT_EQ(t1.positions.best, t2.positions.best);
  EXPECT_EQ(t1.positions.book, t2.positions.book);
  EXPECT_EQ(back[0].opening.moves.size(), 2u);
  bytes.pop_back();
  EXPECT_THROW(decode_games(bytes), std::runtime_error);
}

// A checkpoint that cannot be written (a full disk) keeps its games for the next part:
// they were dropped, and a batch that could write again at the end had a dataset without
// them, with exit 0.
TEST(SelfplayBatchFile, GamesOfAFailedCheckpointGoIntoTheNextPart) {
  namespace fs = std::filesystem;
  const std::string dir = testing::TempDir() + "failed_checkpoint";
  fs::remove_all(dir);
  fs::create_directories(dir);
  SelfplayRequest req;
  req.games = 4, req.games_per_unit = 2, req.limits.nodes = 50, req.threads = 1, req.quiet = true;
  req.out = dir + "/s.h5";
  SelfplayBatch batch(req);
  std::ostringstream out, err;
  ASSERT_EQ(batch.plan(Ranks{}, err), 0) << err.str();
  ASSERT_EQ(batch.open("2026-01-01T00:00:00Z", err), 0) << err.str();
  const std::string parts = req.out + ".parts";

  batch.record(0, batch.compute(0), 0, 0);
  fs::rename(parts, parts + ".away");
  std::ofstream(parts) << "a file where the parts directory should be\n";
  std::function<uint64_t()> failing = batch.checkpoint();
  EXPECT_THROW(failing(), h5::Error);
  fs::remove(parts);
  fs::rename(parts + ".away", parts);

  batch.record(1, batch.compute(1), 0, 0);
  EXPECT_EQ(batch.checkpoint()(), 4u);
  h5::Group part = h5::open_read(parts + "/part-000001.h5");
  EXPECT_EQ(read_selfplay_tables(part).games.game, (std::vector<uint64_t>{0, 1, 2, 3}));

  UnitRun run;
  run.started = "2026-01-01T00:00:00Z";
  ASSERT_EQ(batch.finish(run, out, err), 0) << err.str();
  h5::Group file = h5::open_read(req.out);
  EXPECT_EQ(read_selfplay_tables(file).games.game, (std::vector<uint64_t>{0, 1, 2, 3}));
  EXPECT_EQ(out.str().rfind("selfplay: 4 games (0 resumed), ", 0), 0u) << out.str();
}

// A book whose lines changed since the parts were written would mix two books in one
// dataset under one identity: --resume refuses it, with one line naming the difference,
// and resumes with the book as it was.
TEST(SelfplayBatchFile, ResumeRefusesABookThatChanged) {
  namespace fs = std::filesystem;
  const std::string dir = testing::TempDir() + "changed_book";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string book = dir + "/book.epd";
  std::ofstream(book) << "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n";
  SelfplayRequest req;
  req.games = 4, req.games_per_unit = 2, req.limits.nodes = 50, req.threads = 1, req.quiet = true;
  req.book = book, req.out = dir + "/s.h5";
  std::ostringstream err;
  {
    SelfplayBatch batch(req);
    ASSERT_EQ(batch.plan(Ranks{}, err), 0) << err.str();
    ASSERT_EQ(batch.open("2026-01-01T00:00:00Z", err), 0) << err.str();
    batch.record(0, batch.compute(0), 0, 0);
    batch.checkpoint()();
  }  // killed: the parts stay

  req.resume = true;
  std::ofstream(book) << "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -\n";  // 1. d4 now
  SelfplayBatch changed(req);
  ASSERT_EQ(changed.plan(Ranks{}, err), 0) << err.str();
  EXPECT_EQ(changed.open("2026-01-01T00:00:01Z", err), 3);  // EXIT_INPUT
  const std::string said = err.str();
  EXPECT_EQ(std::count(said.begin(), said.end(), '\n'), 1) << said;
  EXPECT_EQ(
      said.rfind(
          "chesshpc selfplay: cannot resume from '" + req.out + ".parts': it holds another batch: its book_hash=", 0),
      0u)
      << said;
  EXPECT_NE(said.find(", this run's book_hash="), std::string::npos) << said;
  EXPECT_TRUE(fs::exists(req.out + ".parts/part-000001.h5")) << "the refused resume left the parts alone";

  std::ofstream(book) << "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n";  // as it was
  std::ostringstream again;
  SelfplayBatch same(req);
  ASSERT_EQ(same.plan(Ranks{}, again), 0) << again.str();
  EXPECT_EQ(same.open("2026-01-01T00:00:02Z", again), 0) << again.str();
  EXPECT_TRUE(same.done(0));
  EXPECT_FALSE(same.done(1));
}

// ---- Chess960 and DFRC selfplay -----------------------------------------------------------

namespace {

// The games of a batch of `variant`, its units computed in `order` (as ranks and threads
// might finish them), read back from its file.
SelfplayTables variant_batch(const std::string& name, Variant variant, std::vector<size_t> order, int games_per_unit) {
  namespace fs = std::filesystem;
  const std::string dir = testing::TempDir() + name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  SelfplayRequest req;
  req.games = 8, req.games_per_unit = games_per_unit, req.limits.nodes = 60, req.threads = 1, req.quiet = true;
  req.seed = 5, req.random_plies = 2, req.adjudication.max_plies = 40, req.variant = variant;
  req.out = dir + "/s.h5";
  SelfplayBatch batch(req);
  std::ostringstream out, err;
  EXPECT_EQ(batch.plan(Ranks{}, err), 0) << err.str();
  EXPECT_EQ(batch.open("2026-01-01T00:00:00Z", err), 0) << err.str();
  for (size_t unit : order) batch.record(unit, batch.compute(unit), 0, 0);
  UnitRun run;
  run.started = "2026-01-01T00:00:00Z";
  EXPECT_EQ(batch.finish(run, out, err), 0) << err.str();
  return read_selfplay_tables(h5::open_read(req.out));
}

// Every game replays legally from its recorded start (read as its variant's chess), and
// the recorded /positions FENs are the positions met on the way.
void expect_games_replay(const SelfplayTables& t) {
  size_t row = 0;
  for (size_t i = 0; i < t.games.size(); ++i) {
    chess::Position pos = variant_position(t.games.start_fen[i], *variant_from_name(t.games.variant[i]));
    std::istringstream moves(t.games.moves[i]);
    int ply = 0;
    for (std::string text; moves >> text; ++ply, ++row) {
      ASSERT_LT(row, t.positions.size());
      EXPECT_EQ(t.positions.fen[row], pos.fen()) << "game " << i << " ply " << ply;
      std::optional<chess::Move> m = chess::parse_uci(pos, text);
      ASSERT_TRUE(m) << "game " << i << " ply " << ply << ": " << text << " is not legal in " << pos.fen();
      pos = pos.after(*m);
    }
    EXPECT_EQ(ply, t.games.plies[i]);
  }
}

}  // namespace

// A pair's two games start from one position drawn from (seed, pair): the number and the
// FEN agree (each back rank as the standard numbering places it), and the same seed gives
// the same numbers, pinned here, wherever and in whatever order the games are played.
TEST(SelfplayVariant, PairsShareANumberedStartDrawnFromTheSeed) {
  OpeningSpec spec;
  spec.seed = 7, spec.variant = Variant::CHESS960;
  std::vector<int64_t> numbers;
  for (uint64_t game = 0; game < 8; game += 2) {
    Opening a = opening_for(spec, game), b = opening_for(spec, game + 1);
    EXPECT_EQ(a.start_number, b.start_number);
    EXPECT_EQ(a.start.fen(), b.start.fen());
    EXPECT_TRUE(a.start.is_chess960());
    EXPECT_EQ(a.variant, Variant::CHESS960);
    const std::string rank = chess::Position::chess960_back_rank(int(a.start_number));
    std::string black = rank;
    for (char& c : black) c = char(c - 'A' + 'a');
    EXPECT_EQ(a.start.fen(), black + "/pppppppp/8/8/8/8/PPPPPPPP/" + rank + " w KQkq - 0 1");
    numbers.push_back(a.start_number);
  }
  EXPECT_EQ(numbers, (std::vector<int64_t>{236, 334, 139, 708}));
  EXPECT_EQ(opening_for(spec, 5).start_number, numbers[2]);

  spec.variant = Variant::DFRC;
  Opening d = opening_for(spec, 6), e = opening_for(spec, 7);
  EXPECT_EQ(d.start_number, e.start_number);
  EXPECT_EQ(d.start_number, 680050);
  std::string black = chess::Position::chess960_back_rank(int(d.start_number % 960));
  for (char& c : black) c = char(c - 'A' + 'a');
  EXPECT_EQ(d.start.fen(), black + "/pppppppp/8/8/8/8/PPPPPPPP/" +
                               chess::Position::chess960_back_rank(int(d.start_number / 960)) + " w KQkq - 0 1");
  spec.variant = Variant::STANDARD;
  EXPECT_EQ(opening_for(spec, 0).start_number, -1);
  EXPECT_EQ(opening_for(spec, 0).start.fen(), chess::START_FEN);
}

// A small batch in each variant: pairs share the start, the numbers match the FENs, games
// replay legally from the recorded FEN, and the games do not depend on the units' order or
// size (ranks, threads and resumes only change those).
TEST(SelfplayVariant, BatchesInEachVariantRecordAndReplay) {
  for (Variant v : {Variant::STANDARD, Variant::CHESS960, Variant::DFRC}) {
    SCOPED_TRACE(std::string(variant_name(v)));
    SelfplayTables t = variant_batch("variant_in_order", v, {0, 1, 2, 3}, 2);
    SelfplayTables r = variant_batch("variant_reversed", v, {7, 6, 5, 4, 3, 2, 1, 0}, 1);
    ASSERT_EQ(t.games.size(), 8u);
    EXPECT_EQ(t.games.moves, r.games.moves);
    EXPECT_EQ(t.games.start_fen, r.games.start_fen);
    EXPECT_EQ(t.games.start_number, r.games.start_number);
    for (size_t i = 0; i < 8; ++i) {
      EXPECT_EQ(t.games.variant[i], variant_name(v));
      EXPECT_EQ(t.games.start_number[i], t.games.start_number[i ^ 1]) << i;
      EXPECT_EQ(t.games.start_fen[i], t.games.start_fen[i ^ 1]) << i;
      EXPECT_EQ(t.games.white[i], "chesshpc");
      EXPECT_EQ(t.games.termination[i].rfind("error", 0), std::string::npos) << t.games.termination[i];
      if (v == Variant::STANDARD) {
        EXPECT_EQ(t.games.start_number[i], -1);
        EXPECT_EQ(t.games.start_fen[i], chess::START_FEN);
      } else {
        EXPECT_EQ(t.games.start_fen[i], numbered_start(v, t.games.start_number[i]).fen());
        EXPECT_LT(t.games.start_number[i], v == Variant::DFRC ? 960 * 960 : 960);
      }
    }
    expect_games_replay(t);
  }
}

// Stockfish (UCI_Chess960) against the built-in search from a Chess960 start: the game
// completes with legal moves, and castling crossed the pipe king-takes-rook both ways
// (Stockfish's bestmove read, and the game's moves sent back in every position command).
TEST(SelfplayVariant, StockfishPlaysAChess960Game) {
  // A node limit, not a movetime: the same game on every run, so that its castling is
  // certain (at 20 ms a move it took 6 s).
  UciPlayer stockfish("/usr/games/stockfish", {{"Threads", "1"}, {"Hash", "8"}}, {3000, 0, 0}, true);
  std::unique_ptr<Player> search = make_player(PlayerSpec{}, [] {
    SelfplayRequest req;
    req.limits.nodes = 2000;
    return req;
  }());
  GameSpec spec;
  spec.openings.variant = Variant::CHESS960, spec.openings.seed = spec.seed = 3;
  spec.adjudication.max_plies = 80;
  GameRecord g = play_game(spec, 0, stockfish, *search);
  EXPECT_NE(g.ending, Ending::ERROR) << g.termination;
  EXPECT_TRUE(g.opening.start.is_chess960());
  chess::Game replay(g.opening.start);
  int castles = 0;
  for (const PlyRecord& p : g.plies) {
    ASSERT_FALSE(replay.over());
    chess::MoveList moves = chess::legal_moves(replay.position());
    ASSERT_NE(std::find(moves.begin(), moves.end(), p.move), moves.end()) << chess::to_uci(p.move, true);
    if (p.move.kind() == chess::CASTLING) {
      ++castles;
      EXPECT_EQ(chess::to_uci(p.move, true).substr(2), chess::square_to_string(p.move.to())) << "king takes rook";
    }
    replay.play(p.move);
  }
  EXPECT_GE(castles, 1) << "no castling in the game: pick another seed";
}

// export --pgn of a Chess960 game: the Variant tag (Chess960, for DFRC too), SetUp and the
// X-FEN start, and castling in SAN O-O, exactly.
TEST(SelfplayVariant, ExportWritesVariantFenAndCastlingInSan) {
  namespace fs = std::filesystem;
  const std::string dir = testing::TempDir() + "export960";
  fs::remove_all(dir);
  fs::create_directories(dir);
  // Start 192 (BBQNRKNR): once the g-knight is out, the king on f1 castles O-O with the
  // rook on h1, and lands on g1 next to it.
  std::vector<BookLine> book = {{"", numbered_start(Variant::CHESS960, 192), {}}};
  GameSpec spec;
  spec.openings.book = &book;
  ScriptedPlayer a("a", {"Nf3", "O-O", "Ng5", "Nf3", "Ng5", "Nf3"}, std::nullopt),
      b("b", {"Nf6", "O-O", "Ng4", "Nf6", "Ng4", "Nf6"}, std::nullopt);
  GameRecord g = play_game(spec, 0, a, b);
  g.opening.id = -1, g.opening.variant = Variant::CHESS960, g.opening.start_number = 192;
  SelfplayTables t;
  t.append(g);
  EXPECT_EQ(t.games.moves[0], "g1f3 g8f6 f1h1 f8h8 f3g5 f6g4 g5f3 g4f6 f3g5 f6g4 g5f3 g4f6");
  SelfplayRequest req;
  req.out = dir + "/s.h5";
  SelfplayStore(req.out, req).finish(t, "2026-01-01T00:00:00Z", 1, 1);
  std::ostringstream out, err;
  ASSERT_EQ(run_export({{req.out}, find_format("pgn"), "", {}}, out, err), 0) << err.str();
  EXPECT_EQ(err.str(), "");
  EXPECT_EQ(out.str(), "[Event \"chesshpc selfplay\"]\n[Site \"" + host_name() +
                           "\"]\n[Date \"2026.01.01\"]\n[Round \"1\"]\n[White \"a\"]\n[Black \"b\"]\n"
                           "[Result \"1/2-1/2\"]\n[SetUp \"1\"]\n"
                           "[FEN \"bbqnrknr/pppppppp/8/8/8/8/PPPPPPPP/BBQNRKNR w KQkq - 0 1\"]\n"
                           "[Termination \"normal\"]\n[TerminationDetail \"threefold_repetition\"]\n"
                           "[PlyCount \"12\"]\n[Variant \"Chess960\"]\n[GameDuration \"00:00:00\"]\n\n"
                           "1. Nf3 Nf6 2. O-O O-O 3. Ng5 Ng4 4. Nf3 Nf6 5. Ng5 Ng4 6. Nf3 Nf6 1/2-1/2\n\n");
}

// What a Chess960 game says to an engine, exactly: UCI_Chess960 before any other option,
// the X-FEN start, and castling king-takes-rook both ways (the stand-in's bestmove f1h1
// read as White's O-O, Black's O-O sent back as f8h8).
TEST(SelfplayVariant, EnginesGetUciChess960AndKingTakesRookCastling) {
  const std::string dir = testing::TempDir(), script = dir + "uci_960_standin.sh", log = dir + "uci_960_standin.log";
  {
    // Logs every line; plays g1f3, then f1h1, then g1h1 (the king back), one per go.
    std::ofstream s(script);
    s << "#!/bin/sh\n: > " << log << "\nn=0\nwhile read -r line; do\n  echo \"$line\" >> " << log
      << "\n  case \"$line\" in\n    uci) echo 'id name standin'; echo uciok ;;\n    isready) echo readyok ;;\n"
      << "    go*) n=$((n+1)); case $n in 1) echo 'bestmove g1f3' ;; 2) echo 'bestmove f1h1' ;; "
      << "*) echo 'bestmove g1h1' ;; esac ;;\n    quit) exit 0 ;;\n  esac\ndone\n";
  }
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  std::vector<BookLine> book = {{"", numbered_start(Variant::CHESS960, 192), {}}};
  GameSpec spec;
  spec.openings.book = &book;
  spec.adjudication.max_plies = 5;
  ScriptedPlayer black("b", {"Nf6", "O-O"}, std::nullopt);
  {
    UciPlayer standin(script, {{"Hash", "8"}}, {100, 0, 0}, true);
    GameRecord g = play_game(spec, 0, standin, black);
    EXPECT_EQ(g.termination, "max_length");
    ASSERT_EQ(g.plies.size(), 5u);
    EXPECT_EQ(g.plies[2].move.kind(), chess::CASTLING);
    EXPECT_EQ(g.plies[3].move.kind(), chess::CASTLING);
  }
  std::ifstream in(log);
  std::string said((std::istreambuf_iterator<char>(in)), {});
  const std::string start = "position fen bbqnrknr/pppppppp/8/8/8/8/PPPPPPPP/BBQNRKNR w KQkq - 0 1";
  EXPECT_EQ(said,
            "uci\nsetoption name UCI_Chess960 value true\nsetoption name Hash value 8\nisready\nucinewgame\n"
            "isready\n" +
                start + "\ngo nodes 100\n" + start + " moves g1f3 g8f6\ngo nodes 100\n" + start +
                " moves g1f3 g8f6 f1h1 f8h8\ngo nodes 100\nquit\n");
}
