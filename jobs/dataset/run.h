// The dataset commands, each run on one process: convert, shuffle, interleave, stats.
// Each returns an ExitCode: 3 for a record that does not read (or, convert --validate, is
// not possible), named by its index; 4 for a file that cannot be read or written.
#pragma once

#include <ostream>

#include "jobs/dataset/request.h"

namespace chesshpc {

int run_convert(const ConvertRequest& req, std::ostream& out, std::ostream& err);
int run_shuffle(const ShuffleRequest& req, std::ostream& out, std::ostream& err);
int run_interleave(const InterleaveRequest& req, std::ostream& out, std::ostream& err);
int run_stats(const StatsRequest& req, std::ostream& out, std::ostream& err);

}  // namespace chesshpc
