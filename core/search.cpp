#include "core/search.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>

#include "core/eval.h"
#include "core/game.h"
#include "core/movegen.h"
#include "core/see.h"

namespace chess {

namespace {

// The search's margins and limits. Each came with the search's first commit (d3175b1)
// and none has been tuned since (bench/README.md records tuning of the evaluation's
// weights only); where a formula is another engine's, its comment says whose. Scores
// are in centipawns (a pawn is 100, as in SEE_VALUE), depths in plies. A change to a
// pruning, reduction or ordering value will almost surely change the bench signature;
// the clock's cannot, since bench search runs to a fixed depth.

// Reverse futility pruning (negamax step 6): eval - RFP_MARGIN * (depth - improving) >= beta.
constexpr int RFP_MAX_DEPTH = 6;  // near the horizon only, where the static score says most about the subtree
constexpr int RFP_MARGIN = 80;    // a little under a pawn per ply the opponent has to bring the score down

// Null-move pruning (step 7): R = NMP_REDUCTION + depth / NMP_DEPTH_DIVISOR
//   + min((eval - beta) / NMP_EVAL_STEP, NMP_MAX_EVAL_REDUCTION).
constexpr int NMP_MIN_DEPTH = 3;           // the common minimum; at it R = 3 leaves quiescence alone
constexpr int NMP_REDUCTION = 3;           // the classic R = 3
constexpr int NMP_DEPTH_DIVISOR = 4;       // one ply more for every four of depth
constexpr int NMP_EVAL_STEP = 200;         // one ply more per two pawns above beta: Stockfish's term
constexpr int NMP_MAX_EVAL_REDUCTION = 3;  // Stockfish's cap on that term

// Internal iterative reduction (step 8).
constexpr int IIR_MIN_DEPTH = 6;  // shallower PV nodes without a hash move cost too little to matter

// Late-move pruning (step 10): Stockfish's futility_move_count, quiet moves after the
// first (LMP_BASE + depth * depth) / (2 - improving) are skipped.
constexpr int LMP_MAX_DEPTH = 7;  // where that count (26 or 52 moves) still bites
constexpr int LMP_BASE = 3;       // Stockfish's constant

// Futility pruning (step 10): a quiet move is skipped when
// eval + FUTILITY_BASE + FUTILITY_PER_PLY * depth <= alpha.
constexpr int FUTILITY_MAX_DEPTH = 6;  // the same horizon as reverse futility
constexpr int FUTILITY_BASE = 100;     // a pawn: more than a quiet move's positional gain, as a rule
constexpr int FUTILITY_PER_PLY = 90;   // nearly a pawn more for each ply left to win material back

// SEE pruning (step 10): a move is skipped when it loses more than SEE_QUIET_MARGIN * depth
// (quiet) or SEE_CAPTURE_MARGIN * depth * depth (capture).
constexpr int SEE_PRUNE_MAX_DEPTH = 6;  // the same horizon as futility
constexpr int SEE_QUIET_MARGIN = 60;    // Ethereal's shape (-64 * depth), rounded
constexpr int SEE_CAPTURE_MARGIN = 20;  // Ethereal's shape (-19 * depth^2), rounded

// Late-move reductions (step 12).
constexpr int LMR_MIN_DEPTH = 3;      // at depth 2 a reduction would send the child straight to quiescence
constexpr int LMR_FULL_MOVES = 2;     // moves searched at full depth before any is reduced
constexpr double LMR_BASE = 0.75;     // Ethereal's table: LMR_BASE + ln(depth) * ln(moves) / LMR_DIVISOR
constexpr double LMR_DIVISOR = 2.25;  // Ethereal's
constexpr int LMR_HISTORY_PER_PLY = History::MAX / 2;  // a ply for half the history range: two at most either way

// Quiet moves a node remembers for the history penalty when another quiet move cuts.
constexpr int MAX_QUIETS = 64;

// Quiescence's delta pruning: a capture is skipped when stand pat + the captured piece +
// DELTA_MARGIN <= alpha.
constexpr int DELTA_MARGIN = 200;  // two pawns: room for what the position gains beyond the material

// History bonus of a cutoff at depth d: HISTORY_BONUS_SCALE * min(d, HISTORY_BONUS_MAX_DEPTH)^2.
constexpr int HISTORY_BONUS_MAX_DEPTH = 20;  // caps the bonus at 6,400, under half of History::MAX
constexpr int HISTORY_BONUS_SCALE = 16;      // a cutoff at depth 1 is worth 16, at depth 8 1,024

// Aspiration windows (iterative deepening in run()).
constexpr int ASPIRATION_MIN_DEPTH = 5;  // shallower iterations are cheap and their scores swing
constexpr int ASPIRATION_WINDOW = 20;    // a fifth of a pawn either side, doubled on each fail

// Time management (run()).
constexpr int64_t MOVE_OVERHEAD_MS = 30;  // kept back per move for the interface and the pipe
constexpr int DEFAULT_MOVES_TO_GO = 30;   // the moves still to play when the clock does not say
constexpr int MAX_MOVES_TO_GO = 40;       // a longer movestogo is planned as this many moves
constexpr int INCREMENT_PERCENT = 75;     // of the increment spent on this move; the rest is banked
constexpr int HARD_PER_SOFT = 4;          // the hard limit is at most this many soft limits...
constexpr int HARD_CLOCK_DIVISOR = 3;     // ...and at most a third of the clock plus the increment
constexpr int NEW_ITERATION_DIVISOR = 2;  // none starts after half the soft limit: each takes longer than the last

constexpr int TIME_CHECK_INTERVAL = 1024;  // nodes between clock reads in timed searches
// Clock limits are capped here (2^40 ms, 35 years): a longer one plans the same moves, and
// sums and products of capped values cannot overflow (a UCI increment of 2^63 - 1 did).
constexpr int64_t MAX_CLOCK_MS = int64_t(1) << 40;

// Late-move reductions grow with the logarithm of both depth and move number.
constexpr int LMR_SIZE = 64;  // depths and move numbers beyond are read at the last entry
const std::array<std::array<int8_t, LMR_SIZE>, LMR_SIZE> LMR = [] {
  std::array<std::array<int8_t, LMR_SIZE>, LMR_SIZE> t{};
  for (int d = 1; d < LMR_SIZE; ++d)
    for (int m = 1; m < LMR_SIZE; ++m) t[d][m] = int8_t(LMR_BASE + std::log(d) * std::log(m) / LMR_DIVISOR);
  return t;
}();

// Captures, en-passant captures and queen promotions (the moves quiescence looks at).
struct TacticalSink {
  MoveList& list;
  Bitboard enemies;
  void piece_moves(PieceType, Square from, Bitboard to) {
    for (to &= enemies; to;) list.push(Move(from, pop_lsb(to)));
  }
  void pawn_moves(Bitboard to, int step) {
    if (step == 8 || step == -8 || step == 16 || step == -16) return;
    while (to) {
      Square s = pop_lsb(to);
      list.push(Move(s - step, s));
    }
  }
  void promotions(Bitboard to, int step) {
    while (to) {
      Square s = pop_lsb(to);
      list.push(Move(s - step, s, PROMOTION, QUEEN));
    }
  }
  void en_passant(Square from, Square to) { list.push(Move(from, to, EN_PASSANT)); }
  void castle(Square, Square) {}
};

// Mate scores count plies from the root; the table keeps them counted from the node, so
// that an entry reached again at another ply gives the right distance to mate.
int score_to_tt(int v, int ply) {
  return v >= VALUE_MATE_IN_MAX_PLY ? v + ply : v <= -VALUE_MATE_IN_MAX_PLY ? v - ply : v;
}
int score_from_tt(int v, int ply) {
  return v >= VALUE_MATE_IN_MAX_PLY ? v - ply : v <= -VALUE_MATE_IN_MAX_PLY ? v + ply : v;
}

bool has_non_pawn_material(const Position& pos, Color c) {
  return pos.pieces(c) & ~pos.pieces(c, PAWN) & ~pos.pieces(c, KING);
}

// The piece type a move takes, or NO_PIECE_TYPE.
PieceType captured_type(const Position& pos, Move m) {
  if (m.kind() == EN_PASSANT) return PAWN;
  if (m.kind() == CASTLING || !(pos.pieces(~pos.side_to_move()) & square_bb(m.to()))) return NO_PIECE_TYPE;
  return type_of(pos.piece_on(m.to()));
}

// Picks moves best-first from a scored list: most nodes cut after one or two moves,
// so a full sort would be wasted work. Moves and scores sit together, so that ordering
// moves one 8-byte pair instead of chasing an index into a second array.
class MovePicker {
 public:
  void add(Move m, int score) {
    if (n_ == int(MoveList::CAPACITY)) [[unlikely]]
      move_list_overflow();
    list_[n_++].s = {m, score};
  }
  bool next(Move& m, int& score) {
    if (i_ >= n_) return false;
    if (i_ < SELECTED) {
      int best = i_;
      for (int j = i_ + 1; j < n_; ++j)
        if (list_[j].s.score > list_[best].s.score) best = j;
      std::swap(list_[i_].s, list_[best].s);
    } else if (i_ == SELECTED) {
      // A node that got this far will likely search all its moves: one (stable)
      // insertion sort of the rest is cheaper than selecting each.
      for (int j = i_ + 1; j < n_; ++j) {
        Scored x = list_[j].s;
        int k = j;
        for (; k > i_ && list_[k - 1].s.score < x.score; --k) list_[k].s = list_[k - 1].s;
        list_[k].s = x;
      }
    }
    m = list_[i_].s.move;
    score = list_[i_].s.score;
    ++i_;
    return true;
  }

