// `chesshpc positions`: its options and the request they make.
#pragma once

#include <string>

#include "jobs/io/options.h"
#include "jobs/positions/request.h"

namespace chesshpc {

extern const CommandOptions POSITIONS_OPTIONS;
// Throws UsageError: no corpus or --out, a filter for scores a corpus has not, both
// --per-game and --fraction.
PositionsRequest positions_request(const Options& opt, const std::string& command_line);

}  // namespace chesshpc
