// The bench job: runs a fixed suite of measurements (move generation, perft on one and on
// T threads, hashed perft, search, perft over MPI ranks, and Stockfish's perft for
// comparison), checks every count, and writes the result file bench/README.md describes,
// on rank 0.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "jobs/bench/machine.h"
#include "jobs/bench/measure.h"
#include "jobs/bench/request.h"
#include "jobs/bench/results.h"

namespace chesshpc {

// What the MPI layer lends the job running on rank 0.
struct RankHooks {
  int ranks = 1;
  std::vector<std::string> hosts;  // every rank's host, in rank order
  // Runs cluster_perft measurement `spec` (index `index` in its suite) once over every
  // rank with `threads` threads each. Empty: the job skips cluster_perft.
  std::function<BenchResult(size_t index, const BenchSpec& spec, int threads)> cluster_perft;
};

// Everything a finished run reports, in the file, as text and as JSON.
struct BenchRun {
  std::string suite;
  int threads = 1, ranks = 1, repeats = 1;
  std::string command_line, started_utc;
  double seconds = 0;
  Machine machine;
  std::string hosts;      // every rank's host, comma-separated, in rank order
  std::string stockfish;  // path and id line; "" when none
  std::vector<MeasurementRow> rows;
  std::vector<SummaryRow> summary;
};

// Runs req's suite (which must exist). Results on out, progress and errors on err.
// Returns an ExitCode: 1 when a count is not the published one, 3 for a Stockfish that
// cannot be used, 4 for an --out that cannot be written (found before measuring).
int run_bench(const BenchRequest& req, const RankHooks& ranks, std::ostream& out, std::ostream& err);

}  // namespace chesshpc
