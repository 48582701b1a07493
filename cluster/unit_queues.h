// Rank 0's queues of units in the task farm (cluster/task_farm), one per rank: a unit goes
// to the queue of its affinity group (all to one queue without affinity), each queue
// keeping the order it was given. A rank takes from the front of its own queue and, when
// that is empty, from the back of the longest other one (the first such queue among equals):
// the smallest units, so that stealing does not leave a big unit running at the end.
// Pinned queues are never stolen from: a unit whose data lives on one rank runs there.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <vector>

namespace chesshpc {

class UnitQueues {
 public:
  // What next() answers once every queue is empty.
  static constexpr uint64_t NONE = ~uint64_t(0);

  // pending: the units in the order to hand them out. affinity: a key per unit, the unit
  // going to queue key % ranks; empty: one queue that every rank shares. pinned (with an
  // affinity): a rank takes from its own queue only.
  UnitQueues(const std::function<size_t(size_t unit)>& affinity, const std::vector<size_t>& pending, int ranks,
             bool pinned = false);
  // The next unit for `rank` (0 <= rank < ranks), or NONE when every queue it may take
  // from is empty.
  // Thread-safe.
  uint64_t next(int rank);

 private:
  std::mutex mutex_;
  std::vector<std::deque<size_t>> queues_;
  bool shared_ = true;
  bool pinned_ = false;
};

}  // namespace chesshpc
