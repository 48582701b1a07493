#include "jobs/rescore/file.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/pack.h"
#include "core/uci.h"
#include "jobs/export/binpack.h"
#include "jobs/io/h5.h"
#include "jobs/io/h5_table.h"
#include "jobs/io/provenance.h"
#include "jobs/io/resume.h"
#include "jobs/selfplay/file.h"

namespace chesshpc {

namespace {

constexpr auto SEARCHED =
    h5::table("searched", "one row per input position: what its search gave (rows of units not done are empty)",
              {
                  h5::fixed_width(h5::column<&Rescored::best>("best", "best move (UCI)"), chess::UCI_MOVE_BYTES),
                  h5::column<&Rescored::score_cp>("score_cp", "centipawns, mover's view; NaN with a mate"),
                  h5::column<&Rescored::mate_in>("mate_in", "mate in N moves, mover's view; 0 if none"),
                  h5::column<&Rescored::depth>("depth", "depth reached"),
                  h5::column<&Rescored::nodes>("nodes", "nodes searched"),
                  h5::column<&Rescored::time_ms>("time_ms", "milliseconds the search took"),
              });
constexpr auto UNITS =
    h5::table("units", "one row per unit", {h5::column<&Rescored::unit_done>("done", "the unit's positions searched")});

constexpr h5::Attr<std::string> IDENTITY{"identity", "the run's input, player and unit size, key=value;..."};
constexpr h5::Attr<uint64_t> DIGEST{"input_digest", "a hash of the input's packed positions"};
constexpr std::string_view CHECKPOINT_JOB = "rescore-checkpoint";

struct Root {
  const RescoreRequest& req;
  const RescoreInput& in;
  std::string_view job;
};

constexpr auto CHECKPOINT_ROOT = std::to_array({
    h5::attr<Root>(h5::JOB, [](const Root& s) { return s.job; }),
    h5::attr<Root>(IDENTITY, [](const Root& s) { return s.req.identity(); }),
    h5::attr<Root>(DIGEST, [](const Root& s) { return s.in.digest; }),
});

constexpr auto ROOT = std::to_array({
    h5::attr<Root>(h5::JOB, [](const Root& s) { return s.job; }),
    h5::attr<Root>(TABLES, [](const Root&) { return SELFPLAY_JOB; }),
    h5::attr<Root>("input", "the file whose positions were searched, as given", [](const Root& s) { return s.req.in; }),
    h5::attr<Root>(DIGEST, [](const Root& s) { return s.in.digest; }),
    h5::attr<Root>("player", "the player and its limits, as selfplay names them",
                   [](const Root& s) { return s.req.player(); }),
    h5::attr<Root>("positions", "positions searched: the rows of /positions",
                   [](const Root& s) { return int64_t(s.in.size()); }),
});

std::string readme() {
  return "chesshpc rescore: the positions of a selfplay file, each searched again alone (a new game before each), "
         "best, score_cp, mate_in, depth, nodes, time_ms and is_capture replaced; the played move, the result and "
         "/games kept.\n" +
         selfplay_tables_readme() + h5::readme("Root attributes", ROOT);
}

// FNV-1a over the bytes: a resumed run must search the positions the checkpoint's run did.
uint64_t digest_of(const std::vector<uint8_t>& bytes) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (uint8_t b : bytes) h = (h ^ b) * 0x100000001b3ULL;
  return h;
}

bool ends_with(const std::string& s, std::string_view end) {
  return s.size() >= end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
}

// A row of /positions for a position read from a file of another format: its move (none:
// ""), its result for the mover (NaN without one), no search yet.
void add_row(PositionColumns& p, uint64_t game, int ply, const chess::Position& pos, chess::Move move, double result) {
  const bool has_move = move != chess::Move::none();
  p.game.push_back(game), p.ply.push_back(ply);
  p.fen.push_back(pos.fen());
  const chess::PackedPosition packed = chess::pack(pos);
  p.packed.insert(p.packed.end(), packed.begin(), packed.end());
  p.move.push_back(has_move ? chess::to_uci(move, pos.is_chess960()) : "");
  p.best.push_back(p.move.back());
  p.score_cp.push_back(std::nan("")), p.mate_in.push_back(0), p.depth.push_back(0), p.nodes.push_back(0);
  p.time_ms.push_back(0);
  p.in_check.push_back(pos.checkers() != 0), p.book.push_back(false), p.halfmove.push_back(pos.rule50());
  p.result.push_back(result);
  p.is_capture.push_back(has_move && captures_or_promotes(pos, move));
  p.gives_check.push_back(has_move && pos.gives_check(move));
  p.wdl.push_back(wdl_of(result));
}

// A .binpack's entries, a row each; game numbers its chains (an entry one ply after the
// one before, from the position its move leads to, continues the chain).
SelfplayTables read_binpack(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw h5::Error("cannot read '" + path + "'");
  SelfplayTables t;
  uint64_t chain = 0;
  std::optional<binpack::Entry> last;
  binpack::read_each(in, [&](const binpack::Entry& e) {
    if (last && !(last->move != chess::Move::none() && e.ply == last->ply + 1 && last->pos.after(last->move) == e.pos))
      ++chain;
    add_row(t.positions, chain, e.ply, e.pos, e.move, (e.result + 1) / 2.0);
    last = e;
  });
  return t;
}

// An EPD file's lines, a row each (game: the line's number from 0): the FEN's four fields,
// the clocks from hmvc and fmvn when given; no move, no result.
SelfplayTables read_epd(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw h5::Error("cannot read '" + path + "'");
  SelfplayTables t;
  std::string line;
  for (uint64_t n = 0; std::getline(in, line); ++n) {
    std::istringstream words(line);
    std::string fen, w, hmvc = "0", fmvn = "1";
    for (int i = 0; i < 4 && words >> w; ++i) fen += (i ? " " : "") + w;
    if (fen.empty()) continue;
    for (std::string prev; words >> w; prev = w) {
      if (prev == "hmvc") hmvc = w.substr(0, w.find(';'));
      if (prev == "fmvn") fmvn = w.substr(0, w.find(';'));
    }
    try {
      add_row(t.positions, n, 0, chess::Position::from_any_fen(fen + " " + hmvc + " " + fmvn), chess::Move::none(),
              std::nan(""));
    } catch (const chess::FenError& e) {
      throw h5::Error(path + ":" + std::to_string(n + 1) + ": " + e.what());
    }
  }
  return t;
}

// A selfplay file's packed positions alone: every rank reads them, 32 bytes a row.
std::vector<uint8_t> read_selfplay_file_positions(const std::string& path) {
  h5::Group f = h5::open_read(path);
  if (!has_selfplay_tables(f)) throw h5::Error("'" + path + "' is not a chesshpc selfplay file");
  // The packed positions alone: every rank reads them, 32 bytes a row.
  std::vector<std::string_view> leave_out;
  for (const auto& c : SELFPLAY_POSITIONS.columns)
    if (c.name != h5::name_of<&PositionColumns::packed>(SELFPLAY_POSITIONS)) leave_out.push_back(c.name);
  return read_selfplay_positions(f, leave_out).packed;
}

}  // namespace