 private:
  struct Scored {
    Move move;
    int score;
  };
  // Left uninitialised (Move's default would zero 2 KB per node): add() fills a slot
  // before anything reads it.
  union Slot {
    Scored s;
    Slot() {}
  };
  static constexpr int SELECTED = 3;
  int n_ = 0, i_ = 0;
  Slot list_[MoveList::CAPACITY];
};

constexpr int SCORE_TT_MOVE = 1 << 30;
constexpr int SCORE_GOOD_CAPTURE = 1 << 28;
constexpr int SCORE_KILLER = 1 << 27;
constexpr int SCORE_BAD_CAPTURE = -(1 << 28);

// Most valuable victim first, then least valuable attacker: the attacker's type (less
// than 8) only breaks ties between equal victims.
int mvv_lva(const Position& pos, Move m, PieceType victim) {
  int v = victim == NO_PIECE_TYPE ? 0 : SEE_VALUE[victim];
  if (m.kind() == PROMOTION) v += SEE_VALUE[m.promotion()];
  return v * 8 - type_of(pos.piece_on(m.from()));
}

// Which nodes a move order is for.
enum class Ordering { Quiescence, FullWidth };

// Scores every move of a node into picker, one ladder for both searches: the hash move;
// captures and promotions by MVV-LVA; the two killers (killers[0] first); quiet moves by
// history. A full-width node also splits the captures by SEE: those that lose material
// go below every quiet move. Quiescence does neither, and takes killers as null: out
// of check it searches no capture that loses material, and a ply's killers are the
// full-width nodes'.
template <Ordering ordering>
void score_moves(MovePicker& picker, const Position& pos, const MoveList& moves, Move tt_move, const History& history,
                 const Move* killers) {
  constexpr bool full_width = ordering == Ordering::FullWidth;
  const Color us = pos.side_to_move();
  for (Move m : moves) {
    PieceType victim = captured_type(pos, m);
    if (m == tt_move)
      picker.add(m, SCORE_TT_MOVE);
    else if (victim != NO_PIECE_TYPE || m.kind() == PROMOTION)
      picker.add(m,
                 (!full_width || see_ge(pos, m, 0) ? SCORE_GOOD_CAPTURE : SCORE_BAD_CAPTURE) + mvv_lva(pos, m, victim));
    else if (full_width && m == killers[0])
      picker.add(m, SCORE_KILLER + 1);
    else if (full_width && m == killers[1])
      picker.add(m, SCORE_KILLER);
    else
      picker.add(m, history.at(us, m));
  }
}

}  // namespace

void History::update(Color c, Move m, int bonus) {
  int& e = at(c, m);
  e += bonus - e * std::abs(bonus) / MAX;
}

void History::clear() { std::fill_n(table_[0][0], size_t(COLOR_NB) * SQUARE_NB * SQUARE_NB, 0); }

Search::Search(size_t hash_bytes) : tt_(hash_bytes) { clear(); }

void Search::clear() {
  tt_.clear();
  history_.clear();
  for (Frame& f : stack_) f = Frame{};
}

int64_t Search::elapsed_ms() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start_).count();
}

