// A deliberately broken engine for the tests of `chesshpc verify`: chesshpc's own move
// generator with one fault switched on, speaking UCI's `go perft` (no arguments but
// --fault) or perftree's script interface (DEPTH FEN [MOVES] after the options).
//
//   --fault no-underpromotion-capture   a capture that promotes makes only a queen
//   --fault no-ep-in-check              no en passant while in check
//   --fault castle-out-of-check         castling allowed while in check
//   --fault wrong-total                 "Nodes searched" one more than the divide's sum
//   --fault notation                    upper-case promotions, castling as e1h1 (no fault)
//   --fault crash-at-depth-N            exits (status 3) when asked for depth N
//   --fault hang-at-depth-N             never answers when asked for depth N
//   --fault hang                        never answers a perft at all
//
// Counts that lie while every move list is right (how a hash-table bug shows), each caught
// only by comparing the engine's counts with each other. "Lies" is: its first move's count
// and its total one more.
//   --fault lie-at-root                 the first answer lies; every other is true
//   --fault shift-at-root               the first answer moves one node from its second move's
//                                       count to its first (its total unchanged)
//   --fault lie-at-depth-K              every subtree K plies deep is counted one node too many
//                                       (in its first move's count), in every answer
//   --fault lie-on-second-query         a position and depth asked again lies
//   --fault lie-after-N                 the answer after N true ones lies; every other is true
//   --state FILE                        the queries answered, kept in FILE for perftree's one
//                                       process per query (UCI keeps them in memory)
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "core/uci.h"

