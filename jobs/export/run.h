// chesshpc export: a selfplay dataset in a trainer's format or as PGN, with the filters
// trainers apply to positions.
#pragma once

#include <ostream>

#include "jobs/export/request.h"

namespace chesshpc {

// Writes the file's positions (or games, for pgn) to out, or to req.out when given (as
// req.out.partial, renamed into place when complete). For position formats, says on err
// how many positions were written and why the others were left out. Returns an ExitCode:
// 3 for a file that is not a selfplay file, 4 when req.out cannot be written.
int run_export(const ExportRequest& req, std::ostream& out, std::ostream& err);

}  // namespace chesshpc
