// chesshpc bench over MPI ranks (or alone, without MPI): rank 0 runs the suite while
// the other ranks wait without spinning, and every rank takes part in cluster_perft.
#pragma once

#include <ostream>

#include "jobs/bench/run.h"

namespace chesshpc {

// Initialises MPI, runs and finalises; returns this rank's ExitCode.
int run_bench_farm(const BenchRequest& req, std::ostream& out, std::ostream& err);

}  // namespace chesshpc
