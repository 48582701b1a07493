// The MPI task farm of deep perft. Every rank plans the same units from the same input
// (planning is deterministic), so messages carry only unit indices and counts. Rank 0
// hands units out on request, biggest first, and computes units itself in a second thread
// while its main thread serves the others; every unit is counted with TBB threads.
#pragma once

#include <vector>

#include "perft_units.h"

namespace chesshpc {

class Progress;

using FarmResult = UnitResults;

// Collective over MPI_COMM_WORLD; the result is complete on rank 0 only.
FarmResult run_farm(const PerftPlan& plan, int threads, chess::PerftTable* table, Progress* progress);

}  // namespace chesshpc
