// Rank 0's record of the finished units of a perft job.
#pragma once

#include <mutex>

#include "jobs/perft/units.h"

namespace chesshpc {

class Progress;

// Shared by the thread serving workers, rank 0's own computing thread and the checkpointer.
class Ledger {
 public:
  Ledger(UnitResults& r, Progress* progress) : r_(r), progress_(progress) {}
  void record(size_t unit, uint64_t nodes, double secs, int rank);
  UnitResults snapshot() const;
  // Ignores every later record, so that the last checkpoint before a stop holds all the
  // units the job reports as kept.
  void freeze();

 private:
  UnitResults& r_;
  Progress* progress_;
  bool frozen_ = false;
  mutable std::mutex mutex_;
};

}  // namespace chesshpc
