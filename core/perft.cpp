#include "core/perft.h"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <algorithm>

#include "core/movegen.h"
#include "core/perft_kernel.h"
#include "core/threads.h"
#include "core/tsan.h"

#if CHESSHPC_PERFT_X86_64_V3
// core/perft_x86_64_v3.cpp: the kernel compiled for x86-64-v3; pos is a chess::Position.
namespace chess_x86_64_v3::perft {
uint64_t count_no_table(const void* pos, int depth);
uint64_t count_with_table(const void* pos, int depth, const void* table);
uint64_t count_once(const void* pos, int depth, const void* table);
}  // namespace chess_x86_64_v3::perft
#endif

namespace chess {

namespace perft {

namespace {

// Classifies one last-ply move; slow (it plays the move and looks for replies), which
// is fine for a diagnostic count.
void classify(const Position& pos, Move m, Counters& c) {
  Color us = pos.side_to_move();
  Position child = pos.after(m);
  c.nodes += 1;
  bool capture = m.kind() == EN_PASSANT || (pos.pieces(~us) & square_bb(m.to()));
  c.captures += capture;
  c.en_passant += m.kind() == EN_PASSANT;
  c.castles += m.kind() == CASTLING;
  c.promotions += m.kind() == PROMOTION;
  Bitboard checkers = child.checkers();
  if (!checkers) return;
  c.checks += 1;
  Bitboard moved = square_bb(m.to());
  if (m.kind() == CASTLING) moved = square_bb(castling_destinations(m.from(), m.to()).second);
  c.discovered += !more_than_one(checkers) && !(checkers & moved);
  c.double_checks += more_than_one(checkers);
  c.checkmates += !has_legal_move(child);
}

void detailed_rec(const Position& pos, int depth, Counters& c) {
  MoveList moves = legal_moves(pos);
  for (Move m : moves) {
    if (depth == 1)
      classify(pos, m, c);
    else
      detailed_rec(pos.after(m), depth - 1, c);
  }
}

// One piece of parallel work: a position a few plies below the root, the root move it
// descends from, and the depth left to count.
struct Task {
  Position pos;
  uint16_t root;
  int depth;
};

void expand(const Position& pos, uint16_t root, int plies, int depth, std::vector<Task>& out) {
  if (plies == 0) {
    out.push_back({pos, root, depth});
    return;
  }
  for (Move m : legal_moves(pos)) expand(pos.after(m), root, plies - 1, depth - 1, out);
}

#if CHESSHPC_PERFT_X86_64_V3
// A portable build on a CPU with x86-64-v3 counts with the kernel compiled for it: PEXT
// slider lookups are what the portable build's magic multiplication lacks.
bool v3() {
  static const bool v3 = __builtin_cpu_supports("x86-64-v3");
  return v3;
}
#endif

}  // namespace

Counters& Counters::operator+=(const Counters& o) {
  nodes += o.nodes, captures += o.captures, en_passant += o.en_passant, castles += o.castles;
  promotions += o.promotions, checks += o.checks, discovered += o.discovered;
  double_checks += o.double_checks, checkmates += o.checkmates;
  return *this;
}

uint64_t count(const Position& pos, int depth, PerftTable* table) {
  if (depth <= 0) return 1;
#if CHESSHPC_PERFT_X86_64_V3
  if (v3())
    return table ? chess_x86_64_v3::perft::count_with_table(&pos, depth, &table->view())
                 : chess_x86_64_v3::perft::count_no_table(&pos, depth);
#endif
  if (table) return kernel::count_as<true>(pos, depth, table);
  return kernel::count_as<false>(pos, depth, nullptr);
}

uint64_t count_once(const Position& pos, int depth, PerftTable* table) {
  if (depth <= 2 || !table) return count(pos, depth);
#if CHESSHPC_PERFT_X86_64_V3
  if (v3()) return chess_x86_64_v3::perft::count_once(&pos, depth, &table->view());
#endif
  return kernel::count_once_as(pos, depth, table);
}

size_t table_bytes_for(const Position& pos, int depth, size_t asked) {
  const double room = double(asked) / TABLE_BYTES_PER_SUBTREE;
  double subtrees = 0, level = 1, previous = 0;
  for (int ply = 0; ply <= depth - 2; ++ply) {
    if (ply > 0) {
      // The next level, as many times the last as the last was the one before it: past
      // room already, it need not be counted.
      if (previous > 0 && subtrees + level * (level / previous) >= room) return asked;
      previous = level;
      level = double(count(pos, ply));
    }
    subtrees += level;
    if (subtrees >= room) return asked;
  }
  constexpr size_t ONE_PAGE = size_t(2) << 20;  // the least a table of huge pages allocates
  return std::min(asked, std::max(ONE_PAGE, PerftTable::size_for(size_t(subtrees) * TABLE_BYTES_PER_SUBTREE)));
}

Counters detailed(const Position& pos, int depth) {
  Counters c;
  if (depth <= 0) {
    c.nodes = 1;
    return c;
  }
  detailed_rec(pos, depth, c);
  return c;
}

std::vector<RootCount> divide(const Position& pos, int depth, const Options& opt) {
  std::vector<RootCount> roots;
  MoveList moves = legal_moves(pos);
  for (Move m : moves) roots.push_back({m, 0, {}});
  if (depth <= 0) return roots;
  if (depth == 1) {
    for (RootCount& r : roots) {
      r.nodes = 1;
      if (opt.detailed) classify(pos, r.move, r.counters);
    }
    return roots;
  }

  // Split up to three plies below the root while leaving at least one ply to each task:
  // enough tasks to balance a few dozen threads, few enough that listing them is free.
  int split = std::min(depth >= 7 ? 3 : 2, depth - 2);
  std::vector<Task> tasks;
  for (size_t i = 0; i < moves.size(); ++i) expand(pos.after(moves[i]), uint16_t(i), split, depth - 1, tasks);

  // Biggest subtrees first, estimated by their number of moves, so that no thread is
  // left alone with a large task at the end.
  std::vector<uint32_t> order(tasks.size()), size(tasks.size());
  for (size_t i = 0; i < tasks.size(); ++i) order[i] = uint32_t(i), size[i] = uint32_t(count_legal(tasks[i].pos));
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return size[a] > size[b]; });

