// chesshpc export: a selfplay dataset in a trainer's format or as PGN, with the filters
// trainers apply to positions.
#pragma once

#include <cstddef>
#include <optional>
#include <ostream>

#include "jobs/export/request.h"
#include "jobs/selfplay/tables.h"

namespace chesshpc {

// Writes the file's positions (or games, for pgn) to out, or to req.out when given (as
// req.out.partial, renamed into place when complete). For position formats, says on err
// how many positions were written and why the others were left out. Returns an ExitCode:
// 3 for a file that is not a selfplay file, 4 when req.out cannot be written.
int run_export(const ExportRequest& req, std::ostream& out, std::ostream& err);

// The first of f's filters but --dedup, in ExportFilters' order (0 skip_plies ... 5
// max_score), that leaves out row i of p; none: kept. score: the row's as
// stockfish_score gives it (VALUE_NONE without one).
std::optional<int> filtered_out(const PositionColumns& p, size_t i, int score, const ExportFilters& f);

}  // namespace chesshpc
