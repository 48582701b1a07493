// perft split into work units (jobs/perft/units.h), as a unit job: the driver
// (cluster/unit_driver) runs it in one process or over MPI ranks. Each unit is counted
// with the rank's TBB threads and hash table; rank 0 keeps the units' counts, checkpoints
// them into the result file (jobs/perft/file.h) and prints the total and divide.
#pragma once

#include <memory>
#include <optional>

#include "jobs/io/unit_job.h"
#include "jobs/perft/file.h"
#include "jobs/perft/job.h"
#include "jobs/perft/rank_counting.h"
#include "jobs/perft/units.h"

namespace chesshpc {

class SplitPerft : public UnitJob {
 public:
  explicit SplitPerft(PerftRequest req) : req_(std::move(req)) {}

  int plan(const Ranks& ranks, std::ostream& err) override;
  size_t units() const override { return plan_.units.size(); }
  int open(const std::string& started, std::ostream& err) override;
  bool done(size_t unit) const override { return results_.done(unit); }
  UnitJobInfo info() const override;

  int concurrency() const override { return 1; }
  std::function<size_t(size_t)> affinity() const override;
  Payload compute(size_t unit) override;
  Recorded record(size_t unit, Payload&& result, double seconds, int rank) override;
  std::function<uint64_t()> checkpoint() override;
  void stopped(const std::vector<RankLoad>& load) override { add_load(load, results_.this_run, results_.load); }
  int finish(const UnitRun& run, std::ostream& out, std::ostream& err) override;

  // Rank 0, after the run: the total and the divide over every unit.
  chess::u128 total() const;
  std::vector<chess::u128> divide() const { return merge_divide(plan_, results_.nodes); }

 private:
  PerftRequest req_;
  Ranks ranks_;
  PerftPlan plan_;
  UnitResults results_;
  std::optional<PerftFile> file_;
  RankCounting counting_;  // one unit's subtrees over the rank's threads
};

}  // namespace chesshpc
