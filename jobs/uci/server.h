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

// The divide of pos at depth as a reference tool prints it, every line ending in '\n':
// STOCKFISH: "e2e4: 20" lines, a blank line, "Nodes searched: N", a blank line (`go
// perft`); PERFTREE: "e2e4 20" lines, a blank line, the total (perftree's script
// interface). Moves in chesshpc's order, UCI as pos's variant writes them.
enum class DivideFormat { STOCKFISH, PERFTREE };
std::string divide_text(const chess::Position& pos, int depth, DivideFormat format);

// chesshpc uci: the engine on standard input and output.
int run_uci_server(std::istream& in, std::ostream& out);

}  // namespace chesshpc
