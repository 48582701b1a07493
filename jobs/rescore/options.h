// `chesshpc rescore`: its options and the request they make.
#pragma once

#include <string>

#include "jobs/io/options.h"
#include "jobs/rescore/request.h"

namespace chesshpc {

extern const CommandOptions RESCORE_OPTIONS;
// Throws UsageError: no input or --out, not exactly one of depth and nodes (a run must
// give the same scores again: no movetime, no clock), a player selfplay would refuse.
RescoreRequest rescore_request(const Options& opt, const std::string& command_line);

}  // namespace chesshpc
