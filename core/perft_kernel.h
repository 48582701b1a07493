// The bulk-counting kernel of perft: every move generated is played on a copy down to the
// last two plies, where the parent plays each move and counts the replies without
// playing them. core/perft.cpp instantiates it for the build's own instruction set; a
// portable build compiles it once more for x86-64-v3 (core/perft_x86_64_v3.cpp, PEXT
// slider lookups), and count() picks that copy at run time on a CPU that has it.
#pragma once

#include <cstdint>

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

// The moves of one side's knights, bishops, rooks and queens on a board where the other
// side is to move, piece by piece: each reply count one ply down reuses those of the
// pieces the move played cannot have changed.
template <Color Them>
struct ReplyCache {
  Bitboard pieces = 0, knights, diag, orth, occupied;
  uint64_t total = 0;
  uint8_t moves[64];

  explicit ReplyCache(const Position& pos)
      : knights(pos.pieces(Them, KNIGHT)),
        diag(pos.pieces(Them, BISHOP, QUEEN)),
        orth(pos.pieces(Them, ROOK, QUEEN)),
        occupied(pos.pieces()) {
    const Bitboard free = ~pos.pieces(Them);
    auto add = [&](Square s, Bitboard attacks) {
      moves[s] = uint8_t(popcount(attacks & free));
      total += moves[s];
    };
    for (Bitboard b = knights; b;) {
      Square s = pop_lsb(b);
      add(s, KNIGHT_ATTACKS[s]);
    }
    for (Bitboard b = diag & ~orth; b;) {
      Square s = pop_lsb(b);
      add(s, bishop_attacks(s, occupied));
    }
    for (Bitboard b = orth & ~diag; b;) {
      Square s = pop_lsb(b);
      add(s, rook_attacks(s, occupied));
    }
    for (Bitboard b = diag & orth; b;) {
      Square s = pop_lsb(b);
      add(s, queen_attacks(s, occupied));
    }
    pieces = knights | diag | orth;
  }
};

// Counts the replies after one move from..to of the parent: a piece's count on the
// parent's board still holds when it is not pinned now and its attack set held neither
// square (so that it neither gained nor lost a square, and no own piece of it was
// taken within reach). Castling and en passant change other squares: counted in full.
template <Color Them>
struct ReplySink : CountSink {
  const ReplyCache<Them>& cache;
  Square from, to;
  MoveKind kind;

  Bitboard known_pieces(Bitboard pinned, Bitboard checkers) {
    if (checkers || kind == CASTLING || kind == EN_PASSANT) return 0;
    const Bitboard occ = cache.occupied;
    const Bitboard reach = ((bishop_attacks(from, occ) | bishop_attacks(to, occ)) & cache.diag) |
                           ((rook_attacks(from, occ) | rook_attacks(to, occ)) & cache.orth) |
                           (KNIGHT_ATTACKS[to] & cache.knights);
    const Bitboard redo = cache.pieces & (reach | pinned | square_bb(to));
    n += cache.total;
    for (Bitboard b = redo; b;) n -= cache.moves[pop_lsb(b)];
    return cache.pieces & ~redo;
  }
};

template <Color Us, bool Chess960>
[[gnu::flatten]] CHESSHPC_COUNT_CLONES uint64_t count_replies(const Position& child, const ReplyCache<Us>& cache,
                                                              Square from, Square to, MoveKind kind) {
  ReplySink<Us> sink{{}, cache, from, to, kind};
  generate_legal_as<Us, Chess960>(child, sink);
  return sink.n;
}

// Plays each generated move on a copy; the subtree below it is counted by Count.
template <Color Us, class Count>
struct PlayEach {
  const Position& pos;
  Count count;
  uint64_t n = 0;

  void play(Square from, Square to, PieceType pt, MoveKind kind, PieceType promo = KNIGHT) {
    n += count(pos, from, to, pt, kind, promo);
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
  const Bitboard their_pieces = pos.pieces(~Us) & ~pos.pieces(PAWN) & ~pos.pieces(KING);
  if (depth == 2 && popcount(their_pieces) < 3) {
    auto last = [](const Position& parent, Square from, Square to, PieceType pt, MoveKind kind, PieceType promo) {
      Position child = parent;
      child.apply<Us, false>(from, to, pt, kind, promo);
      return count_moves<~Us, Chess960>(child);
    };
    PlayEach<Us, decltype(last)> sink{pos, last};
    generate_legal_as<Us, Chess960>(pos, sink);
    n = sink.n;
  } else if (depth == 2) {
    // The last ply: each child's replies are counted, reusing the parent's piece counts.
    const ReplyCache<~Us> cache(pos);
    auto last = [&cache](const Position& parent, Square from, Square to, PieceType pt, MoveKind kind, PieceType promo) {
      Position child = parent;
      child.apply<Us, false>(from, to, pt, kind, promo);
      return count_replies<~Us, Chess960>(child, cache, from, to, kind);
    };
    PlayEach<Us, decltype(last)> sink{pos, last};
    generate_legal_as<Us, Chess960>(pos, sink);
    n = sink.n;
  } else {
    auto deeper = [depth, table](const Position& parent, Square from, Square to, PieceType pt, MoveKind kind,
                                 PieceType promo) {
      Position child = parent;
      child.apply<Us, Hashed>(from, to, pt, kind, promo);
      return bulk<~Us, Chess960, Hashed>(child, depth - 1, table);
    };
    PlayEach<Us, decltype(deeper)> sink{pos, deeper};
    generate_legal_as<Us, Chess960>(pos, sink);
    n = sink.n;
  }
  if constexpr (Hashed) table->store(pos.key(), depth, n);
  return n;
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
