// Work units of a deep perft: the unique positions K plies below the root, each with the
// number of move paths that reach it from every root move. The total is
//   sum over units of paths x perft(depth - K),
// and the divide of a root move is the same sum over its own paths. Units are the
// currency of the task farm: planned once, computed anywhere, merged in any order.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/perft.h"
#include "jobs/io/rank_load.h"

namespace chesshpc {

struct PerftUnit {
  chess::Position pos;
  // (root move index, paths from that root move); paths summed over it is the multiplicity.
  std::vector<std::pair<uint16_t, uint64_t>> paths;
  uint32_t estimate = 0;  // relative size: the number of legal moves of the position
  uint64_t multiplicity() const;
};

struct PerftPlan {
  chess::Position root;
  std::vector<chess::Move> root_moves;
  std::vector<PerftUnit> units;  // biggest estimate first; ties in order of discovery
  int split_depth = 0;
  int depth = 0;
};

// Enumerates the positions split_depth plies below root (1 <= split_depth < depth) and
// merges transpositions by exact position identity (pieces, side, castling and legal
// en-passant rights; the key only finds candidates). Deterministic: the same input gives
// the same units in the same order.
PerftPlan plan_units(const chess::Position& root, int depth, int split_depth);

// A split depth giving at least `per_worker` times more units than workers, as shallow as
// that allows, and always below depth.
int default_split_depth(const chess::Position& root, int depth, int workers, int per_worker = 300);

// What the runs of the units produced, wherever they were computed. Unit i is done when
// run[i] >= 0; a resumed job starts from the done units of its file.
struct UnitResults {
  std::vector<uint64_t> nodes;  // per unit
  std::vector<double> seconds;  // per unit
  std::vector<int> rank;        // per unit: who computed it
  std::vector<int> run;         // per unit: which run of the job (0, then 1 after a resume...), or -1
  std::vector<RankLoad> load;   // per run and rank
  int this_run = 0;

  explicit UnitResults(size_t units = 0) : nodes(units), seconds(units), rank(units, -1), run(units, -1) {}
  bool done(size_t i) const { return run[i] >= 0; }
  size_t count_done() const;
  void record(size_t i, uint64_t n, double secs, int by) {
    nodes[i] = n, seconds[i] = secs, rank[i] = by, run[i] = this_run;
  }
};

// The sum of counts (a divide's total).
chess::u128 sum(const std::vector<chess::u128>& counts);

// Totals from per-unit subtree counts (nodes[i] for units[i]): the per-root-move divide and
// the 128-bit total.
std::vector<chess::u128> merge_divide(const PerftPlan& plan, const std::vector<uint64_t>& nodes);

}  // namespace chesshpc
