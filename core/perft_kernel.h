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

// The leaf's count when the caller knows the king's moves (king_to) and that the side to
// move is not in check: castling is the caller's too.
template <Color Us, bool Chess960>
[[gnu::flatten]] CHESSHPC_COUNT_CLONES uint64_t count_moves_known_king(const Position& pos, Bitboard king_to) {
  CountSink sink;
  generate_legal_as<Us, Chess960, true>(pos, sink, king_to);
  return sink.n;
}

// What both shortcuts below read around the opponent's king, worked out once at a parent
// of leaves: the squares it may step to or cross castling (steps), and from those the lines
// a queen would see with the king off the board, the knight and king attack sets.
struct KingZone {
  Square king;
  Bitboard steps = 0, lines = 0, knights = 0, kings = 0;
  Bitboard diag = 0, orth = 0;  // the king's own lines on the board
};

template <Color Us>
inline void king_zone(const Position& pos, KingZone& z) {
  constexpr Color Them = ~Us;
  constexpr Bitboard TheirBack = Them == WHITE ? RANK_1_BB : RANK_8_BB;
  const Bitboard occupied = pos.pieces();
  z.king = pos.king_square(Them);
  const Bitboard tk_bb = square_bb(z.king), no_king = occupied ^ tk_bb;
  z.steps = KING_ATTACKS[z.king] & ~pos.pieces(Them);
  if (pos.castling() & castling_rights(Them))
    for (Bitboard c = pos.castling_squares() & TheirBack & ~tk_bb; c;)
      z.steps |= detail::CASTLING_PATH[z.king][pop_lsb(c)].king;
  for (Bitboard b = z.steps; b;) {
    const Square s = pop_lsb(b);
    z.lines |= queen_attacks(s, no_king);
    z.knights |= KNIGHT_ATTACKS[s];
    z.kings |= KING_ATTACKS[s];
  }
  z.diag = bishop_attacks(z.king, occupied);
  z.orth = rook_attacks(z.king, occupied);
}

// Where a move of ours leaves the opponent's king as it is: not in check, with the same
// squares to step to and the same castling moves. Those follow from the squares S (their
// king's, those it may step to, and those it would cross or land on castling) and from
// what attacks them: our pieces' attack sets on S, with their king off the board, and our
// king's zone; their pieces on the squares around their king. A normal move (no castling,
// promotion or en passant) from f to t changes none of these when:
//   - f and t are outside X: S and every square a queen on a square of S sees with their
//     king off the board (their king's neighbours among them, the first squares of its own
//     lines; beyond their king, its lines are its own), and, while they hold a castling right,
//     their back rank (castling's empty path, the rights, Chess960's shield along it: a
//     rook of ours may come to stand behind their castling rook). Then no line from a
//     square of S gains or loses a blocker, and a slider landing on t (or leaving f) sees
//     no square of S; nor does a pawn or king, whose attacks are squares next to it (so
//     next to a square of S, which sees them);
//   - the piece, if a knight, attacks no square of S from f nor from t.
// Their king is not in check before our move (we are to move), so not after it either;
// their king's moves and castlings are then those on the unchanged board with them to
// move, worked out once (count_moves_known_king takes them, and leaves the rest of the
// count, pins included, to the generator).
struct KingShortcut {
  Bitboard bad[PIECE_TYPE_NB];  // by our mover's type: the squares f and t must avoid
  Bitboard king_to = 0;         // their king's moves on the unchanged board
  int castles = 0;              // and their castling moves
};

// Records the king's moves and the castlings, drops the rest (generated and never used:
// the compiler leaves out what nothing reads).
struct KingMovesSink {
  Bitboard king_to = 0;
  int castles = 0;
  void piece_moves(PieceType pt, Square, Bitboard to) {
    if (pt == KING) king_to = to;
  }
  void pawn_moves(Bitboard, int) {}
  void promotions(Bitboard, int) {}
  void en_passant(Square, Square) {}
  void castle(Square, Square) { ++castles; }
};

