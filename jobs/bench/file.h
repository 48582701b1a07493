// The bench result file (suite_version 1; bench/README.md describes it as a contract):
// the machine and run as root attributes, every repeat in /measurements, and one row
// per benchmark, set and depth in /summary.
#pragma once

#include "jobs/bench/run.h"
#include "jobs/io/h5.h"

namespace chesshpc {

// Writes run into file (an open, empty HDF5 file). Throws h5::Error.
void write_bench_file(const h5::Group& file, const BenchRun& run);

}  // namespace chesshpc
