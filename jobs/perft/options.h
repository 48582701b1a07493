// `chesshpc perft`'s options and the request they make.
#pragma once

#include <string>

#include "jobs/io/options.h"
#include "jobs/perft/job.h"

namespace chesshpc {

extern const CommandOptions PERFT_OPTIONS;

// True when opt asks to check an EPD suite (run_epd) rather than count one position.
bool checks_epd_suite(const Options& opt);

// The request of perft's options; throws UsageError for a combination perft refuses.
// Two choices stay with the caller, which knows how the process was started: whether the
// run is a task farm (split_depth, dedup_ply, or started with ranks; --out needs one), and, with
// verify_keys, switching chess::zobrist to VERIFY_SEED before any FEN is read.
PerftRequest perft_request(const Options& opt, const std::string& command_line);

}  // namespace chesshpc
