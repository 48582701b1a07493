#include "jobs/verify/drill.h"

#include <algorithm>
#include <cctype>
#include <future>
#include <map>

#include "core/movegen.h"
#include "core/perft.h"
#include "core/san.h"
#include "core/uci.h"

namespace chesshpc {

namespace {

struct Counted {
  chess::Move move;
  uint64_t nodes;
};

// chesshpc's divide, on the calling thread.
std::vector<Counted> our_divide(const chess::Position& pos, int depth) {
  std::vector<Counted> out;
  for (chess::Move m : chess::legal_moves(pos))
    out.push_back({m, depth == 1 ? 1 : chess::perft::count(pos.after(m), depth - 1)});
  return out;
}

// What an illegal move would be called in SAN: the piece, 'x' when its square holds a
// piece, the squares; castling as O-O or O-O-O. No check marks: the move cannot be played.
std::string rough_san(const chess::Position& pos, const std::string& text) {
  auto from = chess::parse_square(text.substr(0, 2)), to = chess::parse_square(text.substr(2, 2));
  if (!from || !to) return "?";
  chess::Piece p = pos.piece_on(*from);
  if (p == chess::NO_PIECE) return "?";
  chess::PieceType pt = chess::type_of(p);
  chess::Piece target = pos.piece_on(*to);
  bool own = target != chess::NO_PIECE && chess::color_of(target) == chess::color_of(p);
  int df = int(*to % 8) - int(*from % 8);
  if (pt == chess::KING && (own || df == 2 || df == -2)) return (*to % 8) > (*from % 8) ? "O-O" : "O-O-O";
  bool capture = target != chess::NO_PIECE && !own;
  std::string san;
  if (pt == chess::PAWN) {
    if (df != 0) san += char('a' + *from % 8), capture = true;
  } else {
    san += "NBRQK"[pt - chess::KNIGHT];
  }
  if (capture) san += 'x';
  san += text.substr(2, 2);
  if (text.size() == 5) san += std::string("=") + char(std::toupper(text[4]));
  return san;
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string numbered_san(const chess::Position& root, const std::vector<chess::Move>& moves) {
  std::string s;
  chess::Position pos = root;
  for (size_t i = 0; i < moves.size(); ++i) {
    if (!s.empty()) s += ' ';
    if (pos.side_to_move() == chess::WHITE)
      s += std::to_string(pos.fullmove()) + ". ";
    else if (i == 0)
      s += std::to_string(pos.fullmove()) + "... ";
    s += chess::to_san(pos, moves[i]);
    pos.do_move(moves[i]);
  }
  return s;
}

// One depth's answers: chesshpc's divide, the engine's, and the engine's counts by move
// (what step 3 reads of its divide).
struct Answers {
  std::vector<Counted> mine;
  EngineDivide theirs;
  std::map<uint16_t, uint64_t> counted;
};

// The state check_position's steps share: where the drill-down stands, how it got there
// from the root, and the result so far. Each step returns false once it has found the
// fault (or, at the root, that the engine agrees): the drill-down ends there.
class Drill {
 public:
  // Step 1's: the position after the given moves, the path the engine is given.
  Drill(PerftEngine& engine, const chess::Position& root, const std::vector<chess::Move>& moves, int depth)
      : engine_(engine), root_(root), c960_(root.is_chess960()), pos_(root), path_(moves) {
    r_.root_fen = root.fen();
    r_.depth = depth;
    for (chess::Move m : moves) {
      r_.moves.push_back(chess::to_uci(m, c960_));
      pos_.do_move(m);
    }
    path_uci_ = r_.moves;
    queries_before_ = engine.queries();
  }

  // Step 2: both divides at depth d, chesshpc's counted on another thread while the engine
  // counts; at the root, both totals kept. None when the engine failed: a fault of its own.
  std::optional<Answers> query(int d) {
    std::future<std::vector<Counted>> ours = std::async(std::launch::async, our_divide, pos_, d);
    Answers a;
    try {
      a.theirs = engine_.divide(r_.root_fen, path_uci_, d);
    } catch (const UciError& e) {
      engine_failed(e, d, ours);
      return std::nullopt;
    }
    r_.engine_seconds += a.theirs.seconds;
    a.mine = ours.get();
    if (d == r_.depth) {
      for (const Counted& c : a.mine) r_.nodes += c.nodes;
      r_.engine_nodes = a.theirs.total;
    }
    return a;
  }

  // Step 3: the engine's moves read against the legal moves, its counts kept by move in
  // a.counted; a MOVES fault when a legal move is missing, or one is illegal or twice.
  bool same_moves(Answers& a, int d) {
    std::vector<ReportedMove> illegal, duplicate, missing;
    for (const auto& [text, count] : a.theirs.moves) {
      std::optional<chess::Move> m = read_engine_move(pos_, text);
      if (!m) {
        illegal.push_back({text, rough_san(pos_, lower(text))});
      } else if (!a.counted.emplace(m->raw(), count).second) {
        duplicate.push_back({chess::to_uci(*m, c960_), chess::to_san(pos_, *m)});
      }
    }
    for (const Counted& c : a.mine)
      if (!a.counted.count(c.move.raw()))
        missing.push_back({chess::to_uci(c.move, c960_), chess::to_san(pos_, c.move)});
    if (missing.empty() && illegal.empty() && duplicate.empty()) return true;
    Fault& f = mark(FaultKind::MOVES, d);
    f.missing = std::move(missing), f.illegal = std::move(illegal), f.duplicate = std::move(duplicate);
    return false;
  }

  // Step 4: the engine's total against its own divide's sum (a TOTAL fault), then below
  // the root against the count it gave for the move one ply up (INCONSISTENT).
  bool totals_agree(const EngineDivide& theirs, int d) {
    uint64_t sum = 0;
    for (const auto& [text, count] : theirs.moves) sum += count;
    if (!theirs.has_total || theirs.total != sum) {
      Fault& f = mark(FaultKind::TOTAL, d);
      f.engine_count = theirs.total, f.expected_count = sum;
      if (!theirs.has_total) f.message = "no total";
      return false;
    }
    if (said_ && theirs.total != *said_) {
      Fault& f = mark(FaultKind::INCONSISTENT, d);
      f.move = path_uci_.back();
      f.engine_count = theirs.total, f.expected_count = *said_;
      return false;
    }
    return true;
  }

  // Step 5: the first move in chesshpc's order whose count differs, played: the next
  // depth asks one ply less deep there. At depth 1 it is a COUNT fault. None: the engine
  // agrees (only at the root, since below it a total that is chesshpc's count is not the
  // count one ply up that differed).
  bool follow_first_difference(const Answers& a, int d) {
    auto differs = std::find_if(a.mine.begin(), a.mine.end(),
                                [&](const Counted& c) { return a.counted.at(c.move.raw()) != c.nodes; });
    if (differs == a.mine.end()) return false;
    const uint64_t theirs = a.counted.at(differs->move.raw());
    if (d == 1) {
      Fault& f = mark(FaultKind::COUNT, d);
      f.move = chess::to_uci(differs->move, c960_);
      f.engine_count = theirs, f.expected_count = differs->nodes;
      return false;
    }
    said_ = theirs;
    path_.push_back(differs->move);
    path_uci_.push_back(chess::to_uci(differs->move, c960_));
    pos_.do_move(differs->move);
    return true;
  }

  // Step 6: the queries this position cost; an engine that failed is started again.
  CheckResult finish() {
    r_.queries = int(engine_.queries() - queries_before_);
    if (restart_) {
      try {
        engine_.restart();
      } catch (const UciError& again) {
        r_.fault.message += std::string("; restarting it failed: ") + again.what();
      }
    }
    return std::move(r_);
  }

 private:
  // The fault found at the position reached, asked at depth d, with the path to it.
  Fault& mark(FaultKind kind, int d) {
    Fault& f = r_.fault;
    f.kind = kind;
    f.fen = pos_.fen();
    f.depth = d;
    f.path = path_uci_;
    f.path_san = numbered_san(root_, path_);
    return f;
  }

  // A crash, a timeout or an answer that is no divide. chesshpc's count at the root stands,
  // to check against a suite's; finish() restarts the engine.
  void engine_failed(const UciError& e, int d, std::future<std::vector<Counted>>& ours) {
    mark(dynamic_cast<const UciTimeout*>(&e)  ? FaultKind::TIMEOUT
         : dynamic_cast<const UciExited*>(&e) ? FaultKind::CRASH
                                              : FaultKind::PROTOCOL,
         d);
    r_.fault.message = e.what();
    if (d == r_.depth)
      for (const Counted& c : ours.get()) r_.nodes += c.nodes;
    else
      ours.wait();
    restart_ = true;
  }

  PerftEngine& engine_;
  const chess::Position& root_;
  const bool c960_;
  chess::Position pos_;                // where the drill-down stands
  std::vector<chess::Move> path_;      // from the root: the given moves, then those followed
  std::vector<std::string> path_uci_;  // the same in UCI, as the engine is given them
  std::optional<uint64_t> said_;       // below the root: the engine's count for the move played, one ply up
  long queries_before_ = 0;
  bool restart_ = false;
  CheckResult r_;
};

}  // namespace

const char* fault_name(FaultKind k) {
  constexpr const char* NAMES[] = {"none", "moves", "count", "total", "inconsistent", "crash", "timeout", "protocol"};
  return NAMES[int(k)];
}

std::optional<chess::Move> read_engine_move(const chess::Position& pos, const std::string& text) {
  const std::string t = lower(text);
  if (auto m = chess::parse_uci(pos, t)) return m;
  // Castling in the other notation: e1h1 in standard chess, e1g1 in Chess960, when no
  // other legal move is written so.
  for (chess::Move m : chess::legal_moves(pos))
    if (m.kind() == chess::CASTLING && chess::to_uci(m, !pos.is_chess960()) == t) return m;
  return std::nullopt;
}

CheckResult check_position(PerftEngine& engine, const chess::Position& root, const std::vector<chess::Move>& moves,
                           int depth) {
  // Step 1. The position after the given moves.
  Drill drill(engine, root, moves, depth);
  for (int d = depth; d >= 1; --d) {
    // Step 2. Both divides at once; an engine that fails ends the drill-down there.
    std::optional<Answers> answers = drill.query(d);
    if (!answers) break;
    // Step 3. The engine's moves: the legal moves, each once.
    if (!drill.same_moves(*answers, d)) break;
    // Step 4. The engine's total: its divide's sum, and its count for the move one ply up.
    if (!drill.totals_agree(answers->theirs, d)) break;
    // Step 5. The first move whose count differs, one ply down.
    if (!drill.follow_first_difference(*answers, d)) break;
  }
  // Step 6. The cost, and the engine started again after a failure.
  return drill.finish();
}

std::string fault_line(const CheckResult& r) {
  const Fault& f = r.fault;
  if (f.kind == FaultKind::NONE) return "";
  auto list = [](const std::vector<ReportedMove>& moves) {
    std::string s;
    for (const ReportedMove& m : moves) s += (s.empty() ? "" : ", ") + m.uci + " (" + m.san + ")";
    return s;
  };
  std::string where = "\"" + f.fen + "\" depth " + std::to_string(f.depth);
  if (!f.path.empty()) {
    where += " (from \"" + r.root_fen + "\" after";
    for (const std::string& m : f.path) where += " " + m;
    where += ", i.e. " + f.path_san + ")";
  }
  std::string what;
  switch (f.kind) {
    case FaultKind::MOVES:
      if (!f.missing.empty()) what += "engine misses " + list(f.missing);
      if (!f.illegal.empty())
        what += (what.empty() ? "" : "; ") + std::string("engine adds illegal ") + list(f.illegal);
      if (!f.duplicate.empty())
        what += (what.empty() ? "" : "; ") + std::string("engine lists twice ") + list(f.duplicate);
      break;
    case FaultKind::COUNT:
      what = "engine counts " + std::to_string(f.engine_count) + " for " + f.move + ", not " +
             std::to_string(f.expected_count);
      break;
    case FaultKind::TOTAL:
      what = f.message.empty() ? "engine's total " + std::to_string(f.engine_count) + " is not its divide's sum " +
                                     std::to_string(f.expected_count)
                               : "engine gives no total after its divide";
      break;
    case FaultKind::INCONSISTENT:
      what = "engine's total " + std::to_string(f.engine_count) + " is not the " + std::to_string(f.expected_count) +
             " it gave for " + f.move + " at depth " + std::to_string(f.depth + 1);
      break;
    default: what = f.message + " (restarted)";
  }
  const bool wrong_count = f.kind == FaultKind::MOVES || f.kind == FaultKind::COUNT || f.kind == FaultKind::TOTAL;
  const std::string kind = f.kind == FaultKind::INCONSISTENT ? "inconsistent counts"
                           : wrong_count                     ? "mismatch"
                                                             : fault_name(f.kind);
  return kind + " at " + where + ": " + what;
}

}  // namespace chesshpc
