// What one rank of a perft unit job counts subtrees with: the table the request asks for
// (shared by the rank's threads), its threads, and one TBB arena for the whole run.
// Creating an arena per unit cost about a millisecond, more than a small unit takes.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "core/perft.h"
#include "core/threads.h"
#include "jobs/perft/request.h"

namespace chesshpc {

struct RankCounting {
  std::unique_ptr<chess::PerftTable> table;
  int threads = 1;
  std::unique_ptr<tbb::task_arena> arena;

  RankCounting() = default;
  // With_table false: no table whatever the request asks (subtrees each counted once).
  explicit RankCounting(const PerftRequest& req, bool with_table = true)
      : table(with_table ? make_perft_table(req) : nullptr),
        threads(chess::resolve_threads(req.threads)),
        arena(std::make_unique<tbb::task_arena>(threads)) {}

  // perft(depth) of position_at(i) for i < n, spread over the rank's threads. Unique: the
  // positions are counted nowhere else (a deduplicated level), so the table holds only
  // their subtrees, not them (chess::perft::count_once).
  // One thread counts in a plain loop, more in ranges of GRAIN positions: TBB's splitting
  // down to single positions cost 2.1 % of phase B's samples at perft(10), 2 ranks x 1
  // thread (7 us a position of ply 7; perf record, bench/README.md).
  template <class PositionAt>
  std::vector<uint64_t> count_each(size_t n, int depth, PositionAt position_at, bool unique = false) const {
    std::vector<uint64_t> counts(n);
    auto count_range = [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i)
        counts[i] = unique ? chess::perft::count_once(position_at(i), depth, table.get())
                           : chess::perft::count(position_at(i), depth, table.get());
    };
    if (threads == 1) {
      count_range(0, n);
      return counts;
    }
    constexpr size_t GRAIN = 8;
    arena->execute([&] {
      tbb::parallel_for(tbb::blocked_range<size_t>(0, n, GRAIN),
                        [&](const tbb::blocked_range<size_t>& r) { count_range(r.begin(), r.end()); });
    });
    return counts;
  }
};

}  // namespace chesshpc