template <Color Us, bool Chess960>
inline void king_shortcut(const Position& pos, const KingZone& z, KingShortcut& k) {
  constexpr Color Them = ~Us;
  constexpr Bitboard TheirBack = Them == WHITE ? RANK_1_BB : RANK_8_BB;
  // S is the steps and the king's square; a queen on the king's square sees its lines.
  Bitboard x = z.lines | z.diag | z.orth | z.steps | square_bb(z.king);
  if (pos.castling() & castling_rights(Them)) x |= TheirBack;
  k.bad[PAWN] = k.bad[BISHOP] = k.bad[ROOK] = k.bad[QUEEN] = k.bad[KING] = x;
  k.bad[KNIGHT] = x | z.knights | KNIGHT_ATTACKS[z.king];
  // Their moves on the unchanged board: the generator reads neither the side to move nor,
  // for the king and castling, the en-passant square.
  KingMovesSink sink;
  generate_legal_as<Them, Chess960>(pos, sink);
  k.king_to = sink.king_to;
  k.castles = sink.castles;
}

// Where a quiet move of ours leaves the opponent's replies as they are, or changes only
// the moves of some of their sliders. The replies in a position are fixed by the
// opponent's pieces' moves (their attack sets, pawn pushes and castling paths, read
// against the occupancy), the checks and pins along their king's lines, and which squares
// their king may step to or cross while castling. A move from f to t that captures nothing
// changes none of these but the moves of their sliders that see f or t when:
//   - f and t are outside the attack sets of their pawns and king, their pawn pushes (one
//     and two steps, blocked or not) and castling paths, and the attack sets of their
//     sliders on their king's lines (below): those see neither square, so their moves and
//     captures are the same. Their knights' attack sets are fixed and the squares of their
//     own pieces too, so a knight has as many moves whatever we move;
//   - f and t are off their king's lines as far as our first piece on each, or their
//     second piece, whichever comes first (pins and slider checks stay as they are:
//     beyond, a piece of ours is shielded by ours, or by two of theirs), and t gives no
//     knight or pawn check (no check from f: the opponent is not in check);
//   - f and t are outside every line seen from a square their king could step to or
//     cross castling (so no slider of ours starts or stops attacking it), and the piece
//     itself attacks none of those squares from f or from t as a knight, pawn or king;
//   - a pawn landing on its fourth rank leaves no en-passant capture (no enemy pawn
//     attacks the square behind it), and while the opponent holds castling rights neither
//     square is on its back rank (a Chess960 rook beside the king's destination shields
//     it along it).
// Their other sliders, off those lines, are unpinned before and after the move: such a
// slider's moves change only when it sees f or t, and then are its attack set on the new
// occupancy less their own pieces. So the move's reply count is the opponent's count on
// the unchanged board, worked out once and only if some move qualifies (without the
// board's en-passant square: ours, which our move gives up), plus, for each of their
// sliders off the lines that sees f or t, its moves after the move less its moves before.
// None of it holds when we are in check (the board with the opponent to move is not a
// position).
struct ReplyShortcut {
  // The squares a piece of type pt may leave and land on: ok when no slider off the lines
  // sees them either (the count is the unchanged board's), near those that sliders see;
  // all empty when the shortcut does not apply.
  Bitboard ok[PIECE_TYPE_NB];
  Bitboard near[PIECE_TYPE_NB];
  // Their sliders off their king's lines: bishops and queens, rooks and queens; by a
  // slider's square its moves.
  Bitboard diag = 0, orth = 0;
  uint8_t moves[SQUARE_NB];
  Bitboard attacks[SQUARE_NB];  // by a slider's square, every slider's
  Bitboard seen_by[SQUARE_NB];  // by square, the sliders off the lines that see it: filled by the first delta()
  bool have_seen_by = false;

