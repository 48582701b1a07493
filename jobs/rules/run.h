// The rules command: play a list of moves under a ruleset and report how and when the
// game ends and when every rule's condition first held.
#pragma once

#include <ostream>

#include "jobs/rules/request.h"

namespace chesshpc {

int run_rules(const RulesRequest& req, std::ostream& out, std::ostream& err);

}  // namespace chesshpc
