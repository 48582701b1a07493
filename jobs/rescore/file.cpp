#include "jobs/rescore/file.h"

#include <cmath>
#include <filesystem>
#include <memory>

#include "core/pack.h"
#include "core/uci.h"
#include "jobs/dataset/records.h"
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

// Where a record does not continue the one before (the position its move leads to, one ply
// later), a new game: a binpack's chains, a selfplay file's games.
class GameNumbers {
 public:
  uint64_t of(const DecodedPosition& d) {
    const int ply = d.ply >= 0 ? d.ply : game_ply(d.pos);
    if (last_ && !(!last_->move.is_none() && ply == last_ply_ + 1 && last_->pos.after(last_->move) == d.pos)) ++game_;
    last_ = d, last_ply_ = ply;
    return game_;
  }

 private:
  std::optional<DecodedPosition> last_;
  int last_ply_ = 0;
  uint64_t game_ = 0;
};

// IN as selfplay's tables: a selfplay file's as they are; another format's records as
// /positions rows, /games empty.
SelfplayTables read_input_tables(const std::string& path) {
  const Format& format = rescore_format(path);
  if (&format == &h5_format()) {
    SelfplayTables t = read_selfplay_tables(h5::open_read(path));
    derive_filter_columns(t.positions);
    return t;
  }
  SelfplayTables t;
  std::unique_ptr<RecordReader> reader = RecordReader::open(path, format);
  GameNumbers games;
  for (DecodedPosition d; reader->next(d);) append_position_row(d, games.of(d), t.positions);
  return t;
}

// The move a row keeps: the one played, or its best where none was (EPD's positions).
std::optional<chess::Move> kept_move(const chess::Position& pos, std::string_view played, std::string_view best) {
  const bool none = played.empty() || played == "0000";
  return decode_move(pos, none ? best : played);
}

void write_selfplay_layout(const RescoreRequest& req, const RescoreInput& in, const Rescored& r,
                           const std::string& started, int threads, int ranks) {
  SelfplayTables t = read_input_tables(req.in);
  PositionColumns& p = t.positions;
  if (p.size() != in.size()) throw h5::Error("'" + req.in + "' changed while it was rescored");
  for (size_t i = 0; i < p.size(); ++i) {
    p.best[i] = r.best[i], p.score_cp[i] = r.score_cp[i], p.mate_in[i] = r.mate_in[i];
    p.depth[i] = r.depth[i], p.nodes[i] = r.nodes[i], p.time_ms[i] = r.time_ms[i];
    const chess::Position pos = chess::unpack_trusted(p.packed.data() + 32 * i);
    const std::optional<chess::Move> played = kept_move(pos, p.move[i], p.best[i]);
    p.move[i] = played ? chess::to_uci(*played, pos.is_chess960()) : p.best[i];
    p.gives_check[i] = played && pos.gives_check(*played);
    const std::optional<chess::Move> best = decode_move(pos, p.best[i]);
    p.is_capture[i] = (played && captures_or_promotes(pos, *played)) || (best && captures_or_promotes(pos, *best));
  }
  h5::File f(req.out);
  write_selfplay_tables(f, t);
  h5::write_provenance(f, finished_provenance(req.command_line, started, threads, ranks, readme()));
  h5::write_attrs(f, ROOT, Root{req, in, RESCORE_JOB});
  f.commit();
}

// IN's records again, each with its new score, into OUT's format.
void write_records(const RescoreRequest& req, const RescoreInput& in, const Rescored& r) {
  std::unique_ptr<RecordReader> reader = RecordReader::open(req.in, rescore_format(req.in));
  std::unique_ptr<RecordWriter> writer = RecordWriter::open(req.out, rescore_format(req.out), req.command_line);
  for (DecodedPosition d; reader->next(d);) {
    const uint64_t i = reader->count() - 1;
    if (i >= in.size()) break;
    d.score = stockfish_score(r.score_cp[i], r.mate_in[i]);
    if (d.move.is_none()) d.move = decode_move(d.pos, r.best[i]).value_or(chess::Move::none());
    writer->add(d, i);
  }
  if (reader->count() != in.size()) throw h5::Error("'" + req.in + "' changed while it was rescored");
  if (const std::string error = writer->commit(); !error.empty()) throw h5::Error(error);
}

}  // namespace

void Rescored::resize(size_t positions, size_t units) {
  best.resize(positions), score_cp.resize(positions, std::nan("")), mate_in.resize(positions);
  depth.resize(positions), time_ms.resize(positions), nodes.resize(positions), unit_done.resize(units);
}

const Format& rescore_format(const std::string& path) {
  const Format* f = format_of_path(path);
  return f ? *f : h5_format();
}

RescoreInput read_rescore_input(const std::string& path) {
  RescoreInput in;
  std::unique_ptr<RecordReader> reader = RecordReader::open(path, rescore_format(path));
  for (DecodedPosition d; reader->next(d);) {
    const chess::PackedPosition packed = chess::pack(d.pos);
    in.packed.insert(in.packed.end(), packed.begin(), packed.end());
    in.chess960 |= d.pos.is_chess960();
    if (d.wdl == WDL_NONE && !in.without_result) in.without_result = reader->count() - 1;
  }
  in.digest = digest_of(in.packed);
  return in;
}

std::string unfit_output(const RescoreRequest& req, const RescoreInput& in) {
  const Format& out = rescore_format(req.out);
  if (out.standard_only && in.chess960)
    return "'" + req.out + "' is " + std::string(out.name) + ", which holds standard chess only, and '" + req.in +
           "' holds Chess960 positions";
  if (!(out.carries & CARRIES_NO_RESULT) && in.without_result)
    return "'" + req.out + "' is " + std::string(out.name) + ", which holds no position without a game result, and '" +
           req.in + "' record " + std::to_string(*in.without_result) + " has none";
  return "";
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
  if (&rescore_format(req.out) == &h5_format())
    write_selfplay_layout(req, in, r, started, threads, ranks);
  else
    write_records(req, in, r);
  std::error_code ec;
  std::filesystem::remove(checkpoint_path(req), ec);
}

}  // namespace chesshpc
