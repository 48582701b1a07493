#include "jobs/bench/file.h"

#include <array>

#include "jobs/bench/suite.h"
#include "jobs/io/h5_table.h"
#include "jobs/io/version.h"

namespace chesshpc {

namespace {

// A table of Row (MeasurementRow or SummaryRow): the columns both tables start with, then
// its own.
template <class Row>
constexpr auto bench_table(std::string_view group, std::string_view description, auto... columns) {
  return h5::table(
      group, description,
      {
          h5::column<&Row::benchmark>(
              "benchmark", "movegen, perft, perft_threads, hashed_perft, search, cluster_perft or stockfish_perft"),
          h5::column<&Row::set>("set", "start, kiwipete, pos3 ... pos6; suite (movegen: all six); bench (search)"),
          h5::column<&Row::depth>("depth", "plies (perft or search depth; 1 for movegen)"),
          h5::column<&Row::threads>("threads", "threads of each rank"),
          h5::column<&Row::ranks>("ranks", "MPI ranks"),
          h5::column<&Row::nodes>("nodes", "nodes counted (movegen: moves generated; search: summed over threads)"),
          columns...,
      });
}

constexpr auto MEASUREMENTS = bench_table<MeasurementRow>(
    "measurements", "one row per repeat of each measurement",
    h5::column<&MeasurementRow::repeat>("repeat", "0, 1, ... repeats - 1"),
    h5::column<&MeasurementRow::seconds>("seconds", "wall time of the counting"),
    h5::computed<MeasurementRow>("nodes_per_second", "nodes / seconds",
                                 [](const MeasurementRow& r) { return r.nodes_per_second(); }));

constexpr auto SUMMARY = bench_table<SummaryRow>(
    "summary", "one row per (benchmark, set, depth); nodes are those of one repeat",
    h5::column<&SummaryRow::median_seconds>("median_seconds", "median over the repeats"),
    h5::column<&SummaryRow::min_seconds>("min_seconds", "fastest repeat"),
    h5::column<&SummaryRow::max_seconds>("max_seconds", "slowest repeat"),
    h5::column<&SummaryRow::median_nodes_per_second>("median_nodes_per_second",
                                                     "median over the repeats of nodes / seconds"),
    h5::computed<SummaryRow>("median_g_nodes_per_second",
                             "median_nodes_per_second / 1e9: G nodes/s, the unit perft comparisons quote",
                             [](const SummaryRow& r) { return r.median_nodes_per_second / 1e9; }),
    h5::column<&SummaryRow::stockfish_ratio>(
        "stockfish_ratio",
        "perft rows: median n/s over stockfish_perft's median n/s, same set and depth; NaN elsewhere"));

// The run's root attributes.
constexpr auto RUN = std::to_array({
    h5::attr<BenchRun>(h5::JOB, [](const BenchRun&) { return "bench"; }),
    h5::attr<&BenchRun::suite>("suite", "standard or quick"),
    h5::attr<BenchRun>("suite_version", "bumped whenever a position, depth or benchmark of a suite changes",
                       [](const BenchRun&) { return int64_t(SUITE_VERSION); }),
    h5::attr<BenchRun>(
        "chesshpc_version", "version and git commit, as chesshpc --version prints them",
        [](const BenchRun&) { return std::string(CHESSHPC_VERSION) + " (" + CHESSHPC_GIT_COMMIT + ")"; }),
    h5::attr<&BenchRun::started_utc>("started_utc", "ISO 8601"),
    h5::attr<&BenchRun::seconds>("seconds", "wall time of the whole run"),
    h5::attr<&BenchRun::repeats>("repeats", "repeats of each measurement"),
    h5::attr<&BenchRun::stockfish>("stockfish", "path and id line of the Stockfish used; '' when none"),
    h5::attr<&BenchRun::hosts>("hosts", "every rank's host, comma-separated, in rank order"),
});

// The machine's and the build's root attributes (rank 0's).
constexpr auto MACHINE = std::to_array({
    h5::attr<&Machine::cpu_model>("cpu_model", "/proc/cpuinfo model name"),
    h5::attr<&Machine::logical_cpus>("logical_cpus", "hardware threads online"),
    h5::attr<&Machine::cpus_allowed>("cpus_allowed", "CPUs this process may run on (sched_getaffinity)"),
    h5::attr<&Machine::memory_bytes>("memory_bytes", "physical memory"),
    h5::attr<&Machine::hostname>("hostname", "the host"),
    h5::attr<&Machine::os>("os", "uname sysname and release"),
    h5::attr<&Machine::compiler>("compiler", "compiler and version"),
    h5::attr<&Machine::build_type>("build_type", "CMAKE_BUILD_TYPE"),
    h5::attr<&Machine::build_flags>("build_flags", "the C++ flags of the build"),
    h5::attr<&Machine::native>("native", "1 when built with CHESSHPC_NATIVE (-march=native)"),
    h5::attr<&Machine::pext>("pext", "1 when slider attacks use BMI2 PEXT"),
});

std::string readme() {
  return "chesshpc bench: a fixed, versioned suite of measurements (job = bench; see suite and suite_version).\n" +
         h5::readme(MEASUREMENTS) + h5::readme(SUMMARY) + h5::readme("Root attributes", RUN) +
         h5::readme("Root attributes of rank 0's machine and build", MACHINE) +
         "benchmark: movegen (legal moves listed, 1 thread), perft (bulk counting, 1 thread), perft_threads (T "
         "threads), hashed_perft (with a table, T threads), search (T searches of the bench positions at once), "
         "cluster_perft (units over R ranks x T threads) or stockfish_perft (Stockfish's go perft, 1 thread). Every "
         "perft count equals the published count of its set and depth.\n";
}

}  // namespace

void write_bench_file(const h5::Group& file, const BenchRun& run) {
  // Provenance as every result file has it (with threads and ranks), then the bench's own.
  h5::write_provenance(file, finished_provenance(run.command_line, run.started_utc, run.threads, run.ranks, readme()));
  h5::write_attrs(file, RUN, run);
  h5::write_attrs(file, MACHINE, run.machine);
  h5::write_table(file, MEASUREMENTS, run.rows);
  h5::write_table(file, SUMMARY, run.summary);
}

}  // namespace chesshpc