  if (opt.on_plan) opt.on_plan(tasks.size());
  std::vector<Counters> results(tasks.size());
  auto run = [&](uint32_t i) {
    tsan::acquire(&tasks);
    const Task& t = tasks[i];
    if (opt.detailed)
      results[i] = detailed(t.pos, t.depth);
    else
      results[i].nodes = count(t.pos, t.depth, opt.table);
    if (opt.on_task_done) opt.on_task_done(uint64_t(results[i].nodes));
    tsan::release(&results);
  };
  int threads = resolve_threads(opt.threads);
  tbb::task_arena arena(threads);
  // The task list goes to TBB's threads and the results come back through its spawn and
  // wait alone (see core/tsan.h): told to TSan, with one key each way so that the tasks
  // are not ordered among themselves.
  tsan::release(&tasks);
  arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<size_t>(0, order.size(), 1), [&](const tbb::blocked_range<size_t>& r) {
      for (size_t i = r.begin(); i != r.end(); ++i) run(order[i]);
    });
  });
  tsan::acquire(&results);

  // Summed in task order, so the result never depends on the schedule.
  for (size_t i = 0; i < tasks.size(); ++i) {
    roots[tasks[i].root].nodes += results[i].nodes;
    roots[tasks[i].root].counters += results[i];
  }
  return roots;
}

u128 total(const std::vector<RootCount>& roots) {
  u128 n = 0;
  for (const auto& r : roots) n += r.nodes;
  return n;
}

Counters total_counters(const std::vector<RootCount>& roots) {
  Counters c;
  for (const auto& r : roots) c += r.counters;
  return c;
}

}  // namespace perft
}  // namespace chess