// Counts the node unless a limit has ended the search. The node limit is exact: a
// search never visits more nodes than it allows.
bool Search::enter_node(int ply) {
  if (stopped_) return false;
  if ((limits_.nodes && nodes_ >= limits_.nodes) || stop_requested_.load(std::memory_order_relaxed)) {
    stopped_ = true;
    return false;
  }
  if (hard_ms_ && (nodes_ % TIME_CHECK_INTERVAL) == 0 && elapsed_ms() >= hard_ms_) {
    stopped_ = true;
    return false;
  }
  ++nodes_;
  seldepth_ = std::max(seldepth_, ply);
  return true;
}

// Draws the search can see without moves: the 50-move rule (unless the side to move is
// mated), dead material, and a repetition. A position seen before on the search path
// is scored a draw at once (the side that could avoid it will); one seen only in the
// game before the root must have stood there twice, as threefold repetition asks.
bool Search::is_draw(const Position& pos, int ply, bool in_check) const {
  if (pos.rule50() >= 100 && (!in_check || has_legal_move(pos))) return true;
  if (insufficient_material(pos)) return true;
  int back = std::min(pos.rule50(), stack_[ply].plies_from_null);
  size_t index = root_index_ + ply;
  int before_root = 0;
  for (int i = 4; i <= back && size_t(i) <= index; i += 2)
    if (keys_[index - i] == pos.key()) {
      if (index - i >= root_index_ || ++before_root == 2) return true;
    }
  return false;
}

