// The rows of a bench run: every repeat of every measurement, and their summary per
// benchmark, set and depth (medians over the repeats, and the ratio to Stockfish).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace chesshpc {

struct MeasurementRow {
  std::string benchmark, set;
  int depth = 0, repeat = 0, threads = 1, ranks = 1;
  uint64_t nodes = 0;
  double seconds = 0;
  double nodes_per_second() const;
};

struct SummaryRow {
  std::string benchmark, set;
  int depth = 0, threads = 1, ranks = 1;
  uint64_t nodes = 0;  // of one repeat
  double median_seconds = 0, min_seconds = 0, max_seconds = 0, median_nodes_per_second = 0;
  // perft rows: this row's median n/s over stockfish_perft's on the same set and depth;
  // NaN on every other row and without Stockfish.
  double stockfish_ratio = 0;
  // ...and Stockfish's median seconds there (NaN with no ratio): the ratio is short when
  // under STOCKFISH_SHORT_SECONDS.
  double stockfish_seconds = 0;
  bool short_ratio() const;
};

// Stockfish is timed from outside, over UCI: each run pays a pipe round trip, `go perft`'s
// start and its output's parsing, so under this median time that overhead, not move
// generation, sets its n/s and the ratio is marked "(short)" (as the report's
// bench.STOCKFISH_SHORT_SECONDS marks it).
inline constexpr double STOCKFISH_SHORT_SECONDS = 1.0;

// The median as numpy computes it: the mean of the two middle values of an even count.
double median(std::vector<double> v);

// One row per (benchmark, set, depth), in the order they first appear in rows.
std::vector<SummaryRow> summarize(const std::vector<MeasurementRow>& rows);

}  // namespace chesshpc
