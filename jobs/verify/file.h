// `chesshpc verify --out FILE.h5`: every position checked and every fault with its
// drill-down path, for analysis/chesshpc-report.
#pragma once

#include <string>
#include <vector>

#include "jobs/verify/drill.h"
#include "jobs/verify/job.h"

namespace chesshpc {

// Writes the file (under FILE.h5.partial, then renamed); returns "" or the line saying
// why it could not be written.
std::string write_verify_file(const VerifyRequest& req, const std::vector<VerifyTask>& tasks,
                              const std::vector<CheckResult>& results, const std::string& started);

}  // namespace chesshpc
