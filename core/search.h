// Alpha-beta search: iterative deepening with principal-variation search and aspiration
// windows, a transposition table, quiescence search with static exchange pruning,
// null-move pruning, late-move reductions and check extension.
//
// One Search runs on one thread and owns all its tables, so many searches may run at
// once in one process. A search limited by depth or nodes never reads the clock to
// decide anything: the same position, history, limits and hash size give the same
// move, score and node count on every run.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "core/eval.h"
#include "core/position.h"
#include "core/search_tt.h"

namespace chess {

constexpr int MAX_PLY = 128;
constexpr int VALUE_INFINITE = 32001;
constexpr int VALUE_MATE = 32000;
// Scores beyond this are mates: VALUE_MATE - n is mate in n plies, -VALUE_MATE + n mated.
constexpr int VALUE_MATE_IN_MAX_PLY = VALUE_MATE - MAX_PLY;
constexpr int VALUE_DRAW = 0;

constexpr bool is_mate_score(int v) { return v >= VALUE_MATE_IN_MAX_PLY || v <= -VALUE_MATE_IN_MAX_PLY; }
// Moves to mate as UCI writes it ("score mate N"): positive when the side to move mates.
constexpr int mate_in_moves(int v) { return v > 0 ? (VALUE_MATE - v + 1) / 2 : -(VALUE_MATE + v) / 2; }

// What ends a search; zero (or -1 for the clocks) means no such limit. With none at all
// the search runs to MAX_PLY or until stop(). Times beyond 2^40 ms (35 years) count as
// 2^40, and a negative increment as none.
struct SearchLimits {
  int depth = 0;
  uint64_t nodes = 0;
  int64_t movetime = 0;  // milliseconds
  int64_t wtime = -1, btime = -1, winc = 0, binc = 0;
  int movestogo = 0;
  bool infinite = false;  // no clock: only depth, nodes and stop() end the search

  bool uses_clock() const { return !infinite && (movetime > 0 || wtime >= 0 || btime >= 0); }
};

// One completed iteration, as UCI's info line reports it.
struct SearchInfo {
  int depth = 0, seldepth = 0, score = 0;
  uint64_t nodes = 0;
  int64_t milliseconds = 0;
  int hashfull = 0;
  std::vector<Move> pv;
};

struct SearchResult {
  Move best;  // none only when the root has no legal move
  int score = 0;
  int depth = 0, seldepth = 0;
  uint64_t nodes = 0;
  std::vector<Move> pv;
};

using InfoCallback = std::function<void(const SearchInfo&)>;

// Quiet-move history: a score per (side to move, from, to) for how often that move
// refuted a node, weighted by depth. update()'s gravity shrinks a step the nearer the
// entry already stands to the bound on that side, so entries stay within [-MAX, MAX].
// Owned by one Search: not for concurrent use.
class History {
 public:
  // 2^14, set with the search's first commit: far from every other ordering score, so
  // history never lifts a quiet move above a killer or a good capture, nor drops one
  // below a losing capture.
  static constexpr int MAX = 16384;

  History() : table_(std::make_unique<int[][SQUARE_NB][SQUARE_NB]>(COLOR_NB)) {}

  int& at(Color c, Move m) { return table_[c][m.from()][m.to()]; }
  int at(Color c, Move m) const { return table_[c][m.from()][m.to()]; }
  // Adds bonus less the gravity e * |bonus| / MAX of the entry e. Needs |bonus| <= MAX.
  void update(Color c, Move m, int bonus);
  void clear();

 private:
  // 32 KB on the heap: Searches are built on threads' stacks (bench search, the tuner, tests).
  std::unique_ptr<int[][SQUARE_NB][SQUARE_NB]> table_;
};

class Search {
 public:
  explicit Search(size_t hash_bytes = size_t(16) << 20);

  // Resizes and clears the transposition table.
  void set_hash(size_t bytes) { tt_.resize(bytes); }
  size_t hash_bytes() const { return tt_.bytes(); }  // as allocated: a power of two of SearchTT::size_for
  // Forgets everything learned (table, history, killers): a new game.
  void clear();

  // Searches root. history holds the keys of the game's positions before root, oldest
  // first, for repetitions across the root. Blocks until a limit or stop() ends it.
  SearchResult run(const Position& root, const std::vector<Key>& history, const SearchLimits& limits,
                   const InfoCallback& info = {});

  // Ends the running search as soon as possible; safe from any thread. The request
  // stands, also for searches started later, until clear_stop(): a stop sent just
  // before a search starts is not lost.
  void stop() { stop_requested_.store(true, std::memory_order_relaxed); }
  void clear_stop() { stop_requested_.store(false, std::memory_order_relaxed); }

 private:
  struct Frame {
    Move killers[2];
    Move move;
    int eval = 0;
    int plies_from_null = 0;  // plies since the last null move on the path
  };

  // in_check: whether the side to move at pos is in check, known to every caller.
  int negamax(const Position& pos, int alpha, int beta, int depth, int ply, bool null_allowed, bool in_check);
  int qsearch(const Position& pos, int alpha, int beta, int ply, bool in_check);
  bool enter_node(int ply);
  bool is_draw(const Position& pos, int ply, bool in_check) const;
  void update_quiet_stats(const Position& pos, int ply, Move best, const Move* quiets, int quiet_count, int depth);
  void update_pv(int ply, Move m);
  int64_t elapsed_ms() const;

  SearchTT tt_;
  PawnCache pawns_;
  History history_;
  Frame stack_[MAX_PLY + 2];
  Move pv_[MAX_PLY + 1][MAX_PLY + 1];
  int pv_len_[MAX_PLY + 1];
  std::vector<Key> keys_;  // game history then the current path
  size_t root_index_ = 0;  // keys_ index of the root
  int root_rule50_ = 0;

  SearchLimits limits_;
  std::chrono::steady_clock::time_point start_;
  int64_t hard_ms_ = 0, soft_ms_ = 0;
  uint64_t nodes_ = 0;
  int seldepth_ = 0;
  bool stopped_ = false;
  std::atomic<bool> stop_requested_{false};
};

}  // namespace chess
