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

using namespace perft_file;

namespace {

constexpr const char* JOB_NAME = SPLIT_JOB;

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

// What the root attributes are written from.
struct Root {
  const PerftPlan& plan;
  const UnitResults& r;
};

constexpr auto ROOT = std::to_array({
    h5::attr<Root>("units", "units of the plan: the rows of /units",
                   [](const Root& s) { return int64_t(s.plan.units.size()); }),
    h5::attr<Root>("units_done", "units counted so far", [](const Root& s) { return int64_t(s.r.count_done()); }),
});

std::string readme() {
  return "chesshpc perft: a perft run split into work units (the unique positions split_depth plies below the "
         "root).\n" +
         h5::readme(UNITS) + h5::readme("Root attributes of this file", ROOT) + ending_readme();
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
  std::optional<chess::u128> total;  // complete files only
  if (r.count_done() == plan_.units.size())
    total = perft_file::write_divide(file, plan_.root_moves, merge_divide(plan_, r.nodes), plan_.root.is_chess960());
  h5::write_attrs(file, OPENING, {JOB_NAME, plan_});
  h5::write_attrs(file, ROOT, {plan_, r});
  write_ending(file, {req_, r.load, total, started_, ranks_, r.this_run}, readme());
}

UnitResults read_perft_file(const std::string& path, const PerftPlan& plan) {
  h5::Group f = h5::open_read(path);
  require_same_root(f, path, JOB_NAME, plan.root.fen(), plan.depth);
  require_same(path, "split depth", h5::read_attr(f, SPLIT_DEPTH), int64_t(plan.split_depth));
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

bool holds_unfinished_perft(const std::string& path) { return holds_unfinished(path, JOB_NAME); }

}  // namespace chesshpc
