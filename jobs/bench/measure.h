// One run of one benchmark of a suite in this process: what it counted and how long it took.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "jobs/bench/suite.h"

namespace chesshpc {

struct BenchResult {
  uint64_t nodes = 0;
  double seconds = 0;
};

// A count that differs from the one it must be: the job stops with exit 1 and this message.
struct CountMismatch : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Runs spec once on `threads` threads. Handles every benchmark but stockfish_perft and
// cluster_perft, which need an engine and the MPI ranks. Only the counting is timed:
// tables are made and cleared, and positions read, before the clock starts.
BenchResult measure(const BenchSpec& spec, int threads);

// The count spec must give: the published perft count of its set and depth, or for
// movegen the passes times the legal moves of the six positions. Null for search.
std::optional<uint64_t> expected_nodes(const BenchSpec& spec);
// Throws CountMismatch unless nodes is the expected count (when there is one).
void check_nodes(const BenchSpec& spec, uint64_t nodes);

// The FEN of a published set ("start", "kiwipete", ...).
std::string set_fen(std::string_view set);

}  // namespace chesshpc
