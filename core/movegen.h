// Legal move generation without make-and-test: checkers, pin rays and the squares the
// enemy attacks are found once per position, and every move emitted is legal.
//
// The generator hands moves to a Sink in bulk (a piece and its target set, or a set of
// pawn destinations that share one step), so a counting sink can add popcounts and
// never enumerate single moves: that is what makes bulk-counting perft fast.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>

#include "core/position.h"

namespace chess {

// The version of the rules this build generates moves by. Results made under one version
// are never resumed under another: bump it whenever a legal move set could change.
constexpr int RULES_VERSION = 1;

// A Sink provides:
//   piece_moves(PieceType pt, Square from, Bitboard to)  normal moves and captures
//   pawn_moves(Bitboard to, int step)                    from = to - step
//   promotions(Bitboard to, int step)                    four moves per square
//   en_passant(Square from, Square to)
//   castle(Square king, Square rook)                     the king takes its own rook
template <Color Us, class Sink>
inline void generate_legal(const Position& pos, Sink& sink);

// Throws std::length_error: a move list is full. Unreachable from a position from_fen
// accepted (218 moves at most), but a bound that memory relies on is checked, not assumed.
[[noreturn]] void move_list_overflow();

class MoveList {
 public:
  static constexpr size_t CAPACITY = 256;  // no legal position has more than 218 moves

  // The slots are left uninitialised (Move's default would zero 512 bytes per list, and
  // the search makes one per node): push() writes a slot before anything reads it.
  MoveList() {}

