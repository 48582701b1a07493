// The bulk-counting kernel of perft: every move generated is played on a copy down to the
// last two plies, where the parent plays each move and counts the replies without
// playing them. core/perft.cpp instantiates it for the build's own instruction set; a
// portable build compiles it once more for x86-64-v3 (core/perft_x86_64_v3.cpp, PEXT
// slider lookups), and count() picks that copy at run time on a CPU that has it.
#pragma once

#include <cstdint>
#include <type_traits>

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
uint64_t bulk(const Position& pos, int depth, PerftTable* table);

// Flattened so that the sink's counter lives in a register: behind a reference it could
// alias the position's bitboards, and every add would force them to be reloaded.
template <Color Us, bool Chess960>
[[gnu::flatten]] CHESSHPC_COUNT_CLONES uint64_t count_moves(const Position& pos) {
  CountSink sink;
  generate_legal_as<Us, Chess960>(pos, sink);
  return sink.n;
}

// Plays each generated move on a copy and counts the subtree below it.
template <Color Us, bool Chess960, bool Hashed>
struct TreeSink {
  const Position& pos;
  int depth;          // of the subtrees below the moves
  PerftTable* table;  // null unless Hashed
  uint64_t n = 0;
  // With a table each child is probed only after its younger sibling is made and its
  // bucket prefetched: the child is held back one move, so the probe finds its line
  // loaded while the elder subtree was counted (13-20 % less user time in hashed
  // perft(7), bench/README.md). finish() counts the last child held.
  struct Held {
    Position child[2];
    int next = 0;
    bool holding = false;
  };
  struct NoHeld {};
  [[no_unique_address]] std::conditional_t<Hashed, Held, NoHeld> held{};

  void play(Square from, Square to, PieceType pt, MoveKind kind, PieceType promo = KNIGHT) {
    if constexpr (Hashed) {
      if (depth > 1) return play_held(from, to, pt, kind, promo);
    }
    Position child = pos;
    if (depth == 1) {
      child.apply<Us, false>(from, to, pt, kind, promo);
      n += count_moves<~Us, Chess960>(child);
    } else {
      child.apply<Us, Hashed>(from, to, pt, kind, promo);
      n += bulk<~Us, Chess960, Hashed>(child, depth, table);
    }
  }
  void play_held(Square from, Square to, PieceType pt, MoveKind kind, PieceType promo) {
    Position& child = held.child[held.next];
    child = pos;
    child.apply<Us, true>(from, to, pt, kind, promo);
    table->prefetch(child.key());
    if (held.holding) n += bulk<~Us, Chess960, true>(held.child[held.next ^ 1], depth, table);
    held.holding = true;
    held.next ^= 1;
  }
  uint64_t finish() {
    if constexpr (Hashed) {
      if (held.holding) n += bulk<~Us, Chess960, true>(held.child[held.next ^ 1], depth, table);
      held.holding = false;
    }
    return n;
  }
  void piece_moves(PieceType pt, Square from, Bitboard to) {
    while (to) play(from, pop_lsb(to), pt, NORMAL);
  }
  void pawn_moves(Bitboard to, int step) {
    while (to) {
      Square s = pop_lsb(to);
      play(s - step, s, PAWN, NORMAL);
    }
  }
  void promotions(Bitboard to, int step) {
    while (to) {
      Square s = pop_lsb(to);
      for (PieceType pt : {QUEEN, ROOK, BISHOP, KNIGHT}) play(s - step, s, PAWN, PROMOTION, pt);
    }
  }
  void en_passant(Square from, Square to) { play(from, to, PAWN, EN_PASSANT); }
  void castle(Square from, Square to) { play(from, to, KING, CASTLING); }
};

// Subtrees of depth 2 and more go through the table when there is one; a depth-1 count
// is cheaper than a probe.
template <Color Us, bool Chess960, bool Hashed>
uint64_t bulk(const Position& pos, int depth, PerftTable* table) {
  if (depth <= 1) return count_moves<Us, Chess960>(pos);
  uint64_t n;
  if constexpr (Hashed)
    if (table->probe(pos.key(), depth, n)) return n;
  TreeSink<Us, Chess960, Hashed> sink{pos, depth - 1, table};
  generate_legal_as<Us, Chess960>(pos, sink);
  uint64_t total = sink.finish();
  if constexpr (Hashed) table->store(pos.key(), depth, total);
  return total;
}

template <bool Hashed>
uint64_t count_as(const Position& pos, int depth, PerftTable* table) {
  if (pos.is_chess960())
    return pos.side_to_move() == WHITE ? bulk<WHITE, true, Hashed>(pos, depth, table)
                                       : bulk<BLACK, true, Hashed>(pos, depth, table);
  return pos.side_to_move() == WHITE ? bulk<WHITE, false, Hashed>(pos, depth, table)
                                     : bulk<BLACK, false, Hashed>(pos, depth, table);
}

}  // namespace perft::kernel
}  // namespace chess
