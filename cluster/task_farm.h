// The MPI task farm of deep perft. Every rank plans the same units from the same input
// (planning is deterministic), so messages carry only unit indices and counts. Rank 0
// hands units out on request, biggest first, and computes units itself in a second thread
// while its main thread serves the others; every unit is counted with TBB threads.
#pragma once

#include <vector>

#include "perft_units.h"

namespace chesshpc {

class Ledger;

// Collective over MPI_COMM_WORLD. On rank 0, `pending` lists the units to count, in the
// order to hand them out, and each result goes to the ledger as it arrives; the other
// ranks pass an empty list and no ledger. Returns, on rank 0, every rank's busy and idle
// time as load rows of run `run`.
std::vector<RankLoad> run_farm(const PerftPlan& plan, const std::vector<size_t>& pending, int threads,
                               chess::PerftTable* table, Ledger* ledger, int run);

}  // namespace chesshpc
