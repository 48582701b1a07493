#include "core/game.h"

#include <algorithm>
#include <bit>

#include "core/movegen.h"

namespace chess {

namespace {

constexpr std::string_view RULE_NAMES[RULE_NB] = {
    "checkmate",   "stalemate",          "insufficient_material", "threefold_repetition", "fivefold_repetition",
    "fifty_moves", "seventy_five_moves", "site_thirty_moves",     "site_ten_checks",      "site_thirty_checks",
};

static_assert(std::ranges::max(RULE_NAMES, {}, &std::string_view::size).size() == RULE_NAME_MAX_BYTES);

constexpr uint16_t bit(Rule r) { return uint16_t(1u << int(r)); }

// The order in which rules end a game when several hold at one position: the game is
// over by mate or stalemate before anything else, a dead position needs no rule, the
// automatic draws need no claim, and a claim comes last.
constexpr Rule PRECEDENCE[RULE_NB] = {
    Rule::CHECKMATE,           Rule::STALEMATE,          Rule::INSUFFICIENT_MATERIAL,
    Rule::FIVEFOLD_REPETITION, Rule::SEVENTY_FIVE_MOVES, Rule::SITE_THIRTY_MOVES,
    Rule::SITE_TEN_CHECKS,     Rule::SITE_THIRTY_CHECKS, Rule::THREEFOLD_REPETITION,
    Rule::FIFTY_MOVES,
};

uint16_t enforced_rules(Ruleset rules, ClaimPolicy claims) {
  uint16_t r = bit(Rule::CHECKMATE) | bit(Rule::STALEMATE) | bit(Rule::INSUFFICIENT_MATERIAL);
  if (rules == Ruleset::SITE)
    return r | bit(Rule::SITE_THIRTY_MOVES) | bit(Rule::SITE_TEN_CHECKS) | bit(Rule::SITE_THIRTY_CHECKS);
  r |= bit(Rule::FIVEFOLD_REPETITION) | bit(Rule::SEVENTY_FIVE_MOVES);
  if (claims == ClaimPolicy::FIRST) r |= bit(Rule::THREEFOLD_REPETITION) | bit(Rule::FIFTY_MOVES);
  return r;
}

// Room for a long game without regrowing: most games end well before 256 plies.
constexpr size_t RESERVED_PLIES = 256;

// Whether the side to move has a legal move, answered from one free piece where one will
// do: out of check, a piece off every line through its own king cannot be pinned, so any
// move of its own kind is legal. The full generator answers the rest (checks, bare kings,
// blocked or pinned pieces). Replaying a game asks this at every ply, and the generator
// alone would cost more than the rest of Game::play.
bool can_move(const Position& pos, bool in_check) {
  if (in_check) return has_legal_move(pos);
  const Color us = pos.side_to_move();
  const Square ksq = pos.king_square(us);
  const Bitboard own = pos.pieces(us), occupied = pos.pieces();
  const Bitboard free = own & ~(ROOK_RAYS[ksq] | BISHOP_RAYS[ksq]);
  const Bitboard pawns = pos.pieces(PAWN) & free;
  if ((us == WHITE ? shift<NORTH>(pawns) : shift<SOUTH>(pawns)) & ~occupied) return true;
  for (Bitboard b = pos.pieces(KNIGHT) & free; b;)
    if (KNIGHT_ATTACKS[pop_lsb(b)] & ~own) return true;
  for (Bitboard b = (pos.pieces(BISHOP) | pos.pieces(QUEEN)) & free; b;)
    if (bishop_attacks(pop_lsb(b), occupied) & ~own) return true;
  for (Bitboard b = (pos.pieces(ROOK) | pos.pieces(QUEEN)) & free; b;)
    if (rook_attacks(pop_lsb(b), occupied) & ~own) return true;
  return has_legal_move(pos);
}

}  // namespace

std::string_view rule_name(Rule r) { return RULE_NAMES[int(r)]; }

std::optional<Rule> rule_from_name(std::string_view name) {
  for (int r = 0; r < RULE_NB; ++r)
    if (RULE_NAMES[r] == name) return Rule(r);
  return std::nullopt;
}

std::string_view result_string(Result r) {
  switch (r) {
    case Result::WHITE_WINS: return "1-0";
    case Result::BLACK_WINS: return "0-1";
    case Result::DRAW: return "1/2-1/2";
    default: return "*";
  }
}

bool insufficient_material(const Position& pos) {
  if (pos.pieces(PAWN) | pos.pieces(ROOK) | pos.pieces(QUEEN)) return false;
  Bitboard knights = pos.pieces(KNIGHT), bishops = pos.pieces(BISHOP);
  // A lone knight cannot mate a bare king; with any other piece beside it, a helpmate
  // exists (K+N+N v K, K+N v K+N, K+N v K+B).
  if (knights) return !more_than_one(knights) && !bishops;
  // Bishops of one colour check only a king on that colour. Its orthogonal neighbours are
  // of the other colour: no bishop stands on or guards them, and the enemy king cannot
  // guard them all without standing next to it. So it always has a flight square.
  return !(bishops & DARK_SQUARES) || !(bishops & ~DARK_SQUARES);
}

bool can_checkmate(const Position& pos, Color side) {
  if (insufficient_material(pos)) return false;
  Bitboard ours = pos.pieces(side) & ~pos.pieces(KING);
  if (!ours) return false;
  bool lone_minor = !more_than_one(ours) && (ours & (pos.pieces(KNIGHT) | pos.pieces(BISHOP)));
  bool bare_opponent = !(pos.pieces(~side) & ~pos.pieces(KING));
  return !(lone_minor && bare_opponent);
}

bool same_position(const Position& a, const Position& b) {
  if (a.side_to_move() != b.side_to_move() || a.castling() != b.castling() || a.ep_square() != b.ep_square() ||
      a.castling_squares() != b.castling_squares() || a.pieces(WHITE) != b.pieces(WHITE) ||
      a.pieces(BLACK) != b.pieces(BLACK))
    return false;
  for (int pt = PAWN; pt <= KING; ++pt)
    if (a.pieces(PieceType(pt)) != b.pieces(PieceType(pt))) return false;
  return true;
}

Game::Game(const Position& start, Ruleset rules, ClaimPolicy claims)
    : rules_(rules), claims_(claims), enforced_(enforced_rules(rules, claims)) {
  first_fire_.fill(-1);
  history_.reserve(RESERVED_PLIES);
  moves_.reserve(RESERVED_PLIES);
  gave_check_.reserve(RESERVED_PLIES);
  occurrences_.reserve(RESERVED_PLIES);
  history_.push_back(start);
  occurrences_.push_back({-1, 1});
  evaluate(start.in_check());
}

void Game::play(Move m) {
  const Color us = position().side_to_move();
  history_.push_back(position().after(m));
  moves_.push_back(m);

  const bool check = position().in_check();
  gave_check_.push_back(check);
  consecutive_checks_[us] = check ? consecutive_checks_[us] + 1 : 0;
  checks_received_[~us] += check;

  occurrences_.push_back(find_repetition());
  evaluate(check);
}

// The nearest earlier ply with the same position. Only plies since the last capture or
// pawn move can match (those moves cannot be undone), and only with the same side to
// move. Two plies back never matches: the side to move has moved a piece since, and the
// opponent's one move could only have captured it, which resets the clock. Keys find the
// candidates, same_position rules out a key collision.
Game::Occurrence Game::find_repetition() const {
  const Position& pos = position();
  const int n = ply();
  const int window = std::min(int(pos.rule50()), n);
  for (int i = 4; i <= window; i += 2) {
    const Position& old = history_[n - i];
    if (old.key() == pos.key() && same_position(old, pos)) return {n - i, occurrences_[n - i].count + 1};
  }
  return {-1, 1};
}

void Game::evaluate(bool in_check) {
  const Position& pos = position();
  const int n = ply();
  const bool mobile = can_move(pos, in_check);
  const int reps = occurrences_.back().count;
  const int clock = pos.rule50();

  uint16_t held = 0;
  if (!mobile) held |= bit(in_check ? Rule::CHECKMATE : Rule::STALEMATE);
  if (insufficient_material(pos)) held |= bit(Rule::INSUFFICIENT_MATERIAL);
  if (reps >= 3) held |= bit(Rule::THREEFOLD_REPETITION);
  if (reps >= 5) held |= bit(Rule::FIVEFOLD_REPETITION);
  // A mate on the move that reaches a limit stands: these hold only when not mated.
  if (mobile || !in_check) {
    if (clock >= 60) held |= bit(Rule::SITE_THIRTY_MOVES);
    if (clock >= 100) held |= bit(Rule::FIFTY_MOVES);
    if (clock >= 150) held |= bit(Rule::SEVENTY_FIVE_MOVES);
    if (std::max(consecutive_checks_[WHITE], consecutive_checks_[BLACK]) >= 10) held |= bit(Rule::SITE_TEN_CHECKS);
    if (std::max(checks_received_[WHITE], checks_received_[BLACK]) >= 30) held |= bit(Rule::SITE_THIRTY_CHECKS);
  }
  if (!held) return;

  for (uint16_t fresh = held & ~fired_; fresh; fresh &= fresh - 1) first_fire_[std::countr_zero(fresh)] = n;
  fired_ |= held;

  if (reps == 3 && !perpetual_check_) {
    int first = occurrences_[occurrences_.back().previous].previous;
    perpetual_check_ = one_side_checked_throughout(first, n);
  }

  if (!termination_ && (held & enforced_))
    for (Rule r : PRECEDENCE)
      if (held & enforced_ & bit(r)) {
        termination_ = r;
        termination_ply_ = n;
        break;
      }
}

// Whether every move of one side played between plies from and to gave check.
bool Game::one_side_checked_throughout(int from, int to) const {
  bool all[COLOR_NB] = {true, true};
  for (int k = from; k < to; ++k)  // moves_[k] leads from ply k to ply k + 1
    if (!gave_check_[k]) all[history_[k].side_to_move()] = false;
  return all[WHITE] || all[BLACK];
}

Result Game::result() const {
  if (!termination_) return Result::ONGOING;
  if (*termination_ != Rule::CHECKMATE) return Result::DRAW;
  return history_[termination_ply_].side_to_move() == WHITE ? Result::BLACK_WINS : Result::WHITE_WINS;
}

bool Game::may_resign() const { return rules_ != Ruleset::SITE || position().fullmove() > 15; }

}  // namespace chess
