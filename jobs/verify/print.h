// verify's results: one line per fault and the totals, or one JSON object with every
// position's result.
#pragma once

#include <ostream>
#include <vector>

#include "jobs/verify/drill.h"
#include "jobs/verify/request.h"

namespace chesshpc {

// results[i] is tasks[i]'s; faults: how many of them are faults.
void print_suite(const VerifyRequest& req, const std::vector<VerifyTask>& tasks,
                 const std::vector<CheckResult>& results, int faults, std::ostream& out);

}  // namespace chesshpc
