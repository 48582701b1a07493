// The search bench: a fixed set of positions searched to a fixed depth, each from a
// cleared table. The total node count is a signature of the search: it changes when,
// and only when, the search or the evaluation changes.
#pragma once

#include <cstdint>
#include <ostream>
#include <string_view>
#include <vector>

namespace chesshpc {

struct SearchBenchRequest {
  int depth = 0;     // 0: BENCH_DEPTH
  int hash_mb = 16;  // the table as allocated (a power of two), in MB
  bool json = false;
};

constexpr int BENCH_DEPTH = 11;

// The positions of the bench, as FENs.
const std::vector<std::string_view>& bench_positions();

struct SearchBenchResult {
  uint64_t nodes = 0;
  double seconds = 0;  // searching only, without clearing the table between positions
};

SearchBenchResult bench_search(int depth, int hash_mb);
int run_search_bench(const SearchBenchRequest& req, std::ostream& out);

}  // namespace chesshpc
