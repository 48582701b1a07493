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
// The longest FEN Position::fen writes: 64 squares and 7 slashes, side, 4 castling rights,
// an en-passant square, two 16-bit clocks of 5 digits, and 5 spaces.
constexpr size_t FEN_MAX_BYTES = 71 + 1 + 4 + 2 + 5 + 5 + 5;

// How a FEN's castling field names the rooks. X-FEN: K and Q (k and q) for the outermost rook
// on the king's h and a side, a file letter for a castling rook that is not the outermost;
// for a classical position that is the usual KQkq. Shredder-FEN: always the rook's file
// letter (HAha for the classical position).
enum class FenStyle : uint8_t { XFEN, SHREDDER };

// What a position's 4-bit castling rights need besides its pieces: the file of each right's
// rook (indexed by the right's bit: white king side, white queen side, black king side,
// black queen side) and whether the game is Chess960 (moves written king-takes-rook). Every
// position of one game or one perft shares its root's setup, since rights are only lost.
struct CastlingSetup {
  File rook_file[4] = {FILE_H, FILE_A, FILE_H, FILE_A};
  bool chess960 = false;
};

// The index of a single castling right (WHITE_OO 0 ... BLACK_OOO 3).
constexpr int right_index(CastlingRights r) { return r == WHITE_OO ? 0 : r == WHITE_OOO ? 1 : r == BLACK_OO ? 2 : 3; }

// The convention a FEN's castling field is written in: Shredder-FEN when it names rooks by
// file letters only (HAha), else X-FEN (also for "-" and names such as "chess960:N").
FenStyle fen_style_of(std::string_view fen);

class Position {
 public:
  // Accepts 6 fields, or 4 (the clocks then default to "0 1"), the name "startpos", and the
  // Chess960 start positions by number: "chess960:N" (0 to 959, 518 the classical one) and
  // "dfrc:W,B" (Double Fischer Random: white's and black's back ranks by those numbers).
  // Throws FenError naming the field and the fault for anything that is not a legal
  // position, material no game can reach among them (more than 8 pawns or 16 men a side,
  // or more promoted pieces than missing pawns). An en-passant square is kept only when
  // an en-passant capture is legal.
  // Standard chess (chess960 false) takes KQkq with the king on e1/e8 and the rooks in the
  // corners, as FIDE's castling needs. Chess960 takes X-FEN and Shredder-FEN (both
  // conventions, even mixed) with the rook's square remembered per right, and marks the
  // position as Chess960 (is_chess960); the two numbered names always read as Chess960.
  static Position from_fen(std::string_view fen, bool chess960 = false);
  static Position start() { return from_fen(START_FEN); }
  // For input that does not say its variant: standard chess when the castling field reads
  // as standard chess's, else Chess960 (whose error, if any, is the one thrown).
  static Position from_any_fen(std::string_view fen);
  // The back rank of Chess960 start position n (0 to 959) in the standard numbering, from
  // a to h in upper case ("RNBQKBNR" for 518); empty when n is out of range.
  static std::string chess960_back_rank(int n);
  // The position with these bitboards (by_type indexed by PieceType; the rest of the
  // occupied squares white), side, rights and en-passant square, clocks 0 and 1. Trusted:
  // for codecs of positions that were legal when encoded (core/board_code.h), so nothing
  // is checked; the rights' rooks stand on setup's files. With_key false leaves the key zero.
  static Position from_bitboards(const Bitboard (&by_type)[PIECE_TYPE_NB], Bitboard black, Color side,
                                 CastlingRights castling, Square ep, bool with_key, const CastlingSetup& setup = {});
  // Throws FenError, naming the field as from_fen would, for what no FEN reading accepts:
  // not one king a side, a pawn on a back rank, material no game reaches, a castling right
  // without its king and rook in place, an en-passant square no double push left, the side
  // not to move in check. For positions that came from bits (from_bitboards, a dataset's
  // packed bytes); from_fen's positions pass it.
  void validate() const;
  // This position with other clocks (from_bitboards' positions have none).
  Position with_clocks(int rule50, int fullmove) const {
    Position p = *this;
    p.rule50_ = uint16_t(rule50), p.fullmove_ = uint16_t(fullmove);
    return p;
  }
  std::string fen(FenStyle style = FenStyle::XFEN) const;
  // The same text into out (at most FEN_MAX_BYTES, no terminating null); returns its length.
  // For writers of millions of FENs, which a string each would cost an allocation.
  size_t write_fen(char* out, FenStyle style = FenStyle::XFEN) const;

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
  // Every square's piece as the bits of its type and colour, a bitboard a bit: for writers
  // of every piece (FEN, the packed bytes), a few steps a piece where piece_on tests
  // every type.
  struct PiecePlanes {
    Bitboard type_bit[3], black, occupied;
    // The piece on an occupied square.
    Piece on_occupied(Square s) const {
      return Piece(((type_bit[0] >> s) & 1) | ((type_bit[1] >> s) & 1) << 1 | ((type_bit[2] >> s) & 1) << 2 |
                   ((black >> s) & 1) << 3);
    }
  };
  PiecePlanes piece_planes() const {
    static_assert(KNIGHT == 1 && BISHOP == 2 && ROOK == 3 && QUEEN == 4 && KING == 5);
    const Bitboard* t = by_type_;
    return {{t[KNIGHT] | t[ROOK] | t[KING], t[BISHOP] | t[ROOK], t[QUEEN] | t[KING]}, by_color_[BLACK], pieces()};
  }

