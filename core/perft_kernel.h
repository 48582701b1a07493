// The bulk-counting kernel of perft: every move generated is played on a copy down to the
// last two plies, where the parent plays each move and counts the replies without
// playing them. core/perft.cpp instantiates it for the build's own instruction set; a
// portable build compiles it once more for x86-64-v3 (core/perft_x86_64_v3.cpp, PEXT
// slider lookups), and count() picks that copy at run time on a CPU that has it.
#pragma once

#include <cstdint>
#include <new>

#include "core/movegen.h"
#include "core/perft_table.h"

namespace chess {
namespace perft::kernel {

// A build for any x86-64 still counts leaves with the host's POPCNT and BMI instructions:
// the counting function is compiled three times and the loader picks the best one the
// CPU has (GCC function multiversioning). A native build, or the x86-64-v3 copy, needs
// no clones (the copy says so with CHESSHPC_KERNEL_NO_CLONES: a target pragma leaves
// __POPCNT__ undefined in C++).
#if defined(__POPCNT__) || defined(CHESSHPC_KERNEL_NO_CLONES)
#define CHESSHPC_COUNT_CLONES
#else
#define CHESSHPC_COUNT_CLONES [[gnu::target_clones("arch=x86-64-v3", "popcnt", "default")]]
#endif

// Chess960 is the generator's (generate_legal_as), chosen once at the root; Hashed says
// whether subtrees go through a table (the key is then kept up to date).
template <Color Us, bool Chess960, bool Hashed>
uint64_t bulk(const Position& pos, int depth, PerftTableView* table);

// Flattened so that the sink's counter lives in a register: behind a reference it could
// alias the position's bitboards, and every add would force them to be reloaded.
template <Color Us, bool Chess960>
[[gnu::flatten]] CHESSHPC_COUNT_CLONES uint64_t count_moves(const Position& pos) {
  CountSink sink;
  generate_legal_as<Us, Chess960>(pos, sink);
  return sink.n;
}

// Where a quiet move of ours leaves the opponent's replies as they are. The replies in a
// position are fixed by the opponent's pieces' moves (their attack sets, pawn pushes and
// castling paths, read against the occupancy), the checks and pins along their king's
// lines, and which squares their king may step to or cross while castling. A move from f
// to t that captures nothing changes none of these when:
//   - f and t are outside the opponent's attack sets, pawn pushes (one and two steps,
//     blocked or not) and castling paths: their pieces see neither square, so their
//     moves and captures are the same;
//   - f and t are off their king's lines as far as our first piece on each, or their
//     second piece, whichever comes first (pins and slider checks stay as they are:
//     beyond, a piece of ours is shielded by ours, or by two of theirs), and t gives no
//     knight or pawn check (no check from f: the opponent is not in check);
//   - f and t are outside every line seen from a square their king could step to or
//     cross castling (so no slider of ours starts or stops attacking it), and the piece
//     itself attacks none of those squares from f or from t as a knight, pawn or king;
//   - a pawn landing on its fourth rank leaves no en-passant capture (no enemy pawn
//     attacks the square behind it), and while the opponent holds castling rights neither square is on its
//     back rank (a Chess960 rook beside the king's destination shields it along it).
// Such a move's reply count is the opponent's count on the unchanged board, which is
// worked out once and only if some move qualifies, without the board's en-passant square
// (ours, which our move gives up). None of it holds when we are in check (the board with
// the opponent to move is not a position).
// ok[pt] holds the squares a piece of type pt may leave and land on; all empty when the
// shortcut does not apply.
template <Color Us>
inline void unchanged_reply_squares(const Position& pos, Bitboard (&ok)[PIECE_TYPE_NB]) {
  constexpr Color Them = ~Us;
  constexpr Direction Down = pawn_push(Them);
  constexpr Bitboard TheirRank3 = Them == WHITE ? RANK_3_BB : RANK_6_BB;
  constexpr Bitboard TheirBack = Them == WHITE ? RANK_1_BB : RANK_8_BB;
  const Bitboard occupied = pos.pieces(), their_pawns = pos.pieces(Them, PAWN);
  const Square tk = pos.king_square(Them);
  const Bitboard tk_bb = square_bb(tk);
  Bitboard seen = pawn_attacks_bb<Them>(their_pawns) | KING_ATTACKS[tk];
  for (Bitboard b = pos.pieces(Them, KNIGHT); b;) seen |= KNIGHT_ATTACKS[pop_lsb(b)];
  for (Bitboard b = pos.pieces(Them, BISHOP, QUEEN); b;) seen |= bishop_attacks(pop_lsb(b), occupied);
  for (Bitboard b = pos.pieces(Them, ROOK, QUEEN); b;) seen |= rook_attacks(pop_lsb(b), occupied);
  for (PieceType pt : {PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING}) ok[pt] = 0;
  if (seen & pos.pieces(Us, KING)) return;
  const Bitboard push = shift<Down>(their_pawns), push2 = shift<Down>(push & TheirRank3);
  // Along each of their king's lines the pins and checks are fixed by the first piece
  // of ours on it and the pieces of theirs before it, so only the squares up to that
  // piece, or up to their second piece, matter: the lines x-rayed through their first
  // blockers.
  const Bitboard diag = bishop_attacks(tk, occupied), orth = rook_attacks(tk, occupied);
  const Bitboard lines =
      bishop_attacks(tk, occupied ^ (diag & pos.pieces(Them))) | rook_attacks(tk, occupied ^ (orth & pos.pieces(Them)));
  Bitboard excluded = seen | push | push2 | lines;
  Bitboard steps = KING_ATTACKS[tk] & ~pos.pieces(Them);
  if (pos.castling() & castling_rights(Them)) {
    excluded |= TheirBack;
    for (Bitboard r = pos.castling_squares() & TheirBack & ~tk_bb; r;)
      steps |= detail::CASTLING_PATH[tk][pop_lsb(r)].king;
  }
  const Bitboard no_king = occupied ^ tk_bb;
  Bitboard knight = KNIGHT_ATTACKS[tk], king = 0;
  for (Bitboard b = steps; b;) {
    Square s = pop_lsb(b);
    excluded |= queen_attacks(s, no_king);
    knight |= KNIGHT_ATTACKS[s];
    king |= KING_ATTACKS[s];
  }
  const Bitboard all = ~excluded;
  // A pawn landing on its fourth rank from its second leaves an en-passant square behind
  // it (from its third, nothing: not told apart here, and rare).
  constexpr Bitboard OurRank4 = Us == WHITE ? RANK_4_BB : RANK_5_BB;
  const Bitboard en_passant = shift<pawn_push(Us)>(pawn_attacks_bb<Them>(their_pawns)) & OurRank4;
  ok[PAWN] = all & ~pawn_attacks_bb<Them>(steps | tk_bb) & ~en_passant;
  ok[KNIGHT] = all & ~knight;
  ok[BISHOP] = ok[ROOK] = ok[QUEEN] = all;
  ok[KING] = all & ~king;
}

// Plays one move on a copy of the parent of leaves and counts the replies without playing
// them (movegen.h's PlaySink calls it once per move).
template <Color Us, bool Chess960>
struct LeafPlayer {
  const Position& pos;
  uint64_t n = 0;
  void operator()(Square from, Square to, PieceType pt, MoveKind kind, PieceType promo) {
    Position child = pos;
    child.apply<Us, false>(from, to, pt, kind, promo);
    n += count_moves<~Us, Chess960>(child);
  }
};

// The parent of leaves: plays each move through LeafPlayer, but for the quiet moves
// unchanged_reply_squares clears, which count the opponent's replies on the unchanged
// board, worked out once.
template <Color Us, bool Chess960>
struct LeafParentSink {
  PlaySink<LeafPlayer<Us, Chess960>> each;
  Bitboard ok[PIECE_TYPE_NB];
  Bitboard empty;
  uint64_t reused = 0;
  uint64_t replies = 0;
  bool counted = false;