  // How much the replies change when a quiet move from f to t, both in near, is played.
  int delta(Bitboard occupied, Bitboard theirs, Square f, Square t) {
    if (!have_seen_by) {
      for (Bitboard& b : seen_by) b = 0;
      for (Bitboard b = diag | orth; b;) {
        const Square s = pop_lsb(b);
        for (Bitboard a = attacks[s]; a;) seen_by[pop_lsb(a)] |= square_bb(s);
      }
      have_seen_by = true;
    }
    int d = 0;
    const Bitboard after = occupied ^ square_bb(f) ^ square_bb(t);
    for (Bitboard b = seen_by[f] | seen_by[t]; b;) {
      const Square s = pop_lsb(b);
      Bitboard a = 0;
      if (diag & square_bb(s)) a |= bishop_attacks(s, after);
      if (orth & square_bb(s)) a |= rook_attacks(s, after);
      d += popcount(a & ~theirs) - moves[s];
    }
    return d;
  }
};

template <Color Us>
inline void reply_shortcut(const Position& pos, const KingZone& z, ReplyShortcut& r) {
  constexpr Color Them = ~Us;
  constexpr Direction Down = pawn_push(Them);
  constexpr Bitboard TheirRank3 = Them == WHITE ? RANK_3_BB : RANK_6_BB;
  constexpr Bitboard TheirBack = Them == WHITE ? RANK_1_BB : RANK_8_BB;
  const Bitboard occupied = pos.pieces(), their_pawns = pos.pieces(Them, PAWN), theirs = pos.pieces(Them);
  const Square tk = pos.king_square(Them);
  const Bitboard tk_bb = square_bb(tk);
  for (PieceType pt : {PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING}) r.ok[pt] = r.near[pt] = 0;
  r.diag = r.orth = 0;
  r.have_seen_by = false;
  Bitboard fixed = pawn_attacks_bb<Them>(their_pawns) | KING_ATTACKS[tk];
  Bitboard knights = 0;
  for (Bitboard b = pos.pieces(Them, KNIGHT); b;) knights |= KNIGHT_ATTACKS[pop_lsb(b)];
  const Bitboard their_diag = pos.pieces(Them, BISHOP, QUEEN), their_orth = pos.pieces(Them, ROOK, QUEEN);
  const Bitboard our_king = pos.pieces(Us, KING);
  if ((fixed | knights) & our_king) return;
  // Along each of their king's lines the pins and checks are fixed by the first piece
  // of ours on it and the pieces of theirs before it, so only the squares up to that
  // piece, or up to their second piece, matter: the lines x-rayed through their first
  // blockers.
  const Bitboard diag = z.diag, orth = z.orth;
  const Bitboard lines = bishop_attacks(tk, occupied ^ (diag & theirs)) | rook_attacks(tk, occupied ^ (orth & theirs));
  // Each slider's attack set, by its square; then those on the lines are fixed, the
  // others' moves counted.
  const Bitboard their_queens = their_diag & their_orth;
  for (Bitboard b = their_diag; b;) {
    const Square s = pop_lsb(b);
    r.attacks[s] = bishop_attacks(s, occupied);
  }
  for (Bitboard b = their_orth & ~their_queens; b;) {
    const Square s = pop_lsb(b);
    r.attacks[s] = rook_attacks(s, occupied);
  }
  for (Bitboard b = their_queens; b;) {
    const Square s = pop_lsb(b);
    r.attacks[s] |= rook_attacks(s, occupied);
  }
  Bitboard sliders_seen = 0;
  for (Bitboard b = (their_diag | their_orth) & lines; b;) fixed |= r.attacks[pop_lsb(b)];
  for (Bitboard b = (their_diag | their_orth) & ~lines; b;) {
    const Square s = pop_lsb(b);
    sliders_seen |= r.attacks[s];
    r.moves[s] = uint8_t(popcount(r.attacks[s] & ~theirs));
  }
  if ((fixed | sliders_seen) & our_king) return;
  r.diag = their_diag & ~lines;
  r.orth = their_orth & ~lines;
  const Bitboard push = shift<Down>(their_pawns), push2 = shift<Down>(push & TheirRank3);
  Bitboard excluded = fixed | push | push2 | lines | z.lines;
  if (pos.castling() & castling_rights(Them)) excluded |= TheirBack;
  const Bitboard steps = z.steps, knight = KNIGHT_ATTACKS[tk] | z.knights, king = z.kings;
  const Bitboard all = ~excluded;
  // A pawn landing on its fourth rank from its second leaves an en-passant square behind
  // it (from its third, nothing: not told apart here, and rare).
  constexpr Bitboard OurRank4 = Us == WHITE ? RANK_4_BB : RANK_5_BB;
  const Bitboard en_passant = shift<pawn_push(Us)>(pawn_attacks_bb<Them>(their_pawns)) & OurRank4;
  r.near[PAWN] = all & ~pawn_attacks_bb<Them>(steps | tk_bb) & ~en_passant;
  r.near[KNIGHT] = all & ~knight;
  r.near[BISHOP] = r.near[ROOK] = r.near[QUEEN] = all;
  r.near[KING] = all & ~king;
  for (PieceType pt : {PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING}) r.ok[pt] = r.near[pt] & ~sliders_seen;
}

