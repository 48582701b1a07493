// positions: a corpus's positions against drawstats' plies over the same games (every
// game, malformed ones counted), the same on any thread count and batch size, seeded
// sampling reproducible and of the asked size, the filters' counts, and --dedup exact on a
// crafted corpus; the file read back row by row against the games replayed here, and its
// /positions, made chunk by chunk on the workers, read by h5py as HDF5's own filters write it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <set>
#include <sstream>

#include "core/game.h"
#include "core/movegen.h"
#include "core/pgn.h"
#include "jobs/io/h5.h"
#include "jobs/io/h5_table.h"
#include "jobs/positions/run.h"
#include "jobs/selfplay/file.h"
#include "tests/run_command.h"

using namespace chesshpc;

namespace {

// Seeded random games (captures favoured, as bench/make_pgn_corpus plays them), with a
// malformed game after every 10th: `games` readable ones.
std::string corpus(int games, uint64_t seed, std::vector<chess::PgnGame>* kept = nullptr) {
  std::string text;
  for (int i = 0; i < games; ++i) {
    std::mt19937_64 rng(seed * 1000 + uint64_t(i));
    chess::Game game(chess::Position::start(), chess::Ruleset::FIDE, chess::ClaimPolicy::NEVER);
    while (!game.over() && game.ply() < 120) {
      chess::MoveList moves = chess::legal_moves(game.position());
      game.play(moves[rng() % moves.size()]);
    }
    chess::PgnGame pgn;
    pgn.tags = {{"White", "w" + std::to_string(i)}, {"Black", "b"}, {"Result", "*"}};
    pgn.moves = game.moves();
    pgn.result = game.over() ? std::string(chess::result_string(game.result())) : "*";
    pgn.tags[2].second = pgn.result;
    text += chess::write_pgn(pgn) + "\n";
    if (kept) kept->push_back(pgn);
    if (i % 10 == 9) text += "[Event \"broken\"]\n[Result \"*\"]\n\n1. e4 e4 *\n\n";
  }
  return text;
}

std::string temp_path(const std::string& name) { return testing::TempDir() + name; }

struct Output {
  PositionsCounts counts;
  SelfplayTables tables;
  std::string skipped;
};

Output run(const PositionsRequest& req, const std::string& text) {
  Output r;
  size_t at = 0;
  ReadBytes read = [&](char* buf, size_t n) {
    size_t got = text.copy(buf, n, at);
    at += got;
    return got;
  };
  std::ostringstream skipped;
  {
    PositionsFile file(req);
    r.counts = compute_positions(req, read, file, nullptr, &skipped);
    file.finish(r.counts, "2026-01-01T00:00:00Z");
  }
  h5::Group f = h5::open_read(req.out);
  EXPECT_TRUE(has_selfplay_tables(f));
  EXPECT_EQ(h5::read_attr(f, h5::JOB), "positions");
  r.tables = read_selfplay_tables(f);
  r.skipped = skipped.str();
  return r;
}

PositionsRequest request(const std::string& name) {
  PositionsRequest req;
  req.pgn = "corpus.pgn";
  req.out = temp_path(name);
  req.threads = 1;
  return req;
}

TEST(Positions, EveryPlyDrawstatsCountsWithMalformedGamesCounted) {
  std::vector<chess::PgnGame> games;
  const std::string text = corpus(40, 1, &games);
  DrawstatsResult d = compute_drawstats(text, chess::Ruleset::FIDE, chess::ClaimPolicy::FIRST, 1, nullptr);
  PositionsRequest req = request("all.h5");
  req.rows_per_write = 100;  // many batches
  Output r = run(req, text);
  EXPECT_EQ(r.counts.games, d.replayed);
  EXPECT_EQ(r.counts.skipped, d.skipped_games);
  EXPECT_EQ(r.counts.skipped, 4);
  EXPECT_EQ(r.counts.plies, d.plies);
  EXPECT_EQ(r.counts.positions, d.plies);
  EXPECT_EQ(int64_t(r.tables.positions.size()), d.plies);
  EXPECT_EQ(int64_t(r.tables.games.size()), d.replayed);
  EXPECT_NE(r.skipped.find("chesshpc positions: corpus.pgn:"), std::string::npos);
  EXPECT_NE(r.skipped.find(": game 10 skipped: illegal move 'e4' at ply 2\n"), std::string::npos) << r.skipped;
  // Row by row: each game's positions, numbered as the corpus numbers its games (the
  // malformed ones too), with the move played and the game's result for the mover.
  const PositionColumns& p = r.tables.positions;
  size_t row = 0;
  for (size_t g = 0; g < games.size(); ++g) {
    const uint64_t index = g + g / 10;  // a malformed game after every 10th
    EXPECT_EQ(r.tables.games.game[g], index);
    EXPECT_EQ(r.tables.games.white[g], "w" + std::to_string(g));
    chess::Position pos = chess::Position::start();
    for (size_t ply = 0; ply < games[g].moves.size(); ++ply, ++row) {
      ASSERT_LT(row, p.size());
      EXPECT_EQ(p.game[row], index);
      EXPECT_EQ(p.ply[row], int32_t(ply));
      EXPECT_EQ(p.fen[row], pos.fen());
      EXPECT_EQ(p.move[row], chess::to_uci(games[g].moves[ply], false));
      const std::string& result = games[g].result;
      const Wdl wdl = result == "*"                                               ? WDL_NONE
                      : result == "1/2-1/2"                                       ? WDL_DRAW
                      : (result == "1-0") == (pos.side_to_move() == chess::WHITE) ? WDL_WIN
                                                                                  : WDL_LOSS;
      EXPECT_EQ(p.wdl[row], wdl);
      pos = pos.after(games[g].moves[ply]);
    }
  }
  EXPECT_EQ(row, p.size());
}

// Doubles equal bit for bit, NaN for NaN.
std::vector<uint64_t> bits(const std::vector<double>& v) {
  std::vector<uint64_t> b(v.size());
  std::memcpy(b.data(), v.data(), v.size() * sizeof(double));
  return b;
}

// The rows positions writes from its one replay of each game are those selfplay's tables
// give the same games recorded as selfplay records them (every move played, none
// searched), column for column: a random corpus and a game with en passant, promotion and
// both castlings.
TEST(Positions, RowsAreSelfplaysRowsOfTheSameGames) {
  std::vector<chess::PgnGame> games;
  std::string text = corpus(20, 5, &games);
  const std::string crafted =
      "[Result \"0-1\"]\n\n1. e4 d5 2. e5 f5 3. exf6 Nc6 4. fxg7 Nf6 5. gxh8=Q Bf5 6. Nf3 Qd7 7. Bb5 O-O-O "
      "8. O-O e5 0-1\n\n";
  text += crafted;
  chess::PgnGame last;
  chess::PgnError error;
  ASSERT_TRUE(chess::parse_pgn_game(chess::split_pgn(crafted).at(0), last, error)) << error.message;
  games.push_back(last);
  PositionsRequest req = request("selfplay-rows.h5");
  req.rows_per_write = 64;
  Output r = run(req, text);
  ASSERT_EQ(r.counts.skipped, 2);
  SelfplayTables expected;
  for (size_t g = 0; g < games.size(); ++g) {
    GameRecord record;
    record.index = g + g / 10;  // a malformed game after every 10th
    record.opening.start = games[g].start;
    const std::string result = games[g].tag("Result");
    record.result = result == "1-0"       ? chess::Result::WHITE_WINS
                    : result == "0-1"     ? chess::Result::BLACK_WINS
                    : result == "1/2-1/2" ? chess::Result::DRAW
                                          : chess::Result::ONGOING;
    for (chess::Move m : games[g].moves) {
      PlyRecord ply;
      ply.move = ply.best = m;
      record.plies.push_back(ply);
    }
    expected.append(record);
  }
  const PositionColumns &p = r.tables.positions, &e = expected.positions;
  ASSERT_EQ(p.size(), e.size());
  EXPECT_EQ(p.game, e.game);
  EXPECT_EQ(p.ply, e.ply);
  EXPECT_EQ(p.fen, e.fen);
  EXPECT_EQ(p.packed, e.packed);
  EXPECT_EQ(p.move, e.move);
  EXPECT_EQ(p.best, e.best);
  EXPECT_EQ(bits(p.score_cp), bits(e.score_cp));
  EXPECT_EQ(p.mate_in, e.mate_in);
  EXPECT_EQ(p.depth, e.depth);
  EXPECT_EQ(p.nodes, e.nodes);
  EXPECT_EQ(p.in_check, e.in_check);
  EXPECT_EQ(p.book, e.book);
  EXPECT_EQ(p.halfmove, e.halfmove);
  EXPECT_EQ(bits(p.result), bits(e.result));
  EXPECT_EQ(p.time_ms, e.time_ms);
  EXPECT_EQ(p.is_capture, e.is_capture);
  EXPECT_EQ(p.gives_check, e.gives_check);
  EXPECT_EQ(p.wdl, e.wdl);
  EXPECT_EQ(r.tables.games.moves, expected.games.moves);
  // The crafted game's rows: en passant, promotion and both castlings as UCI writes them.
  const std::vector<std::string> tail(p.move.end() - 16, p.move.end());
  EXPECT_EQ(tail, (std::vector<std::string>{"e2e4", "d7d5", "e4e5", "f7f5", "e5f6", "b8c6", "f6g7", "g8f6", "g7h8q",
                                            "c8f5", "g1f3", "d8d7", "f1b5", "e8c8", "e1g1", "e7e5"}));
  EXPECT_TRUE(p.is_capture[p.size() - 12] && p.is_capture[p.size() - 8]);  // exf6 e.p., gxh8=Q
}

// The chunks of /positions are deflated by the workers (ISA-L) and stored as they are: h5py,
// with HDF5's built-in filters only, reads the same tables, dataset for dataset (type,
// shape, chunks, filters, values), as from the same rows written through HDF5's own
// shuffle and deflate (h5::ColumnAppender, as positions wrote them before). 100 rows a
// chunk: 23 whole chunks and a last one of 40 rows.
TEST(Positions, WorkersChunksReadByH5pyAsHdf5FiltersWriteThem) {
  PositionsRequest req = request("chunks.h5");
  req.rows_per_write = 100;
  Output r = run(req, corpus(20, 7));
  ASSERT_EQ(r.tables.positions.size(), 2340u);
  {
    h5::File file(temp_path("filters.h5"));
    {  // the group closes before the file: commit() needs it closed
      h5::ColumnAppender<PositionColumns, SELFPLAY_POSITIONS.columns.size()> positions(file, SELFPLAY_POSITIONS, 100,
                                                                                       1);
      positions.write(r.tables.positions);
    }
    file.commit();
  }
  const testing_support::CommandResult same = testing_support::run_command(
      std::string(SAME_TABLES) + " " + temp_path("filters.h5") + " " + req.out + " positions",
      temp_path("same_tables.err"));
  EXPECT_EQ(same.out, "/positions: 18 datasets the same, 2340 rows\n") << same.err;
  EXPECT_EQ(same.code, 0);
}

TEST(Positions, SameOnAnyThreadCount) {
  const std::string text = corpus(30, 2);
  PositionsRequest one = request("t1.h5"), three = request("t3.h5");
  three.threads = 3, three.rows_per_write = 7;
  one.per_game = three.per_game = 5;
  Output a = run(one, text), b = run(three, text);
  EXPECT_EQ(a.tables.positions.packed, b.tables.positions.packed);
  EXPECT_EQ(a.tables.positions.game, b.tables.positions.game);
  EXPECT_EQ(a.tables.games.moves, b.tables.games.moves);
}

TEST(Positions, SamplingSeededReproducibleAndOfTheAskedSize) {
  std::vector<chess::PgnGame> games;
  const std::string text = corpus(30, 3, &games);
  PositionsRequest req = request("k.h5");
  req.per_game = 4, req.seed = 7;
  Output a = run(req, text), b = run(req, text);
  EXPECT_EQ(a.tables.positions.packed, b.tables.positions.packed);
  int64_t expected = 0;
  for (const chess::PgnGame& g : games) expected += std::min<int64_t>(4, int64_t(g.moves.size()));
  EXPECT_EQ(a.counts.positions, expected);
  EXPECT_EQ(a.counts.sampled_out, a.counts.plies - expected);
  // Within a game, in ply order; another seed, other plies.
  for (size_t i = 1; i < a.tables.positions.size(); ++i) {
    if (a.tables.positions.game[i] == a.tables.positions.game[i - 1]) {
      EXPECT_LT(a.tables.positions.ply[i - 1], a.tables.positions.ply[i]);
    }
  }
  req.seed = 8;
  EXPECT_NE(run(req, text).tables.positions.ply, a.tables.positions.ply);

  PositionsRequest half = request("f.h5");
  half.fraction = 0.25, half.seed = 7;
  Output c = run(half, text), d = run(half, text);
  EXPECT_EQ(c.tables.positions.packed, d.tables.positions.packed);
  EXPECT_EQ(c.counts.positions + c.counts.sampled_out, c.counts.plies);
  // A quarter, within 5 standard deviations.
  const double n = double(c.counts.plies), sd = std::sqrt(n * 0.25 * 0.75);
  EXPECT_NEAR(double(c.counts.positions), n * 0.25, 5 * sd);
}

TEST(Positions, FiltersCountedAsExportCountsThem) {
  const std::string text = corpus(20, 4);
  PositionsRequest req = request("filters.h5");
  req.filters.skip_plies = 8, req.filters.skip_in_check = true, req.filters.skip_capture = true;
  Output r = run(req, text);
  Output all = run(request("nofilters.h5"), text);
  int64_t left_out = 0;
  const PositionColumns& p = all.tables.positions;
  for (size_t i = 0; i < p.size(); ++i) left_out += p.ply[i] < 8 || p.in_check[i] || p.is_capture[i];
  EXPECT_EQ(r.counts.filtered, left_out);
  EXPECT_EQ(r.counts.positions, r.counts.plies - left_out);
  for (size_t i = 0; i < r.tables.positions.size(); ++i) {
    EXPECT_GE(r.tables.positions.ply[i], 8);
    EXPECT_FALSE(r.tables.positions.in_check[i] || r.tables.positions.is_capture[i]);
  }
}

// Three games through the same positions: the second follows the first for four plies, the
// third transposes into it and back by knight moves (the clocks differ, the positions not).
TEST(Positions, DedupExactOnACraftedCorpus) {
  const std::string text =
      "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n"
      "[Result \"0-1\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 0-1\n\n"
      "[Result \"1/2-1/2\"]\n\n1. Nf3 Nc6 2. e4 e5 3. Ng1 Nb8 4. Nf3 Nc6 1/2-1/2\n\n";
  PositionsRequest req = request("dedup.h5");
  req.filters.dedup = true;
  Output r = run(req, text);
  // Game 0: 6 new. Game 1: its first 5 positions are game 0's, after 3. Bc4 new. Game 2:
  // the start seen; after 1. Nf3, 1...Nc6 and 2. e4 new; after 2...e5 game 0's after
  // 2...Nc6; after 3. Ng1 new; after 3...Nb8 and 4. Nf3 game 0's after 1...e5 and 2. Nf3.
  EXPECT_EQ(r.counts.plies, 6 + 6 + 8);
  EXPECT_EQ(r.counts.duplicates, 5 + 4);
  EXPECT_EQ(r.counts.positions, 6 + 1 + 4);
  EXPECT_EQ(int64_t(r.tables.positions.size()), r.counts.positions);
  // Every position kept once, by the independent key of the FEN's first four fields.
  std::set<std::string> seen;
  for (const std::string& fen : r.tables.positions.fen) {
    std::istringstream in(fen);
    std::string a, b, c, d;
    in >> a >> b >> c >> d;
    EXPECT_TRUE(seen.insert(a + b + c + d).second) << fen;
  }

  req.out = temp_path("dedup-small.h5");
  req.dedup_bytes = 100;  // room for no table
  EXPECT_THROW(run(req, text), DedupFull);
}

}  // namespace
