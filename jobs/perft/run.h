// The perft command on one process: a single position (with divide and detailed
// counters) or an EPD suite checked against its published counts.
#pragma once

#include <ostream>
#include <vector>

#include "jobs/perft/print.h"
#include "jobs/perft/request.h"

namespace chesshpc {

// With req.upto, perft of pos at every depth below req.depth (with req's threads and
// table), in order; otherwise nothing.
std::vector<DepthCount> count_shallower(const PerftRequest& req, const chess::Position& pos, chess::PerftTable* table);

// Runs one position; results on out, progress and errors on err. Returns an ExitCode.
int run_perft(const PerftRequest& req, std::ostream& out, std::ostream& err);
// Checks every ";Dn count" of every line (n <= max_depth). Any mismatch or unreadable
// line makes the exit code non-zero; a depth past chess::perft::MAX_DEPTH refuses the
// whole file (EXIT_INPUT, its line named) before any count.
int run_epd(const PerftRequest& req, std::ostream& out, std::ostream& err);

}  // namespace chesshpc