// Both shortcuts for a caller that holds no zone (the tests).
template <Color Us, bool Chess960>
inline void king_shortcut(const Position& pos, KingShortcut& k) {
  KingZone z;
  king_zone<Us>(pos, z);
  king_shortcut<Us, Chess960>(pos, z, k);
}
template <Color Us>
inline void reply_shortcut(const Position& pos, ReplyShortcut& r) {
  KingZone z;
  king_zone<Us>(pos, z);
  reply_shortcut<Us>(pos, z, r);
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
  // A normal move that KingShortcut clears: the opponent's king's moves are k's.
  void known_king(Square from, Square to, PieceType pt, const KingShortcut& k) {
    Position child = pos;
    child.apply<Us, false>(from, to, pt, NORMAL, KNIGHT);
    n += count_moves_known_king<~Us, Chess960>(child, k.king_to) + k.castles;
  }
};

// The parent of leaves: plays each move through LeafPlayer, but for the quiet moves
// reply_shortcut clears, which count the opponent's replies on the unchanged board, worked
// out once, with the change in some of their sliders' moves.
template <Color Us, bool Chess960>
struct LeafParentSink {
  PlaySink<LeafPlayer<Us, Chess960>> each;
  ReplyShortcut r;
  Bitboard empty;
  uint64_t reused = 0;
  uint64_t replies = 0;
  bool counted = false;

  KingShortcut k;

  explicit LeafParentSink(const Position& p) : each{{p}}, empty(~p.pieces()) {
    KingZone z;
    king_zone<Us>(p, z);
    reply_shortcut<Us>(p, z, r);
    king_shortcut<Us, Chess960>(p, z, k);
  }
  // A move near allows, held back while it is the only one: alone it is played (the count
  // on the unchanged board would cost as much as the move's own).
  struct Held {
    Square from, to;
    PieceType pt;
  } held;
  bool holding = false;

