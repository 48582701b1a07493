// The board: piece bitboards, side to move, castling and en-passant rights, clocks and
// the Zobrist key. A Position is a small value type (88 bytes); making a move copies it
// (copy-make), so the parent is untouched and "unmake" is dropping the copy.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "core/bitboard.h"
#include "core/zobrist.h"

namespace chess {

// A FEN that does not describe a legal position. field() is the 1-based FEN field at
// fault (1 placement, 2 side, 3 castling, 4 en passant, 5 half-move clock, 6 move
// number), or 0 for the field count.
class FenError : public std::runtime_error {
 public:
  FenError(int field, const std::string& what);
  int field() const { return field_; }

 private:
  int field_;
};

constexpr std::string_view START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

class Position {
 public:
  // Accepts 6 fields, or 4 (the clocks then default to "0 1"), and the name "startpos".
  // Throws FenError naming the field and the fault for anything that is not a legal
  // position, material no game can reach among them (more than 8 pawns or 16 men a side,
  // or more promoted pieces than missing pawns). An en-passant square is kept only when
  // an en-passant capture is legal.
  static Position from_fen(std::string_view fen);
  static Position start() { return from_fen(START_FEN); }
  // The position with these bitboards (by_type indexed by PieceType; the rest of the
  // occupied squares white), side, rights and en-passant square, clocks 0 and 1. Trusted:
  // for codecs of positions that were legal when encoded (core/board_code.h), so nothing
  // is checked. With_key false leaves the key zero.
  static Position from_bitboards(const Bitboard (&by_type)[PIECE_TYPE_NB], Bitboard black, Color side,
                                 CastlingRights castling, Square ep, bool with_key);
  std::string fen() const;

  Bitboard pieces() const { return by_color_[WHITE] | by_color_[BLACK]; }
  Bitboard pieces(Color c) const { return by_color_[c]; }
  Bitboard pieces(PieceType pt) const { return by_type_[pt]; }
  Bitboard pieces(Color c, PieceType pt) const { return by_color_[c] & by_type_[pt]; }
  Bitboard pieces(Color c, PieceType a, PieceType b) const { return by_color_[c] & (by_type_[a] | by_type_[b]); }
  Piece piece_on(Square s) const {
    // Exactly one type bitboard holds an occupied square: summing type × bit needs no
    // branch per type, and the search asks this for nearly every move it orders.
    int pt = 0;
    for (int t = PAWN; t <= KING; ++t) pt += t * int((by_type_[t] >> s) & 1);
    if (!((pieces() >> s) & 1)) return NO_PIECE;
    return make_piece(Color((by_color_[BLACK] >> s) & 1), PieceType(pt));
  }
  Square king_square(Color c) const { return lsb(pieces(c, KING)); }

  Color side_to_move() const { return Color(side_); }
  Square ep_square() const { return Square(ep_); }
  CastlingRights castling() const { return CastlingRights(castling_); }
  int rule50() const { return rule50_; }
  int fullmove() const { return fullmove_; }
  Key key() const { return key_; }
  Key compute_key() const;  // from scratch, to check the incremental one

  // Pieces of either color attacking s, with the given occupancy for sliders.
  Bitboard attackers_to(Square s, Bitboard occupied) const;
  Bitboard checkers() const { return attackers_to(king_square(side_to_move()), pieces()) & pieces(~side_to_move()); }
  bool in_check() const { return checkers() != 0; }

  // Whether the side to move may capture en passant with the pawn on from, given the
  // current en-passant square: the capture must not leave its own king attacked, which
  // covers the pawn pinned along the rank once both pawns leave it.
  bool ep_capture_legal(Square from) const;

  // Whether the legal move m checks the opponent, worked out from the occupancy after
  // the move without playing it (direct, discovered, castling-rook and en-passant checks).
  bool gives_check(Move m) const;

  // Plays a legal move. The result for an illegal move is unspecified.
  void do_move(Move m);
  Position after(Move m) const {
    Position p = *this;
    p.do_move(m);
    return p;
  }
  // The fast path used by generated moves, where the mover's type is already known.
  // With Full false the key and the clocks are left stale: only for a position that is
  // counted and dropped, such as the parents of perft leaves.
  template <Color Us, bool Full = true>
  void apply(Square from, Square to, PieceType pt, MoveKind kind, PieceType promo);
  // Passes the move: for null-move search and tests; illegal when in check.
  void do_null_move();

  bool operator==(const Position& o) const;  // same pieces, side, rights and clocks

 private:
  void put_piece(Color c, PieceType pt, Square s);
  PieceType captured_type(Bitboard to_bb) const;
  template <Color Us, bool Full>
  void set_ep_if_capturable(Square ep);
  void validate() const;
  void validate_material() const;

