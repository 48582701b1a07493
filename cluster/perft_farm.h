// chesshpc perft over MPI ranks: plan units, run the task farm, print on rank 0.
#pragma once

#include <vector>

#include "jobs/perft/job.h"
#include "jobs/perft/units.h"

namespace chesshpc {

// True when this process was started by mpirun or srun with more than one rank.
bool launched_with_ranks();

class Ledger;

// Collective: counts the units `pending` of plan (listed on rank 0; the other ranks pass
// none) over every rank, each with `threads` TBB threads and the rank's table (or none),
// recording every unit on rank 0 in ledger. Returns, on rank 0, each rank's load as rows
// of run `run`.
std::vector<RankLoad> count_on_farm(const PerftPlan& plan, int threads, chess::PerftTable* table, Ledger* ledger,
                                    const std::vector<size_t>& pending, int run);

// Initialises MPI (a singleton without mpirun), runs and finalises. split_depth 0 picks
// the default for the number of ranks.
int run_perft_farm(PerftRequest req, std::ostream& out, std::ostream& err);

}  // namespace chesshpc
