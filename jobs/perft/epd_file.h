// The HDF5 result file of `perft --epd FILE --out F.h5`: every count the suite asks for,
// checked, with chesshpc's own count beside the file's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "jobs/perft/request.h"

namespace chesshpc {

// One ";Dn count" of the suite, checked.
struct EpdCount {
  int32_t line = 0;  // the suite's line, 1-based
  std::string fen;
  int32_t depth = 0;
  uint64_t expected = 0, nodes = 0;  // the suite's count, chesshpc's
  double seconds = 0;
};

// Writes req.out: /counts (one row per count checked, in the suite's order) and root
// attributes (job perft_epd, the suite, counts, mismatches, unreadable lines), published
// whole. Returns "" or why it could not be written.
std::string write_epd_file(const PerftRequest& req, const std::vector<EpdCount>& counts, int64_t unreadable,
                           const std::string& started);

}  // namespace chesshpc
