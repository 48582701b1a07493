// `chesshpc selfplay`: its options and the request they make.
#pragma once

#include <string>

#include "jobs/io/options.h"
#include "jobs/selfplay/request.h"

namespace chesshpc {

extern const CommandOptions SELFPLAY_OPTIONS;
// Throws UsageError for a batch selfplay refuses: no games, not exactly one limit per
// move (--nodes, --depth, --movetime or --tc), a player, clock or book order it cannot read.
SelfplayRequest selfplay_request(const Options& opt, const std::string& command_line);

}  // namespace chesshpc
