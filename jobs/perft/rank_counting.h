// What one rank of a perft unit job counts subtrees with: the table the request asks for
// (shared by the rank's threads), its threads, and one TBB arena for the whole run.
// Creating an arena per unit cost about a millisecond, more than a small unit takes.
#pragma once

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
  template <class PositionAt>
  std::vector<uint64_t> count_each(size_t n, int depth, PositionAt position_at, bool unique = false) const {
    std::vector<uint64_t> counts(n);
    arena->execute([&] {
      tbb::parallel_for(size_t(0), n, [&](size_t i) {
        counts[i] = unique ? chess::perft::count_once(position_at(i), depth, table.get())
                           : chess::perft::count(position_at(i), depth, table.get());
      });
    });
    return counts;
  }
};

}  // namespace chesshpc
