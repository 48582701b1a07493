// The engine under test, asked for divides: perft(depth) of a position split by root
// move. Two protocols: UCI with Stockfish's `go perft` (the engine started once and
// reused) and perftree's script interface (`CMD depth "fen" "moves"`, run once per query).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "jobs/uci/engine.h"

namespace chesshpc {

enum class Protocol { UCI, PERFTREE };

// What the engine printed for one query, as it wrote it: move texts are not yet read
// against the position (jobs/verify/drill.h does that).
struct EngineDivide {
  std::vector<std::pair<std::string, uint64_t>> moves;  // "move: count" or "move count" lines, in order
  bool has_total = false;
  uint64_t total = 0;  // "Nodes searched: N" (UCI) or the last line (perftree)
  double seconds = 0;  // wall time from the query to the total
};

class PerftEngine {
 public:
  virtual ~PerftEngine() = default;
  // The divide of the position after `moves` (UCI notation) from `fen`, at depth >= 1.
  // Throws UciTimeout after the timeout (the engine is then killed), UciExited when it
  // ended before its total, UciError for an answer that is no divide; restart() makes it
  // usable again after any of them.
  virtual EngineDivide divide(const std::string& fen, const std::vector<std::string>& moves, int depth) = 0;
  virtual void restart() = 0;
  // Queries sent so far, restarts included: the drill-down's cost.
  long queries() const { return queries_; }

 protected:
  long queries_ = 0;
};

struct EngineSpec {
  std::string command;  // a command line, split as a shell splits words
  Protocol protocol = Protocol::UCI;
  bool chess960 = false;        // UCI: sets UCI_Chess960
  double timeout_seconds = 60;  // per query, and for the UCI handshake
};

// Starts the engine (UCI: the handshake; perftree: checks the program can be found).
// Throws UciError naming the command when it cannot start.
std::unique_ptr<PerftEngine> start_engine(const EngineSpec& spec);

// One line of a divide as the engine printed it: "e2e4: 20" (UCI) or "e2e4 20"
// (perftree), the move's text and count; false for any other line.
bool parse_divide_line(const std::string& line, std::string& move, uint64_t& count);

}  // namespace chesshpc
