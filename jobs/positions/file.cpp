#include "jobs/positions/file.h"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstring>
#include <optional>

#include "core/threads.h"
#include "jobs/io/h5.h"
#include "jobs/io/h5_table.h"
#include "jobs/io/provenance.h"
#include "jobs/rules/request.h"
#include "jobs/selfplay/file.h"

namespace chesshpc {

namespace {

// zlib's fastest level, for /games (deflated by HDF5) and as /positions' filters record
// it (its chunks are deflated by the workers with igzip: h5::ChunkAppender).
constexpr int FAST_DEFLATE = 1;

struct Root {
  const PositionsRequest& req;
  const PositionsCounts& n;
};

constexpr auto ROOT = std::to_array({
    h5::attr<Root>(h5::JOB, [](const Root&) { return POSITIONS_JOB; }),
    h5::attr<Root>(TABLES, [](const Root&) { return SELFPLAY_JOB; }),
    h5::attr<Root>("pgn_file", "the corpus, as given", [](const Root& s) { return s.req.pgn; }),
    h5::attr<Root>("ruleset", "fide or site: the rules /games' termination and first_fire follow",
                   [](const Root& s) { return ruleset_name(s.req.ruleset); }),
    h5::attr<Root>("seed", "the sampling's seed (--seed)", [](const Root& s) { return s.req.seed; }),
    h5::attr<Root>("per_game", "--per-game K; 0 without", [](const Root& s) { return int64_t(s.req.per_game); }),
    h5::attr<Root>("fraction", "--fraction F; 0 without", [](const Root& s) { return s.req.fraction; }),
    h5::attr<Root>("games", "games replayed: the rows of /games", [](const Root& s) { return s.n.games; }),
    h5::attr<Root>("skipped", "games not read (malformed, or of a variant other than standard and Chess960)",
                   [](const Root& s) { return s.n.skipped; }),
    h5::attr<Root>("plies", "positions of the games replayed, before the filters",
                   [](const Root& s) { return s.n.plies; }),
    h5::attr<Root>("filtered", "positions the filters left out", [](const Root& s) { return s.n.filtered; }),
    h5::attr<Root>("sampled_out", "positions the sampling left out", [](const Root& s) { return s.n.sampled_out; }),
    h5::attr<Root>("duplicates_dropped", "positions dropped as repeats of earlier ones (--dedup)",
                   [](const Root& s) { return s.n.duplicates; }),
    h5::attr<Root>("positions", "positions kept: the rows of /positions", [](const Root& s) { return s.n.positions; }),
});

std::string readme() {
  return "chesshpc positions: the positions of a PGN corpus, one row before each move, in selfplay's layout. "
         "/games holds every game replayed (game: its 0-based number in the corpus, skipped games counted); "
         "/positions the positions kept, move and best the move played, no search (score_cp NaN, depth 0), "
         "result the game's for the mover.\n" +
         h5::readme(SELFPLAY_GAMES) + h5::readme(SELFPLAY_POSITIONS) + h5::readme("Root attributes", ROOT);
}

}  // namespace

struct PositionsFile::Tables {
  h5::File file;
  std::optional<h5::ColumnAppender<GameColumns, SELFPLAY_GAMES.columns.size()>> games;
  std::optional<h5::ChunkAppender<PositionColumns, SELFPLAY_POSITIONS.columns.size()>> positions;
  explicit Tables(const PositionsRequest& req) : file(req.out) {
    games.emplace(file, SELFPLAY_GAMES, req.rows_per_write, FAST_DEFLATE);
    // One dataset a column (ChunkAppender refuses families), so dataset d is PositionRows' column d.
    positions.emplace(file, SELFPLAY_POSITIONS, req.rows_per_write, FAST_DEFLATE);
  }
};

PositionsFile::PositionsFile(const PositionsRequest& req) : req_(req), tables_(std::make_unique<Tables>(req)) {}

PositionsFile::~PositionsFile() = default;

size_t PositionsFile::chunk_rows() const { return tables_->positions->chunk_rows(); }

void PositionRows::keep(const std::vector<size_t>& keep) {
  for (size_t c = 0; c < COLUMNS; ++c) {
    const size_t w = row_bytes(c);
    uint8_t* b = bytes[c].data();
    for (size_t i = 0; i < keep.size(); ++i) std::memmove(b + i * w, b + keep[i] * w, w);
    bytes[c].resize(keep.size() * w);
  }
  rows = keep.size();
}

void PositionsFile::encode(Chunk& chunk) const {
  using P = PositionColumns;
  constexpr size_t MOVE = h5::index_of<&P::move>(SELFPLAY_POSITIONS), BEST = h5::index_of<&P::best>(SELFPLAY_POSITIONS);
  static_assert(PositionRows::row_bytes(MOVE) == PositionRows::row_bytes(BEST));
  const auto& positions = *tables_->positions;
  auto piece = [&](const Part& p, size_t d) {
    const size_t w = PositionRows::row_bytes(d);
    return std::span<const uint8_t>(p.rows->bytes[d].data() + p.first * w, p.count * w);
  };
  // No row is searched, so each best is its move: the same bytes, deflated once (2 % of a
  // thread's time), to the same deflated bytes.
  const bool best_is_move = std::ranges::all_of(chunk.parts, [&](const Part& p) {
    const auto move = piece(p, MOVE), best = piece(p, BEST);
    return std::memcmp(move.data(), best.data(), move.size()) == 0;
  });
  chunk.datasets.assign(positions.datasets(), {});
  tbb::parallel_for(size_t(0), positions.datasets(), [&](size_t d) {
    if (d == BEST && best_is_move) return;
    std::vector<std::span<const uint8_t>> pieces;
    for (const Part& p : chunk.parts) pieces.push_back(piece(p, d));
    chunk.datasets[d] = positions.encode(d, pieces);
  });
  if (best_is_move) chunk.datasets[BEST] = chunk.datasets[MOVE];
}

void PositionsFile::write(const GameColumns& games) { tables_->games->write(games); }

void PositionsFile::write(const Chunk& chunk) { tables_->positions->write(chunk.rows, chunk.datasets); }

void PositionsFile::finish(const PositionsCounts& counts, const std::string& started) {
  // The tables' groups close first: commit() must find the file closed before it syncs and renames it.
  tables_->games.reset(), tables_->positions.reset();
  h5::write_provenance(tables_->file, finished_provenance(req_.command_line, started,
                                                          chess::resolve_threads(req_.threads), 1, readme()));
  h5::write_attrs(tables_->file, ROOT, Root{req_, counts});
  tables_->file.commit();
}

}  // namespace chesshpc
