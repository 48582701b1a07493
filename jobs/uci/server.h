// The UCI front end: reads commands line by line, runs each "go" on its own thread so
// that "stop", "isready" and "quit" are answered while it searches. A line it cannot
// use is answered with "info string ..." and otherwise ignored.
#pragma once

#include <atomic>
#include <condition_variable>
#include <istream>
#include <memory>
#include <mutex>
#include <ostream>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "core/position.h"
#include "core/search.h"

namespace chesshpc {

class UciServer {
 public:
  explicit UciServer(std::ostream& out);
  ~UciServer();

  // Serves commands until "quit" or the end of input; returns the exit code.
  int run(std::istream& in);
  // Handles one line; false after "quit".
  bool handle(const std::string& line);

 private:
  bool dispatch(const std::string& line);
  void send(const std::string& line);
  void position(const std::vector<std::string>& tokens);
  void go(const std::vector<std::string>& tokens);
  // `go perft DEPTH`: the divide, counted on this thread.
  void go_perft(const std::vector<std::string>& tokens);
  // Waits for a finite search still running; false (and says so) when an infinite one runs.
  bool wait_for_search();
  // Starts the search of position_ under limits on thread_; it sends its info lines and
  // its bestmove (after "stop" for an infinite search).
  void start_search(const chess::SearchLimits& limits);
  void setoption(const std::vector<std::string>& tokens);
  // Ends the running search (if any) and waits for its bestmove.
  void finish_search();

  std::ostream& out_;
  std::mutex out_mutex_;
  bool chess960_ = false;  // UCI_Chess960
  std::unique_ptr<chess::Search> search_;
  chess::Position position_ = chess::Position::start();
  std::vector<chess::Key> history_;  // keys of the game's positions before position_

  std::thread thread_;
  std::mutex stop_mutex_;
  std::condition_variable stop_cv_;
  bool stop_signal_ = false;  // "stop" or "quit" arrived: an infinite search may report
  bool infinite_ = false;     // the running search is "go infinite"
};

// What `go`'s arguments ask: the search's limits, and a line for each argument not taken,
// to be sent as they are, in the order of the arguments.
struct GoLimits {
  chess::SearchLimits limits;
  std::vector<std::string> notes;  // "info string go: ignoring unknown 'x'", ...
};

// Reads the arguments of `go` (the words after it, `go perft` aside), as Stockfish's
// parse_limits does: wtime, btime, winc, binc, movestogo, depth, nodes and movetime each
// take a whole number, clamped into what the search takes (depth 1 to MAX_PLY - 1, nodes
// at least 1, movetime at least 1, clocks and increments at least 0, movestogo 0 to
// 1000); infinite takes none. ponder, an unknown word and a limit without a whole number
// after it are noted and skipped (the word after such a limit is read as an argument). No
// depth, nodes or clock: an infinite search.
GoLimits parse_go_limits(std::span<const std::string> args);

// The divide of pos at depth as a reference tool prints it, every line ending in '\n':
// STOCKFISH: "e2e4: 20" lines, a blank line, "Nodes searched: N", a blank line (`go
// perft`); PERFTREE: "e2e4 20" lines, a blank line, the total (perftree's script
// interface). Moves in chesshpc's order, UCI as pos's variant writes them.
enum class DivideFormat { STOCKFISH, PERFTREE };
std::string divide_text(const chess::Position& pos, int depth, DivideFormat format);

// chesshpc uci: the engine on standard input and output.
int run_uci_server(std::istream& in, std::ostream& out);

}  // namespace chesshpc
