// An external UCI engine driven from the client's end of UCI (selfplay's players, verify's
// and bench's engines): a child process spoken to over pipes, with a deadline on every
// answer, so that a hung or crashed engine is an error, never a hang.
// A deadline counts from the command that asks for the answer: the lines an engine prints
// meanwhile never extend it, and no line may be longer than MAX_LINE_BYTES, so an engine
// that prints without end costs a bounded time and memory.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
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

// The longest line read from an engine, its end excluded. UCI's longest lines (an info
// line with a full pv, an option's combo list) are a few kB; a longer line is an engine
// fault (UciError), so that one endless line cannot grow memory.
inline constexpr size_t MAX_LINE_BYTES = size_t(1) << 20;

// Seconds from `uci` to `uciok`, and from each `isready` to `readyok`, unless the caller
// says otherwise (the bench's Stockfish; selfplay's --timeout by default; verify gives its
// --timeout).
inline constexpr double UCI_HANDSHAKE_SECONDS = 10;
// Seconds a search may overrun its limit's time (movetime, or the longer clock) before the
// engine counts as hung: a node or depth limit has no time, so its bestmove must come
// within this margin alone.
inline constexpr double UCI_MOVE_MARGIN_SECONDS = 10;

// When an answer is due: a fixed point in time, set when the command that asks for it is sent.
using Deadline = std::chrono::steady_clock::time_point;
Deadline deadline_in(double seconds);

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

  // Sends `line` and its end in one write (so also several lines, each but the last with
  // its end). Throws UciExited when the child no longer reads its input.
  void send(const std::string& line);
  // The next line (without its CR), nothing at the end of its output; throws UciTimeout
  // when the deadline passes first, UciError for a line longer than MAX_LINE_BYTES. Each
  // byte is read and scanned once.
  std::optional<std::string> next_line(Deadline deadline);
  // next_line that throws UciExited at the end of the output.
  std::string read_line(Deadline deadline);
  void close_input();
  // Kills the child now (after a timeout) and reaps it.
  void kill_now();
  // After the end of its output: how it ended, "" for exit status 0, else "exit status N"
  // or "killed by signal N" (waits at most `seconds`, then kills it).
  std::string wait_end(double seconds);

 private:
  std::string shown_;
  // Bytes read and not yet returned: buffer_[begin_, size). Bytes before scanned_ hold no
  // line end.
  std::string buffer_;
  size_t begin_ = 0, scanned_ = 0;
  bool ended_ = false;  // the child's output is at its end
  pid_t pid_ = -1;
  int to_child_ = -1, from_child_ = -1;
};

// What to search: nodes, depth, movetime, or a clock (wtime/btime in ms), each 0 (or -1)
// when not given; a node or depth limit may stand beside a clock, as fastchess sends them.
struct UciLimits {
  long nodes = 0;
  int depth = 0;
  long movetime_ms = 0;
  long wtime_ms = -1, btime_ms = -1, winc_ms = 0, binc_ms = 0;
  int movestogo = 0;  // with a clock: moves left in its period (0: none)
};

// The engine's answer: its move and the last exact score it reported (from the side to
// move's view; mate in n plies or moves as the engine says it, sign by who mates), with
// the depth of the line that gave it (the last line's without one), and the last nodes.
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
  // Starts `command` (split_command_line; the first word is looked up on PATH; in
  // directory `dir` when given, a relative command found from there), sends
  // uci and waits for uciok, sets the options, sends isready and waits for readyok, each
  // answer within handshake_seconds of its command (and so for new_game's readyok).
  // Throws UciError naming what went wrong (UciTimeout: "engine 'yes' sent no uciok
  // within 2 s of uci"); a child that timed out is killed at once.
  explicit UciEngine(const std::string& command, const std::vector<std::pair<std::string, std::string>>& options = {},
                     double handshake_seconds = UCI_HANDSHAKE_SECONDS, const std::string& dir = "");
  // Sends quit, or kills the engine at once when it has failed.
  ~UciEngine();
  UciEngine(const UciEngine&) = delete;
  UciEngine& operator=(const UciEngine&) = delete;

  const std::string& name() const { return name_; }
  // True once the engine timed out, exited, or sent a line too long: its next answers
  // cannot be trusted (a late bestmove would answer the next go), so a caller that goes on
  // starts a new one.
  bool failed() const { return failed_; }
  // ucinewgame, then isready, awaiting readyok.
  void new_game();
  // The same commands, sent with the next go in one write, and its readyok awaited before
  // the search's answer (within handshake_seconds, as new_game's): no round trip of its
  // own, so the engine wakes once a position, as it does reading a script from a file.
  // Its errors are go's.
  void queue_new_game();
  // position: "startpos" or a FEN; moves in UCI. The search gets `limits`; the bestmove
  // must come within the limit's time (movetime, or the longer of wtime and btime) plus
  // `margin_seconds` of go, else the engine is sent stop and this throws UciTimeout.
  UciAnswer go(const std::string& position, const std::vector<std::string>& moves, const UciLimits& limits,
               double margin_seconds = UCI_MOVE_MARGIN_SECONDS);
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
  void send(const std::string& line);
  // The next line, or throws when the engine has exited, sent a line too long, or the
  // deadline passed (and notes that it failed).
  std::string read_line(Deadline deadline);
  // Reads lines, each handed to `each`, until `token`; throws UciTimeout naming `sent`
  // and token when it has not come within `seconds` (from now: `sent` was just sent).
  void await(const std::string& sent, const std::string& token, double seconds,
             const std::function<void(const std::string&)>& each = {});

  // After a send that carried queue_new_game's commands: awaits their readyok.
  void await_queued_ready();

  std::string command_, name_;
  double handshake_seconds_;
  bool failed_ = false;
  std::string queued_;          // lines for the next send, each with its end
  bool ready_pending_ = false;  // a readyok sent for is still to be read
  long searches_ = 0;           // go's answered, and their seconds: go's first sleep
  double searched_seconds_ = 0;
  ChildProcess child_;
};

}  // namespace chesshpc