  Color side_to_move() const { return Color(side_); }
  Square ep_square() const { return Square(ep_); }
  CastlingRights castling() const { return CastlingRights(castling_); }
  // The square of the rook that castles with the single right r, which the position holds.
  Square castling_rook_square(CastlingRights r) const;
  // The squares whose kings and rooks carry the rights held: a move from or to one of
  // them loses rights. Empty without rights.
  Bitboard castling_squares() const { return castle_mask_; }
  CastlingSetup castling_setup() const;
  // A Chess960 game: castling moves are written king-takes-rook (e1h1) in UCI.
  bool is_chess960() const { return chess960_; }
  int rule50() const { return rule50_; }
  int fullmove() const { return fullmove_; }
  // The most either clock keeps (16 bits each, so that a Position stays 88 bytes and the
  // packed form keeps its 2 bytes of move number); a FEN beyond is refused.
  static constexpr int CLOCK_MAX = 65535;
  // Empty, or why a move from here could carry a clock past CLOCK_MAX: "the move number
  // would pass 65535" after black's move 65535, "the half-move clock would pass 65535" at
  // 65535. Whatever plays a game checks it before each move, so that no clock wraps
  // silently; perft, which never reads the clocks, does not.
  std::string clock_overflow() const;
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
  // do_null_move with the key and the clocks left stale, as apply<Us, false> leaves them.
  void pass_stale() {
    ep_ = SQ_NONE;
    side_ ^= 1;
  }

  // Same pieces, side, rights and clocks; the key, which follows from them, is not compared
  // (a trusted unpack's positions have none).
  bool operator==(const Position& o) const;

 private:
  void put_piece(Color c, PieceType pt, Square s);
  void read_castling(std::string_view field);
  template <Color C>
  uint8_t rights_lost(Bitboard hit) const;
  template <Color Us, bool Full>
  void lose_castling(Bitboard hit, bool king_moved);
  PieceType captured_type(Bitboard to_bb) const;
  template <Color Us, bool Full>
  void set_ep_if_capturable(Square ep);
  void validate_pieces() const;
  void validate_castling() const;
  void validate_rest() const;
  void validate_material() const;

  Bitboard by_color_[COLOR_NB]{};
  Bitboard by_type_[PIECE_TYPE_NB]{};
  Key key_ = 0;
  // The kings and castling rooks of the rights held. The rooks' squares are read from it
  // (one per side of the king), so a position names them in 8 bytes, not a 64-entry table.
  Bitboard castle_mask_ = 0;
  uint8_t side_ = WHITE;
  uint8_t ep_ = SQ_NONE;
  uint8_t castling_ = NO_CASTLING;
  uint8_t chess960_ = 0;
  uint16_t rule50_ = 0;
  uint16_t fullmove_ = 1;
};

