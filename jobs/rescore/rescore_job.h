// `chesshpc rescore` as a unit job (cluster/unit_driver runs it in one process or over MPI
// ranks): a unit is positions_per_unit consecutive input positions, a rank searches
// `threads` units at once, each thread with its own engine of one thread, a new game
// before each position, so that the output is the same on any rank and thread count and
// after a resume. An engine that fails is started again; one that fails twice at a
// position stops the run: exit 3, what was searched kept for --resume. Rank 0 alone reads
// IN (it may be on a disk only rank 0 sees): the other ranks plan from the count it
// sends, and get each unit's positions with the unit.
#pragma once

#include <tbb/enumerable_thread_specific.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <vector>

#include "jobs/io/unit_job.h"
#include "jobs/rescore/file.h"
#include "jobs/rescore/request.h"
#include "jobs/selfplay/players.h"

namespace chesshpc {

class Rescore : public UnitJob {
 public:
  explicit Rescore(RescoreRequest req) : req_(std::move(req)) {}

  int plan(const Ranks& ranks, std::ostream& err) override;
  size_t units() const override { return units_; }
  int open(const std::string& started, std::ostream& err) override;
  bool done(size_t unit) const override { return results_.unit_done[unit]; }
  UnitJobInfo info() const override;
  int concurrency() const override { return threads_; }
  // Rank 0 only, where IN is: compute_with(unit, unit_input(unit)). The driver calls
  // compute_with.
  Payload compute(size_t unit) override;
  // Rank 0: the unit's positions, 32 bytes each (core/pack.h), in input order.
  Payload unit_input(size_t unit) const override;
  Payload compute_with(size_t unit, const Payload& input) override;
  Recorded record(size_t unit, Payload&& result, double seconds, int rank) override;
  std::function<uint64_t()> checkpoint() override;
  // An engine that failed twice in a row stops the run (its searches kept for --resume).
  bool enough() const override { return !failed_.empty(); }
  int finish(const UnitRun& run, std::ostream& out, std::ostream& err) override;

 private:
  size_t first_row(size_t unit) const { return unit * size_t(req_.positions_per_unit); }
  size_t end_row(size_t unit) const { return std::min(positions_, first_row(unit + 1)); }
  // Rank 0: reads IN into in_. Returns an ExitCode, after saying why it is not EXIT_OK.
  int read_input(std::ostream& err);
  // The CPU of the engine of `slot` (0 to threads_ - 1) on this rank, or -1: each engine a
  // core of its own when the rank runs as many as it may use cores (chess::engine_cpu).
  int cpu_of(int slot) const;

  RescoreRequest req_;
  RescoreInput in_;       // rank 0's; empty elsewhere
  size_t positions_ = 0;  // IN's, on every rank
  size_t units_ = 0;
  int threads_ = 1;
  std::vector<int> cpus_;  // the CPUs this rank may use, as its launcher bound it
  // Each computing thread's engine, started at its first unit and again after it fails,
  // and the thread's slot, taken with its first engine (-1 before): the thread runs on its
  // slot's CPU when it has one, so its engines start there and it reads them from there.
  tbb::enumerable_thread_specific<std::unique_ptr<Player>> players_;
  tbb::enumerable_thread_specific<int> slots_{-1};
  std::atomic<int> next_slot_{0};  // the spare's thread takes slot 0
  // Rank 0: the engine open() started to check that it starts, for the first computing
  // thread (an engine's start is some 0.1 s of CPU: Stockfish's network, its hash).
  std::unique_ptr<Player> spare_;
  std::mutex spare_mutex_;
  // Rank 0.
  Rescored results_;
  uint64_t searched_ = 0;  // positions in done units
  uint64_t earlier_ = 0;   // of those, searched by an earlier run
  double search_seconds_ = 0;
  uint64_t nodes_ = 0;
  std::string failed_;  // the first engine failure's message
};

}  // namespace chesshpc
