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

#include "core/quote.h"

extern char** environ;

namespace chesshpc {

namespace {

using Clock = std::chrono::steady_clock;

std::vector<std::string> split_words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// The token after `key` in an info line, if any.
std::optional<std::string> field(const std::vector<std::string>& words, const std::string& key) {
  for (size_t i = 0; i + 1 < words.size(); ++i)
    if (words[i] == key) return words[i + 1];
  return std::nullopt;
}

void parse_info(const std::string& line, UciAnswer& a) {
  std::vector<std::string> w = split_words(line);
  if (auto d = field(w, "depth")) a.depth = std::atoi(d->c_str());
  if (auto n = field(w, "nodes")) a.nodes = std::atoll(n->c_str());
  for (size_t i = 0; i + 2 < w.size(); ++i) {
    if (w[i] != "score") continue;
    // "lowerbound"/"upperbound" scores are fail-high/low bounds, not the engine's verdict.
    if (i + 3 < w.size() && (w[i + 3] == "lowerbound" || w[i + 3] == "upperbound")) return;
    if (w[i + 1] == "cp") a.score_cp = std::atoi(w[i + 2].c_str()), a.mate_in.reset();
    if (w[i + 1] == "mate") a.mate_in = std::atoi(w[i + 2].c_str()), a.score_cp.reset();
  }
}

}  // namespace

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

ChildProcess::~ChildProcess() {
  close_input();
  wait_end(1);
  if (from_child_ >= 0) close(from_child_);
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
  auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
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
  // A child that died closes the pipe: report it as an error, not as SIGPIPE.
  signal(SIGPIPE, SIG_IGN);
  for (size_t done = 0; done < text.size();) {
    ssize_t n = to_child_ < 0 ? -1 : write(to_child_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    // The pipe breaks when the engine exits, which may come before or after it reads a
    // line: either way the user learns the same thing.
    if (n <= 0) throw UciExited("engine '" + shown_ + "' exited or stopped reading its input");
    done += size_t(n);
  }
}

std::optional<std::string> ChildProcess::next_line(double seconds) {
  auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  while (true) {
    if (size_t eol = buffer_.find('\n'); eol != std::string::npos) {
      std::string line = buffer_.substr(0, eol);
      buffer_.erase(0, eol + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) throw UciTimeout("engine '" + shown_ + "' did not answer in time");
    pollfd p{from_child_, POLLIN, 0};
    int ready = poll(&p, 1, int(std::min<long long>(left, 1000)));
    if (ready < 0 && errno != EINTR) throw UciError("cannot read from engine '" + shown_ + "'");
    if (ready <= 0) continue;
    char chunk[4096];
    ssize_t n = read(from_child_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (buffer_.empty()) return std::nullopt;
      buffer_ += '\n';  // a last line without its end
      continue;
    }
    buffer_.append(chunk, size_t(n));
  }
}

std::string ChildProcess::read_line(double seconds) {
  std::optional<std::string> line = next_line(seconds);
  if (!line) throw UciExited("engine '" + shown_ + "' exited");
  return *line;
}

UciEngine::UciEngine(const std::string& command, const std::vector<std::pair<std::string, std::string>>& options,
                     double timeout_seconds)
    : command_(command), child_(split_command_line(command), command) {
  send("uci");
  for (std::string line; (line = read_line(timeout_seconds)) != "uciok";)
    if (line.rfind("id name ", 0) == 0) name_ = line.substr(8);
  for (const auto& [name, value] : options) send("setoption name " + name + " value " + value);
  send("isready");
  wait_for("readyok", timeout_seconds);
}

UciEngine::~UciEngine() {
  try {
    send("quit");
  } catch (const UciError&) {  // already gone
  }
}

void UciEngine::wait_for(const std::string& token, double seconds) {
  auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  while (read_line(std::chrono::duration<double>(deadline - Clock::now()).count()) != token) {
  }
}

void UciEngine::new_game() {
  send("ucinewgame");
  send("isready");
  wait_for("readyok", 10);
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
  wait_for("readyok", timeout_seconds);
  auto start = Clock::now();
  send("go perft " + std::to_string(depth));
  const std::string key = "Nodes searched:";
  for (std::string line;;) {
    line = read_line(timeout_seconds - std::chrono::duration<double>(Clock::now() - start).count());
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
  auto start = Clock::now();
  set_position(position, moves);
  send("go perft " + std::to_string(depth));
  while (line(read_line(timeout_seconds - std::chrono::duration<double>(Clock::now() - start).count()))) {
  }
}

UciAnswer UciEngine::go(const std::string& position, const std::vector<std::string>& moves, const UciLimits& limits,
                        double grace_seconds) {
  set_position(position, moves);
  std::string go = "go";
  double budget = 0;  // seconds the search may take by its limit
  if (limits.nodes) go += " nodes " + std::to_string(limits.nodes);
  if (limits.depth) go += " depth " + std::to_string(limits.depth);
  if (limits.movetime_ms) go += " movetime " + std::to_string(limits.movetime_ms), budget = limits.movetime_ms / 1e3;
  if (limits.wtime_ms >= 0) {
    go += " wtime " + std::to_string(limits.wtime_ms) + " btime " + std::to_string(limits.btime_ms) + " winc " +
          std::to_string(limits.winc_ms) + " binc " + std::to_string(limits.binc_ms);
    budget = std::max(limits.wtime_ms, limits.btime_ms) / 1e3;
  }
  auto start = Clock::now();
  send(go);
  UciAnswer a;
  for (std::string line;;) {
    double left = budget + grace_seconds - std::chrono::duration<double>(Clock::now() - start).count();
    try {
      line = read_line(left);
    } catch (const UciError&) {
      try {
        send("stop");
      } catch (const UciError&) {  // the engine is gone: the first error says so
      }
      throw;
    }
    if (line.rfind("info ", 0) == 0) parse_info(line, a);
    if (line.rfind("bestmove", 0) != 0) continue;
    std::vector<std::string> w = split_words(line);
    if (w.size() < 2) throw UciError("engine '" + command_ + "' sent " + chess::quoted(line));
    a.bestmove = w[1];
    a.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return a;
  }
}

}  // namespace chesshpc
