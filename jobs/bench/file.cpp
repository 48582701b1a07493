#include "jobs/bench/file.h"

#include "jobs/bench/suite.h"
#include "jobs/io/h5.h"
#include "jobs/io/version.h"

namespace chesshpc {

namespace {

const char* README =
    "chesshpc bench: a fixed, versioned suite of measurements (job = bench; see suite and suite_version).\n"
    "/measurements: one row per repeat of each measurement: benchmark, set, depth, repeat, threads, ranks, nodes, "
    "seconds, nodes_per_second. benchmark is movegen (legal moves listed, 1 thread), perft (bulk counting, 1 "
    "thread), perft_threads (T threads), hashed_perft (with a table, T threads), search (T searches of the bench "
    "positions at once), cluster_perft (units over R ranks x T threads) or stockfish_perft (Stockfish's go perft, 1 "
    "thread). Every perft count equals the published count of its set and depth.\n"
    "/summary: one row per (benchmark, set, depth): threads, ranks, nodes (of one repeat), median_seconds, "
    "min_seconds, max_seconds, median_nodes_per_second, stockfish_ratio (perft rows: median n/s over "
    "stockfish_perft's on the same set and depth; NaN elsewhere).\n"
    "Root attributes: the machine (cpu_model, logical_cpus, cpus_allowed, memory_bytes, hostname, hosts, os), the "
    "build (compiler, build_type, build_flags, native, pext) and the run (ranks, threads, repeats, stockfish, "
    "started_utc, seconds).";

void write_machine(hid_t file, const BenchRun& run) {
  const Machine& m = run.machine;
  h5::set_attr(file, "cpu_model", m.cpu_model);
  h5::set_attr(file, "logical_cpus", int64_t(m.logical_cpus));
  h5::set_attr(file, "cpus_allowed", int64_t(m.cpus_allowed));
  h5::set_attr(file, "memory_bytes", m.memory_bytes);
  h5::set_attr(file, "hostname", m.hostname);
  h5::set_attr(file, "hosts", run.hosts);
  h5::set_attr(file, "os", m.os);
  h5::set_attr(file, "compiler", m.compiler);
  h5::set_attr(file, "build_type", m.build_type);
  h5::set_attr(file, "build_flags", m.build_flags);
  h5::set_attr(file, "native", int64_t(m.native));
  h5::set_attr(file, "pext", int64_t(m.pext));
}

void write_root(hid_t file, const BenchRun& run) {
  // Provenance as every result file has it (with threads and ranks), then the bench's own.
  h5::write_provenance(file, {run.command_line, run.started_utc, utc_now(), run.threads, run.ranks, README});
  h5::set_attr(file, "job", std::string("bench"));
  h5::set_attr(file, "suite", run.suite);
  h5::set_attr(file, "suite_version", int64_t(SUITE_VERSION));
  h5::set_attr(file, "chesshpc_version", std::string(CHESSHPC_VERSION) + " (" + CHESSHPC_GIT_COMMIT + ")");
  h5::set_attr(file, "started_utc", run.started_utc);
  h5::set_attr(file, "seconds", run.seconds);
  h5::set_attr(file, "repeats", int64_t(run.repeats));
  h5::set_attr(file, "stockfish", run.stockfish);
  write_machine(file, run);
}

// The columns both tables share.
template <class Row>
void write_keys(hid_t group, const std::vector<Row>& rows) {
  std::vector<std::string> benchmark, set;
  std::vector<int32_t> depth, threads, ranks;
  std::vector<uint64_t> nodes;
  for (const Row& r : rows)
    benchmark.push_back(r.benchmark), set.push_back(r.set), depth.push_back(r.depth), threads.push_back(r.threads),
        ranks.push_back(r.ranks), nodes.push_back(r.nodes);
  h5::write_column(group, "benchmark", benchmark,
                   "movegen, perft, perft_threads, hashed_perft, search, cluster_perft "
                   "or stockfish_perft");
  h5::write_column(group, "set", set, "start, kiwipete, pos3 ... pos6; suite (movegen: all six); bench (search)");
  h5::write_column(group, "depth", depth, "plies (perft or search depth; 1 for movegen)");
  h5::write_column(group, "threads", threads, "threads of each rank");
  h5::write_column(group, "ranks", ranks, "MPI ranks");
  h5::write_column(group, "nodes", nodes, "nodes counted (movegen: moves generated; search: summed over threads)");
}

void write_measurements(hid_t file, const std::vector<MeasurementRow>& rows) {
  h5::Handle g = h5::create_group(file, "measurements");
  write_keys(g.id(), rows);
  std::vector<int32_t> repeat;
  std::vector<double> seconds, nps;
  for (const MeasurementRow& r : rows)
    repeat.push_back(r.repeat), seconds.push_back(r.seconds), nps.push_back(r.nodes_per_second());
  h5::write_column(g.id(), "repeat", repeat, "0, 1, ... repeats - 1");
  h5::write_column(g.id(), "seconds", seconds, "wall time of the counting");
  h5::write_column(g.id(), "nodes_per_second", nps, "nodes / seconds");
}

void write_summary(hid_t file, const std::vector<SummaryRow>& rows) {
  h5::Handle g = h5::create_group(file, "summary");
  write_keys(g.id(), rows);
  std::vector<double> median_s, min_s, max_s, median_nps, ratio;
  for (const SummaryRow& r : rows)
    median_s.push_back(r.median_seconds), min_s.push_back(r.min_seconds), max_s.push_back(r.max_seconds),
        median_nps.push_back(r.median_nodes_per_second), ratio.push_back(r.stockfish_ratio);
  h5::write_column(g.id(), "median_seconds", median_s, "median over the repeats");
  h5::write_column(g.id(), "min_seconds", min_s, "fastest repeat");
  h5::write_column(g.id(), "max_seconds", max_s, "slowest repeat");
  h5::write_column(g.id(), "median_nodes_per_second", median_nps, "median over the repeats of nodes / seconds");
  h5::write_column(g.id(), "stockfish_ratio", ratio,
                   "perft rows: median n/s over stockfish_perft's median n/s, same set and depth; NaN elsewhere");
}

}  // namespace

void write_bench_file(hid_t file, const BenchRun& run) {
  write_root(file, run);
  write_measurements(file, run.rows);
  write_summary(file, run.summary);
}

}  // namespace chesshpc
