// Rank 0's record of finished units, and the thread that keeps the result file up to date
// with it. The file is the job's checkpoint: after kill -9 it holds every unit recorded
// before its last write, and --resume continues from there.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <thread>

#include "perft_units.h"

namespace chesshpc {

class PerftFile;
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

// Writes the ledger to the file every `interval` seconds (0: every 5 s, stretched so that
// writing stays under 2% of the run), and once more when a stop signal arrives, after which it calls
// on_stop(signal, units in that last checkpoint), which ends the process. A null file
// only watches for signals.
class Checkpointer {
 public:
  Checkpointer(Ledger& ledger, const PerftFile* file, double interval, std::function<void(int, size_t)> on_stop);
  ~Checkpointer();
  Checkpointer(const Checkpointer&) = delete;
  Checkpointer& operator=(const Checkpointer&) = delete;

  // Seconds spent writing checkpoints so far, and how many were written.
  double seconds_writing() const { return writing_.load(); }
  int writes() const { return writes_.load(); }

 private:
  void loop();
  size_t write();  // returns the units done in the file, after this write or the last that worked

  Ledger& ledger_;
  const PerftFile* file_;
  double interval_;
  std::function<void(int, size_t)> on_stop_;
  std::atomic<bool> quit_{false};
  std::atomic<double> writing_{0};
  std::atomic<int> writes_{0};
  size_t in_file_ = 0;
  std::thread thread_;
};

}  // namespace chesshpc
