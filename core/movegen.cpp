#include "core/movegen.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace chess {

namespace {

// Records only whether some move exists. The generator runs to completion, but the
// sink does no per-move work, so this costs about one bulk count.
struct AnySink {
  bool found = false;
  void piece_moves(PieceType, Square, Bitboard to) { found |= to != 0; }
  void pawn_moves(Bitboard to, int) { found |= to != 0; }
  void promotions(Bitboard to, int) { found |= to != 0; }
  void en_passant(Square, Square) { found = true; }
  void castle(Square, Square) { found = true; }
};

}  // namespace

void move_list_overflow() {
  throw std::length_error("more than " + std::to_string(MoveList::CAPACITY) + " moves in one list");
}

bool MoveList::contains(Move m) const { return std::find(begin(), end(), m) != end(); }

MoveList legal_moves(const Position& pos) {
  MoveList list;
  ListSink sink{list};
  generate_legal(pos, sink);
  return list;
}

int count_legal(const Position& pos) {
  CountSink sink;
  generate_legal(pos, sink);
  return int(sink.n);
}

bool has_legal_move(const Position& pos) {
  AnySink sink;
  generate_legal(pos, sink);
  return sink.found;
}

}  // namespace chess
