#include "jobs/verify/drill.h"

#include <algorithm>
#include <cctype>
#include <chrono>
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

using Clock = std::chrono::steady_clock;

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
  CheckResult r;
  const bool c960 = root.is_chess960();
  r.root_fen = root.fen();
  r.depth = depth;
  chess::Position pos = root;
  std::vector<chess::Move> path = moves;
  std::vector<std::string> path_uci;
  for (chess::Move m : moves) {
    r.moves.push_back(chess::to_uci(m, c960));
    pos.do_move(m);
  }
  path_uci = r.moves;
  const long queries_before = engine.queries();
  Fault& f = r.fault;
  auto at_here = [&](FaultKind kind, int d) {
    f.kind = kind;
    f.fen = pos.fen();
    f.depth = d;
    f.path = path_uci;
    f.path_san = numbered_san(root, path);
  };
  std::optional<uint64_t> said;  // below the root: the engine's count for the move played, one ply up
  for (int d = depth; d >= 1; --d) {
    // chesshpc counts on another thread while the engine counts.
    std::future<std::vector<Counted>> ours = std::async(std::launch::async, our_divide, pos, d);
    EngineDivide theirs;
    try {
      theirs = engine.divide(r.root_fen, path_uci, d);
    } catch (const UciError& e) {
      at_here(dynamic_cast<const UciTimeout*>(&e)  ? FaultKind::TIMEOUT
              : dynamic_cast<const UciExited*>(&e) ? FaultKind::CRASH
                                                   : FaultKind::PROTOCOL,
              d);
      f.message = e.what();
      if (d == depth)  // chesshpc's count at the root stands, to check against a suite's
        for (const Counted& c : ours.get()) r.nodes += c.nodes;
      else
        ours.wait();
      r.queries = int(engine.queries() - queries_before);
      try {
        engine.restart();
      } catch (const UciError& again) {
        f.message += std::string("; restarting it failed: ") + again.what();
      }
      return r;
    }
    r.engine_seconds += theirs.seconds;
    std::vector<Counted> mine = ours.get();
    if (d == depth) {
      for (const Counted& c : mine) r.nodes += c.nodes;
      r.engine_nodes = theirs.total;
    }

    // The engine's moves read against the position.
    std::map<uint16_t, uint64_t> counted;
    std::vector<ReportedMove> illegal, duplicate;
    for (const auto& [text, count] : theirs.moves) {
      std::optional<chess::Move> m = read_engine_move(pos, text);
      if (!m) {
        illegal.push_back({text, rough_san(pos, lower(text))});
      } else if (!counted.emplace(m->raw(), count).second) {
        duplicate.push_back({chess::to_uci(*m, c960), chess::to_san(pos, *m)});
      }
    }
    std::vector<ReportedMove> missing;
    for (const Counted& c : mine)
      if (!counted.count(c.move.raw())) missing.push_back({chess::to_uci(c.move, c960), chess::to_san(pos, c.move)});
    if (!missing.empty() || !illegal.empty() || !duplicate.empty()) {
      at_here(FaultKind::MOVES, d);
      f.missing = std::move(missing), f.illegal = std::move(illegal), f.duplicate = std::move(duplicate);
      break;
    }
    uint64_t sum = 0;
    for (const auto& [text, count] : theirs.moves) sum += count;
    if (!theirs.has_total || theirs.total != sum) {
      at_here(FaultKind::TOTAL, d);
      f.engine_count = theirs.total, f.expected_count = sum;
      if (!theirs.has_total) f.message = "no total";
      break;
    }
    if (said && theirs.total != *said) {
      at_here(FaultKind::INCONSISTENT, d);
      f.move = path_uci.back();
      f.engine_count = theirs.total, f.expected_count = *said;
      break;
    }
    auto differs =
        std::find_if(mine.begin(), mine.end(), [&](const Counted& c) { return counted.at(c.move.raw()) != c.nodes; });
    // The engine agrees: only at the root, since below it a total that is chesshpc's count
    // is not the count one ply up that differed.
    if (differs == mine.end()) break;
    if (d == 1) {
      at_here(FaultKind::COUNT, d);
      f.move = chess::to_uci(differs->move, c960);
      f.engine_count = counted.at(differs->move.raw()), f.expected_count = differs->nodes;
      break;
    }
    said = counted.at(differs->move.raw());
    path.push_back(differs->move);
    path_uci.push_back(chess::to_uci(differs->move, c960));
    pos.do_move(differs->move);
  }
  r.queries = int(engine.queries() - queries_before);
  return r;
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
