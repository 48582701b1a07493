#include "jobs/perft/unit_run.h"

namespace chesshpc {

void add_run(UnitRunReport& report, const UnitRun& run, int this_run, std::vector<RankLoad>& load) {
  report.ranks = run.ranks;
  report.checkpoints = run.checkpoints, report.checkpoint_seconds = run.checkpoint_seconds;
  for (const RankLoad& l : run.load) report.busy.push_back(l.busy), report.idle.push_back(l.idle);
  add_load(run.load, this_run, load);
}

void add_load(const std::vector<RankLoad>& run_load, int this_run, std::vector<RankLoad>& load) {
  for (RankLoad l : run_load) {
    l.run = this_run;
    load.push_back(l);
  }
}

}  // namespace chesshpc
