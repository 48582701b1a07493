// An external UCI engine as a player: a child process spoken to over pipes, with a
// deadline on every answer, so that a hung or crashed engine is an error, never a hang.
#pragma once

#include <sys/types.h>

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace chesshpc {

struct UciError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// The two ways a child fails to answer, which a caller that restarts it tells apart.
struct UciTimeout : UciError {
  using UciError::UciError;
};
struct UciExited : UciError {
  using UciError::UciError;
};

// A command line split as a POSIX shell splits words (no expansions): blanks separate,
// '...' keeps everything, "..." and a backslash keep the next character. Throws UciError
// for an unclosed quote.
std::vector<std::string> split_command_line(const std::string& command);

// A child process with its standard input and output on pipes and its standard error on
// /dev/null; the first word is looked up on PATH. The destructor closes its input, waits a
// second for it to end, then kills it.
class ChildProcess {
 public:
  // Throws UciError naming `shown` when the program cannot start.
  ChildProcess(const std::vector<std::string>& argv, const std::string& shown);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Throws UciExited when the child no longer reads its input.
  void send(const std::string& line);
  // The next line (without its CR), nothing at the end of its output; throws UciTimeout
  // when the deadline (seconds from now) passes first.
  std::optional<std::string> next_line(double seconds);
  // next_line that throws UciExited at the end of the output.
  std::string read_line(double seconds);
  void close_input();
  // Kills the child now (after a timeout) and reaps it.
  void kill_now();
  // After the end of its output: how it ended, "" for exit status 0, else "exit status N"
  // or "killed by signal N" (waits at most `seconds`, then kills it).
  std::string wait_end(double seconds);

 private:
  std::string shown_, buffer_;
  pid_t pid_ = -1;
  int to_child_ = -1, from_child_ = -1;
};

// What to search: exactly one of nodes, depth, movetime, or a clock (wtime/btime in ms).
struct UciLimits {
  long nodes = 0;
  int depth = 0;
  long movetime_ms = 0;
  long wtime_ms = -1, btime_ms = -1, winc_ms = 0, binc_ms = 0;
};

// The engine's answer: its move and the last score it reported (from the side to move's
// view; mate in n plies or moves as the engine says it, sign by who mates).
struct UciAnswer {
  std::string bestmove;                  // UCI text, e.g. "e2e4"; "(none)" or "0000" with no legal move
  std::optional<int> score_cp, mate_in;  // mate_in in moves, negative when the engine is mated
  int depth = 0;
  long long nodes = 0;
  double seconds = 0;  // wall time from go to bestmove
};

// A perft count by the engine: Stockfish's `go perft D`, an extension of UCI.
struct UciPerft {
  unsigned long long nodes = 0;
  double seconds = 0;  // wall time from sending go to reading the count
};

class UciEngine {
 public:
  // Starts `command` (split_command_line; the first word is looked up on PATH), waits for
  // uciok, sets the options, waits for readyok. Throws UciError naming what went wrong.
  explicit UciEngine(const std::string& command, const std::vector<std::pair<std::string, std::string>>& options = {},
                     double timeout_seconds = 10);
  ~UciEngine();
  UciEngine(const UciEngine&) = delete;
  UciEngine& operator=(const UciEngine&) = delete;

  const std::string& name() const { return name_; }
  void new_game();
  // position: "startpos" or a FEN; moves in UCI. The search gets `limits`; the answer must
  // come within the limit's time plus `grace_seconds`, else the engine is stopped and this throws.
  UciAnswer go(const std::string& position, const std::vector<std::string>& moves, const UciLimits& limits,
               double grace_seconds = 10);
  // Counts perft(depth) of position ("startpos" or a FEN) with `go perft`, reading the
  // engine's "Nodes searched: N"; throws UciError when no count comes within timeout_seconds.
  UciPerft perft(const std::string& position, int depth, double timeout_seconds);
  // Sets the position (a FEN and moves in UCI), sends `go perft depth` and hands every
  // line after it to `line` until that returns false; the whole answer must come within
  // timeout_seconds (UciTimeout), from an engine still running (UciExited).
  void perft_lines(const std::string& position, const std::vector<std::string>& moves, int depth,
                   double timeout_seconds, const std::function<bool(const std::string&)>& line);

 private:
  void set_position(const std::string& position, const std::vector<std::string>& moves);
  void send(const std::string& line) { child_.send(line); }
  // The next line, or throws when the engine has exited or the deadline (seconds from now) passes.
  std::string read_line(double seconds) { return child_.read_line(seconds); }
  void wait_for(const std::string& token, double seconds);

  std::string command_, name_;
  ChildProcess child_;
};

}  // namespace chesshpc
