// The HDF5 result file of a perft run split into units.
#pragma once

#include <string>
#include <vector>

#include "perft_job.h"
#include "perft_units.h"

namespace chesshpc {

// Writes PATH atomically (PATH.partial, fsync, rename). Layout, as its README attribute says:
//   /units    fen, multiplicity, nodes, seconds, rank: one row per unit, biggest first
//   /divide   move (UCI), nodes (decimal text, exact), nodes_hi and nodes_lo (uint64)
//   /ranks    rank, busy_seconds, idle_seconds
//   root      provenance, the run's parameters, and the total as "total" (decimal text) and
//             total_hi / total_lo (uint64): total = total_hi * 2**64 + total_lo
void write_perft_file(const std::string& path, const PerftRequest& req, const PerftPlan& plan, const UnitResults& r,
                      const std::string& started, const std::string& command_line);

}  // namespace chesshpc
