// Perft: the number of move paths of a given length, the standard test of a move
// generator. Counts of one subtree fit in 64 bits up to depth 13 of any position
// reached in play; totals over many subtrees are 128-bit.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/int128.h"
#include "core/perft_table.h"
#include "core/position.h"

namespace chess {

namespace perft {

// The deepest perft any command counts: perft's --depth, --max-depth and an EPD line's
// ;Dn, and UCI's `go perft` alike (a count past it would run for years).
inline constexpr int MAX_DEPTH = 20;

// Bulk-counting perft: at the last ply the legal moves are counted, not played. With a
// table, subtrees of depth 2 and more are looked up and stored there.
uint64_t count(const Position& pos, int depth, PerftTable* table = nullptr);
// count() of a position no other count reaches (one of a deduplicated set: a position
// counted once): its subtrees go through the table, but pos itself is neither probed (it
// cannot be there) nor stored (it would never be read, and would take an entry from a
// subtree that is).
uint64_t count_once(const Position& pos, int depth, PerftTable* table);

// The table bytes worth allocating for a count of depth below pos, asked for `asked`:
// asked, or less where the tree is too small to fill it. A count stores one entry per
// node with two plies or more left, fewer when positions repeat: every such node given
// TABLE_BYTES_PER_SUBTREE (a bucket a quarter full at most, where eight-entry buckets
// rarely overflow) is as good as any larger table, which only touches more pages (one
// 2 MB page per stored entry when they are few: `perft --depth 6 --hash 10G` touched all
// 10 GB and took 50 s). The nodes are counted ply by ply, no table, and the counting stops
// once the levels counted, or the next one estimated from the last branching factor, fill
// asked: a ply is counted only when that estimate puts it within asked's entries (a
// position whose branching grows fast may pass them by its growth).
inline constexpr size_t TABLE_BYTES_PER_SUBTREE = 32;
size_t table_bytes_for(const Position& pos, int depth, size_t asked);

// Counters over the moves of the last ply, as the chessprogramming wiki tabulates them.
// A move is counted in each class it belongs to:
//   captures        captures, en passant included
//   en_passant      en-passant captures
//   castles         castling moves
//   promotions      promotions, with or without capture, each of the four pieces once
//   checks          moves that leave the opponent in check, mates included
//   discovered      checks by a single piece that is not the one moved (the rook of a
//                   castling move counts as moved); double checks are not counted here
//   double_checks   moves that leave the opponent checked by two pieces
//   checkmates      checks that leave the opponent no legal move
struct Counters {
  u128 nodes = 0, captures = 0, en_passant = 0, castles = 0, promotions = 0;
  u128 checks = 0, discovered = 0, double_checks = 0, checkmates = 0;
  Counters& operator+=(const Counters& o);
  bool operator==(const Counters&) const = default;
};

Counters detailed(const Position& pos, int depth);

// Per-root-move results of a parallel run. Identical for every thread count.
struct RootCount {
  Move move;
  u128 nodes = 0;
  Counters counters;  // filled only by a detailed run
};

struct Options {
  int threads = 0;  // 0: every core this process may use
  bool detailed = false;
  PerftTable* table = nullptr;  // shared by all threads; ignored by detailed runs
  // Progress hooks: the number of tasks once planned, then each task's node count as it
  // finishes (called from worker threads, concurrently).
  std::function<void(size_t tasks)> on_plan;
  std::function<void(uint64_t nodes)> on_task_done;
};

std::vector<RootCount> divide(const Position& pos, int depth, const Options& opt);
u128 total(const std::vector<RootCount>& roots);
Counters total_counters(const std::vector<RootCount>& roots);

}  // namespace perft
}  // namespace chess