  explicit LeafParentSink(const Position& p) : each{{p}}, empty(~p.pieces()) { unchanged_reply_squares<Us>(p, ok); }
  uint64_t total() const { return each.play.n + reused; }
  // The moves to the squares of same, each worth the replies on the unchanged board.
  void reuse(Bitboard same) {
    if (!counted) {
      // The generator reads not the side to move, but the en-passant square, which is
      // ours and which no move of ours leaves to the opponent: passed with the move.
      const Position& pos = each.play.pos;
      if (pos.ep_square() == SQ_NONE) {
        replies = count_moves<~Us, Chess960>(pos);
      } else {
        Position passed = pos;
        passed.pass_stale();
        replies = count_moves<~Us, Chess960>(passed);
      }
      counted = true;
    }
    reused += popcount(same) * replies;
  }
  void piece_moves(PieceType pt, Square from, Bitboard to) {
    if ((ok[pt] >> from) & 1) {
      const Bitboard same = to & ok[pt] & empty;
      if (same) reuse(same), to ^= same;
    }
    each.piece_moves(pt, from, to);
  }
  void pawn_moves(Bitboard to, int step) {
    // The squares whose pawn (step behind) may leave: ok shifted by the step.
    const Bitboard from_ok = step > 0 ? ok[PAWN] << step : ok[PAWN] >> -step;
    const Bitboard same = to & ok[PAWN] & empty & from_ok;
    if (same) reuse(same), to ^= same;
    each.pawn_moves(to, step);
  }
  void promotions(Bitboard to, int step) { each.promotions(to, step); }
  void en_passant(Square from, Square to) { each.en_passant(from, to); }
  void castle(Square from, Square to) { each.castle(from, to); }
};

// The leaves of a depth-2 subtree: the one code for every one, with a table (after a
// probe missed) or without.
template <Color Us, bool Chess960>
uint64_t count_depth2(const Position& pos) {
  LeafParentSink<Us, Chess960> sink(pos);
  generate_legal_as<Us, Chess960>(pos, sink);
  return sink.total();
}

// Plays one move on a copy and counts the subtree below it (of depth 2 or more: a depth-1
// subtree's parent is count_depth2's), without a table; movegen.h's PlaySink calls it
// once per move.
template <Color Us, bool Chess960>
struct TreePlayer {
  const Position& pos;
  int depth;  // of the subtrees below the moves
  uint64_t n = 0;
  void operator()(Square from, Square to, PieceType pt, MoveKind kind, PieceType promo) {
    Position child = pos;
    child.apply<Us, false>(from, to, pt, kind, promo);
    n += bulk<~Us, Chess960, false>(child, depth, nullptr);
  }
};

template <Color Us, bool Chess960>
uint64_t count_and_store(const Position& pos, int depth, PerftTableView* table);

// With a table: every child of a node is made, and its bucket prefetched, before any is
// probed, so that the probes' cache misses overlap each other and the making of the
// children instead of each stalling in turn; then the children are probed, and those
// that missed counted (and stored). A hit costs a probe of a line already loaded. (Holding
// back one child, probed after its younger sibling was made, left the latency of a hit
// after a hit exposed: bench/README.md, "Every child's bucket prefetched first".)
template <Color Us, bool Chess960>
struct HashedChildren {
  const Position& pos;
  int depth;  // of the subtrees below the moves: 2 or more
  PerftTableView* table;
  size_t size = 0;
  // Uninitialised slots, as MoveList's: a child is constructed before it is read.
  union Slot {
    Slot() {}
    Position p;
  };
  Slot child[MoveList::CAPACITY];

