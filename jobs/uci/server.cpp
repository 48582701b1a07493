#include "jobs/uci/server.h"

#include <algorithm>
#include <charconv>
#include <new>
#include <sstream>

#include "core/perft.h"
#include "core/quote.h"
#include "core/uci.h"
#include "jobs/io/byte_size.h"
#include "jobs/io/job_common.h"
#include "jobs/io/version.h"

namespace chesshpc {

namespace {

constexpr int DEFAULT_HASH_MB = 16, MAX_HASH_MB = 65536;

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> tokens;
  std::istringstream in(line);
  for (std::string t; in >> t;) tokens.push_back(t);
  return tokens;
}

bool parse_int64(const std::string& text, int64_t& value) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size();
}

std::string score_text(int score) {
  if (chess::is_mate_score(score)) return "mate " + std::to_string(chess::mate_in_moves(score));
  return "cp " + std::to_string(score);
}

// Castling in the pv as UCI_Chess960 asks (king-takes-rook when chess960).
std::string info_line(const chess::SearchInfo& i, bool chess960) {
  uint64_t nps = i.milliseconds > 0 ? i.nodes * 1000 / uint64_t(i.milliseconds) : i.nodes * 1000;
  // Appended piecewise: GCC 12 warns falsely (-Wrestrict) on long chains of operator+.
  std::string s = "info depth ";
  s += std::to_string(i.depth);
  s += " seldepth ";
  s += std::to_string(i.seldepth);
  s += " multipv 1 score ";
  s += score_text(i.score);
  s += " nodes ";
  s += std::to_string(i.nodes);
  s += " nps ";
  s += std::to_string(nps);
  s += " hashfull ";
  s += std::to_string(i.hashfull);
  s += " time ";
  s += std::to_string(i.milliseconds);
  s += " pv";
  for (chess::Move m : i.pv) {
    s += ' ';
    s += chess::to_uci(m, chess960);
  }
  return s;
}

// A limit's whole number as SearchLimits holds it. A time given is a limit whatever its
// value, never "none" (SearchLimits' 0 and -1): a movetime of 0 or less is the shortest
// search, a clock of 0 or less (some interfaces send -1 once the flag is near) means "move
// now", and a negative increment is none. The search caps large values.
struct LimitArg {
  std::string_view name;
  void (*set)(chess::SearchLimits& limits, int64_t value);
};
constexpr LimitArg LIMIT_ARGS[] = {
    {"depth", [](chess::SearchLimits& l, int64_t v) { l.depth = int(std::clamp<int64_t>(v, 1, chess::MAX_PLY - 1)); }},
    {"nodes", [](chess::SearchLimits& l, int64_t v) { l.nodes = uint64_t(std::max<int64_t>(v, 1)); }},
    {"movetime", [](chess::SearchLimits& l, int64_t v) { l.movetime = std::max<int64_t>(v, 1); }},
    {"wtime", [](chess::SearchLimits& l, int64_t v) { l.wtime = std::max<int64_t>(v, 0); }},
    {"btime", [](chess::SearchLimits& l, int64_t v) { l.btime = std::max<int64_t>(v, 0); }},
    {"winc", [](chess::SearchLimits& l, int64_t v) { l.winc = std::max<int64_t>(v, 0); }},
    {"binc", [](chess::SearchLimits& l, int64_t v) { l.binc = std::max<int64_t>(v, 0); }},
    {"movestogo", [](chess::SearchLimits& l, int64_t v) { l.movestogo = int(std::clamp<int64_t>(v, 0, 1000)); }},
};

const LimitArg* limit_arg(const std::string& name) {
  for (const LimitArg& a : LIMIT_ARGS)
    if (a.name == name) return &a;
  return nullptr;
}

}  // namespace

UciServer::UciServer(std::ostream& out) : out_(out), search_(std::make_unique<chess::Search>(DEFAULT_HASH_MB * MB)) {}

UciServer::~UciServer() { finish_search(); }

void UciServer::send(const std::string& line) {
  std::lock_guard lock(out_mutex_);
  out_ << line << std::endl;
}

int UciServer::run(std::istream& in) {
  for (std::string line; std::getline(in, line);)
    if (!handle(line)) return EXIT_OK;
  // End of input is not "quit": a finite search still finishes and reports, so that
  // piped commands give their answers; an infinite one would never end by itself.
  if (thread_.joinable() && !infinite_) thread_.join();
  finish_search();
  return EXIT_OK;
}

bool UciServer::handle(const std::string& line) {
  // A command that fails (a table too large for the memory, say) is reported, and the
  // engine goes on with its previous state.
  try {
    return dispatch(line);
  } catch (const std::exception& e) {
    send(std::string("info string error: ") + e.what() + " in: " + chess::quoted(line));
    return true;
  }
}

