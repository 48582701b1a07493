// `chesshpc export`: its options and the request they make.
#pragma once

#include <vector>

#include "jobs/export/request.h"
#include "jobs/io/options.h"

namespace chesshpc {

extern const CommandOptions EXPORT_OPTIONS;
// The request of the arguments; throws UsageError (an unknown format, a filter with pgn, a
// binary format for a terminal: stdout_is_terminal) and FileError (an unwritable --out).
ExportRequest export_request(const Options& opt, bool stdout_is_terminal);
// The filters' options (--skip-plies ... --dedup) and their reader, for every command
// that filters positions as export does.
std::vector<OptionSpec> filter_options();
ExportFilters read_filters(const Options& opt);

}  // namespace chesshpc