void Search::update_pv(int ply, Move m) {
  pv_[ply][ply] = m;
  for (int i = ply + 1; i < pv_len_[ply + 1]; ++i) pv_[ply][i] = pv_[ply + 1][i];
  pv_len_[ply] = std::max(pv_len_[ply + 1], ply + 1);
}

void Search::update_quiet_stats(const Position& pos, int ply, Move best, const Move* quiets, int quiet_count,
                                int depth) {
  Frame& f = stack_[ply];
  if (f.killers[0] != best) f.killers[1] = f.killers[0], f.killers[0] = best;
  const int bonus = std::min(depth * depth, HISTORY_BONUS_MAX_DEPTH * HISTORY_BONUS_MAX_DEPTH) * HISTORY_BONUS_SCALE;
  const Color us = pos.side_to_move();
  history_.update(us, best, bonus);
  for (int i = 0; i < quiet_count; ++i)
    if (quiets[i] != best) history_.update(us, quiets[i], -bonus);
}

int Search::qsearch(const Position& pos, int alpha, int beta, int ply, bool in_check) {
  if (!enter_node(ply)) return 0;
  pv_len_[ply] = ply;
  if (ply >= MAX_PLY) return evaluate(pos, pawns_);

  const TTEntry* tte = tt_.probe(pos.key());
  Move tt_move;
  if (tte) {
    int v = score_from_tt(tte->score, ply);
    tt_move = tte->move;
    if (beta - alpha == 1 && ((tte->bound() == BOUND_LOWER && v >= beta) ||
                              (tte->bound() == BOUND_UPPER && v <= alpha) || tte->bound() == BOUND_EXACT))
      return v;
  }

  int best = -VALUE_INFINITE, stand_pat = 0;
  if (!in_check) {
    stand_pat = tte ? tte->eval : evaluate(pos, pawns_);
    if (stand_pat >= beta) return stand_pat;
    alpha = std::max(alpha, stand_pat);
    best = stand_pat;
  }

  MoveList moves;
  if (in_check) {
    ListSink sink{moves};
    generate_legal(pos, sink);
    if (moves.empty()) return -VALUE_MATE + ply;
  } else {
    TacticalSink sink{moves, pos.pieces(~pos.side_to_move())};
    generate_legal(pos, sink);
  }
  MovePicker picker;
  score_moves<Ordering::Quiescence>(picker, pos, moves, tt_move, history_, nullptr);

  Move m, best_move;
  int s;
  const int old_alpha = alpha;
  while (picker.next(m, s)) {
    if (!in_check) {
      PieceType victim = captured_type(pos, m);
      // Even winning the piece outright cannot lift the score to alpha.
      if (m.kind() != PROMOTION && stand_pat + SEE_VALUE[victim] + DELTA_MARGIN <= alpha) continue;
      if (!see_ge(pos, m, 0)) continue;
    }
    Position child = pos.after(m);
    tt_.prefetch(child.key());
    int v = -qsearch(child, -beta, -alpha, ply + 1, child.in_check());
    if (stopped_) return 0;
    if (v > best) {
      best = v;
      if (v > alpha) {
        alpha = v;
        best_move = m;
        update_pv(ply, m);
        if (v >= beta) break;
      }
    }
  }
  Bound bound = best >= beta ? BOUND_LOWER : alpha > old_alpha ? BOUND_EXACT : BOUND_UPPER;
  tt_.store(pos.key(), score_to_tt(best, ply), in_check ? 0 : stand_pat, bound, 0, best_move);
  return best;
}

