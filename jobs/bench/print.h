// A finished bench run on stdout: a table of the summary with the Stockfish ratios, or
// one JSON object with the machine and the summary rows.
#pragma once

#include <ostream>
#include <string>

#include "jobs/bench/run.h"

namespace chesshpc {

// out_path: the file written; "" when it could not be ("no file written", "out": null).
void print_bench(const BenchRun& run, bool json, const std::string& out_path, std::ostream& out);

}  // namespace chesshpc