// The king's and the rook's destinations of the castling in which the king on king takes
// its rook on rook: g and f on the king's h side, c and d on its a side, on their rank.
constexpr std::pair<Square, Square> castling_destinations(Square king, Square rook) {
  bool king_side = rook > king;
  return {make_square(king_side ? FILE_G : FILE_C, rank_of(king)),
          make_square(king_side ? FILE_F : FILE_D, rank_of(king))};
}

inline Square Position::castling_rook_square(CastlingRights r) const {
  // The mask holds, on the back rank, the king and at most one rook each side of it.
  const Color c = (r & WHITE_CASTLING) ? WHITE : BLACK;
  const Bitboard k = pieces(c, KING), rooks = castle_mask_ & (c == WHITE ? RANK_1_BB : RANK_8_BB) & ~k;
  return (r & (WHITE_OO | BLACK_OO)) ? lsb(rooks & ~(2 * k - 1)) : msb(rooks & (k - 1));
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

// The right of C lost when the squares hit of the castling mask hold one of its castling
// rooks (that moved or was taken); C's king, if hit, is in its place (both rights lost).
template <Color C>
inline uint8_t Position::rights_lost(Bitboard hit) const {
  constexpr uint8_t OO = C == WHITE ? WHITE_OO : BLACK_OO, OOO = C == WHITE ? WHITE_OOO : BLACK_OOO;
  const Bitboard h = hit & (C == WHITE ? RANK_1_BB : RANK_8_BB), k = pieces(C, KING);
  if (!h) return 0;
  // On its rank the mask holds C's king and at most one rook on each side of it.
  return (h & k) ? OO | OOO : h > k ? OO : OOO;
}

// After a move of Us that left or landed on the squares hit of the castling mask: both
// rights of Us go when its king moved, one when a castling rook moved or was taken.
template <Color Us, bool Full>
[[gnu::noinline]] void Position::lose_castling(Bitboard hit, bool king_moved) {
  const uint8_t lost = rights_lost<~Us>(hit) | (king_moved ? uint8_t(castling_rights(Us)) : rights_lost<Us>(hit));
  if (Full) key_ ^= zobrist::keys.castling[castling_];
  castling_ &= ~lost;
  if (Full) key_ ^= zobrist::keys.castling[castling_];
  Bitboard mask = castle_mask_ & ~hit;
  if (!(castling_ & WHITE_CASTLING)) mask &= ~RANK_1_BB;
  if (!(castling_ & BLACK_CASTLING)) mask &= ~RANK_8_BB;
  castle_mask_ = mask;
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
  // Rights are lost when a move leaves or lands on a square of the castling mask: that
  // rare update is a tail call where nothing else is live (a call mid-way, or the mask
  // test kept in a register, would cost every move).
  if (kind == CASTLING) {
    // The king takes its own rook: both land on their castling squares, which may be each
    // other's (XOR of origin and destination handles squares shared or unchanged).
    auto [kto, rto] = castling_destinations(from, to);
    Bitboard king_bb = from_bb ^ square_bb(kto), rook_bb = to_bb ^ square_bb(rto);
    by_type_[KING] ^= king_bb;
    by_type_[ROOK] ^= rook_bb;
    by_color_[Us] ^= king_bb ^ rook_bb;
    if (Full) key_ ^= z.psq[Us][KING][from] ^ z.psq[Us][KING][kto] ^ z.psq[Us][ROOK][to] ^ z.psq[Us][ROOK][rto];
    side_ = Them;
    if (castle_mask_) return lose_castling<Us, Full>(castle_mask_ & move_bb, true);
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
      return;  // a pawn's double step touches no castling square
    }
  }
  side_ = Them;
  if (const Bitboard hit = castle_mask_ & move_bb) [[unlikely]]
    lose_castling<Us, Full>(hit, pt == KING);
}

}  // namespace chess
