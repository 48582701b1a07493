#include "jobs/uci/engine.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <thread>
#include <utility>

#include "core/quote.h"

extern char** environ;

namespace chesshpc {

namespace {

using Clock = std::chrono::steady_clock;

// The words of s between white space, as `>>` reads them (without a stream: a search's
// ten info lines a position each built one, locale and all).
std::vector<std::string> split_words(const std::string& s) {
  constexpr auto space = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
  std::vector<std::string> words;
  for (size_t i = 0; i < s.size();) {
    if (space(s[i])) {
      ++i;
      continue;
    }
    const size_t start = i;
    while (i < s.size() && !space(s[i])) ++i;
    words.emplace_back(s, start, i - start);
  }
  return words;
}

// The token after `key` in an info line, if any.
std::optional<std::string> field(const std::vector<std::string>& words, const std::string& key) {
  for (size_t i = 0; i + 1 < words.size(); ++i)
    if (words[i] == key) return words[i + 1];
  return std::nullopt;
}

// One info line into a: its nodes (the search's so far); its score when exact, with the
// depth of that line, so that a score and its depth are one iteration's (as fastchess
// reads them: a bound from an iteration cut short, "upperbound", is not the verdict).
// last_depth: the latest line's depth, the answer's when no line had an exact score.
void parse_info(const std::string& line, UciAnswer& a, int& last_depth) {
  std::vector<std::string> w = split_words(line);
  int depth = last_depth;
  if (auto d = field(w, "depth")) depth = last_depth = std::atoi(d->c_str());
  if (auto n = field(w, "nodes")) a.nodes = std::atoll(n->c_str());
  for (size_t i = 0; i + 2 < w.size(); ++i) {
    if (w[i] != "score") continue;
    if (i + 3 < w.size() && (w[i + 3] == "lowerbound" || w[i + 3] == "upperbound")) return;
    if (w[i + 1] == "cp") a.score_cp = std::atoi(w[i + 2].c_str()), a.mate_in.reset(), a.depth = depth;
    if (w[i + 1] == "mate") a.mate_in = std::atoi(w[i + 2].c_str()), a.score_cp.reset(), a.depth = depth;
  }
}

// 2 as "2 s", 0.25 as "0.25 s".
std::string seconds_text(double seconds) {
  std::ostringstream s;
  s << seconds << " s";
  return s.str();
}

}  // namespace

namespace {

// words run in dir: through the shell's cd, which any POSIX system has (posix_spawn's
// chdir action is a late glibc extension); none: words as they are.
std::vector<std::string> in_directory(const std::string& dir, std::vector<std::string> words) {
  if (dir.empty() || words.empty()) return words;
  words.insert(words.begin(), {"/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", dir});
  return words;
}

}  // namespace

Deadline deadline_in(double seconds) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

std::vector<std::string> split_command_line(const std::string& command) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (size_t i = 0; i < command.size(); ++i) {
    char c = command[i];
    if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(word), word.clear(), in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\\' && i + 1 < command.size()) {
      word += command[++i];
    } else if (c == '\'' || c == '"') {
      size_t close = command.find(c, i + 1);
      if (close == std::string::npos) throw UciError("unclosed quote in engine command " + chess::quoted(command));
      word += command.substr(i + 1, close - i - 1);
      i = close;
    } else {
      word += c;
    }
  }
  if (in_word) words.push_back(word);
  return words;
}

