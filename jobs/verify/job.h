// `chesshpc verify`: another engine's perft against chesshpc's, position by position,
// with the drill-down to the first wrong move (drill.h), over --threads engine processes.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "jobs/io/options.h"
#include "jobs/verify/drill.h"
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
};

// The positions a request names; false after saying on err why not (with *code the exit
// code: EXIT_INPUT for a bad FEN, move or EPD line, EXIT_IO for an unreadable file).
bool verify_tasks(const VerifyRequest& req, std::vector<VerifyTask>& tasks, int& code, std::ostream& err);

// Runs every task over req.threads engines; one line per fault and a summary (or JSON) on
// out. Returns EXIT_MISMATCH when the engine is wrong anywhere (crashes and timeouts
// included), EXIT_INPUT when it cannot start.
int run_verify(const VerifyRequest& req, std::ostream& out, std::ostream& err);

}  // namespace chesshpc
