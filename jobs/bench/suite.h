// The bench suites: fixed lists of measurements, versioned so that result files of one
// suite and version are comparable across machines, builds and dates. Change a
// position, a depth or a benchmark of a suite and SUITE_VERSION goes up.
#pragma once

#include <string_view>
#include <vector>

namespace chesshpc {

constexpr int SUITE_VERSION = 2;  // 2: perft of Chess960 start position 0

enum class Benchmark { MOVEGEN, PERFT, STOCKFISH_PERFT, PERFT_THREADS, HASHED_PERFT, SEARCH, CLUSTER_PERFT };

// The name the result file and the report use, e.g. "hashed_perft".
std::string_view benchmark_name(Benchmark b);

// One measurement of a suite, repeated --repeats times.
struct BenchSpec {
  Benchmark benchmark;
  std::string_view set;  // a published position's name; "suite" (movegen: all six); "bench" (search)
  int depth;             // plies: perft depth, search depth; 1 for movegen
  int passes = 0;        // movegen: passes over the six positions
  int hash_mb = 0;       // hashed_perft: the table; cluster_perft: the table of each rank
  int split_depth = 0;   // cluster_perft: units are the positions this many plies down
};

struct Suite {
  std::string_view name;
  std::vector<BenchSpec> specs;  // in the order they run; cluster_perft, which needs every rank, last
};

// The suite called name ("standard", "quick", "perft" or "perft-quick"), or null.
const Suite* find_suite(std::string_view name);
// "standard, quick, perft or perft-quick", for messages.
std::string_view suite_names();

// Whether a benchmark counts perft nodes that must equal the published count.
bool is_perft(Benchmark b);
// Whether a benchmark runs on --threads threads (the others run on one).
bool is_threaded(Benchmark b);

}  // namespace chesshpc