int Search::negamax(const Position& pos, int alpha, int beta, int depth, int ply, bool null_allowed, bool in_check) {
  // Step 1. At the horizon, quiescence search takes over.
  if (depth <= 0) return qsearch(pos, alpha, beta, ply, in_check);

  // Step 2. Count the node, unless a limit has ended the search.
  if (!enter_node(ply)) return 0;
  const bool pv_node = beta - alpha > 1;
  const bool root = ply == 0;
  pv_len_[ply] = ply;

  // Step 3. Draws, the ply limit, and mate distance pruning: no mate found further down
  // can beat one already certain nearer the root.
  if (!root) {
    if (is_draw(pos, ply, in_check)) return VALUE_DRAW;
    if (ply >= MAX_PLY) return evaluate(pos, pawns_);
    alpha = std::max(alpha, -VALUE_MATE + ply);
    beta = std::min(beta, VALUE_MATE - ply - 1);
    if (alpha >= beta) return alpha;
  }
  Frame& frame = stack_[ply];
  stack_[ply + 1].killers[0] = stack_[ply + 1].killers[1] = Move::none();

  // Step 4. Transposition table: an entry searched at least this deep whose bound
  // settles the window ends a non-PV node; any entry gives the move to try first.
  const TTEntry* tte = tt_.probe(pos.key());
  Move tt_move;
  if (tte) {
    tt_move = tte->move;
    int v = score_from_tt(tte->score, ply);
    if (!pv_node && tte->depth >= depth &&
        ((tte->bound() == BOUND_LOWER && v >= beta) || (tte->bound() == BOUND_UPPER && v <= alpha) ||
         tte->bound() == BOUND_EXACT))
      return v;
  }

  // Step 5. Static evaluation (the table's, when it has one), and whether it improved on
  // ours two plies up: improving nodes are pruned less and reduced less.
  int eval = 0;
  bool improving = false;
  if (in_check) {
    frame.eval = -VALUE_INFINITE;
  } else {
    eval = frame.eval = tte ? tte->eval : evaluate(pos, pawns_);
    improving = ply >= 2 && stack_[ply - 2].eval != -VALUE_INFINITE && eval > stack_[ply - 2].eval;
  }

  if (!pv_node && !in_check) {
    // Step 6. Reverse futility pruning: far enough above beta that a quiet move will not
    // fall below it.
    if (depth <= RFP_MAX_DEPTH && eval - RFP_MARGIN * (depth - improving) >= beta &&
        std::abs(beta) < VALUE_MATE_IN_MAX_PLY)
      return eval;

    // Step 7. Null move pruning: if passing still holds beta, a real move will too. Not
    // in check, not twice in a row, and not without pieces (zugzwang is common with
    // pawns only).
    if (null_allowed && depth >= NMP_MIN_DEPTH && eval >= beta && has_non_pawn_material(pos, pos.side_to_move())) {
      int r =
          NMP_REDUCTION + depth / NMP_DEPTH_DIVISOR + std::min((eval - beta) / NMP_EVAL_STEP, NMP_MAX_EVAL_REDUCTION);
      Position child = pos;
      child.do_null_move();
      keys_[root_index_ + ply + 1] = child.key();
      stack_[ply + 1].plies_from_null = 0;
      frame.move = Move::none();
      int v = -negamax(child, -beta, -beta + 1, depth - r, ply + 1, false, false);
      if (stopped_) return 0;
      if (v >= beta) return v >= VALUE_MATE_IN_MAX_PLY ? beta : v;
    }
  }

  // Step 8. Internal iterative reduction: without a hash move a node searched at full
  // depth is mostly wasted ordering effort.
  if (pv_node && depth >= IIR_MIN_DEPTH && tt_move.is_none()) --depth;

  // Step 9. The move loop. Its body, search_move, is steps 10 to 13; step 14 runs it on
  // the hash move, step 15 on the other moves in order.
  const Color us = pos.side_to_move();
  Move best_move;
  int best = -VALUE_INFINITE, move_count = 0, quiet_count = 0;
  Move quiets[MAX_QUIETS];
  const int old_alpha = alpha;

  // Whether a move checks, for pruning decisions: the squares from which each piece type
  // would check, worked out once per node on first need; moves of pieces that may
  // uncover a check and special moves take the exact test.
  Bitboard check_squares[PIECE_TYPE_NB] = {};
  Bitboard discoverers = 0;
  bool check_info = false;
  auto gives_check = [&](Move m) {
    if (!check_info) {
      check_info = true;
      const Square ksq = pos.king_square(~us);
      const Bitboard occupied = pos.pieces();
      check_squares[PAWN] = PAWN_ATTACKS[~us][ksq];
      check_squares[KNIGHT] = KNIGHT_ATTACKS[ksq];
      check_squares[BISHOP] = bishop_attacks(ksq, occupied);
      check_squares[ROOK] = rook_attacks(ksq, occupied);
      check_squares[QUEEN] = check_squares[BISHOP] | check_squares[ROOK];
      Bitboard snipers =
          (BISHOP_RAYS[ksq] & pos.pieces(us, BISHOP, QUEEN)) | (ROOK_RAYS[ksq] & pos.pieces(us, ROOK, QUEEN));
      while (snipers) discoverers |= BETWEEN[ksq][pop_lsb(snipers)] & pos.pieces(us);
    }
    if (m.kind() != NORMAL || (discoverers & square_bb(m.from()))) return pos.gives_check(m);
    return (check_squares[type_of(pos.piece_on(m.from()))] & square_bb(m.to())) != 0;
  };

  // Searches one move; true when it refutes the node (or the search was stopped).
  auto search_move = [&](Move m, int order_score) {
    ++move_count;
    const bool quiet = captured_type(pos, m) == NO_PIECE_TYPE && m.kind() != PROMOTION;

    // Step 10. Shallow pruning, once a move has kept us from being mated: late quiet
    // moves, quiet moves that cannot lift a hopeless static score to alpha (checks are
    // kept), and moves that lose too much material.
    if (!root && best > -VALUE_MATE_IN_MAX_PLY && !in_check) {
      if (quiet) {
        bool late = depth <= LMP_MAX_DEPTH && quiet_count >= (LMP_BASE + depth * depth) / (2 - improving);
        bool futile = depth <= FUTILITY_MAX_DEPTH && eval + FUTILITY_BASE + FUTILITY_PER_PLY * depth <= alpha;
        if ((late || futile) && !gives_check(m)) return false;
      }
      if (depth <= SEE_PRUNE_MAX_DEPTH && order_score < SCORE_KILLER &&
          !see_ge(pos, m, quiet ? -SEE_QUIET_MARGIN * depth : -SEE_CAPTURE_MARGIN * depth * depth))
        return false;
    }

    // Step 11. Make the move; a move that checks is extended by a ply.
    Position child = pos.after(m);
    const bool checks = child.in_check();
    tt_.prefetch(child.key());
    if (quiet && quiet_count < MAX_QUIETS) quiets[quiet_count++] = m;
    frame.move = m;
    keys_[root_index_ + ply + 1] = child.key();
    stack_[ply + 1].plies_from_null = frame.plies_from_null + 1;
    const int new_depth = depth - 1 + checks;

    // Step 12. Principal-variation search: the first move with the full window, the
    // others with a null window, late quiet ones reduced (more off the PV and for poor
    // history, less when improving, for killers and for good history). One that beats
    // alpha is searched again unreduced, then with the full window.
    int v;
    if (move_count == 1) {
      v = -negamax(child, -beta, -alpha, new_depth, ply + 1, true, checks);
    } else {
      int r = 0;
      if (depth >= LMR_MIN_DEPTH && move_count > LMR_FULL_MOVES && quiet) {
        r = LMR[std::min(depth, LMR_SIZE - 1)][std::min(move_count, LMR_SIZE - 1)];
        r += !pv_node;
        r -= improving;
        r -= order_score >= SCORE_KILLER;
        r -= order_score / LMR_HISTORY_PER_PLY;
        r = std::clamp(r, 0, new_depth - 1);
      }
      v = -negamax(child, -alpha - 1, -alpha, new_depth - r, ply + 1, true, checks);
      if (v > alpha && r > 0) v = -negamax(child, -alpha - 1, -alpha, new_depth, ply + 1, true, checks);
      if (v > alpha && v < beta) v = -negamax(child, -beta, -alpha, new_depth, ply + 1, true, checks);
    }
    if (stopped_) return true;

    // Step 13. A new best move; a quiet one that refutes the node becomes a killer and
    // gains history, at the expense of the quiet moves tried before it.
    if (v > best) {
      best = v;
      if (v > alpha) {
        alpha = v;
        best_move = m;
        update_pv(ply, m);
        if (v >= beta) {
          if (quiet) update_quiet_stats(pos, ply, m, quiets, quiet_count, depth);
          return true;
        }
      }
    }
    return false;
  };

  // Step 14. The hash move first, before any generation: it refutes the node often
  // enough that the rest need not be generated. It came from an entry with this
  // position's whole key, so it is legal here.
  bool refuted = !tt_move.is_none() && search_move(tt_move, SCORE_TT_MOVE);
  if (stopped_) return 0;

  // Step 15. The other moves, generated, scored and searched best-first; none at all
  // is mate or stalemate.
  if (!refuted) {
    MoveList moves;
    ListSink sink{moves};
    generate_legal(pos, sink);
    if (moves.empty()) return in_check ? -VALUE_MATE + ply : VALUE_DRAW;

    MovePicker picker;
    score_moves<Ordering::FullWidth>(picker, pos, moves, tt_move, history_, frame.killers);
    Move m;
    int order_score;
    while (picker.next(m, order_score))
      if (m != tt_move && search_move(m, order_score)) break;
    if (stopped_) return 0;
  }

  // Step 16. Every move was pruned: the node is no better than its static evaluation
  // suggests.
  if (best == -VALUE_INFINITE) best = alpha;

  // Step 17. Store the result in the transposition table.
  Bound bound = best >= beta ? BOUND_LOWER : alpha > old_alpha ? BOUND_EXACT : BOUND_UPPER;
  tt_.store(pos.key(), score_to_tt(best, ply), frame.eval == -VALUE_INFINITE ? 0 : frame.eval, bound, depth, best_move);
  return best;
}

