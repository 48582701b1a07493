// One position checked against the engine, and the drill-down that follows a mismatch:
// take a move whose count differs (the first in chesshpc's move order), play it, ask
// again one ply less deep, until the engine's move list itself differs from the legal
// moves (or depth 1, where every count is 1). Every count the engine gives is checked
// against its others: each total against the sum of its divide, and each total below the
// root against the count the engine gave for that move one ply up, so that an engine that
// agrees one ply down after a wrong count (a hash table's fault) is caught there. A fault
// costs at most depth engine queries.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/position.h"
#include "jobs/verify/engines.h"

namespace chesshpc {

// What went wrong, where the drill-down stopped.
enum class FaultKind : uint8_t {
  NONE,
  MOVES,         // the engine's move list differs from the legal moves
  COUNT,         // depth 1: the engine counts a legal move other than 1
  TOTAL,         // the engine's total is not the sum of its own divide
  INCONSISTENT,  // the engine's total is not the count it gave for the move one ply up
  CRASH,         // the engine ended (or its output did) before its total; restarted
  TIMEOUT,       // no total within --timeout; the engine is killed and restarted
  PROTOCOL       // an answer that is no divide
};
const char* fault_name(FaultKind k);

// A move as the report shows it: UCI as chesshpc writes it, and SAN (for an illegal move
// the piece, capture and squares only, without check marks).
struct ReportedMove {
  std::string uci, san;
};

struct Fault {
  FaultKind kind = FaultKind::NONE;
  std::string fen;                                // the position where it shows
  int depth = 0;                                  // the depth asked there
  std::vector<std::string> path;                  // UCI, from the root (the given --moves first)
  std::string path_san;                           // the same moves numbered as a game writes them: "1. e4 e5"
  std::vector<ReportedMove> missing;              // legal moves the engine lacks
  std::vector<ReportedMove> illegal;              // moves the engine lists that are not legal here
  std::vector<ReportedMove> duplicate;            // legal moves the engine lists more than once
  std::string move;                               // COUNT: the move; INCONSISTENT: the last of path; TOTAL: empty
  uint64_t engine_count = 0, expected_count = 0;  // COUNT: the move's; TOTAL: total and divide sum;
                                                  // INCONSISTENT: total and the count one ply up
  std::string message;                            // CRASH, TIMEOUT, PROTOCOL: what the engine did
};

struct CheckResult {
  std::string root_fen;            // as the engine was given it
  std::vector<std::string> moves;  // given after the root, UCI
  int depth = 0;
  uint64_t nodes = 0;         // chesshpc's count at the root (an engine's crash there too)
  uint64_t engine_nodes = 0;  // the engine's total at the root; 0 when it gave none
  double engine_seconds = 0;  // summed over this position's queries
  int queries = 0;            // engine queries this position cost
  Fault fault;                // kind NONE: the engine agrees
};

// Checks perft(depth) of root after moves (legal, in order) against the engine, and drills
// down on a mismatch. chesshpc counts each query's divide on this thread while the engine
// counts. A crash or timeout is a fault of its own, after which the engine is restarted.
CheckResult check_position(PerftEngine& engine, const chess::Position& root, const std::vector<chess::Move>& moves,
                           int depth);

// The one line a person pastes into a bug report, e.g.
// mismatch at "FEN" depth 1 (from "ROOT" after e2e4 e7e5, i.e. 1. e4 e5): engine misses b7a8n (bxa8=N)
// inconsistent counts at "FEN" depth 2 (from "ROOT" after b1a3, i.e. 1. Na3): engine's total 400 is not the 401
// it gave for b1a3 at depth 3
std::string fault_line(const CheckResult& r);

// The engine's move texts read against pos: lower-cased promotion letters, castling as the
// king's move (e1g1) or as the king taking its rook (e1h1) whichever chess is played.
// Returns the legal move, or nothing.
std::optional<chess::Move> read_engine_move(const chess::Position& pos, const std::string& text);

}  // namespace chesshpc