namespace {

using namespace chess;

std::string fault;

int fault_depth(const std::string& prefix) {
  return fault.rfind(prefix, 0) == 0 ? std::atoi(fault.c_str() + prefix.size()) : 0;
}

bool attacked(const Position& pos, Square s) {
  return pos.attackers_to(s, pos.pieces()) & pos.pieces(~pos.side_to_move());
}

// Standard chess's castling as if the king were not in check.
void add_castling_out_of_check(const Position& pos, std::vector<Move>& moves) {
  const Color us = pos.side_to_move();
  const Square k = pos.king_square(us);
  for (CastlingRights right : {us == WHITE ? WHITE_OO : BLACK_OO, us == WHITE ? WHITE_OOO : BLACK_OOO}) {
    if (!(pos.castling() & right)) continue;
    const Square rook = pos.castling_rook_square(right);
    const int step = rook > k ? 1 : -1;
    bool free = true;
    for (int s = k + step; s != rook; s += step) free &= pos.piece_on(Square(s)) == NO_PIECE;
    for (int s = k + step, n = 0; n < 2; s += step, ++n) free &= !attacked(pos, Square(s));
    if (free) moves.push_back(Move(k, rook, CASTLING));
  }
}

std::vector<Move> moves_of(const Position& pos) {
  std::vector<Move> moves;
  for (Move m : legal_moves(pos)) {
    if (fault == "no-underpromotion-capture" && m.kind() == PROMOTION && m.promotion() != QUEEN &&
        pos.piece_on(m.to()) != NO_PIECE)
      continue;
    if (fault == "no-ep-in-check" && m.kind() == EN_PASSANT && pos.in_check()) continue;
    moves.push_back(m);
  }
  if (fault == "castle-out-of-check" && pos.in_check()) add_castling_out_of_check(pos, moves);
  return moves;
}

// ---- The faults that lie about counts (see the top of the file).

std::string state_file;             // --state
std::vector<std::string> answered;  // "depth fen" of each query answered, in order

void read_state() {
  std::ifstream in(state_file);
  for (std::string line; std::getline(in, line);) answered.push_back(line);
}

enum class Lie { NONE, ONE_MORE, SHIFT };

// The subtree depth lie-at-depth-K miscounts; 0 for the other faults.
int lying_depth() { return fault_depth("lie-at-depth-"); }

// How the answer to this query lies; logs the query.
Lie lie_for_query(const Position& pos, int depth) {
  const std::string key = std::to_string(depth) + " " + pos.fen();
  const size_t before = answered.size();
  const bool again = std::find(answered.begin(), answered.end(), key) != answered.end();
  answered.push_back(key);
  if (!state_file.empty()) std::ofstream(state_file, std::ios::app) << key << "\n";
  const int after = fault_depth("lie-after-");
  if ((fault == "lie-at-root" && before == 0) || (after > 0 && before == size_t(after)) ||
      (fault == "lie-on-second-query" && again) || lying_depth() == depth)
    return Lie::ONE_MORE;
  if (fault == "shift-at-root" && before == 0 && moves_of(pos).size() >= 2) return Lie::SHIFT;
  return Lie::NONE;
}

void apply(Lie lie, std::vector<uint64_t>& counts) {
  if (lie == Lie::NONE || counts.empty()) return;
  ++counts[0];
  if (lie == Lie::SHIFT && counts[1] > 0) --counts[1];
}

// ---- End of the faults that lie about counts.

uint64_t count(const Position& pos, int depth) {
  std::vector<Move> moves = moves_of(pos);
  const uint64_t lie = lying_depth() == depth;
  if (depth == 1) return moves.size() + lie;
  uint64_t n = lie;
  for (Move m : moves) n += count(pos.after(m), depth - 1);
  return n;
}

std::string written(const Position& pos, Move m) {
  std::string s = to_uci(m, pos.is_chess960());
  if (fault == "notation") {
    if (m.kind() == PROMOTION) s.back() = char(std::toupper(s.back()));
    if (m.kind() == CASTLING) s = to_uci(m, true);
  }
  return s;
}

// The divide in the protocol's format; exits or hangs when a fault says so.
void divide(const Position& pos, int depth, bool uci) {
  if (fault == "hang" || fault_depth("hang-at-depth-") == depth)
    while (true) pause();
  if (fault_depth("crash-at-depth-") == depth) std::exit(3);
  const std::vector<Move> moves = moves_of(pos);
  std::vector<uint64_t> counts;
  for (Move m : moves) counts.push_back(depth == 1 ? 1 : count(pos.after(m), depth - 1));
  apply(lie_for_query(pos, depth), counts);
  uint64_t total = 0;
  for (size_t i = 0; i < moves.size(); ++i) {
    total += counts[i];
    std::cout << written(pos, moves[i]) << (uci ? ": " : " ") << counts[i] << "\n";
  }
  if (fault == "wrong-total") ++total;
  std::cout << "\n" << (uci ? "Nodes searched: " : "") << total << "\n" << (uci ? "\n" : "") << std::flush;
}

Position after_moves(Position pos, std::istream& moves) {
  for (std::string text; moves >> text;) {
    std::optional<Move> m = parse_uci(pos, text);
    if (!m) {
      std::cerr << "illegal move " << text << "\n";
      std::exit(2);
    }
    pos.do_move(*m);
  }
  return pos;
}

void serve_uci() {
  Position pos = Position::start();
  bool chess960 = false;
  for (std::string line; std::getline(std::cin, line);) {
    std::istringstream in(line);
    std::string cmd;
    in >> cmd;
    if (cmd == "uci") {
      std::cout << "id name verify_engine " << fault << "\nuciok" << std::endl;
    } else if (cmd == "isready") {
      std::cout << "readyok" << std::endl;
    } else if (cmd == "setoption") {
      chess960 |= line.find("UCI_Chess960 value true") != std::string::npos;
    } else if (cmd == "position") {
      std::string word, fen;
      in >> word;
      while (in >> word && word != "moves") fen += (fen.empty() ? "" : " ") + word;
      pos = after_moves(Position::from_fen(fen, chess960), in);
    } else if (cmd == "go") {
      std::string perft;
      int depth = 0;
      in >> perft >> depth;
      std::cout << "info string counting" << std::endl;  // a line verify must skip
      divide(pos, depth, true);
    } else if (cmd == "quit") {
      return;
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  while (args.size() >= 2 && (args[0] == "--fault" || args[0] == "--state")) {
    (args[0] == "--fault" ? fault : state_file) = args[1];
    args.erase(args.begin(), args.begin() + 2);
  }
  if (!state_file.empty()) read_state();
  if (args.empty()) {
    serve_uci();
    return 0;
  }
  std::istringstream moves(args.size() > 2 ? args[2] : "");
  divide(after_moves(Position::from_any_fen(args[1]), moves), std::atoi(args[0].c_str()), false);
  return 0;
}