SearchResult Search::run(const Position& root, const std::vector<Key>& history, const SearchLimits& limits,
                         const InfoCallback& info) {
  start_ = std::chrono::steady_clock::now();
  limits_ = limits;
  stopped_ = false;
  nodes_ = 0;
  tt_.new_search();

  // Clock limits: a share of the remaining time per move, and a hard cap for the move
  // in progress; both keep a margin for the interface's overhead.
  hard_ms_ = soft_ms_ = 0;
  if (limits.uses_clock()) {
    if (limits.movetime > 0) {
      hard_ms_ = soft_ms_ = std::max<int64_t>(1, std::min(limits.movetime, MAX_CLOCK_MS) - MOVE_OVERHEAD_MS);
    } else {
      Color us = root.side_to_move();
      int64_t left = std::clamp<int64_t>(us == WHITE ? limits.wtime : limits.btime, 1, MAX_CLOCK_MS);
      int64_t inc = std::clamp<int64_t>(us == WHITE ? limits.winc : limits.binc, 0, MAX_CLOCK_MS);
      int moves_left = limits.movestogo > 0 ? std::min(limits.movestogo, MAX_MOVES_TO_GO) : DEFAULT_MOVES_TO_GO;
      int64_t usable = std::max<int64_t>(1, left - MOVE_OVERHEAD_MS);
      soft_ms_ = std::min(usable, usable / moves_left + inc * INCREMENT_PERCENT / 100);
      hard_ms_ = std::min(usable, std::max<int64_t>(soft_ms_ * HARD_PER_SOFT, 1));
      hard_ms_ = std::min(hard_ms_, std::max<int64_t>(1, usable / HARD_CLOCK_DIVISOR + inc));
      soft_ms_ = std::max<int64_t>(1, std::min(soft_ms_, hard_ms_));
    }
  }

  keys_.assign(history.begin(), history.end());
  root_index_ = keys_.size();
  keys_.resize(root_index_ + MAX_PLY + 2);
  keys_[root_index_] = root.key();
  for (Frame& f : stack_) f = Frame{};
  // The game before the root holds no null moves: repetitions reach back as far as
  // the half-move clock allows.
  stack_[0].plies_from_null = 1 << 20;

  SearchResult result;
  MoveList root_moves = legal_moves(root);
  if (root_moves.empty()) {
    result.score = root.in_check() ? -VALUE_MATE : VALUE_DRAW;
    return result;
  }
  result.best = root_moves[0];

  const int max_depth = limits.depth > 0 ? std::min(limits.depth, MAX_PLY - 1) : MAX_PLY - 1;
  int score = 0;
  for (int depth = 1; depth <= max_depth; ++depth) {
    seldepth_ = 0;
    int delta = ASPIRATION_WINDOW;
    int alpha = -VALUE_INFINITE, beta = VALUE_INFINITE;
    if (depth >= ASPIRATION_MIN_DEPTH)
      alpha = std::max(score - delta, -VALUE_INFINITE), beta = std::min(score + delta, VALUE_INFINITE);
    int v;
    while (true) {
      v = negamax(root, alpha, beta, depth, 0, false, root.in_check());
      if (stopped_) break;
      if (v <= alpha) {
        beta = (alpha + beta) / 2;
        alpha = std::max(v - delta, -VALUE_INFINITE);
      } else if (v >= beta) {
        beta = std::min(v + delta, VALUE_INFINITE);
      } else {
        break;
      }
      delta += delta;
    }
    if (stopped_) break;
    score = v;
    result.score = v;
    result.depth = depth;
    result.seldepth = seldepth_;
    result.pv.assign(pv_[0], pv_[0] + pv_len_[0]);
    if (!result.pv.empty()) result.best = result.pv[0];
    result.nodes = nodes_;
    if (info) {
      SearchInfo i;
      i.depth = depth;
      i.seldepth = seldepth_;
      i.score = v;
      i.nodes = nodes_;
      i.milliseconds = elapsed_ms();
      i.hashfull = tt_.hashfull();
      i.pv = result.pv;
      info(i);
    }
    // A forced mate found within this depth will not get shorter by searching deeper.
    if (is_mate_score(v) && VALUE_MATE - std::abs(v) <= depth && !limits.infinite) break;
    if (soft_ms_ && elapsed_ms() >= soft_ms_ / NEW_ITERATION_DIVISOR) break;
  }
  result.nodes = nodes_;
  return result;
}

}  // namespace chess
