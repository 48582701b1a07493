#include "core/board_code.h"

namespace chess {

BoardCode encode(const Position& pos) {
  BoardCode c;
  const Bitboard p = pos.pieces(PAWN), n = pos.pieces(KNIGHT), b = pos.pieces(BISHOP);
  const Bitboard r = pos.pieces(ROOK), q = pos.pieces(QUEEN), k = pos.pieces(KING);
  c.q[0] = p | b | q;
  c.q[1] = n | b | k;
  c.q[2] = r | q | k;
  c.q[3] = pos.pieces(BLACK);
  const unsigned ep = pos.ep_square() == SQ_NONE ? 64u : unsigned(pos.ep_square());
  c.state = uint16_t(unsigned(pos.side_to_move()) | unsigned(pos.castling()) << 1 | ep << 5);
  return c;
}

Position decode(const BoardCode& c, bool with_key, const CastlingSetup& setup) {
  const Bitboard b0 = c.q[0], b1 = c.q[1], b2 = c.q[2];
  Bitboard by_type[PIECE_TYPE_NB];
  by_type[PAWN] = b0 & ~b1 & ~b2;
  by_type[KNIGHT] = ~b0 & b1 & ~b2;
  by_type[BISHOP] = b0 & b1 & ~b2;
  by_type[ROOK] = ~b0 & ~b1 & b2;
  by_type[QUEEN] = b0 & ~b1 & b2;
  by_type[KING] = ~b0 & b1 & b2;
  const unsigned ep = c.state >> 5 & 127;
  return Position::from_bitboards(by_type, c.q[3], Color(c.state & 1), CastlingRights(c.state >> 1 & 15),
                                  ep < 64 ? Square(ep) : SQ_NONE, with_key, setup);
}

}  // namespace chess