  // Not an aggregate: its initialisation would zero the slots.
  HashedChildren(const Position& p, int d, PerftTableView* t) : pos(p), depth(d), table(t) {}
  void operator()(Square from, Square to, PieceType pt, MoveKind kind, PieceType promo) {
    if (size == MoveList::CAPACITY) [[unlikely]]
      move_list_overflow();
    Position& c = *new (&child[size++].p) Position(pos);
    c.apply<Us, true>(from, to, pt, kind, promo);
    table->prefetch(c.key(), depth);
  }
  uint64_t count() const {
    uint64_t n = 0;
    uint8_t missed[MoveList::CAPACITY];
    size_t misses = 0;
    for (size_t i = 0; i < size; ++i) {
      uint64_t c;
      if (table->probe(child[i].p.key(), depth, c))
        n += c;
      else
        missed[misses++] = uint8_t(i);
    }
    for (size_t i = 0; i < misses; ++i) n += count_and_store<~Us, Chess960>(child[missed[i]].p, depth, table);
    return n;
  }
};

// The subtree of depth 2 or more below pos, whose probe missed, counted and stored.
template <Color Us, bool Chess960>
uint64_t count_and_store(const Position& pos, int depth, PerftTableView* table) {
  uint64_t n;
  if (depth == 2) {
    n = count_depth2<Us, Chess960>(pos);
  } else {
    PlaySink<HashedChildren<Us, Chess960>> sink{{pos, depth - 1, table}};
    generate_legal_as<Us, Chess960>(pos, sink);
    n = sink.play.count();
  }
  table->store(pos.key(), depth, n);
  return n;
}

// Subtrees of depth 2 and more go through the table when there is one; a depth-1 count
// is cheaper than a probe.
template <Color Us, bool Chess960, bool Hashed>
uint64_t bulk(const Position& pos, int depth, PerftTableView* table) {
  if (depth <= 1) return count_moves<Us, Chess960>(pos);
  if constexpr (Hashed) {
    uint64_t n;
    if (table->probe(pos.key(), depth, n)) return n;
    return count_and_store<Us, Chess960>(pos, depth, table);
  }
  if (depth == 2) return count_depth2<Us, Chess960>(pos);
  PlaySink<TreePlayer<Us, Chess960>> sink{{pos, depth - 1}};
  generate_legal_as<Us, Chess960>(pos, sink);
  return sink.play.n;
}

template <bool Hashed>
uint64_t count_as(const Position& pos, int depth, PerftTableView* table) {
  if (pos.is_chess960())
    return pos.side_to_move() == WHITE ? bulk<WHITE, true, Hashed>(pos, depth, table)
                                       : bulk<BLACK, true, Hashed>(pos, depth, table);
  return pos.side_to_move() == WHITE ? bulk<WHITE, false, Hashed>(pos, depth, table)
                                     : bulk<BLACK, false, Hashed>(pos, depth, table);
}

}  // namespace perft::kernel
}  // namespace chess