  const Move* begin() const { return moves_; }
  const Move* end() const { return moves_ + size_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  bool contains(Move m) const;
  Move operator[](size_t i) const { return moves_[i]; }
  void push(Move m) {
    if (size_ == CAPACITY) [[unlikely]]
      move_list_overflow();
    moves_[size_++] = m;
  }

 private:
  // A count, not an end pointer, so that copies stay valid.
  union {
    Move moves_[CAPACITY];
  };
  uint32_t size_ = 0;
};

// Every legal move of the side to move.
MoveList legal_moves(const Position& pos);
// The number of legal moves, without listing them.
int count_legal(const Position& pos);
// Whether any legal move exists; agrees with !legal_moves(pos).empty().
bool has_legal_move(const Position& pos);

// Move list sink: one Move per destination.
struct ListSink {
  MoveList& list;
  void piece_moves(PieceType, Square from, Bitboard to) {
    while (to) list.push(Move(from, pop_lsb(to)));
  }
  void pawn_moves(Bitboard to, int step) {
    while (to) {
      Square s = pop_lsb(to);
      list.push(Move(s - step, s));
    }
  }
  void promotions(Bitboard to, int step) {
    while (to) {
      Square s = pop_lsb(to);
      for (PieceType pt : {QUEEN, ROOK, BISHOP, KNIGHT}) list.push(Move(s - step, s, PROMOTION, pt));
    }
  }
  void en_passant(Square from, Square to) { list.push(Move(from, to, EN_PASSANT)); }
  void castle(Square from, Square to) { list.push(Move(from, to, CASTLING)); }
};

// Counting sink: popcounts, no enumeration.
// Adapts a per-move callback to the bulk interface: play(from, to, piece type, kind,
// promotion piece) once per legal move (the promotion piece is KNIGHT when unused), for
// sinks that play each move on a copy of the position.
template <class Play>
struct PlaySink {
  Play play;
  void piece_moves(PieceType pt, Square from, Bitboard to) {
    while (to) play(from, pop_lsb(to), pt, NORMAL, KNIGHT);
  }
  void pawn_moves(Bitboard to, int step) {
    while (to) {
      Square s = pop_lsb(to);
      play(s - step, s, PAWN, NORMAL, KNIGHT);
    }
  }
  void promotions(Bitboard to, int step) {
    while (to) {
      Square s = pop_lsb(to);
      for (PieceType pt : {QUEEN, ROOK, BISHOP, KNIGHT}) play(s - step, s, PAWN, PROMOTION, pt);
    }
  }
  void en_passant(Square from, Square to) { play(from, to, PAWN, EN_PASSANT, KNIGHT); }
  void castle(Square from, Square to) { play(from, to, KING, CASTLING, KNIGHT); }
};

struct CountSink {
  uint64_t n = 0;
  void piece_moves(PieceType, Square, Bitboard to) { n += popcount(to); }
  void pawn_moves(Bitboard to, int) { n += popcount(to); }
  void promotions(Bitboard to, int) { n += 4 * popcount(to); }
  void en_passant(Square, Square) { ++n; }
  void castle(Square, Square) { ++n; }
};

namespace detail {

// Pawn moves of a group of pawns that may all move within `target` (empty squares or
// enemy pieces the caller allows).
template <Color Us, class Sink>
inline void pawn_group(Bitboard pawns, Bitboard empty, Bitboard enemies, Bitboard target, Sink& sink) {
  constexpr Direction Up = pawn_push(Us);
  constexpr Direction UpWest = Us == WHITE ? NORTH_WEST : SOUTH_WEST;
  constexpr Direction UpEast = Us == WHITE ? NORTH_EAST : SOUTH_EAST;
  constexpr Bitboard Rank7 = Us == WHITE ? RANK_7_BB : RANK_2_BB;
  constexpr Bitboard Rank3 = Us == WHITE ? RANK_3_BB : RANK_6_BB;

  Bitboard promoting = pawns & Rank7, others = pawns & ~Rank7;
  Bitboard single = shift<Up>(others) & empty;
  Bitboard twice = shift<Up>(single & Rank3) & empty & target;
  sink.pawn_moves(single & target, Up);
  sink.pawn_moves(twice, 2 * Up);
  sink.pawn_moves(shift<UpWest>(others) & enemies & target, UpWest);
  sink.pawn_moves(shift<UpEast>(others) & enemies & target, UpEast);
  if (promoting) {
    sink.promotions(shift<Up>(promoting) & empty & target, Up);
    sink.promotions(shift<UpWest>(promoting) & enemies & target, UpWest);
    sink.promotions(shift<UpEast>(promoting) & enemies & target, UpEast);
  }
}

// Of the squares in zone, those attacked by the enemy pawns, knights and sliders (the
// enemy king's are the caller's), sliders seeing through the occupancy given. One map
// of the whole enemy army, built only from the pieces that can reach the zone, costs
// less than testing each square for every kind of attacker.
template <Color Us>
inline Bitboard danger(Bitboard zone, Bitboard occupied, Bitboard pawns, Bitboard knights, Bitboard diag,
                       Bitboard orth) {
  Bitboard d = pawn_attacks_bb<~Us>(pawns);
  for (Bitboard b = knights; b;) d |= KNIGHT_ATTACKS[pop_lsb(b)];
  for (Bitboard b = diag; b;) {
    Square s = pop_lsb(b);
    if (BISHOP_RAYS[s] & zone) d |= bishop_attacks(s, occupied);
  }
  for (Bitboard b = orth; b;) {
    Square s = pop_lsb(b);
    if (ROOK_RAYS[s] & zone) d |= rook_attacks(s, occupied);
  }
  return d;
}

// What a Chess960 castling needs, by king square and castling rook square (both on one
// back rank; zero otherwise). path: every square from the lowest of the king's, the
// rook's and their destinations' squares to the highest, but the king's and the rook's
// own; while a right is held its king and rook have not moved, so this one mask test is
// the whole occupancy rule, and it fails in most positions (computing that run per call
// made Chess960 perft cost 15% more per node than standard chess's constant paths).
// king: the squares the king crosses and lands on, from the same entry rather than
// worked out per call; far: those of them the generator has not judged as the king's own
// steps (not beside the king, or the rook's square), each to be tested for attacks;
// shield: all ones when the rook is not in its corner (see castle_if_safe), which also
// makes an entry 32 bytes, a shift to index.
struct CastlingPath {
  Bitboard path = 0, king = 0, far = 0, shield = 0;
};
constexpr std::array<std::array<CastlingPath, 64>, 64> castling_paths() {
  std::array<std::array<CastlingPath, 64>, 64> paths{};
  for (int k = 0; k < 64; ++k)
    for (int r = 0; r < 64; ++r) {
      const int back = k & 56;
      if (k == r || (r & 56) != back || (back != 0 && back != 56)) continue;
      const int king_to = back + (r > k ? FILE_G : FILE_C), rook_to = back + (r > k ? FILE_F : FILE_D);
      const int lo = std::min({k, r, king_to, rook_to}), hi = std::max({k, r, king_to, rook_to});
      for (int s = lo; s <= hi; ++s)
        if (s != k && s != r) paths[k][r].path |= Bitboard(1) << s;
      for (int s = std::min(k, king_to); s <= std::max(k, king_to); ++s) {
        if (s == k) continue;
        paths[k][r].king |= Bitboard(1) << s;
        if (s == r || (s != k - 1 && s != k + 1)) paths[k][r].far |= Bitboard(1) << s;
      }
      if ((r & 7) != 0 && (r & 7) != 7) paths[k][r].shield = ~Bitboard(0);
    }
  return paths;
}
inline constexpr std::array<std::array<CastlingPath, 64>, 64> CASTLING_PATH = castling_paths();

// Castling by FIDE's Chess960 rule, which standard chess is a case of, once its squares
// are known empty (CASTLING_PATH's path): no square the king passes or lands on is
// attacked. king_to holds the king's safe steps, which judge the squares beside the king
// (free, since the path is); attacked(s) tests the others with the king off the board.
template <Color Us, bool KingSide, class Attacked, class Sink>
inline void castle_if_safe(Square ksq, Square rsq, const CastlingPath& c, Bitboard occupied, Bitboard king_to,
                           Bitboard their_king_zone, Bitboard their_orth, const Attacked& attacked, Sink& sink) {
  constexpr Rank Back = relative_rank(Us, RANK_1);
  constexpr Square KTo = make_square(KingSide ? FILE_G : FILE_C, Back);
  constexpr Square RTo = make_square(KingSide ? FILE_F : FILE_D, Back);
  constexpr Bitboard KToBB = square_bb(KTo), RToBB = square_bb(RTo);
  const Bitboard king_bb = square_bb(ksq), rook_bb = square_bb(rsq);
  if (((c.king ^ c.far) & ~king_to) || (c.far & their_king_zone)) return;
  // The destination, the one square to test in most positions, is a constant: its
  // tables' entries fold into the code.
  if ((c.far & KToBB) && attacked(KTo)) return;
  for (Bitboard b = c.far & ~KToBB; b;)
    if (attacked(pop_lsb(b))) return;
  // A rook not in its corner may shield the king's destination from a slider beyond
  // it along the back rank (queen a1, rook b1, king c1): once the rook leaves, the
  // king would stand in check.
  if (c.shield && (rook_attacks(KTo, (occupied ^ king_bb ^ rook_bb) | KToBB | RToBB) & their_orth)) return;
  sink.castle(ksq, rsq);
}

// Castling by FIDE's Chess960 rule: every square the king or the rook passes or lands on
// is empty but for those two, and no square the king passes or lands on is attacked.
template <Color Us, class Attacked, class Sink>
inline void generate_castling_960(const Position& pos, Square ksq, Bitboard occupied, Bitboard king_to,
                                  Bitboard their_king_zone, Bitboard their_orth, const Attacked& attacked, Sink& sink) {
  constexpr Bitboard BackRank = Us == WHITE ? RANK_1_BB : RANK_8_BB;
  // The castling squares on our back rank but the king's are the rooks of the rights held,
  // at most one on each side of the king. Two tests, not a loop: in a loop the compiler
  // hoisted the rare safety tests' set-up out of it, which cost more than the tests saved.
  const Bitboard king_bb = square_bb(ksq), rooks = pos.castling_squares() & BackRank;
  const Bitboard king_side = rooks & ~(2 * king_bb - 1), queen_side = rooks & (king_bb - 1);
  if (king_side) {
    const Square r = lsb(king_side);
    const CastlingPath& c = CASTLING_PATH[ksq][r];
    if (!(occupied & c.path))
      castle_if_safe<Us, true>(ksq, r, c, occupied, king_to, their_king_zone, their_orth, attacked, sink);
  }
  if (queen_side) {
    const Square r = lsb(queen_side);
    const CastlingPath& c = CASTLING_PATH[ksq][r];
    if (!(occupied & c.path))
      castle_if_safe<Us, false>(ksq, r, c, occupied, king_to, their_king_zone, their_orth, attacked, sink);
  }
}

}  // namespace detail

// The generator for standard chess (Chess960 false: castling only from e to the corners,
// by constant paths) or for Chess960 (castling by the general rule): one template, so
// that standard chess's code carries nothing of Chess960's. generate_legal picks by the
// position (is_chess960); perft picks once at its root.
// KnownKing: the caller knows that the side to move is not in check and where its king
// may go (known_king_to, passed to the sink as the king's moves); the generator then
// neither looks for checks nor tests the king's squares, and leaves out castling, which
// the caller counts (perft's leaves, core/perft_kernel.h's KingShortcut).
template <Color Us, bool Chess960, bool KnownKing = false, class Sink>
inline void generate_legal_as(const Position& pos, Sink& sink, Bitboard known_king_to = 0) {
  constexpr Color Them = ~Us;
  const Bitboard us = pos.pieces(Us), them = pos.pieces(Them), occupied = us | them;
  const Square ksq = pos.king_square(Us);
  const Bitboard their_diag = pos.pieces(Them, BISHOP, QUEEN), their_orth = pos.pieces(Them, ROOK, QUEEN);

  // Sliders seeing the king through our own pieces only: with nothing between they
  // check, with exactly one of ours between it is pinned.
  Bitboard checkers =
      KnownKing ? 0
                : (KNIGHT_ATTACKS[ksq] & pos.pieces(Them, KNIGHT)) | (PAWN_ATTACKS[Us][ksq] & pos.pieces(Them, PAWN));
  Bitboard pinned = 0;
  // Most positions have no enemy slider on the king's lines at all: test that first.
  Bitboard snipers = 0;
  if (BISHOP_RAYS[ksq] & their_diag) snipers |= bishop_attacks(ksq, them) & their_diag;
  if (ROOK_RAYS[ksq] & their_orth) snipers |= rook_attacks(ksq, them) & their_orth;
  while (snipers) {
    Square s = pop_lsb(snipers);
    Bitboard between = BETWEEN[ksq][s] & us;
    if (!KnownKing && !between)
      checkers |= square_bb(s);
    else if (!more_than_one(between))
      pinned |= between;
  }

  // Only the squares the king could step to (and cross when castling) need testing for
  // attacks; the king is removed from the occupancy so that it cannot step back along a
  // checking slider's ray. Per square this is cheaper than the full attack map, since a
  // king seldom has more than a few free squares.
  const Bitboard no_king = occupied ^ square_bb(ksq);
  const Bitboard their_knights = pos.pieces(Them, KNIGHT), their_pawns = pos.pieces(Them, PAWN);
  const Bitboard their_king_zone = KING_ATTACKS[pos.king_square(Them)];
  // Attacked by anything but the enemy king, whose squares are excluded up front.
  auto attacked = [&](Square s) {
    return (KNIGHT_ATTACKS[s] & their_knights) || (PAWN_ATTACKS[Us][s] & their_pawns) ||
           ((BISHOP_RAYS[s] & their_diag) && (bishop_attacks(s, no_king) & their_diag)) ||
           ((ROOK_RAYS[s] & their_orth) && (rook_attacks(s, no_king) & their_orth));
  };
  Bitboard king_to = known_king_to;
  if constexpr (!KnownKing) {
    king_to = KING_ATTACKS[ksq] & ~us & ~their_king_zone;
    // A king with few free squares is cheaper to test square by square.
    if (popcount(king_to) > 3)
      king_to &= ~detail::danger<Us>(king_to, no_king, their_pawns, their_knights, their_diag, their_orth);
    else
      for (Bitboard b = king_to; b;) {
        Square s = pop_lsb(b);
        if (attacked(s)) king_to ^= square_bb(s);
      }
  }
  sink.piece_moves(KING, ksq, king_to);
  if (more_than_one(checkers)) return;

  const Bitboard target = checkers ? BETWEEN[ksq][lsb(checkers)] | checkers : ~us;

  if (!KnownKing && !checkers && (pos.castling() & castling_rights(Us))) {
    if constexpr (!Chess960) {
      // Standard chess's squares (king on e, rooks in the corners), with constant paths:
      // the general rule below would cost standard perft several percent.
      constexpr Square K = Us == WHITE ? SQ_E1 : SQ_E8;
      constexpr CastlingRights OO = Us == WHITE ? WHITE_OO : BLACK_OO;
      constexpr CastlingRights OOO = Us == WHITE ? WHITE_OOO : BLACK_OOO;
      constexpr Bitboard OOPath = Us == WHITE ? 0x60ULL : 0x60ULL << 56;   // f, g
      constexpr Bitboard OOOPath = Us == WHITE ? 0x0EULL : 0x0EULL << 56;  // b, c, d
      // The king crosses f (or d), which is one of its own steps, then lands on g (or c).
      if ((pos.castling() & OO) && !(occupied & OOPath) && (king_to & square_bb(K + 1)) &&
          !(their_king_zone & square_bb(K + 2)) && !attacked(K + 2))
        sink.castle(K, K + 3);
      if ((pos.castling() & OOO) && !(occupied & OOOPath) && (king_to & square_bb(K - 1)) &&
          !(their_king_zone & square_bb(K - 2)) && !attacked(K - 2))
        sink.castle(K, K - 4);
    } else {
      detail::generate_castling_960<Us>(pos, ksq, occupied, king_to, their_king_zone, their_orth, attacked, sink);
    }
  }

  for (Bitboard b = pos.pieces(Us, KNIGHT) & ~pinned; b;) {
    Square s = pop_lsb(b);
    sink.piece_moves(KNIGHT, s, KNIGHT_ATTACKS[s] & target);
  }
  for (Bitboard b = pos.pieces(Us, BISHOP) & ~pinned; b;) {
    Square s = pop_lsb(b);
    sink.piece_moves(BISHOP, s, bishop_attacks(s, occupied) & target);
  }
  for (Bitboard b = pos.pieces(Us, ROOK) & ~pinned; b;) {
    Square s = pop_lsb(b);
    sink.piece_moves(ROOK, s, rook_attacks(s, occupied) & target);
  }
  for (Bitboard b = pos.pieces(Us, QUEEN) & ~pinned; b;) {
    Square s = pop_lsb(b);
    sink.piece_moves(QUEEN, s, queen_attacks(s, occupied) & target);
  }
  // A pinned piece keeps only the moves along the line through its king and pinner
  // (none for a knight, which is why knights are not in this loop).
  for (Bitboard b = pinned & ~pos.pieces(PAWN) & ~pos.pieces(KNIGHT); b;) {
    Square s = pop_lsb(b);
    PieceType pt = type_of(pos.piece_on(s));
    sink.piece_moves(pt, s, attacks_bb(pt, s, occupied) & target & LINE[ksq][s]);
  }

  const Bitboard pawns = pos.pieces(Us, PAWN);
  detail::pawn_group<Us>(pawns & ~pinned, ~occupied, them, target, sink);
  for (Bitboard b = pawns & pinned; b;) {
    Square s = pop_lsb(b);
    detail::pawn_group<Us>(square_bb(s), ~occupied, them, target & LINE[ksq][s], sink);
  }

  if (pos.ep_square() != SQ_NONE) {
    Square ep = pos.ep_square();
    for (Bitboard b = PAWN_ATTACKS[Them][ep] & pawns; b;) {
      Square s = pop_lsb(b);
      if (pos.ep_capture_legal(s)) sink.en_passant(s, ep);
    }
  }
}

template <Color Us, class Sink>
inline void generate_legal(const Position& pos, Sink& sink) {
  if (pos.is_chess960())
    generate_legal_as<Us, true>(pos, sink);
  else
    generate_legal_as<Us, false>(pos, sink);
}

template <class Sink>
inline void generate_legal(const Position& pos, Sink& sink) {
  if (pos.side_to_move() == WHITE)
    generate_legal<WHITE>(pos, sink);
  else
    generate_legal<BLACK>(pos, sink);
}

}  // namespace chess