SelfplayTables read_input_tables(const std::string& path) {
  if (ends_with(path, ".binpack")) {
    try {
      return read_binpack(path);
    } catch (const std::runtime_error& e) {
      throw h5::Error(path + ": " + e.what());
    }
  }
  if (ends_with(path, ".epd")) return read_epd(path);
  h5::Group f = h5::open_read(path);
  if (!has_selfplay_tables(f)) throw h5::Error("'" + path + "' is not a chesshpc selfplay file");
  SelfplayTables t = read_selfplay_tables(f);
  derive_filter_columns(t.positions);
  return t;
}

void Rescored::resize(size_t positions, size_t units) {
  best.resize(positions), score_cp.resize(positions, std::nan("")), mate_in.resize(positions);
  depth.resize(positions), time_ms.resize(positions), nodes.resize(positions), unit_done.resize(units);
}

RescoreInput read_rescore_input(const std::string& path) {
  RescoreInput in;
  if (ends_with(path, ".binpack") || ends_with(path, ".epd")) {
    in.packed = read_input_tables(path).positions.packed;
  } else {
    in.packed = read_selfplay_file_positions(path);
  }
  in.digest = digest_of(in.packed);
  for (size_t i = 0; i < in.size(); ++i) in.chess960 |= in.packed[32 * i + 30] || in.packed[32 * i + 31];
  return in;
}

