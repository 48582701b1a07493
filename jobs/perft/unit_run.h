// What perft's two unit jobs (split_job.h: units of one split depth; dedup_job.h: buckets
// of the dedup ply) share: the request, plan, results and file they hold, the rank's
// counting, and one way to end a run.
#pragma once

#include <optional>
#include <ostream>
#include <utility>
#include <vector>

#include "jobs/io/rank_load.h"
#include "jobs/io/unit_job.h"
#include "jobs/perft/file_common.h"
#include "jobs/perft/print.h"
#include "jobs/perft/rank_counting.h"
#include "jobs/perft/request.h"
#include "jobs/perft/run.h"
#include "jobs/perft/units.h"

namespace chesshpc {

// The report's share of the driver's run (ranks, checkpoints, busy and idle per rank); the
// run's rows of load, numbered this_run, are added to load for the result file.
void add_run(UnitRunReport& report, const UnitRun& run, int this_run, std::vector<RankLoad>& load);
// A run's rows of load (a whole run's, or a stopped run's until the stop), numbered
// this_run, added to load for the result file.
void add_load(const std::vector<RankLoad>& run_load, int this_run, std::vector<RankLoad>& load);

// A perft unit job: File writes Results (with count_done(), done(unit), this_run and
// load) as the result file.
template <class File, class Results>
class PerftUnitJob : public UnitJob {
 public:
  bool done(size_t unit) const override { return results_.done(unit); }
  int concurrency() const override { return 1; }
  std::function<uint64_t()> checkpoint() override { return perft_file::checkpoint_writer(file_, results_); }
  void stopped(const std::vector<RankLoad>& load) override { add_load(load, results_.this_run, results_.load); }

  // Rank 0, after the run: the divide over every unit, and its total.
  virtual std::vector<chess::u128> divide() const = 0;
  chess::u128 total() const { return sum(divide()); }

 protected:
  explicit PerftUnitJob(PerftRequest req, Results results = Results())
      : req_(std::move(req)), results_(std::move(results)) {}

  // finish(): the driver's share of report, the last write of the file (if the run keeps
  // one), the result printed whether or not it could be written (--upto's shallower
  // depths counted first, on the rank's threads), then the line saying why it could not.
  // Returns an ExitCode.
  int finish_run(const UnitRun& run, UnitRunReport& report, std::ostream& out, std::ostream& err) {
    add_run(report, run, results_.this_run, results_.load);
    return perft_file::write_last_and_print(
        file_, results_, req_,
        [&] {
          const std::vector<DepthCount> shallower = count_shallower(req_, plan_.root, counting_.table.get());
          print_unit_run(req_, plan_.root, plan_.root_moves, divide(), run.seconds, counting_.threads, shallower, out,
                         report);
        },
        err);
  }

  PerftRequest req_;
  Ranks ranks_;
  PerftPlan plan_;
  Results results_;
  std::optional<File> file_;
  RankCounting counting_;  // one unit's positions over the rank's threads
};

}  // namespace chesshpc
