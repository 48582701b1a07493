#include "core/see.h"

#include <algorithm>

namespace chess {

namespace {

// The swap list: gain[d] is what the side to move at depth d has won if it stops there.
int exchange(const Position& pos, Move m) {
  const Square from = m.from(), to = m.to();
  const Color us = pos.side_to_move();
  PieceType captured = m.kind() == EN_PASSANT ? PAWN : type_of(pos.piece_on(to));
  int first = captured == NO_PIECE_TYPE ? 0 : SEE_VALUE[captured];
  PieceType on_square = type_of(pos.piece_on(from));
  if (m.kind() == PROMOTION) {
    first += SEE_VALUE[m.promotion()] - SEE_VALUE[PAWN];
    on_square = m.promotion();
  }
  if (m.kind() == CASTLING) return 0;

  Bitboard occupied = pos.pieces() ^ square_bb(from);
  if (m.kind() == EN_PASSANT) occupied ^= square_bb(to - pawn_push(us));
  const Bitboard diag = pos.pieces(BISHOP) | pos.pieces(QUEEN), orth = pos.pieces(ROOK) | pos.pieces(QUEEN);
  Bitboard attackers = pos.attackers_to(to, occupied) & occupied;

  int gain[40];
  int d = 0;
  gain[0] = first;
  Color side = ~us;
  while (true) {
    Bitboard mine = attackers & pos.pieces(side);
    if (!mine) break;
    PieceType pt = PAWN;
    while (!(mine & pos.pieces(pt))) pt = PieceType(pt + 1);
    // A king may take only when the other side has nothing left to recapture with.
    if (pt == KING && (attackers & pos.pieces(~side) & ~square_bb(from))) break;
    ++d;
    gain[d] = SEE_VALUE[on_square] - gain[d - 1];
    on_square = pt;
    Bitboard b = mine & pos.pieces(pt);
    occupied ^= square_bb(lsb(b));
    // Sliders behind the piece that just took now see the square.
    if (pt == PAWN || pt == BISHOP || pt == QUEEN) attackers |= bishop_attacks(to, occupied) & diag;
    if (pt == ROOK || pt == QUEEN) attackers |= rook_attacks(to, occupied) & orth;
    attackers &= occupied;
    side = ~side;
    if (d == 38) break;
  }
  // Each side stops where going on would lose: fold back from the end.
  while (d > 0) {
    gain[d - 1] = -std::max(-gain[d - 1], gain[d]);
    --d;
  }
  return gain[0];
}

}  // namespace

int see(const Position& pos, Move m) { return exchange(pos, m); }

bool see_ge(const Position& pos, Move m, int threshold) {
  // Each side may stop at its turn, so taking a piece with a cheaper one is worth at
  // least their difference, whatever follows.
  if (m.kind() == NORMAL && (pos.pieces(~pos.side_to_move()) & square_bb(m.to()))) {
    int floor = SEE_VALUE[type_of(pos.piece_on(m.to()))] - SEE_VALUE[type_of(pos.piece_on(m.from()))];
    if (floor >= threshold) return true;
  }
  return exchange(pos, m) >= threshold;
}

}  // namespace chess
