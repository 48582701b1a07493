// `chesshpc verify`'s request: the engine under test and the positions to check it on.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/position.h"
#include "jobs/io/options.h"
#include "jobs/verify/engines.h"

namespace chesshpc {

struct VerifyRequest : Reporting {
  EngineSpec engine;
  // Exactly one source of positions.
  std::string fen;                 // --fen, with moves (UCI or SAN) and depth
  std::vector<std::string> moves;  // --moves
  std::string epd;                 // --epd FILE: each line at its deepest ';Dn' up to max_depth
  uint64_t random = 0, seed = 0;   // --random N --seed S
  int depth = 0;                   // --fen and --random
  int max_depth = 0;               // --epd; 0: every line's deepest
  int threads = 1;                 // engine processes at once
  std::string out;                 // HDF5 result file; empty: none
  std::string save_epd;            // the positions checked, with chesshpc's counts
  std::string command_line;
};

// One position to check.
struct VerifyTask {
  chess::Position root;
  std::vector<chess::Move> moves;
  int depth = 0;
  int trap = -1;  // --random: index into TRAPS
  // --epd: the suite's count at depth and its line, which chesshpc's count must match.
  std::optional<uint64_t> expected;
  int line = 0;
};

// The positions a request names (with --epd, in epd: the suite's text, read by the caller);
// false after saying on err why not (with *code the exit code: EXIT_INPUT for a bad FEN,
// move or EPD line).
bool verify_tasks(const VerifyRequest& req, const std::string& epd, std::vector<VerifyTask>& tasks, int& code,
                  std::ostream& err);

}  // namespace chesshpc