  uint64_t total() {
    if (holding) {
      if (counted)
        add_near(held.from, held.to);
      else
        each.play(held.from, held.to, held.pt, NORMAL, KNIGHT);
    }
    return each.play.n + reused;
  }
  // The replies on the unchanged board (out of line, as reuse_near: the callers' loops
  // stay small enough for the compiler to inline each move's make into them).
  [[gnu::noinline]] void count_replies() {
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
  // The moves to the squares of same, each worth the replies on the unchanged board.
  void reuse(Bitboard same) {
    if (!counted) count_replies();
    reused += popcount(same) * replies;
  }
  // A move from f to t that near allows.
  [[gnu::noinline]] void reuse_near(PieceType pt, Square f, Square t) {
    if (!counted) {
      if (!holding) {
        held = {f, t, pt};
        holding = true;
        return;
      }
      count_replies();
    }
    add_near(f, t);
  }
  void add_near(Square f, Square t) {
    const Position& pos = each.play.pos;
    reused += replies + r.delta(pos.pieces(), pos.pieces(~Us), f, t);
  }
  [[gnu::always_inline]] void piece_moves(PieceType pt, Square from, Bitboard to) {
    if ((r.near[pt] >> from) & 1) {
      Bitboard near = to & r.near[pt] & empty;
      if (near) {
        to ^= near;
        if ((r.ok[pt] >> from) & 1) {
          const Bitboard same = near & r.ok[pt];
          if (same) reuse(same), near ^= same;
        }
        while (near) reuse_near(pt, from, pop_lsb(near));
      }
    }
    play_moves(pt, from, to);
  }
  // The moves not reused: those KingShortcut clears with the opponent's king's moves known.
  void play_moves(PieceType pt, Square from, Bitboard to) {
    Bitboard known = (k.bad[pt] >> from) & 1 ? 0 : to & ~k.bad[pt];
    each.piece_moves(pt, from, to ^ known);
    while (known) each.play.known_king(from, pop_lsb(known), pt, k);
  }
  [[gnu::always_inline]] void pawn_moves(Bitboard to, int step) {
    // The squares whose pawn (step behind) may leave: ok shifted by the step.
    const auto behind = [step](Bitboard b) { return step > 0 ? b << step : b >> -step; };
    Bitboard near = to & r.near[PAWN] & empty & behind(r.near[PAWN]);
    if (near) {
      to ^= near;
      const Bitboard same = near & r.ok[PAWN] & behind(r.ok[PAWN]);
      if (same) reuse(same), near ^= same;
      while (near) {
        const Square t = pop_lsb(near);
        reuse_near(PAWN, t - step, t);
      }
    }
    Bitboard known = to & ~k.bad[PAWN] & ~behind(k.bad[PAWN]);
    each.pawn_moves(to ^ known, step);
    while (known) {
      const Square t = pop_lsb(known);
      each.play.known_king(t - step, t, PAWN, k);
    }
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

// The subtree of depth 2 or more below pos, its children's subtrees through the table,
// pos itself neither probed nor stored.
template <Color Us, bool Chess960>
uint64_t count_children(const Position& pos, int depth, PerftTableView* table) {
  if (depth == 2) return count_depth2<Us, Chess960>(pos);
  PlaySink<HashedChildren<Us, Chess960>> sink{{pos, depth - 1, table}};
  generate_legal_as<Us, Chess960>(pos, sink);
  return sink.play.count();
}

// The subtree of depth 2 or more below pos, whose probe missed, counted and stored.
template <Color Us, bool Chess960>
uint64_t count_and_store(const Position& pos, int depth, PerftTableView* table) {
  const uint64_t n = count_children<Us, Chess960>(pos, depth, table);
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

// The kernel's entries, each a function of the side to move and the variant.
template <bool Hashed>
struct Bulk {
  template <Color Us, bool Chess960>
  static uint64_t run(const Position& pos, int depth, PerftTableView* table) {
    return bulk<Us, Chess960, Hashed>(pos, depth, table);
  }
};
struct Children {
  template <Color Us, bool Chess960>
  static uint64_t run(const Position& pos, int depth, PerftTableView* table) {
    return count_children<Us, Chess960>(pos, depth, table);
  }
};

// Entry::run for pos's side to move and variant: the one place the four are chosen.
template <class Entry>
uint64_t for_side_and_variant(const Position& pos, int depth, PerftTableView* table) {
  if (pos.is_chess960())
    return pos.side_to_move() == WHITE ? Entry::template run<WHITE, true>(pos, depth, table)
                                       : Entry::template run<BLACK, true>(pos, depth, table);
  return pos.side_to_move() == WHITE ? Entry::template run<WHITE, false>(pos, depth, table)
                                     : Entry::template run<BLACK, false>(pos, depth, table);
}

template <bool Hashed>
uint64_t count_as(const Position& pos, int depth, PerftTableView* table) {
  return for_side_and_variant<Bulk<Hashed>>(pos, depth, table);
}

// perft::count_once's kernel: a subtree of depth 2 or more, through the table below pos.
inline uint64_t count_once_as(const Position& pos, int depth, PerftTableView* table) {
  return for_side_and_variant<Children>(pos, depth, table);
}

}  // namespace perft::kernel
}  // namespace chess
