#include "jobs/verify/engines.h"

#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <sstream>

#include "core/quote.h"

namespace chesshpc {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

bool parse_count(std::string_view text, uint64_t& out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size() && !text.empty();
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

bool is_directory(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// Whether a file can be run: executable and no directory (which access() calls executable).
bool runnable(const std::string& file) { return access(file.c_str(), X_OK) == 0 && !is_directory(file); }

// Whether the program a command line starts can be run: a path that is runnable, or a
// name found runnable on PATH (directories skipped, as execvp skips them).
bool can_run(const std::string& program) {
  if (program.find('/') != std::string::npos) return runnable(program);
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (runnable((dir.empty() ? "." : dir) + "/" + program)) return true;
  return false;
}

// Stockfish's `go perft`: "e2e4: 20" lines, a blank line, "Nodes searched: 400".
class UciPerftEngine : public PerftEngine {
 public:
  explicit UciPerftEngine(const EngineSpec& spec) : spec_(spec) { restart(); }

  EngineDivide divide(const std::string& fen, const std::vector<std::string>& moves, int depth) override {
    ++queries_;
    EngineDivide d;
    auto start = Clock::now();
    const std::string key = "Nodes searched:";
    engine_->perft_lines(fen, moves, depth, spec_.timeout_seconds, [&](const std::string& line) {
      std::string move;
      uint64_t count = 0;
      if (line.rfind(key, 0) == 0) {
        if (!parse_count(trim(line.substr(key.size())), d.total))
          throw UciError("engine '" + spec_.command + "' sent " + chess::quoted(line));
        d.has_total = true;
        return false;
      }
      if (parse_divide_line(line, move, count)) d.moves.emplace_back(move, count);
      return true;  // info lines and anything else are skipped
    });
    d.seconds = since(start);
    return d;
  }

  void restart() override {
    engine_.reset();
    std::vector<std::pair<std::string, std::string>> options;
    if (spec_.chess960) options.emplace_back("UCI_Chess960", "true");
    engine_ = std::make_unique<UciEngine>(spec_.command, options, spec_.timeout_seconds);
  }

 private:
  EngineSpec spec_;
  std::unique_ptr<UciEngine> engine_;
};

// perftree's interface: `CMD depth "fen" "moves"` prints "e2e4 20" lines, a blank line
// and the total, then exits.
class PerftreeEngine : public PerftEngine {
 public:
  explicit PerftreeEngine(const EngineSpec& spec) : spec_(spec), argv_(split_command_line(spec.command)) {
    if (argv_.empty() || !can_run(argv_[0]))
      throw UciError("cannot start engine " + chess::quoted(spec.command) + ": no such executable");
  }

  EngineDivide divide(const std::string& fen, const std::vector<std::string>& moves, int depth) override {
    ++queries_;
    std::vector<std::string> argv = argv_;
    std::string joined;
    for (const std::string& m : moves) joined += (joined.empty() ? "" : " ") + m;
    argv.insert(argv.end(), {std::to_string(depth), fen, joined});
    auto start = Clock::now();
    const Deadline deadline = deadline_in(spec_.timeout_seconds);
    ChildProcess child(argv, spec_.command);
    child.close_input();
    EngineDivide d;
    try {
      while (std::optional<std::string> line = child.next_line(deadline)) {
        std::string move, text = trim(*line);
        uint64_t count = 0;
        if (parse_divide_line(text, move, count))
          d.moves.emplace_back(move, count);
        else if (parse_count(text, d.total))
          d.has_total = true;
      }
    } catch (const UciError&) {  // a timeout, or a line too long
      child.kill_now();
      throw;
    }
    if (std::string end = child.wait_end(spec_.timeout_seconds); !end.empty())
      throw UciExited("engine '" + spec_.command + "' ended with " + end);
    if (!d.has_total) throw UciExited("engine '" + spec_.command + "' printed no total");
    d.seconds = since(start);
    return d;
  }

  void restart() override {}  // every query is a new process

 private:
  EngineSpec spec_;
  std::vector<std::string> argv_;
};

}  // namespace

bool parse_divide_line(const std::string& line, std::string& move, uint64_t& count) {
  std::istringstream in(line);
  std::string word, number, extra;
  if (!(in >> word >> number) || (in >> extra)) return false;
  if (word.size() > 1 && word.back() == ':') word.pop_back();
  // A move is 4 or 5 characters: two squares and a promotion letter.
  if (word.size() < 4 || word.size() > 5 || word[0] < 'a' || word[0] > 'h' || word[1] < '1' || word[1] > '8')
    return false;
  if (!parse_count(number, count)) return false;
  move = word;
  return true;
}

std::unique_ptr<PerftEngine> start_engine(const EngineSpec& spec) {
  // A directory is a file problem, whichever protocol: said as one, not as the engine's fault.
  std::vector<std::string> argv = split_command_line(spec.command);
  if (!argv.empty() && argv[0].find('/') != std::string::npos && is_directory(argv[0]))
    throw UciError("cannot start engine " + chess::quoted(spec.command) + ": it is a directory");
  if (spec.protocol == Protocol::PERFTREE) return std::make_unique<PerftreeEngine>(spec);
  return std::make_unique<UciPerftEngine>(spec);
}

}  // namespace chesshpc
