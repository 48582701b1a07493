// Rank 0's record of a job's finished units. Units arrive from rank 0's thread serving the
// other ranks and from its own computing threads, checkpoints are taken on a thread of
// their own, and the progress line asks for details on a fourth: the ledger puts every
// call into the job behind one lock, so that jobs need none (jobs/io/unit_job.h).
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "jobs/io/unit_job.h"

namespace chesshpc {

class Progress;

class Ledger {
 public:
  // progress may be null (nothing shown).
  Ledger(UnitJob& job, Progress* progress) : job_(job), progress_(progress) {}

  void record(size_t unit, Payload&& result, double seconds, int rank);
  // The job's checkpoint writer, taken under the lock; empty when the job keeps no file.
  std::function<uint64_t()> checkpoint();
  // Ignores every later record, so that the last checkpoint before a stop holds all the
  // units the job reports as kept.
  void freeze();
  // A stop: freeze(), then the job's stopped() with each rank's time in this run so far:
  // busy, the seconds of the units it recorded per unit thread (concurrency), as the farm
  // counts them at the end; idle, the rest of elapsed (a unit in flight is lost, so its
  // time counts as idle). hosts: every rank's, by rank.
  void stop(const std::vector<std::string>& hosts, double elapsed, int concurrency);
  std::string detail() const;
  // The job's enough(): no more units are wanted. The record() that makes it true shows
  // the progress line at once (a line of its own in a log), once.
  bool enough() const;

 private:
  UnitJob& job_;
  Progress* progress_;
  bool frozen_ = false;
  bool enough_reported_ = false;  // the progress line has shown that the job has enough
  std::vector<double> seconds_;   // per rank: the seconds of the units recorded from it
  mutable std::mutex mutex_;
};

}  // namespace chesshpc