bool UciServer::dispatch(const std::string& line) {
  std::vector<std::string> tokens = split(line);
  if (tokens.empty()) return true;
  const std::string& cmd = tokens[0];
  if (cmd == "uci") {
    send(std::string("id name chesshpc ") + CHESSHPC_VERSION);
    send("id author the chesshpc authors");
    send("option name Hash type spin default " + std::to_string(DEFAULT_HASH_MB) + " min 1 max " +
         std::to_string(MAX_HASH_MB));
    send("option name Clear Hash type button");
    send("option name UCI_Chess960 type check default false");
    send("uciok");
  } else if (cmd == "isready") {
    send("readyok");
  } else if (cmd == "ucinewgame") {
    finish_search();
    search_->clear();
    position_ = chess::Position::from_fen("startpos", chess960_);
    history_.clear();
  } else if (cmd == "setoption") {
    setoption(tokens);
  } else if (cmd == "position") {
    position(tokens);
  } else if (cmd == "go") {
    go(tokens);
  } else if (cmd == "stop") {
    finish_search();
  } else if (cmd == "ponderhit") {
    // Pondering is not offered; nothing to switch.
  } else if (cmd == "quit") {
    finish_search();
    return false;
  } else {
    send("info string unknown command: " + chess::quoted(line));
  }
  return true;
}

void UciServer::setoption(const std::vector<std::string>& tokens) {
  // setoption name NAME [value VALUE], where NAME may hold spaces.
  std::string name, value;
  size_t i = 1;
  if (i >= tokens.size() || tokens[i] != "name") {
    send("info string setoption needs 'name'");
    return;
  }
  for (++i; i < tokens.size() && tokens[i] != "value"; ++i) name += (name.empty() ? "" : " ") + tokens[i];
  if (i < tokens.size())
    for (++i; i < tokens.size(); ++i) value += (value.empty() ? "" : " ") + tokens[i];
  if (name == "Hash") {
    // Sizes as every memory option reads them (jobs/io/byte_size.h): a bare number is MB.
    const size_t bytes = parse_size(value);
    if (bytes < MB || bytes > size_t(MAX_HASH_MB) * MB) {
      send("info string Hash takes a size from 1 to " + std::to_string(MAX_HASH_MB) +
           " MB (a bare number is MB), not " + chess::quoted(value));
      return;
    }
    finish_search();
    try {
      search_->set_hash(bytes);  // keeps the table it has when this throws
    } catch (const std::bad_alloc&) {
      send("info string Hash " + format_size(bytes) + " cannot be allocated; it stays " +
           format_size(search_->hash_bytes()));
      return;
    }
    // The table is a power of two: say what it holds when that is less than asked.
    if (search_->hash_bytes() != bytes)
      send("info string Hash " + format_size(bytes) + " is a table of " + format_size(search_->hash_bytes()) +
           " (a power of two)");
  } else if (name == "UCI_Chess960") {
    if (value != "true" && value != "false") {
      send("info string UCI_Chess960 is true or false, not " + chess::quoted(value));
      return;
    }
    // Positions set from now on are of the chosen game (Chess960: X-FEN or Shredder-FEN,
    // castling written king-takes-rook); the game so far restarts from its start position,
    // as a GUI sets options before positions.
    finish_search();
    chess960_ = value == "true";
    position_ = chess::Position::from_fen("startpos", chess960_);
    history_.clear();
  } else if (name == "Clear Hash") {
    finish_search();
    search_->clear();
  } else {
    send("info string unknown option " + chess::quoted(name));
  }
}

void UciServer::position(const std::vector<std::string>& tokens) {
  size_t i = 1;
  std::string fen;
  if (i < tokens.size() && tokens[i] == "startpos") {
    fen = "startpos";
    ++i;
  } else if (i < tokens.size() && tokens[i] == "fen") {
    for (++i; i < tokens.size() && tokens[i] != "moves"; ++i) fen += (fen.empty() ? "" : " ") + tokens[i];
  } else {
    send("info string position needs 'startpos' or 'fen FEN'");
    return;
  }
  chess::Position pos;
  try {
    pos = chess::Position::from_fen(fen, chess960_);
  } catch (const chess::FenError& e) {
    send(std::string("info string ") + e.what());
    return;
  }
  std::vector<chess::Key> history;
  if (i < tokens.size()) {
    if (tokens[i] != "moves") {
      send("info string expected 'moves', not " + chess::quoted(tokens[i]));
      return;
    }
    for (++i; i < tokens.size(); ++i) {
      std::optional<chess::Move> m = chess::parse_uci(pos, tokens[i]);
      if (!m) {
        send("info string illegal move " + chess::quoted(tokens[i]) + " in " + pos.fen() + "; position unchanged");
        return;
      }
      history.push_back(pos.key());
      if (std::string full = pos.clock_overflow(); !full.empty()) {
        send("info string move " + chess::quoted(tokens[i]) + ": " + full + "; position unchanged");
        return;
      }
      pos.do_move(*m);
    }
  }
  position_ = pos;
  history_ = std::move(history);
}

