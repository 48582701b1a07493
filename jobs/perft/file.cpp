#include "jobs/perft/file.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <optional>
#include <sstream>

#include "core/movegen.h"
#include "core/threads.h"
#include "core/uci.h"
#include "jobs/io/h5.h"
#include "jobs/io/h5_table.h"
#include "jobs/io/provenance.h"

namespace chesshpc {

namespace {

constexpr const char* JOB_NAME = "perft";  // the file's job attribute

// A unit of the plan and what is known of it: a row of /units.
struct UnitRow {
  std::string fen;
  uint64_t multiplicity = 0, nodes = 0;
  double seconds = 0;
  int32_t rank = -1, run = -1;
  bool done = false;
};

constexpr auto UNITS =
    h5::table("units", "one row per unit, biggest first",
              {
                  h5::column<&UnitRow::fen>("fen", "the unit's position"),
                  h5::column<&UnitRow::multiplicity>("multiplicity", "move paths from the root to the unit"),
                  h5::column<&UnitRow::nodes>("nodes", "perft of the unit at depth - split_depth (0 until done)"),
                  h5::column<&UnitRow::seconds>("seconds", "time to count the unit"),
                  h5::column<&UnitRow::rank>("rank", "rank that counted it"),
                  h5::column<&UnitRow::run>(
                      "run", "run of the job that counted it: 0 first, 1 after the first --resume; -1 not yet"),
                  h5::column<&UnitRow::done>("done", "counted (nodes is final)"),
              });

// A root move and the paths through it: a row of /divide.
struct DivideRow {
  chess::Move move;
  chess::u128 nodes;
};

constexpr auto DIVIDE = h5::table(
    "divide", "complete files only: one row per root move; nodes = nodes_hi * 2**64 + nodes_lo",
    {
        h5::computed<DivideRow>("move", "root move (UCI)", [](const DivideRow& d) { return chess::to_uci(d.move); }),
        h5::computed<DivideRow>("nodes", "paths through the move, exact decimal",
                                [](const DivideRow& d) { return chess::to_string(d.nodes); }),
        h5::computed<DivideRow>("nodes_hi", "high 64 bits of nodes",
                                [](const DivideRow& d) { return uint64_t(d.nodes >> 64); }),
        h5::computed<DivideRow>("nodes_lo", "low 64 bits of nodes",
                                [](const DivideRow& d) { return uint64_t(d.nodes); }),
    });

constexpr auto RANKS = h5::table("ranks", "one row per run and rank",
                                 {
                                     h5::column<&RankLoad::run>("run", "run of the job"),
                                     h5::column<&RankLoad::rank>("rank", "MPI rank"),
                                     h5::column<&RankLoad::host>("host", "host the rank ran on"),
                                     h5::column<&RankLoad::busy>("busy_seconds", "time counting units"),
                                     h5::column<&RankLoad::idle>("idle_seconds", "time waiting for work or results"),
                                 });

// The root attributes --resume reads.
constexpr h5::Attr<std::string> FEN{"fen", "the root position"};
constexpr h5::Attr<int64_t> DEPTH{"depth", "plies counted from the root"};
constexpr h5::Attr<int64_t> SPLIT_DEPTH{"split_depth", "plies from the root to the units"};
constexpr h5::Attr<int64_t> COMPLETE{"complete", "1 when every unit is done, else 0"};
constexpr h5::Attr<int64_t> RUNS{"runs", "runs of the job so far: 1, then 2 after the first --resume, ..."};
constexpr h5::Attr<uint64_t> ZOBRIST_SEED{
    "zobrist_seed", "seed of the Zobrist keys: the default set, or the verification set (--verify-keys)"};

// What the root attributes are written from.
struct Root {
  const PerftRequest& req;
  const PerftPlan& plan;
  const UnitResults& r;
  std::optional<chess::u128> total;  // complete files only
};

// Every host of every run, in order of first appearance.
std::string hosts(const std::vector<RankLoad>& load) {
  std::vector<std::string> hosts;
  for (const RankLoad& l : load)
    if (std::find(hosts.begin(), hosts.end(), l.host) == hosts.end()) hosts.push_back(l.host);
  std::string joined;
  for (const std::string& h : hosts) joined += (joined.empty() ? "" : ",") + h;
  return joined;
}

constexpr auto ROOT = std::to_array({
    h5::attr<Root>(h5::JOB, [](const Root&) { return JOB_NAME; }),
    h5::attr<Root>(FEN, [](const Root& s) { return s.plan.root.fen(); }),
    h5::attr<Root>(DEPTH, [](const Root& s) { return int64_t(s.plan.depth); }),
    h5::attr<Root>(SPLIT_DEPTH, [](const Root& s) { return int64_t(s.plan.split_depth); }),
    h5::attr<Root>(h5::RULES_VERSION, [](const Root&) { return int64_t(chess::RULES_VERSION); }),
    h5::attr<Root>("units", "units of the plan: the rows of /units",
                   [](const Root& s) { return int64_t(s.plan.units.size()); }),
    h5::attr<Root>("units_done", "units counted so far", [](const Root& s) { return int64_t(s.r.count_done()); }),
    h5::attr<Root>(COMPLETE, [](const Root& s) { return int64_t(s.total.has_value()); }),
    h5::attr<Root>(RUNS, [](const Root& s) { return int64_t(s.r.this_run + 1); }),
    h5::attr<Root>("hash_bytes", "perft table size (--hash); 0: no table",
                   [](const Root& s) { return uint64_t(s.req.hash_bytes); }),
    h5::attr<Root>("hosts", "every host of every run, comma-separated, in order of first appearance",
                   [](const Root& s) { return hosts(s.r.load); }),
    h5::attr<Root>(ZOBRIST_SEED, [](const Root&) { return uint64_t(chess::zobrist::seed()); }),
    h5::attr<Root>("total", "complete files only: the total, exact decimal text",
                   [](const Root& s) { return s.total ? std::optional(chess::to_string(*s.total)) : std::nullopt; }),
    h5::attr<Root>("total_hi", "complete files only: high 64 bits of the total",
                   [](const Root& s) { return s.total ? std::optional(uint64_t(*s.total >> 64)) : std::nullopt; }),
    h5::attr<Root>("total_lo", "complete files only: low 64 bits of the total",
                   [](const Root& s) { return s.total ? std::optional(uint64_t(*s.total)) : std::nullopt; }),
});

std::string readme() {
  return "chesshpc perft: a perft run split into work units (the unique positions split_depth plies below the "
         "root).\n" +
         h5::readme(UNITS) + h5::readme(DIVIDE) + h5::readme(RANKS) + h5::readme("Root attributes", ROOT) +
         "The total in Python: int(f.attrs['total']) or (int(f.attrs['total_hi']) << 64) | "
         "int(f.attrs['total_lo']).\n";
}

// The divide of a complete run; returns the total.
chess::u128 write_divide(const h5::Group& file, const PerftPlan& plan, const UnitResults& r) {
  std::vector<chess::u128> nodes = merge_divide(plan, r.nodes);
  std::vector<DivideRow> divide;
  chess::u128 total = 0;
  for (size_t i = 0; i < nodes.size(); ++i) divide.push_back({plan.root_moves[i], nodes[i]}), total += nodes[i];
  h5::write_table(file, DIVIDE, divide);
  return total;
}

}  // namespace

PerftFile::PerftFile(std::string path, const PerftRequest& req, const PerftPlan& plan, std::string started, int ranks)
    : path_(std::move(path)), started_(std::move(started)), ranks_(ranks), req_(req), plan_(plan) {
  for (const PerftUnit& u : plan.units) fen_.push_back(u.pos.fen()), multiplicity_.push_back(u.multiplicity());
}

void PerftFile::write(const UnitResults& r) const {
  std::vector<UnitRow> units;
  units.reserve(fen_.size());
  for (size_t i = 0; i < fen_.size(); ++i)
    units.push_back({fen_[i], multiplicity_[i], r.nodes[i], r.seconds[i], r.rank[i], r.run[i], r.done(i)});
  h5::File file(path_);
  h5::write_table(file, UNITS, units);
  h5::write_table(file, RANKS, r.load);
  Root root{req_, plan_, r, std::nullopt};
  if (r.count_done() == plan_.units.size()) root.total = write_divide(file, plan_, r);
  Provenance p;
  p.command_line = req_.command_line;
  p.started = started_;
  p.finished = root.total ? utc_now() : "";
  p.threads = chess::resolve_threads(req_.threads);
  p.ranks = ranks_;
  p.readme = readme();
  h5::write_provenance(file, p);
  h5::write_attrs(file, ROOT, root);
  file.commit();
}

namespace {

template <typename T>
void require_same(const std::string& path, const char* what, const T& theirs, const T& ours) {
  if (theirs == ours) return;
  std::ostringstream s;
  s << "cannot resume from '" << path << "': it holds another job: its " << what << " is " << theirs
    << ", this run's is " << ours;
  throw ResumeError(s.str());
}

}  // namespace

UnitResults read_perft_file(const std::string& path, const PerftPlan& plan) {
  h5::Group f = h5::open_read(path);
  if (!h5::is_job(f, JOB_NAME)) throw ResumeError("cannot resume from '" + path + "': it is not a chesshpc perft file");
  require_same(path, "FEN", h5::read_attr(f, FEN), plan.root.fen());
  require_same(path, "depth", h5::read_attr(f, DEPTH), int64_t(plan.depth));
  require_same(path, "split depth", h5::read_attr(f, SPLIT_DEPTH), int64_t(plan.split_depth));
  require_same(path, "rules version", h5::read_attr(f, h5::RULES_VERSION), int64_t(chess::RULES_VERSION));
  auto keys = [](uint64_t seed) {
    return std::string(seed == chess::zobrist::VERIFY_SEED ? "the verification set (--verify-keys)"
                                                           : "the default set");
  };
  require_same(path, "Zobrist key set", keys(h5::read_attr(f, ZOBRIST_SEED)), keys(chess::zobrist::seed()));
  std::vector<UnitRow> units;
  h5::read_table(f, UNITS, units);
  require_same(path, "number of units", units.size(), plan.units.size());
  UnitResults r(plan.units.size());
  r.this_run = int(h5::read_attr(f, RUNS));
  for (size_t i = 0; i < units.size(); ++i) {
    const UnitRow& u = units[i];
    // The plan is deterministic, so a different unit here means another build or another job.
    if (u.fen != plan.units[i].pos.fen())
      throw ResumeError("cannot resume from '" + path + "': its unit " + std::to_string(i) + " is " + u.fen +
                        ", this run's is " + plan.units[i].pos.fen());
    if (u.done) r.nodes[i] = u.nodes, r.seconds[i] = u.seconds, r.rank[i] = u.rank, r.run[i] = u.run;
  }
  h5::read_table(f, RANKS, r.load);
  return r;
}

bool holds_unfinished_perft(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return false;
  try {
    h5::Group f = h5::open_read(path);
    return h5::is_job(f, JOB_NAME) && h5::has_attr(f, COMPLETE) && h5::read_attr(f, COMPLETE) == 0;
  } catch (const h5::Error&) {
    return false;
  }
}

}  // namespace chesshpc
