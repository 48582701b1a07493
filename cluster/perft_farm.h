// chesshpc perft over MPI ranks: plan units, run the task farm, print on rank 0.
#pragma once

#include "perft_job.h"

namespace chesshpc {

// True when this process was started by mpirun or srun with more than one rank.
bool launched_with_ranks();

// Initialises MPI (a singleton without mpirun), runs and finalises. split_depth 0 picks
// the default for the number of ranks.
int run_perft_farm(PerftRequest req, std::ostream& out, std::ostream& err);

}  // namespace chesshpc
