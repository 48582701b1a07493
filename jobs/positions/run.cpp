#include "jobs/positions/run.h"

#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <optional>

#include "core/game.h"
#include "core/pgn.h"
#include "core/random.h"
#include "core/threads.h"
#include "jobs/export/position_set.h"
#include "jobs/export/run.h"
#include "jobs/io/byte_size.h"
#include "jobs/io/byte_source.h"
#include "jobs/io/job_common.h"
#include "jobs/io/json.h"
#include "jobs/io/progress.h"
#include "jobs/io/provenance.h"

namespace chesshpc {

namespace {

constexpr uint64_t SAMPLING_STREAM = 0x5A4D;  // the purpose of a game's stream: its sample

chess::Result result_of(const std::string& text) {
  if (text == "1-0") return chess::Result::WHITE_WINS;
  if (text == "0-1") return chess::Result::BLACK_WINS;
  if (text == "1/2-1/2") return chess::Result::DRAW;
  return chess::Result::ONGOING;
}

// One game of the corpus: its row and every position's, then the rows kept.
struct GameOut {
  bool ok = false;
  SelfplayTables game;  // its /positions stays empty: the rows are in `positions`
  PositionRows positions;
  int64_t plies = 0, filtered = 0, sampled_out = 0;
  int line = 0;
  std::string message;
};

// The game as selfplay records one: each move played, none searched; `game` the moves
// replayed under the rules, as drawstats replays them.
GameRecord game_record(const chess::PgnGame& pgn, const chess::Game& game, int64_t index) {
  GameRecord g;
  g.index = uint64_t(index);
  g.opening.id = -1;
  g.opening.start = pgn.start;
  g.opening.variant = pgn.start.is_chess960() ? Variant::CHESS960 : Variant::STANDARD;
  g.white = pgn.tag("White"), g.black = pgn.tag("Black");
  const std::string tag = pgn.tag("Result");
  g.result = result_of(tag.empty() ? pgn.result : tag);
  g.plies.reserve(pgn.moves.size());
  for (chess::Move m : pgn.moves) {
    PlyRecord r;
    r.move = r.best = m;
    g.plies.push_back(r);
  }
  g.checks[0] = game.checks_given(chess::WHITE), g.checks[1] = game.checks_given(chess::BLACK);
  if (game.termination()) g.termination = std::string(chess::rule_name(*game.termination()));
  g.first_fire = game.first_fire();
  g.perpetual_check = game.perpetual_check();
  return g;
}

// The rows selfplay's tables give the game's record (SelfplayTables::append), from the
// positions the rules' replay holds: each move played, none searched (score NaN; mate,
// depth, nodes, book and time 0, as assign() leaves them).
void write_rows(const chess::Game& game, uint64_t index, chess::Result result, PositionRows& out) {
  using P = PositionColumns;
  static_assert(PositionRows::row_bytes(h5::index_of<&P::fen>(SELFPLAY_POSITIONS)) >= chess::FEN_MAX_BYTES);
  static_assert(PositionRows::row_bytes(h5::index_of<&P::move>(SELFPLAY_POSITIONS)) >= chess::UCI_MOVE_BYTES);
  const size_t n = game.moves().size();
  const bool chess960 = game.start().is_chess960();
  out.assign(n);
  for (size_t i = 0; i < n; ++i) {
    const chess::Position& pos = game.position_at(int(i));
    const chess::Move m = game.moves()[i];
    out.set<&P::game>(i, index);
    out.set<&P::ply>(i, int32_t(i));
    pos.write_fen(reinterpret_cast<char*>(out.at<&P::fen>(i)));
    const chess::PackedPosition packed = chess::pack(pos);
    std::memcpy(out.at<&P::packed>(i), packed.data(), packed.size());
    chess::write_uci(m, chess960, reinterpret_cast<char*>(out.at<&P::move>(i)));
    std::memcpy(out.at<&P::best>(i), out.at<&P::move>(i), chess::UCI_MOVE_BYTES);
    out.set<&P::score_cp>(i, std::nan(""));
    out.set<&P::in_check>(i, uint8_t(pos.checkers() != 0));
    out.set<&P::halfmove>(i, int32_t(pos.rule50()));
    const double r = mover_result(result, pos.side_to_move());
    out.set<&P::result>(i, r);
    out.set<&P::is_capture>(i, uint8_t(captures_or_promotes(pos, m)));
    out.set<&P::gives_check>(i, uint8_t(game.gave_check(int(i))));
    out.set<&P::wdl>(i, int32_t(wdl_of(r)));
  }
}

// The columns of the game's rows that export's filters read (filtered_out), the others empty.
PositionColumns filter_columns(const PositionRows& rows) {
  using P = PositionColumns;
  PositionColumns p;
  const size_t n = rows.rows;
  p.game.assign(n, 0), p.ply.resize(n), p.book.assign(n, false), p.mate_in.assign(n, 0);
  std::iota(p.ply.begin(), p.ply.end(), 0);
  p.in_check.resize(n), p.is_capture.resize(n);
  for (size_t i = 0; i < n; ++i)
    p.in_check[i] = *rows.at<&P::in_check>(i), p.is_capture[i] = *rows.at<&P::is_capture>(i);
  return p;
}

// The rows of positions the filters keep, then those the sample keeps, in ply order.
std::vector<size_t> kept_rows(const PositionRows& positions, int64_t index, const PositionsRequest& req, GameOut& out) {
  const size_t n = positions.rows;
  std::vector<size_t> rows;
  ExportFilters filters = req.filters;
  filters.dedup = false;  // over the corpus: the collector's
  if (filters.any()) {
    const PositionColumns p = filter_columns(positions);
    for (size_t i = 0; i < n; ++i)
      if (!filtered_out(p, i, VALUE_NONE, filters)) rows.push_back(i);
  } else {
    rows.resize(n);
    std::iota(rows.begin(), rows.end(), size_t(0));
  }
  out.filtered = int64_t(n - rows.size());
  chess::Random rng = chess::stream(req.seed, uint64_t(index), SAMPLING_STREAM);
  if (req.per_game && rows.size() > size_t(req.per_game)) {
    // The first K of a seeded Fisher-Yates shuffle, back in ply order.
    for (size_t i = 0; i < size_t(req.per_game); ++i) std::swap(rows[i], rows[i + rng.below(rows.size() - i)]);
    rows.resize(size_t(req.per_game));
    std::sort(rows.begin(), rows.end());
  } else if (req.fraction > 0 && req.fraction < 1) {
    std::erase_if(rows, [&](size_t) { return rng.uniform() >= req.fraction; });
  }
  out.sampled_out = int64_t(n) - out.filtered - int64_t(rows.size());
  return rows;
}

GameOut read_game(const chess::PgnChunk& chunk, int64_t index, const PositionsRequest& req) {
  GameOut out;
  chess::PgnGame pgn;
  chess::PgnError error;
  if (!chess::parse_pgn_game(chunk, pgn, error)) {
    out.line = error.line, out.message = error.message;
    return out;
  }
  out.ok = true;
  // One replay under the rules: /games' counts and every row's position.
  chess::Game game(pgn.start, req.ruleset, req.claims);
  for (chess::Move m : pgn.moves) game.play(m);
  const GameRecord record = game_record(pgn, game, index);
  append_game(out.game.games, record);
  write_rows(game, record.index, record.result, out.positions);
  out.plies = int64_t(pgn.moves.size());
  const std::vector<size_t> rows = kept_rows(out.positions, index, req, out);
  if (rows.size() < out.positions.rows) out.positions.keep(rows);
  return out;
}

// What a batch of games leaves to write: a batch of /games and the chunks of /positions it
// filled, deflated after it is delivered, then written in stream order.
struct Output {
  SelfplayTables games;  // /games' rows; its /positions stays empty
  std::vector<PositionsFile::Chunk> chunks;
};

// The corpus's state in stream order: the counts, the dedup's set, and the rows waiting
// for a batch of /games or a chunk of /positions.
class Collector {
 public:
  Collector(const PositionsRequest& req, PositionsFile& file, std::ostream* skipped)
      : req_(req), file_(file), skipped_(skipped) {}

