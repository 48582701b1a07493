// The dataset commands' options and the requests they make: convert, shuffle, interleave,
// stats.
#pragma once

#include "jobs/dataset/request.h"
#include "jobs/io/options.h"

namespace chesshpc {

extern const CommandOptions CONVERT_OPTIONS, SHUFFLE_OPTIONS, INTERLEAVE_OPTIONS, STATS_OPTIONS;
// Each throws UsageError (a format not given and not told by the name, an output that is
// an input or exists without --force, a binary format for a terminal) and FileError (an
// unwritable output). stdout_is_terminal: whether standard output is one.
ConvertRequest convert_request(const Options& opt, const std::string& command_line, bool stdout_is_terminal);
ShuffleRequest shuffle_request(const Options& opt, const std::string& command_line, bool stdout_is_terminal);
InterleaveRequest interleave_request(const Options& opt, const std::string& command_line, bool stdout_is_terminal);
StatsRequest stats_request(const Options& opt, const std::string& command_line);

}  // namespace chesshpc
