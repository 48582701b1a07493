#include "jobs/uci/engine.h"
#include "core/quote.h"

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

UciEngine::UciEngine(const std::string& command, const std::vector<std::pair<std::string, std::string>>& options,
                     double timeout_seconds)
    : command_(command) {
  std::vector<std::string> words = split_words(command);
  if (words.empty()) throw UciError("empty engine command");
  int in[2], out[2];
  if (pipe(in) != 0 || pipe(out) != 0) throw UciError("cannot create pipes for '" + command + "'");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  for (int fd : {in[0], in[1], out[0], out[1]}) posix_spawn_file_actions_addclose(&actions, fd);
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  int rc = posix_spawnp(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(in[0]), close(out[1]);
  to_engine_ = in[1], from_engine_ = out[0];
  fcntl(to_engine_, F_SETFD, FD_CLOEXEC), fcntl(from_engine_, F_SETFD, FD_CLOEXEC);
  if (rc != 0) {
    pid_ = -1;
    throw UciError("cannot start engine '" + command + "': " + std::strerror(rc));
  }
  send("uci");
  for (std::string line; (line = read_line(timeout_seconds)) != "uciok";)
    if (line.rfind("id name ", 0) == 0) name_ = line.substr(8);
  for (const auto& [name, value] : options) send("setoption name " + name + " value " + value);
  send("isready");
  wait_for("readyok", timeout_seconds);
}

UciEngine::~UciEngine() {
  if (pid_ > 0) {
    signal(SIGPIPE, SIG_IGN);
    (void)!write(to_engine_, "quit\n", 5);
    int status = 0;
    auto deadline = Clock::now() + std::chrono::seconds(1);
    while (waitpid(pid_, &status, WNOHANG) == 0) {
      if (Clock::now() > deadline) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  if (to_engine_ >= 0) close(to_engine_);
  if (from_engine_ >= 0) close(from_engine_);
}

void UciEngine::send(const std::string& line) {
  std::string text = line + "\n";
  // An engine that died closes the pipe: report it as an error, not as SIGPIPE.
  signal(SIGPIPE, SIG_IGN);
  for (size_t done = 0; done < text.size();) {
    ssize_t n = write(to_engine_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    // The pipe breaks when the engine exits, which may come before or after it reads a
    // line: either way the user learns the same thing.
    if (n <= 0) throw UciError("engine '" + command_ + "' exited or stopped reading its input");
    done += size_t(n);
  }
}

std::string UciEngine::read_line(double seconds) {
  auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  while (true) {
    if (size_t eol = buffer_.find('\n'); eol != std::string::npos) {
      std::string line = buffer_.substr(0, eol);
      buffer_.erase(0, eol + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) throw UciError("engine '" + command_ + "' did not answer in time");
    pollfd p{from_engine_, POLLIN, 0};
    int ready = poll(&p, 1, int(std::min<long long>(left, 1000)));
    if (ready < 0 && errno != EINTR) throw UciError("cannot read from engine '" + command_ + "'");
    if (ready <= 0) continue;
    char chunk[4096];
    ssize_t n = read(from_engine_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw UciError("engine '" + command_ + "' exited");
    buffer_.append(chunk, size_t(n));
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
