// verify's result files: `--out FILE.h5`, every position checked and every fault with its
// drill-down path, for analysis/chesshpc-report; and `--save-epd`'s suite.
#pragma once

#include <string>
#include <vector>

#include "jobs/verify/drill.h"
#include "jobs/verify/request.h"

namespace chesshpc {

// Writes the file (under FILE.h5.partial, then renamed); returns "" or the line saying
// why it could not be written.
std::string write_verify_file(const VerifyRequest& req, const std::vector<VerifyTask>& tasks,
                              const std::vector<CheckResult>& results, const std::string& started);

// --save-epd: each position's FEN and chesshpc's count at its depth, written whole and put
// in place as every result file is (jobs/io/publish.h). "" when written, else why not.
std::string save_epd(const std::string& path, const std::vector<VerifyTask>& tasks,
                     const std::vector<CheckResult>& results);

}  // namespace chesshpc
