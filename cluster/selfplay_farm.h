// chesshpc selfplay over MPI ranks: units of consecutive games handed out by the task
// farm, each rank playing its games in parallel with TBB, rank 0 checkpointing finished
// games and writing the dataset.
#pragma once

#include <ostream>

#include "jobs/selfplay/job.h"

namespace chesshpc {

// Initialises MPI (a singleton without mpirun), runs and finalises. Returns an ExitCode.
int run_selfplay(SelfplayRequest req, std::ostream& out, std::ostream& err);

}  // namespace chesshpc