  void add(GameOut& g, int64_t index, Output& out) {
    if (!g.ok) {
      ++n_.skipped;
      if (skipped_)
        *skipped_ << "chesshpc positions: " << req_.pgn << ":" << g.line << ": game " << index
                  << " skipped: " << g.message << "\n";
      return;
    }
    ++n_.games, n_.plies += g.plies, n_.filtered += g.filtered, n_.sampled_out += g.sampled_out;
    PositionRows& p = g.positions;
    if (req_.filters.dedup) {
      std::vector<size_t> rows;
      for (size_t i = 0; i < p.rows; ++i) {
        if (seen_.bytes_for_one_more() > req_.dedup_bytes) throw DedupFull{int64_t(seen_.size()), req_.dedup_bytes};
        if (seen_.insert(position_key(p.at<&PositionColumns::packed>(i)))) rows.push_back(i);
      }
      n_.duplicates += int64_t(p.rows - rows.size());
      if (rows.size() < p.rows) p.keep(rows);
    }
    n_.positions += int64_t(p.rows);
    if (const size_t n = p.rows) {
      waiting_.parts.push_back({std::make_shared<const PositionRows>(std::move(p)), 0, n});
      waiting_.rows += n;
    }
    p = {};
    waiting_games_.append(g.game);
    while (waiting_.rows >= file_.chunk_rows()) out.chunks.push_back(first_chunk());
    if (waiting_games_.games.size() >= req_.rows_per_write) out.games.append(std::exchange(waiting_games_, {}));
  }
  // The rows still waiting, at the end of the corpus.
  Output rest() {
    Output out{std::exchange(waiting_games_, {}), {}};
    if (waiting_.rows) out.chunks.push_back(std::exchange(waiting_, {}));
    return out;
  }
  const PositionsCounts& counts() const { return n_; }

