// perft split into work units (jobs/perft/units.h), as a unit job: the driver
// (cluster/unit_driver) runs it in one process or over MPI ranks. Each unit is counted
// with the rank's TBB threads and hash table; rank 0 keeps the units' counts, checkpoints
// them into the result file (jobs/perft/file.h) and prints the total and divide.
#pragma once

#include <memory>
#include <optional>

#include "jobs/perft/file.h"
#include "jobs/perft/unit_run.h"

namespace chesshpc {

class SplitPerft : public PerftUnitJob<PerftFile, UnitResults> {
 public:
  explicit SplitPerft(PerftRequest req) : PerftUnitJob(std::move(req)) {}

  int plan(const Ranks& ranks, std::ostream& err) override;
  size_t units() const override { return plan_.units.size(); }
  int open(const std::string& started, std::ostream& err) override;
  UnitJobInfo info() const override;

  std::function<size_t(size_t)> affinity() const override;
  Payload compute(size_t unit) override;
  Recorded record(size_t unit, Payload&& result, double seconds, int rank) override;
  int finish(const UnitRun& run, std::ostream& out, std::ostream& err) override;

  // The divide over every unit.
  std::vector<chess::u128> divide() const override { return merge_divide(plan_, results_.nodes); }
};

}  // namespace chesshpc