ChildProcess::ChildProcess(const std::vector<std::string>& words, const std::string& shown) : shown_(shown) {
  if (words.empty()) throw UciError("empty engine command");
  int in[2], out[2];
  if (pipe(in) != 0 || pipe(out) != 0) throw UciError("cannot create pipes for '" + shown + "'");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  for (int fd : {in[0], in[1], out[0], out[1]}) posix_spawn_file_actions_addclose(&actions, fd);
  std::vector<std::string> copy = words;
  std::vector<char*> argv;
  for (std::string& w : copy) argv.push_back(w.data());
  argv.push_back(nullptr);
  int rc = posix_spawnp(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(in[0]), close(out[1]);
  to_child_ = in[1], from_child_ = out[0];
  fcntl(to_child_, F_SETFD, FD_CLOEXEC), fcntl(from_child_, F_SETFD, FD_CLOEXEC);
  if (rc != 0) {
    pid_ = -1;
    close(to_child_), close(from_child_);
    throw UciError("cannot start engine '" + shown + "': " + std::strerror(rc));
  }
}

// The output's end is closed first: a child still printing (`yes`) then ends at once on
// its broken pipe instead of taking the second of grace.
ChildProcess::~ChildProcess() {
  close_input();
  if (from_child_ >= 0) close(from_child_);
  wait_end(1);
}

void ChildProcess::close_input() {
  if (to_child_ >= 0) close(to_child_);
  to_child_ = -1;
}

void ChildProcess::kill_now() {
  if (pid_ <= 0) return;
  kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
  pid_ = -1;
}

std::string ChildProcess::wait_end(double seconds) {
  if (pid_ <= 0) return "";
  int status = 0;
  const Deadline deadline = deadline_in(seconds);
  while (waitpid(pid_, &status, WNOHANG) == 0) {
    if (Clock::now() > deadline) {
      kill_now();
      return "killed after " + std::to_string(seconds) + " s";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  pid_ = -1;
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  if (WIFEXITED(status) && WEXITSTATUS(status) != 0) return "exit status " + std::to_string(WEXITSTATUS(status));
  return "";
}

void ChildProcess::send(const std::string& line) {
  std::string text = line + "\n";
  // A child that died closes the pipe: report it as an error, not as SIGPIPE (set once:
  // a system call a line added up over millions of lines).
  static const bool sigpipe_ignored = signal(SIGPIPE, SIG_IGN) != SIG_ERR;
  (void)sigpipe_ignored;
  for (size_t done = 0; done < text.size();) {
    ssize_t n = to_child_ < 0 ? -1 : write(to_child_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    // The pipe breaks when the engine exits, which may come before or after it reads a
    // line: either way the user learns the same thing.
    if (n <= 0) throw UciExited("engine '" + shown_ + "' exited or stopped reading its input");
    done += size_t(n);
  }
}

std::optional<std::string> ChildProcess::next_line(Deadline deadline) {
  constexpr size_t CHUNK = 65536;
  while (true) {
    if (size_t eol = buffer_.find('\n', scanned_); eol != std::string::npos || (ended_ && begin_ < buffer_.size())) {
      if (eol == std::string::npos) eol = buffer_.size();  // a last line without its end
      if (eol - begin_ > MAX_LINE_BYTES) break;
      std::string line = buffer_.substr(begin_, eol - begin_);
      begin_ = scanned_ = std::min(eol + 1, buffer_.size());
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    scanned_ = buffer_.size();
    if (scanned_ - begin_ > MAX_LINE_BYTES) break;
    if (ended_) return std::nullopt;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) throw UciTimeout("engine '" + shown_ + "' did not answer in time");
    pollfd p{from_child_, POLLIN, 0};
    int ready = poll(&p, 1, int(std::min<long long>(left, 1000)));
    if (ready < 0 && errno != EINTR) throw UciError("cannot read from engine '" + shown_ + "'");
    if (ready <= 0) continue;
    // The lines returned leave the buffer before it grows, so that no byte moves twice.
    buffer_.erase(0, begin_);
    scanned_ -= begin_, begin_ = 0;
    const size_t had = buffer_.size();
    buffer_.resize(had + CHUNK);
    ssize_t n = read(from_child_, buffer_.data() + had, CHUNK);
    buffer_.resize(had + size_t(std::max<ssize_t>(n, 0)));
    if (n < 0 && errno == EINTR) continue;
    ended_ = n <= 0;
  }
  throw UciError("engine '" + shown_ + "' sent a line longer than " + std::to_string(MAX_LINE_BYTES) + " bytes");
}

std::string ChildProcess::read_line(Deadline deadline) {
  std::optional<std::string> line = next_line(deadline);
  if (!line) throw UciExited("engine '" + shown_ + "' exited");
  return *line;
}

UciEngine::UciEngine(const std::string& command, const std::vector<std::pair<std::string, std::string>>& options,
                     double handshake_seconds, const std::string& dir)
    : command_(command),
      handshake_seconds_(handshake_seconds),
      child_(in_directory(dir, split_command_line(command)), command) {
  try {
    send("uci");
    await("uci", "uciok", handshake_seconds, [this](const std::string& line) {
      if (line.rfind("id name ", 0) == 0) name_ = line.substr(8);
    });
    for (const auto& [name, value] : options) send("setoption name " + name + " value " + value);
    send("isready");
    await("isready", "readyok", handshake_seconds);
  } catch (const UciError&) {
    child_.kill_now();  // an engine that fails its handshake gets no second of grace
    throw;
  }
}

UciEngine::~UciEngine() {
  if (failed_) {
    child_.kill_now();
    return;
  }
  try {
    send("quit");
  } catch (const UciError&) {  // already gone
  }
}

void UciEngine::send(const std::string& line) {
  try {
    child_.send(queued_.empty() ? line : std::exchange(queued_, {}) + line);
  } catch (const UciError&) {
    failed_ = true;
    throw;
  }
}

std::string UciEngine::read_line(Deadline deadline) {
  try {
    return child_.read_line(deadline);
  } catch (const UciError&) {
    failed_ = true;
    throw;
  }
}

void UciEngine::await(const std::string& sent, const std::string& token, double seconds,
                      const std::function<void(const std::string&)>& each) {
  const Deadline deadline = deadline_in(seconds);
  try {
    for (std::string line; (line = read_line(deadline)) != token;)
      if (each) each(line);
  } catch (const UciTimeout&) {
    throw UciTimeout("engine '" + command_ + "' sent no " + token + " within " + seconds_text(seconds) + " of " + sent);
  }
}

void UciEngine::new_game() {
  send("ucinewgame\nisready");
  await_queued_ready();
  await("isready", "readyok", handshake_seconds_);
}

void UciEngine::queue_new_game() {
  queued_ += "ucinewgame\nisready\n";
  ready_pending_ = true;
}

void UciEngine::await_queued_ready() {
  if (!std::exchange(ready_pending_, false)) return;
  await("isready", "readyok", handshake_seconds_);
}

void UciEngine::set_position(const std::string& position, const std::vector<std::string>& moves) {
  std::string cmd = position == "startpos" ? "position startpos" : "position fen " + position;
  if (!moves.empty()) {
    cmd += " moves";
    for (const std::string& m : moves) cmd += " " + m;
  }
  send(cmd);
}

UciPerft UciEngine::perft(const std::string& position, int depth, double timeout_seconds) {
  set_position(position, {});
  // Stockfish answers a position only when asked something: make sure it has taken it
  // before the clock starts.
  send("isready");
  await_queued_ready();
  await("isready", "readyok", timeout_seconds);
  auto start = Clock::now();
  send("go perft " + std::to_string(depth));
  const Deadline deadline = deadline_in(timeout_seconds);
  const std::string key = "Nodes searched:";
  for (std::string line;;) {
    line = read_line(deadline);
    if (line.rfind(key, 0) != 0) continue;
    UciPerft p;
    p.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    char* end = nullptr;
    p.nodes = std::strtoull(line.c_str() + key.size(), &end, 10);
    if (end == line.c_str() + key.size()) throw UciError("engine '" + command_ + "' sent " + chess::quoted(line));
    return p;
  }
}

void UciEngine::perft_lines(const std::string& position, const std::vector<std::string>& moves, int depth,
                            double timeout_seconds, const std::function<bool(const std::string&)>& line) {
  const Deadline deadline = deadline_in(timeout_seconds);
  set_position(position, moves);
  send("go perft " + std::to_string(depth));
  await_queued_ready();
  while (line(read_line(deadline))) {
  }
}

UciAnswer UciEngine::go(const std::string& position, const std::vector<std::string>& moves, const UciLimits& limits,
                        double margin_seconds) {
  set_position(position, moves);
  std::string go = "go";
  double budget = 0;  // seconds the search may take by its limit
  if (limits.nodes) go += " nodes " + std::to_string(limits.nodes);
  if (limits.depth) go += " depth " + std::to_string(limits.depth);
  if (limits.movetime_ms) go += " movetime " + std::to_string(limits.movetime_ms), budget = limits.movetime_ms / 1e3;
  if (limits.wtime_ms >= 0) {
    go += " wtime " + std::to_string(limits.wtime_ms) + " btime " + std::to_string(limits.btime_ms) + " winc " +
          std::to_string(limits.winc_ms) + " binc " + std::to_string(limits.binc_ms);
    if (limits.movestogo > 0) go += " movestogo " + std::to_string(limits.movestogo);
    budget = std::max(limits.wtime_ms, limits.btime_ms) / 1e3;
  }
  send(go);
  // The search starts once the engine has read what came before go: a queued new game's
  // readyok, when there is one, says it has.
  await_queued_ready();
  auto start = Clock::now();
  const Deadline deadline = deadline_in(budget + margin_seconds);
  // The engine prints a line a depth, the first depths' lines within the first moments:
  // read each as it comes and the reader wakes some ten times a search, each wake a
  // context switch here and a wake-up in the engine's write (the cost, on a 2-core machine,
  // of 0.2 ms a search at depth 8, 5 % of Stockfish's own time). Under a node or depth
  // limit, where no clock runs on this side, the reader first sleeps a quarter of the
  // mean search so far, and reads those lines at once; a search shorter than that waits
  // for the rest of the sleep (its answer's seconds included).
  if (limits.wtime_ms < 0 && !limits.movetime_ms && searches_)
    std::this_thread::sleep_for(std::chrono::duration<double>(searched_seconds_ / double(searches_) / 4));
  UciAnswer a;
  int last_depth = 0;
  for (std::string line;;) {
    try {
      line = read_line(deadline);
    } catch (const UciError& e) {
      try {
        send("stop");
      } catch (const UciError&) {  // the engine is gone: the first error says so
      }
      if (dynamic_cast<const UciTimeout*>(&e))
        throw UciTimeout("engine '" + command_ + "' sent no bestmove within " + seconds_text(budget + margin_seconds) +
                         " of go");
      throw;
    }
    if (line.rfind("info ", 0) == 0) parse_info(line, a, last_depth);
    if (line.rfind("bestmove", 0) != 0) continue;
    if (!a.score_cp && !a.mate_in) a.depth = last_depth;
    std::vector<std::string> w = split_words(line);
    if (w.size() < 2) throw UciError("engine '" + command_ + "' sent " + chess::quoted(line));
    a.bestmove = w[1];
    a.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    ++searches_, searched_seconds_ += a.seconds;
    return a;
  }
}

}  // namespace chesshpc
