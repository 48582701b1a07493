// `chesshpc perft`'s options and the request they make.
#pragma once

#include <string>

#include "jobs/io/options.h"
#include "jobs/perft/request.h"

namespace chesshpc {

extern const CommandOptions PERFT_OPTIONS;

// True when opt asks to check an EPD suite (run_epd) rather than count one position.
bool checks_epd_suite(const Options& opt);

// The request of perft's options; throws UsageError for a combination perft refuses.
// Two choices stay with the caller, which knows how the process was started: whether the
// run is a task farm (split_depth, dedup_ply, or started with ranks; --out needs one), and, with
// verify_keys, switching chess::zobrist to VERIFY_SEED before any FEN is read.
PerftRequest perft_request(const Options& opt, const std::string& command_line);

// The command line that continues a run split into units (the stop notice's "resume
// with"): req's, with the split depth the plan chose appended when --split-depth was left
// out, and chosen_dedup_ply (non-zero) when --dedup-ply auto chose it. Both defaults depend
// on the rank count, and a --resume on another count must find the same units.
std::string resume_command_line(const PerftRequest& req, int split_depth, int chosen_dedup_ply);

}  // namespace chesshpc
