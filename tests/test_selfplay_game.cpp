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
#include "jobs/io/h5.h"
#include "jobs/selfplay/batch.h"
#include "jobs/selfplay/game.h"
#include "jobs/selfplay/game_bytes.h"
#include "jobs/selfplay/players.h"
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
  MoveChoice choose(const chess::Game& game, const std::optional<std::array<long, 2>>&, const TimeControl&,
                    chess::Random& rng) override {
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

TEST(SelfplayGame, FlagFallLosesUnlessTheOpponentCannotMate) {
  std::vector<BookLine> book = {{"KR v K", chess::Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1"), {}}};
  ScriptedPlayer slow("slow", {}, 0, 1.0), fast("fast", {}, 0, 0.0);
  GameSpec spec;
  spec.openings.book = &book;
  spec.clock = {2500, 0};
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

TEST(SelfplayGame, AFailingPlayerEndsTheGameAsAnError) {
  class Broken : public ScriptedPlayer {
   public:
    Broken() : ScriptedPlayer("broken") {}
    MoveChoice choose(const chess::Game&, const std::optional<std::array<long, 2>>&, const TimeControl&,
                      chess::Random&) override {
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
// dataset under one identity: --resume refuses it, with one line naming the difference
// (issue 14, item 7), and resumes with the book as it was.
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