GoLimits parse_go_limits(std::span<const std::string> args) {
  GoLimits go;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& t = args[i];
    if (t == "infinite") {
      go.limits.infinite = true;
      continue;
    }
    if (t == "ponder") {
      go.notes.push_back("info string ponder is not supported; searching normally");
      continue;
    }
    const LimitArg* limit = limit_arg(t);
    if (!limit) {
      go.notes.push_back("info string go: ignoring unknown " + chess::quoted(t));
      continue;
    }
    int64_t v = 0;
    if (i + 1 >= args.size() || !parse_int64(args[i + 1], v)) {
      go.notes.push_back("info string go: " + chess::quoted(t) + " needs a whole number; ignored");
      continue;
    }
    ++i;
    limit->set(go.limits, v);
  }
  // "go" without any limit searches until "stop", as "go infinite" does.
  const chess::SearchLimits& l = go.limits;
  if (!l.depth && !l.nodes && !l.uses_clock()) go.limits.infinite = true;
  return go;
}

void UciServer::go(const std::vector<std::string>& tokens) {
  if (tokens.size() >= 2 && tokens[1] == "perft") return go_perft(tokens);
  if (!wait_for_search()) return;
  const GoLimits go = parse_go_limits(std::span(tokens).subspan(1));
  for (const std::string& note : go.notes) send(note);
  start_search(go.limits);
}

void UciServer::go_perft(const std::vector<std::string>& tokens) {
  // Stockfish's extension, counted on this thread as Stockfish does: the reference
  // answer other engines are checked against (chesshpc verify).
  int64_t depth = 0;
  if (tokens.size() != 3 || !parse_int64(tokens[2], depth) || depth < 1 || depth > chess::perft::MAX_DEPTH) {
    send("info string go perft needs a depth from 1 to " + std::to_string(chess::perft::MAX_DEPTH));
    return;
  }
  finish_search();
  std::string text = divide_text(position_, int(depth), DivideFormat::STOCKFISH);
  text.pop_back();  // send() ends the last line
  send(text);
}

bool UciServer::wait_for_search() {
  if (!thread_.joinable()) return true;
  // A finite search ends by itself: a second "go" queues behind it, so a script may
  // send its commands without waiting. An infinite one needs "stop" first.
  if (infinite_) {
    send("info string a search is running; send stop first");
    return false;
  }
  thread_.join();
  return true;
}

void UciServer::start_search(const chess::SearchLimits& limits) {
  stop_signal_ = false;
  infinite_ = limits.infinite;
  search_->clear_stop();
  thread_ = std::thread([this, limits, pos = position_, history = history_] {
    const bool chess960 = pos.is_chess960();
    chess::SearchResult r = search_->run(
        pos, history, limits, [this, chess960](const chess::SearchInfo& i) { send(info_line(i, chess960)); });
    if (limits.infinite) {
      // UCI: after "go infinite" the bestmove waits for "stop".
      std::unique_lock lock(stop_mutex_);
      stop_cv_.wait(lock, [this] { return stop_signal_; });
    }
    // No legal move: say why before the null move UCI asks for.
    if (r.best.is_none()) send(r.score == -chess::VALUE_MATE ? "info depth 0 score mate 0" : "info depth 0 score cp 0");
    std::string line = "bestmove " + (r.best.is_none() ? std::string("0000") : chess::to_uci(r.best, chess960));
    if (r.pv.size() >= 2) line += " ponder " + chess::to_uci(r.pv[1], chess960);
    send(line);
  });
}

void UciServer::finish_search() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(stop_mutex_);
    stop_signal_ = true;
  }
  stop_cv_.notify_all();
  search_->stop();
  thread_.join();
}

std::string divide_text(const chess::Position& pos, int depth, DivideFormat format) {
  chess::perft::Options opt;
  std::vector<chess::perft::RootCount> roots = chess::perft::divide(pos, depth, opt);
  const bool stockfish = format == DivideFormat::STOCKFISH;
  std::ostringstream text;
  for (const chess::perft::RootCount& r : roots)
    text << chess::to_uci(r.move, pos.is_chess960()) << (stockfish ? ": " : " ") << chess::to_string(r.nodes) << "\n";
  text << "\n" << (stockfish ? "Nodes searched: " : "") << chess::to_string(chess::perft::total(roots)) << "\n";
  if (stockfish) text << "\n";
  return text.str();
}

int run_uci_server(std::istream& in, std::ostream& out) {
  UciServer engine(out);
  return engine.run(in);
}

}  // namespace chesshpc
