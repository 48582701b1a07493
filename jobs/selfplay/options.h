// `chesshpc selfplay`: its options and the request they make.
#pragma once

#include <string>
#include <vector>

#include "jobs/io/options.h"
#include "jobs/selfplay/request.h"

namespace chesshpc {

extern const CommandOptions SELFPLAY_OPTIONS;
// Throws UsageError for a batch selfplay refuses: no games, not exactly one limit per
// move (--nodes, --depth, --movetime or --tc), a player, clock or book order it cannot read.
SelfplayRequest selfplay_request(const Options& opt, const std::string& command_line);
// One --engine's KEY=VALUE arguments as a player (cmd=chesshpc|uci:COMMAND, name=, nodes=,
// depth=, movetime=, tc=, option.NAME=VALUE after opt's --uci-options): own_limits when it
// sets one. The one reader of a player, for every command that runs one. Throws UsageError.
PlayerSpec read_engine(const Options& opt, const std::vector<std::string>& items);

}  // namespace chesshpc