  Bitboard by_color_[COLOR_NB]{};
  Bitboard by_type_[PIECE_TYPE_NB]{};
  Key key_ = 0;
  uint8_t side_ = WHITE;
  uint8_t ep_ = SQ_NONE;
  uint8_t castling_ = NO_CASTLING;
  uint8_t pad_ = 0;
  uint16_t rule50_ = 0;
  uint16_t fullmove_ = 1;
};

// Rights lost when a piece leaves or arrives on a square (a king or rook moving, a
// rook captured on its corner).
constexpr std::array<uint8_t, 64> CASTLING_LOSS = [] {
  std::array<uint8_t, 64> t{};
  t[SQ_E1] = WHITE_CASTLING, t[SQ_H1] = WHITE_OO, t[SQ_A1] = WHITE_OOO;
  t[SQ_E8] = BLACK_CASTLING, t[SQ_H8] = BLACK_OO, t[SQ_A8] = BLACK_OOO;
  return t;
}();

// The rook's squares before and after the castling move whose king goes from king_from
// to king_to (e1g1: h1 and f1).
constexpr std::pair<Square, Square> castling_rook(Square king_from, Square king_to) {
  bool king_side = king_to > king_from;
  return {make_square(king_side ? FILE_H : FILE_A, rank_of(king_from)),
          make_square(king_side ? FILE_F : FILE_D, rank_of(king_from))};
}

inline Bitboard Position::attackers_to(Square s, Bitboard occupied) const {
  return (PAWN_ATTACKS[BLACK][s] & pieces(WHITE, PAWN)) | (PAWN_ATTACKS[WHITE][s] & pieces(BLACK, PAWN)) |
         (KNIGHT_ATTACKS[s] & by_type_[KNIGHT]) | (KING_ATTACKS[s] & by_type_[KING]) |
         (bishop_attacks(s, occupied) & (by_type_[BISHOP] | by_type_[QUEEN])) |
         (rook_attacks(s, occupied) & (by_type_[ROOK] | by_type_[QUEEN]));
}

inline bool Position::ep_capture_legal(Square from) const {
  Color us = side_to_move();
  Square ksq = king_square(us);
  Square captured = Square(ep_ ^ 8);  // the pawn stands one rank behind the ep square
  Bitboard occupied = (pieces() ^ square_bb(from) ^ square_bb(captured)) | square_bb(Square(ep_));
  Bitboard them = pieces(~us) & ~square_bb(captured);
  return !(them & ((bishop_attacks(ksq, occupied) & (by_type_[BISHOP] | by_type_[QUEEN])) |
                   (rook_attacks(ksq, occupied) & (by_type_[ROOK] | by_type_[QUEEN])) |
                   (KNIGHT_ATTACKS[ksq] & by_type_[KNIGHT]) | (PAWN_ATTACKS[us][ksq] & by_type_[PAWN])));
}

template <Color Us, bool Full>
inline void Position::set_ep_if_capturable(Square ep) {
  constexpr Color Them = ~Us;
  Bitboard capturers = PAWN_ATTACKS[Us][ep] & pieces(Them, PAWN);
  if (!capturers) return;
  ep_ = ep;
  while (capturers)
    if (ep_capture_legal(pop_lsb(capturers))) {
      if (Full) key_ ^= zobrist::keys.en_passant[file_of(ep)];
      return;
    }
  ep_ = SQ_NONE;
}

inline PieceType Position::captured_type(Bitboard to_bb) const {
  for (int pt = PAWN; pt < KING; ++pt)
    if (by_type_[pt] & to_bb) return PieceType(pt);
  return NO_PIECE_TYPE;
}

template <Color Us, bool Full>
inline void Position::apply(Square from, Square to, PieceType pt, MoveKind kind, PieceType promo) {
  constexpr Color Them = ~Us;
  const auto& z = zobrist::keys;
  Bitboard from_bb = square_bb(from), to_bb = square_bb(to), move_bb = from_bb | to_bb;

  if (Full) key_ ^= z.side;
  if (ep_ != SQ_NONE) {
    if (Full) key_ ^= z.en_passant[file_of(Square(ep_))];
    ep_ = SQ_NONE;
  }
  if (Full) {
    ++rule50_;
    fullmove_ += Us == BLACK;
  }
  if (castling_ && (CASTLING_LOSS[from] | CASTLING_LOSS[to])) {
    if (Full) key_ ^= z.castling[castling_];
    castling_ &= ~(CASTLING_LOSS[from] | CASTLING_LOSS[to]);
    if (Full) key_ ^= z.castling[castling_];
  }

  if (kind == CASTLING) {
    auto [rfrom, rto] = castling_rook(from, to);
    Bitboard rook_bb = square_bb(rfrom) | square_bb(rto);
    by_type_[KING] ^= move_bb;
    by_type_[ROOK] ^= rook_bb;
    by_color_[Us] ^= move_bb | rook_bb;
    if (Full) key_ ^= z.psq[Us][KING][from] ^ z.psq[Us][KING][to] ^ z.psq[Us][ROOK][rfrom] ^ z.psq[Us][ROOK][rto];
    side_ = Them;
    return;
  }

  if (to_bb & by_color_[Them]) {
    if constexpr (Full) {
      PieceType captured = captured_type(to_bb);
      by_type_[captured] ^= to_bb;
      key_ ^= z.psq[Them][captured][to];
    } else {
      // Without a key to update the captured type is not needed: clear them all.
      for (int pt = PAWN; pt < KING; ++pt) by_type_[pt] &= ~to_bb;
    }
    by_color_[Them] ^= to_bb;
    if (Full) rule50_ = 0;
  }
  by_type_[pt] ^= move_bb;
  by_color_[Us] ^= move_bb;
  if (Full) key_ ^= z.psq[Us][pt][from] ^ z.psq[Us][pt][to];

  if (pt == PAWN) {
    if (Full) rule50_ = 0;
    if (kind == PROMOTION) {
      by_type_[PAWN] ^= to_bb;
      by_type_[promo] ^= to_bb;
      if (Full) key_ ^= z.psq[Us][PAWN][to] ^ z.psq[Us][promo][to];
    } else if (kind == EN_PASSANT) {
      Square captured = to - pawn_push(Us);
      by_type_[PAWN] ^= square_bb(captured);
      by_color_[Them] ^= square_bb(captured);
      if (Full) key_ ^= z.psq[Them][PAWN][captured];
    } else if ((int(to) ^ int(from)) == 16) {
      side_ = Them;
      set_ep_if_capturable<Us, Full>(to - pawn_push(Us));
      return;
    }
  }
  side_ = Them;
}

}  // namespace chess