std::string checkpoint_path(const RescoreRequest& req) { return req.out + ".checkpoint"; }

void write_checkpoint(const RescoreRequest& req, const RescoreInput& in, const Rescored& r) {
  h5::File f(checkpoint_path(req));
  h5::write_table(f, SEARCHED, r);
  h5::write_table(f, UNITS, r);
  h5::write_attrs(f, CHECKPOINT_ROOT, Root{req, in, CHECKPOINT_JOB});
  f.commit();
}

Rescored read_checkpoint(const RescoreRequest& req, const RescoreInput& in) {
  const std::string path = checkpoint_path(req);
  h5::Group f = h5::open_read(path);
  if (!h5::is_job(f, CHECKPOINT_JOB))
    throw ResumeError("cannot resume from '" + path + "': it is not a chesshpc rescore checkpoint");
  require_same(path, "run", h5::read_attr(f, IDENTITY), req.identity());
  require_same(path, "input digest", h5::read_attr(f, DIGEST), in.digest);
  Rescored r;
  h5::read_table(f, SEARCHED, r);
  h5::read_table(f, UNITS, r);
  const size_t units = (in.size() + size_t(req.positions_per_unit) - 1) / size_t(req.positions_per_unit);
  if (r.best.size() != in.size() || r.unit_done.size() != units)
    throw ResumeError("cannot resume from '" + path + "': its rows are not the input's positions");
  return r;
}

void write_rescored(const RescoreRequest& req, const RescoreInput& in, const Rescored& r, const std::string& started,
                    int threads, int ranks) {
  SelfplayTables t = read_input_tables(req.in);
  PositionColumns& p = t.positions;
  if (p.size() != in.size()) throw h5::Error("'" + req.in + "' changed while it was rescored");
  for (size_t i = 0; i < p.size(); ++i) {
    p.best[i] = r.best[i], p.score_cp[i] = r.score_cp[i], p.mate_in[i] = r.mate_in[i];
    p.depth[i] = r.depth[i], p.nodes[i] = r.nodes[i], p.time_ms[i] = r.time_ms[i];
    const chess::Position pos = chess::unpack_trusted(p.packed.data() + 32 * i);
    // A position without a played move (EPD) takes its best as the move.
    if (p.move[i].empty()) p.move[i] = p.best[i], p.gives_check[i] = false;
    const std::optional<chess::Move> played = chess::parse_uci(pos, p.move[i]);
    if (played) p.gives_check[i] = pos.gives_check(*played);
    const std::optional<chess::Move> best = chess::parse_uci(pos, p.best[i]);
    p.is_capture[i] = (played && captures_or_promotes(pos, *played)) || (best && captures_or_promotes(pos, *best));
  }
  h5::File f(req.out);
  write_selfplay_tables(f, t);
  Provenance prov;
  prov.command_line = req.command_line;
  prov.started = started;
  prov.finished = utc_now();
  prov.threads = threads;
  prov.ranks = ranks;
  prov.readme = readme();
  h5::write_provenance(f, prov);
  h5::write_attrs(f, ROOT, Root{req, in, RESCORE_JOB});
  f.commit();
  std::error_code ec;
  std::filesystem::remove(checkpoint_path(req), ec);
}

}  // namespace chesshpc
