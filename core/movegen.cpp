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

CastlingPaths castling_paths(const Position& pos) {
  CastlingPaths paths;
  for (CastlingRights r : {WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO}) {
    if (!(pos.castling() & r)) continue;
    const Square king = pos.king_square((r & WHITE_CASTLING) ? WHITE : BLACK), rook = pos.castling_rook_square(r);
    const auto [kto, rto] = castling_destinations(king, rook);
    const Bitboard king_bb = square_bb(king), rook_bb = square_bb(rook), kto_bb = square_bb(kto);
    const Bitboard four = king_bb | rook_bb | kto_bb | square_bb(rto);
    // On one rank: from the lowest of the four squares to the highest, and the king's run.
    const Bitboard run = ((square_bb(msb(four)) << 1) - square_bb(lsb(four)));
    CastlingPath& p = paths.right[right_index(r)];
    p.pair = king_bb | rook_bb;
    p.landing = kto_bb | square_bb(rto);
    p.must_be_empty = run & ~p.pair;
    p.king_path = ((std::max(king_bb, kto_bb) << 1) - std::min(king_bb, kto_bb)) & ~king_bb;
    p.king_to = kto, p.rook = rook;
    p.shield = !(rook_bb & (FILE_A_BB | FILE_H_BB));
  }
  return paths;
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
