// `chesshpc bench`'s request: which suite, how often, on how many threads, and where the
// result file goes.
#pragma once

#include <string>

#include "jobs/io/options.h"

namespace chesshpc {

struct BenchRequest : Reporting {
  std::string suite = "standard";
  int threads = 0;  // 0: every core this process may use
  int repeats = 3;
  std::string out = "bench.h5";
  std::string stockfish;     // a path; "": /usr/games/stockfish when it exists; "none": no Stockfish
  std::string command_line;  // for the file's provenance
};

}  // namespace chesshpc
