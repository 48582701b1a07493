#include "jobs/verify/random_positions.h"

#include <bit>

#include "core/bitboard.h"
#include "core/movegen.h"
#include "core/random.h"

namespace chesshpc {

namespace {

using namespace chess;

// The squares left and right of s, where a pawn may capture one that double-pushed to s.
Bitboard beside(Square s) { return shift<EAST>(square_bb(s)) | shift<WEST>(square_bb(s)); }

// Whether the move checks by a piece other than the one moved (a discovery).
bool discovers_check(const Position& pos, Move m) {
  if (!pos.gives_check(m)) return false;
  Position after = pos.after(m);
  Bitboard checkers = after.checkers();
  return (checkers & ~square_bb(m.to())) != 0 || popcount(checkers) > 1;
}

// Whether a square between the king and a castling rook it holds a right with, or the
// king's destination, is attacked: approximated by every square strictly between the two
// and the king's castling destination.
bool castling_attacked(const Position& pos) {
  const Color us = pos.side_to_move();
  const Square k = pos.king_square(us);
  for (CastlingRights right : {us == WHITE ? WHITE_OO : BLACK_OO, us == WHITE ? WHITE_OOO : BLACK_OOO}) {
    if (!(pos.castling() & right)) continue;
    Square rook = pos.castling_rook_square(right);
    Square dest = make_square(rook > k ? FILE_G : FILE_C, rank_of(k));
    int step = rook > k ? 1 : -1;
    for (int s = int(k) + step; s != int(rook) + step && s >= 0 && s < 64; s += step) {
      if (Square(s) == rook) break;
      if (pos.attackers_to(Square(s), pos.pieces()) & pos.pieces(~us)) return true;
    }
    if (pos.attackers_to(dest, pos.pieces()) & pos.pieces(~us)) return true;
  }
  return false;
}

int weight(const Position& pos, Move m) {
  const MoveWeights& w = MOVE_WEIGHTS;
  if (m.kind() == EN_PASSANT) return w.en_passant;
  if (m.kind() == PROMOTION) return w.promotion;
  if (m.kind() == CASTLING) return w.castling;
  const Piece p = pos.piece_on(m.from());
  if (type_of(p) == PAWN && (int(m.to()) - int(m.from()) == 16 || int(m.from()) - int(m.to()) == 16)) {
    if (beside(m.to()) & pos.pieces(~pos.side_to_move(), PAWN)) return w.double_push_beside_pawn;
  }
  if (type_of(p) == PAWN && relative_rank(pos.side_to_move(), m.to()) >= RANK_6) return w.advanced_pawn;
  if (pos.gives_check(m)) return w.check;
  if (pos.piece_on(m.to()) != NO_PIECE) return w.capture;
  return 1;
}

}  // namespace

unsigned traps_of(const Position& before, Move last, const Position& pos) {
  const MoveList moves = legal_moves(pos);
  bool ep = false, promotion = false, promotion_capture = false, discovery = false;
  for (Move m : moves) {
    ep |= m.kind() == EN_PASSANT;
    if (m.kind() == PROMOTION) promotion = true, promotion_capture |= pos.piece_on(m.to()) != NO_PIECE;
    if (!discovery) discovery = discovers_check(pos, m);
  }
  const Color us = pos.side_to_move();
  const bool double_push = type_of(before.piece_on(last.from())) == PAWN &&
                           (int(last.to()) - int(last.from()) == 16 || int(last.from()) - int(last.to()) == 16);
  const bool ep_forbidden = double_push && (beside(last.to()) & pos.pieces(us, PAWN)) && !ep;
  const bool has_rights = pos.castling() & castling_rights(us);
  const bool conditions[TRAP_COUNT] = {
      popcount(pos.checkers()) > 1,         pos.in_check() && ep, ep_forbidden, ep,        pos.in_check() && has_rights,
      has_rights && castling_attacked(pos), promotion_capture,    promotion,    discovery, pos.in_check()};
  unsigned mask = 0;
  for (int t = 0; t < TRAP_COUNT; ++t) mask |= unsigned(conditions[t]) << t;
  return mask;
}

SeededPosition seeded_position(uint64_t seed, uint64_t index, bool chess960) {
  Random rng = stream(seed, index, 0);
  constexpr int MAX_PLIES = 200, MIN_PLIES = 4, GAMES_PER_TARGET = 30;
  const int target = int(index % TRAP_COUNT);
  for (int game = 0;; ++game) {
    // After GAMES_PER_TARGET games without the target, any trap will do.
    const unsigned wanted = game < GAMES_PER_TARGET ? 1u << target : ~0u;
    const Position start =
        chess960 ? Position::from_fen("chess960:" + std::to_string(rng.below(960)), true) : Position::start();
    std::vector<Position> line{start};
    std::vector<Move> played;
    for (int ply = 0; ply < MAX_PLIES; ++ply) {
      const Position& pos = line.back();
      MoveList moves = legal_moves(pos);
      if (moves.empty() || pos.rule50() >= 100) break;
      int total = 0, weights[MoveList::CAPACITY];
      for (size_t i = 0; i < moves.size(); ++i) total += weights[i] = weight(pos, moves[i]);
      int pick = int(rng.below(uint64_t(total)));
      size_t i = 0;
      while (pick >= weights[i]) pick -= weights[i++];
      played.push_back(moves[i]);
      line.push_back(pos.after(moves[i]));
      if (ply + 1 < MIN_PLIES) continue;
      const unsigned traps = traps_of(line[line.size() - 2], moves[i], line.back()) & wanted;
      if (traps && rng.below(2) == 0)
        return {line[line.size() - 3], {played[played.size() - 2], played.back()}, std::countr_zero(traps)};
    }
  }
}

}  // namespace chesshpc
