// `chesshpc verify`'s options and the request they make, and `chesshpc perftree`'s.
#pragma once

#include <string>

#include "jobs/io/options.h"
#include "jobs/verify/request.h"

namespace chesshpc {

extern const CommandOptions VERIFY_OPTIONS;
// Throws UsageError for a request verify refuses: no engine, not exactly one source of
// positions, a depth missing or out of range.
VerifyRequest verify_request(const Options& opt, const std::string& command_line);

extern const CommandOptions PERFTREE_OPTIONS;

}  // namespace chesshpc
