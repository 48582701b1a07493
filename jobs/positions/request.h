// `chesshpc positions`: which corpus, which of its positions, into which file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "jobs/export/request.h"
#include "jobs/io/options.h"
#include "jobs/rules/request.h"

namespace chesshpc {

struct PositionsRequest : CorpusRun {
  std::string out;  // the dataset, in selfplay's layout
  // export's filters that a corpus has columns for: skip_plies, skip_in_check,
  // skip_capture (the played move), and dedup over the whole corpus.
  ExportFilters filters;
  // Sampling, after the filters: `per_game` positions of each game (all of a shorter
  // one), or each position with probability `fraction`; neither: every position. Drawn
  // from (seed, game index), so the same corpus and seed give the same positions.
  int per_game = 0;
  double fraction = 0;
  uint64_t seed = 1;
  size_t dedup_bytes = size_t(1) << 30;  // the most --dedup's set of positions may take
  // Rows of /games and /positions written at once: what memory holds of them. Not an
  // option: tests set it small to write many batches.
  size_t rows_per_write = size_t(1) << 16;
};

}  // namespace chesshpc
