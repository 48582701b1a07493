#include "jobs/perft/file.h"

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "core/movegen.h"
#include "core/threads.h"
#include "core/uci.h"
#include "jobs/io/h5.h"
#include "jobs/io/provenance.h"

namespace chesshpc {

namespace {

const char* README =
    "chesshpc perft: a perft run split into work units (the unique positions split_depth plies below the root).\n"
    "/units: one row per unit, biggest first: fen, multiplicity (paths from the root), nodes (perft of the unit "
    "at depth - split_depth), seconds, rank (that computed it), run (0 for the first run, 1 after the first "
    "--resume, ...), done (false: not counted yet, nodes is 0).\n"
    "/divide (complete files only): one row per root move: move (UCI), nodes (exact decimal text), nodes_hi, "
    "nodes_lo (nodes = hi * 2**64 + lo).\n"
    "/ranks: one row per run and rank: run, rank, host, busy_seconds, idle_seconds.\n"
    "Root attributes: complete (1 when every unit is done) and units_done; when complete, the total as 'total' "
    "(decimal text) and total_hi, total_lo; Python: int(f.attrs['total']) or "
    "(int(f.attrs['total_hi']) << 64) | int(f.attrs['total_lo']).";

void write_units(hid_t file, const std::vector<std::string>& fen, const std::vector<uint64_t>& multiplicity,
                 const UnitResults& r) {
  h5::Handle g = h5::create_group(file, "units");
  h5::write_column(g.id(), "fen", fen, "the unit's position");
  h5::write_column(g.id(), "multiplicity", multiplicity, "move paths from the root to the unit");
  h5::write_column(g.id(), "nodes", r.nodes, "perft of the unit at depth - split_depth (0 until done)");
  h5::write_column(g.id(), "seconds", r.seconds, "time to count the unit");
  h5::write_column(g.id(), "rank", std::vector<int32_t>(r.rank.begin(), r.rank.end()), "rank that counted it");
  h5::write_column(g.id(), "run", std::vector<int32_t>(r.run.begin(), r.run.end()),
                   "run of the job that counted it: 0 first, 1 after the first --resume; -1 not yet");
  std::vector<bool> done(r.run.size());
  for (size_t i = 0; i < done.size(); ++i) done[i] = r.done(i);
  h5::write_bool_column(g.id(), "done", done, "counted (nodes is final)");
}

chess::u128 write_divide(hid_t file, const PerftPlan& plan, const UnitResults& r) {
  std::vector<chess::u128> divide = merge_divide(plan, r.nodes);
  chess::u128 total = 0;
  h5::Handle g = h5::create_group(file, "divide");
  std::vector<std::string> move, text;
  std::vector<uint64_t> hi, lo;
  for (size_t i = 0; i < divide.size(); ++i) {
    total += divide[i];
    move.push_back(chess::to_uci(plan.root_moves[i]));
    text.push_back(chess::to_string(divide[i]));
    hi.push_back(uint64_t(divide[i] >> 64)), lo.push_back(uint64_t(divide[i]));
  }
  h5::write_column(g.id(), "move", move, "root move (UCI)");
  h5::write_column(g.id(), "nodes", text, "paths through the move, exact decimal");
  h5::write_column(g.id(), "nodes_hi", hi, "high 64 bits of nodes");
  h5::write_column(g.id(), "nodes_lo", lo, "low 64 bits of nodes");
  return total;
}

void write_ranks(hid_t file, const UnitResults& r) {
  h5::Handle g = h5::create_group(file, "ranks");
  std::vector<int32_t> run, rank;
  std::vector<double> busy, idle;
  std::vector<std::string> host;
  for (const RankLoad& l : r.load)
    run.push_back(l.run), rank.push_back(l.rank), busy.push_back(l.busy), idle.push_back(l.idle),
        host.push_back(l.host);
  h5::write_column(g.id(), "run", run, "run of the job");
  h5::write_column(g.id(), "rank", rank, "MPI rank");
  h5::write_column(g.id(), "host", host, "host the rank ran on");
  h5::write_column(g.id(), "busy_seconds", busy, "time counting units");
  h5::write_column(g.id(), "idle_seconds", idle, "time waiting for work or results");
}

}  // namespace

PerftFile::PerftFile(std::string path, const PerftRequest& req, const PerftPlan& plan, std::string started, int ranks)
    : path_(std::move(path)), started_(std::move(started)), ranks_(ranks), req_(req), plan_(plan) {
  for (const PerftUnit& u : plan.units) fen_.push_back(u.pos.fen()), multiplicity_.push_back(u.multiplicity());
}

void PerftFile::write(const UnitResults& r) const {
  h5::File file(path_);
  write_units(file.id(), fen_, multiplicity_, r);
  write_ranks(file.id(), r);
  size_t done = r.count_done();
  bool complete = done == plan_.units.size();
  if (complete) {
    chess::u128 total = write_divide(file.id(), plan_, r);
    h5::set_attr(file.id(), "total", chess::to_string(total));
    h5::set_attr(file.id(), "total_hi", uint64_t(total >> 64));
    h5::set_attr(file.id(), "total_lo", uint64_t(total));
  }
  Provenance p;
  p.command_line = req_.command_line;
  p.started = started_;
  p.finished = complete ? utc_now() : "";
  p.threads = chess::resolve_threads(req_.threads);
  p.ranks = ranks_;
  p.readme = README;
  h5::write_provenance(file.id(), p);
  h5::set_attr(file.id(), "job", std::string("perft"));
  h5::set_attr(file.id(), "fen", plan_.root.fen());
  h5::set_attr(file.id(), "depth", int64_t(plan_.depth));
  h5::set_attr(file.id(), "split_depth", int64_t(plan_.split_depth));
  h5::set_attr(file.id(), "rules_version", int64_t(chess::RULES_VERSION));
  h5::set_attr(file.id(), "units", int64_t(plan_.units.size()));
  h5::set_attr(file.id(), "units_done", int64_t(done));
  h5::set_attr(file.id(), "complete", int64_t(complete));
  h5::set_attr(file.id(), "runs", int64_t(r.this_run + 1));
  h5::set_attr(file.id(), "hash_bytes", uint64_t(req_.hash_bytes));
  std::vector<std::string> hosts;  // every host of every run, in order of first appearance
  for (const RankLoad& l : r.load)
    if (std::find(hosts.begin(), hosts.end(), l.host) == hosts.end()) hosts.push_back(l.host);
  std::string joined;
  for (const std::string& h : hosts) joined += (joined.empty() ? "" : ",") + h;
  h5::set_attr(file.id(), "hosts", joined);
  h5::set_attr(file.id(), "zobrist_seed", uint64_t(chess::zobrist::seed()));
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
  h5::Handle f = h5::open_read(path);
  if (!h5::has_attr(f.id(), "job") || h5::read_string_attr(f.id(), "job") != "perft")
    throw ResumeError("cannot resume from '" + path + "': it is not a chesshpc perft file");
  require_same(path, "FEN", h5::read_string_attr(f.id(), "fen"), plan.root.fen());
  require_same(path, "depth", h5::read_int_attr(f.id(), "depth"), int64_t(plan.depth));
  require_same(path, "split depth", h5::read_int_attr(f.id(), "split_depth"), int64_t(plan.split_depth));
  require_same(path, "rules version", h5::read_int_attr(f.id(), "rules_version"), int64_t(chess::RULES_VERSION));
  auto keys = [](uint64_t seed) {
    return std::string(seed == chess::zobrist::VERIFY_SEED ? "the verification set (--verify-keys)"
                                                           : "the default set");
  };
  require_same(path, "Zobrist key set", keys(h5::read_uint_attr(f.id(), "zobrist_seed")), keys(chess::zobrist::seed()));
  h5::Handle g = h5::open_group(f.id(), "units");
  std::vector<std::string> fen;
  std::vector<uint64_t> nodes;
  std::vector<double> seconds;
  std::vector<int32_t> rank, run;
  std::vector<bool> done;
  h5::read_column(g.id(), "fen", fen);
  require_same(path, "number of units", fen.size(), plan.units.size());
  h5::read_column(g.id(), "nodes", nodes);
  h5::read_column(g.id(), "seconds", seconds);
  h5::read_column(g.id(), "rank", rank);
  h5::read_column(g.id(), "run", run);
  h5::read_bool_column(g.id(), "done", done);
  for (size_t n = fen.size(); auto size : {nodes.size(), seconds.size(), rank.size(), run.size(), done.size()})
    if (size != n) throw ResumeError("cannot resume from '" + path + "': its /units columns differ in length");
  UnitResults r(plan.units.size());
  r.this_run = int(h5::read_int_attr(f.id(), "runs"));
  for (size_t i = 0; i < fen.size(); ++i) {
    // The plan is deterministic, so a different unit here means another build or another job.
    if (fen[i] != plan.units[i].pos.fen())
      throw ResumeError("cannot resume from '" + path + "': its unit " + std::to_string(i) + " is " + fen[i] +
                        ", this run's is " + plan.units[i].pos.fen());
    if (done[i]) r.nodes[i] = nodes[i], r.seconds[i] = seconds[i], r.rank[i] = rank[i], r.run[i] = run[i];
  }
  h5::Handle ranks = h5::open_group(f.id(), "ranks");
  std::vector<int32_t> lrun, lrank;
  std::vector<double> busy, idle;
  std::vector<std::string> host;
  h5::read_column(ranks.id(), "host", host);
  h5::read_column(ranks.id(), "run", lrun);
  h5::read_column(ranks.id(), "rank", lrank);
  h5::read_column(ranks.id(), "busy_seconds", busy);
  h5::read_column(ranks.id(), "idle_seconds", idle);
  for (size_t i = 0; i < lrun.size() && i < lrank.size() && i < busy.size() && i < idle.size() && i < host.size(); ++i)
    r.load.push_back({lrun[i], lrank[i], busy[i], idle[i], host[i]});
  return r;
}

bool holds_unfinished_perft(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return false;
  try {
    h5::Handle f = h5::open_read(path);
    return h5::has_attr(f.id(), "job") && h5::read_string_attr(f.id(), "job") == "perft" &&
           h5::has_attr(f.id(), "complete") && h5::read_int_attr(f.id(), "complete") == 0;
  } catch (const h5::Error&) {
    return false;
  }
}

}  // namespace chesshpc
