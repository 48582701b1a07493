// `chesshpc positions`: every game of a PGN corpus read by drawstats' reader
// (read_pgn_games), its positions filtered as export filters them, sampled from (seed,
// game), deduplicated over the corpus on request, into a file in selfplay's layout.
#pragma once

#include <ostream>

#include "jobs/positions/file.h"
#include "jobs/positions/request.h"
#include "jobs/rules/drawstats.h"

namespace chesshpc {

// --dedup's set of positions would pass --memory: the run stops (exit 3).
struct DedupFull {
  int64_t positions;  // unique positions held
  size_t bound;
};

// Reads the corpus and writes file as it goes, on req.threads threads. A game that does
// not read is counted, said on `skipped` as drawstats says it, and left out. Throws what
// read_pgn_games throws, DedupFull, and h5::Error from the file.
PositionsCounts compute_positions(const PositionsRequest& req, const ReadBytes& read, PositionsFile& file,
                                  Progress* progress, std::ostream* skipped);

// The command: the file, a summary line (or JSON) on out. Returns an ExitCode.
int run_positions(const PositionsRequest& req, std::ostream& out, std::ostream& err);

}  // namespace chesshpc