 private:
  // The first chunk_rows() rows waiting: the whole parts, and the head of one cut in two.
  PositionsFile::Chunk first_chunk() {
    PositionsFile::Chunk chunk;
    chunk.rows = file_.chunk_rows();
    size_t whole = 0, need = chunk.rows;
    for (; need && waiting_.parts[whole].count <= need; ++whole) {
      need -= waiting_.parts[whole].count;
      chunk.parts.push_back(waiting_.parts[whole]);
    }
    if (need) {
      PositionsFile::Part& cut = waiting_.parts[whole];
      chunk.parts.push_back({cut.rows, cut.first, need});
      cut.first += need, cut.count -= need;
    }
    waiting_.parts.erase(waiting_.parts.begin(), waiting_.parts.begin() + long(whole));
    waiting_.rows -= chunk.rows;
    return chunk;
  }

  const PositionsRequest& req_;
  PositionsFile& file_;
  std::ostream* skipped_;
  PositionsCounts n_;
  PositionSet seen_;
  SelfplayTables waiting_games_;  // its /positions stays empty
  PositionsFile::Chunk waiting_;
};

// Deflates a batch's chunks, then writes them with its games.
void positions_encode(Output& out, const PositionsFile& file) {
  for (PositionsFile::Chunk& c : out.chunks) file.encode(c);
}
void positions_write(const Output& out, PositionsFile& file) {
  if (out.games.games.size()) file.write(out.games.games);
  for (const PositionsFile::Chunk& c : out.chunks) file.write(c);
}

}  // namespace

PositionsCounts compute_positions(const PositionsRequest& req, const ReadBytes& read, PositionsFile& file,
                                  Progress* progress, std::ostream* skipped) {
  const auto t0 = std::chrono::steady_clock::now();
  Collector collector(req, file, skipped);
  struct Work : PgnBatchWork {
    std::vector<GameOut> games;
    int64_t first = -1;
    const PositionsRequest& req;
    Collector& collector;
    PositionsFile& file;
    Progress* progress;
    Output out;
    Work(size_t n, const PositionsRequest& r, Collector& c, PositionsFile& f, Progress* p)
        : games(n), req(r), collector(c), file(f), progress(p) {}
    void game(size_t i, const chess::PgnChunk& chunk, int64_t index) override {
      games[i] = read_game(chunk, index, req);
      if (i == 0) first = index;
      if (progress) progress->done(1, uint64_t(games[i].plies));
    }
    void deliver() override {
      for (size_t i = 0; i < games.size(); ++i) collector.add(games[i], first + int64_t(i), out);
      games = {};
    }
    void encode() override { positions_encode(out, file); }
    void written() override { positions_write(out, file); }
  };
  read_pgn_games(read, PgnStreamLimits{}, req.threads, progress,
                 [&](size_t n) { return std::make_unique<Work>(n, req, collector, file, progress); });
  Output rest = collector.rest();
  tbb::task_arena(chess::resolve_threads(req.threads)).execute([&] { positions_encode(rest, file); });
  positions_write(rest, file);
  PositionsCounts n = collector.counts();
  n.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return n;
}

int run_positions(const PositionsRequest& req, std::ostream& out, std::ostream& err) {
  const std::string started = utc_now();
  PositionsCounts n;
  try {
    ByteSource source(req.pgn, "PGN file");
    std::optional<PositionsFile> file;
    if (std::string e = h5::write_error([&] { file.emplace(req); }); !e.empty()) {
      err << "chesshpc positions: " << e << "\n";
      return EXIT_IO;
    }
    Progress progress(err, "positions", !req.quiet, req.progress_interval, "Mplies/s");
    progress.set_unit_name("games");
    std::ostringstream skipped;
    n = compute_positions(
        req, [&](char* buf, size_t k) { return source.read(buf, k); }, *file, &progress, &skipped);
    progress.finish();
    err << skipped.str();
    if (std::string e = h5::write_error([&] { file->finish(n, started); }); !e.empty()) {
      err << "chesshpc positions: " << e << "\n";
      return EXIT_IO;
    }
  } catch (const ReadError& e) {
    err << "chesshpc positions: " << e.what() << "\n";
    return e.exit_code();
  } catch (const GameTooLong& e) {
    err << "chesshpc positions: " << req.pgn << ":" << e.line << ": game " << e.index << " is longer than "
        << format_size(e.bound) << ", the most one game may take\n";
    return EXIT_INPUT;
  } catch (const DedupFull& e) {
    err << "chesshpc positions: --dedup's " << e.positions << " unique positions fill --memory " << format_size(e.bound)
        << ": give more, or leave out --dedup\n";
    return EXIT_INPUT;
  } catch (const h5::Error& e) {
    err << "chesshpc positions: " << e.what() << "\n";
    return EXIT_IO;
  }
  if (req.json) {
    JsonObject o;
    o.add("pgn", req.pgn).add("out", req.out).add("games", (long)n.games).add("skipped", (long)n.skipped);
    o.add("plies", (long)n.plies).add("filtered", (long)n.filtered).add("sampled_out", (long)n.sampled_out);
    o.add("duplicates", (long)n.duplicates).add("positions", (long)n.positions).add("seconds", n.seconds);
    o.add("positions_per_second", n.seconds > 0 ? double(n.plies) / n.seconds : 0.0);
    out << o.str() << "\n";
  } else {
    char rate[64];
    std::snprintf(rate, sizeof rate, "%.3f s (%.2f M plies/s)", n.seconds,
                  n.seconds > 0 ? double(n.plies) / n.seconds / 1e6 : 0.0);
    out << req.pgn << ": " << plural(n.games, "game") << " read, " << n.skipped << " skipped; "
        << plural(n.plies, "position") << ", " << n.filtered << " filtered out, " << n.sampled_out << " sampled out, "
        << plural(n.duplicates, "duplicate") << "; " << n.positions << " written to " << req.out << " in " << rate
        << "\n";
  }
  return EXIT_OK;
}

}  // namespace chesshpc
