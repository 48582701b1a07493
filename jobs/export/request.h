// chesshpc export's request: which selfplay file, in which format, to where, and the
// filters trainers apply to positions.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "jobs/export/formats.h"

namespace chesshpc {

// Which positions are left out; each counts under the first filter that drops it, in
// this order.
struct ExportFilters {
  int skip_plies = 0;      // the first N plies of every game
  bool skip_book = false;  // opening moves, not searched
  bool skip_in_check = false;
  bool skip_capture = false;     // the played or the best move captures or promotes
  bool skip_mate = false;        // a mate score
  std::optional<int> max_score;  // |score| above it (a mate is above any)
  bool dedup = false;            // a position (pieces, side, castling, en passant) seen before
  bool any() const {
    return skip_plies || skip_book || skip_in_check || skip_capture || skip_mate || max_score || dedup;
  }
};

struct ExportRequest {
  // The selfplay files, written one after the other into one output, as one file of
  // their games in turn would be (--dedup over all of them).
  std::vector<std::string> paths;
  const Format* format = nullptr;
  std::string out;  // "" for standard output
  ExportFilters filters;
  // /positions rows read at a time: four of the file's 64 K-row chunks, about 30 MB of
  // columns, so that a dataset of any length exports in the memory of one batch. (Tests
  // make it small to check that batches join seamlessly.)
  size_t batch_rows = size_t(1) << 18;
  bool quiet = false;            // no progress on stderr
  double progress_interval = 0;  // seconds between progress lines; 0: Progress's default
};

}  // namespace chesshpc
