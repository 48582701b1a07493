#include "jobs/selfplay/game.h"

#include <cmath>

#include "core/movegen.h"

namespace chesshpc {

namespace {

constexpr uint64_t PLAY_STREAM = 3;
constexpr uint64_t VARIATION_STREAM = 4;  // apart from PLAY_STREAM: sampling draws as before
constexpr int MATE_SCORE = 100000;        // a mate score for adjudication, beyond any centipawn score

std::optional<int> adjudication_score(const MoveChoice& c) {
  if (c.mate_in) return *c.mate_in > 0 ? MATE_SCORE : -MATE_SCORE;
  return c.score_cp;
}

bool legal(const chess::Position& pos, chess::Move m) {
  for (chess::Move l : chess::legal_moves(pos))
    if (l == m) return true;
  return false;
}

// Runs of consecutive moves whose scores call for an adjudication.
struct Streaks {
  int losing[2] = {0, 0}, winning[2] = {0, 0};  // per side, its own moves
  int level = 0;                                // plies in a row near zero, both sides
  int decided = 0;                              // fastchess's two-sided run: plies of either side's
                                                // score beyond the bound
  std::optional<int> last;                      // the last mover's score

  // us moved with score; fullmove: the move's number; reset: the move was a capture or a
  // pawn move.
  void add(const Adjudication& a, chess::Color us, std::optional<int> score, int fullmove, bool reset) {
    last = score;
    const bool fastchess = a.rules == AdjudicationRules::FASTCHESS;
    if (fastchess && reset) level = 0;
    if (!score) {
      losing[us] = winning[us] = level = decided = 0;
      return;
    }
    losing[us] = a.resign_score && *score <= -a.resign_score ? losing[us] + 1 : 0;
    winning[us] = a.resign_score && *score >= a.resign_score ? winning[us] + 1 : 0;
    decided = a.resign_score && std::abs(*score) >= a.resign_score ? decided + 1 : 0;
    const bool counts = fastchess || fullmove >= a.draw_after_move;
    level = a.draw_score && counts && std::abs(*score) <= a.draw_score ? level + 1 : 0;
  }
  // chesshpc's: us, to move, resigns; fastchess's: us, who just moved, resigns.
  bool resigns(const Adjudication& a, chess::Color us) const {
    if (!a.resign_score) return false;
    if (a.rules == AdjudicationRules::FASTCHESS)
      return last && *last < 0 &&
             (a.resign_two_sided ? decided >= 2 * a.resign_moves : std::max(losing[0], losing[1]) >= a.resign_moves);
    return losing[us] >= a.resign_moves && (!a.resign_two_sided || winning[~us] >= a.resign_moves);
  }
  // fullmove: the number of the move to play next.
  bool level_draw(const Adjudication& a, int fullmove) const {
    const bool from = a.rules == AdjudicationRules::CHESSHPC || fullmove >= a.draw_after_move;
    return a.draw_score && from && level >= 2 * a.draw_moves;
  }
};

void finish(GameRecord& rec, Ending ending, chess::Result result, std::string termination) {
  rec.ending = ending, rec.result = result, rec.termination = std::move(termination);
}

// A player that threw ends the game there, as an error.
void player_error(GameRecord& rec, const Player& player, const std::exception& e) {
  finish(rec, Ending::ERROR, chess::Result::ONGOING, "error: " + player.name() + ": " + e.what());
}

// The clocks as the mover's engine is told them (UCI's wtime and btime). An opponent without
// a clock (a node, depth or movetime limit) is shown the mover's own time and increment,
// as cutechess-cli and fastchess do, so that an engine's time management sees an even game.
Clocks seen_by(Clocks clocks, chess::Color us, bool opponent_timed) {
  if (!opponent_timed)
    clocks.left_ms[~us] = clocks.left_ms[us], clocks.increment_ms[~us] = clocks.increment_ms[us],
    clocks.moves_to_go[~us] = clocks.moves_to_go[us];
  return clocks;
}

chess::Result win_for(chess::Color c) {
  return c == chess::WHITE ? chess::Result::WHITE_WINS : chess::Result::BLACK_WINS;
}

// One game in play, move by move: its record, the game, the players by colour, the
// game's random streams, both clocks and the adjudication's streaks.
class GamePlay {
 public:
  // The opening played from its start, as book moves, and both players told of a new
  // game (one that throws ends the game as an error).
  GamePlay(const GameSpec& spec, uint64_t index, Player& first, Player& second)
      : spec_(spec),
        white_(index % 2 == 0 ? first : second),
        black_(index % 2 == 0 ? second : first),
        vary_(chess::stream(spec.seed, index, VARIATION_STREAM)),
        rng_(chess::stream(spec.seed, index, PLAY_STREAM)) {
    rec_.index = index;
    rec_.opening = opening_for(spec.openings, index);
    rec_.white = white_.name(), rec_.black = black_.name();
    game_ = chess::Game(rec_.opening.start, spec.ruleset, spec.claims);
    for (chess::Move m : rec_.opening.moves) {
      game_.play(m);
      rec_.plies.push_back({m, m, {}, {}, 0, 0, true});
    }
    for (Player* p : {&white_, &black_}) {
      try {
        if (rec_.ending != Ending::ERROR) p->new_game();
      } catch (const std::exception& e) {
        player_error(rec_, *p, e);
      }
    }
    start_clocks(index);
  }

  // Whether a move is to be played: no player failed and no rule ended the game.
  bool going() const { return rec_.ending != Ending::ERROR && !game_.over(); }

  // Ends the game before the mover moves when the position's clocks overflow, the game is
  // too long, or the scores so far resign it or agree on a draw; true when it ended.
  bool adjudicated() {
    const chess::Position& pos = game_.position();
    const chess::Color us = pos.side_to_move();
    const Adjudication& adj = spec_.adjudication;
    const bool fastchess = adj.rules == AdjudicationRules::FASTCHESS;
    const bool too_long = adj.max_plies && game_.ply() >= adj.max_plies;
    // fastchess's resigning side is the one that just moved.
    const chess::Color loser = fastchess ? ~us : us;
    if (std::string full = pos.clock_overflow(); !full.empty())
      finish(rec_, Ending::ERROR, chess::Result::ONGOING, "error: " + full);
    else if (too_long && !fastchess)
      finish(rec_, Ending::MAX_LENGTH, chess::Result::DRAW, "max_length");
    else if (streaks_.resigns(adj, us) && game_.may_resign())
      finish(rec_, Ending::RESIGN, win_for(~loser), "resign");
    else if (streaks_.level_draw(adj, pos.fullmove()))
      finish(rec_, Ending::DRAW_ADJUDICATED, chess::Result::DRAW, "draw_adjudicated");
    else if (too_long)
      finish(rec_, Ending::MAX_LENGTH, chess::Result::DRAW, "max_length");
    else
      return false;
    return true;
  }

  // The mover chooses, its clock is charged, and its move is played and recorded; false
  // when that ended the game instead (the player threw, its flag fell, its move is not
  // legal).
  bool next_move() {
    const chess::Position& pos = game_.position();
    const chess::Color us = pos.side_to_move();
    Player& player = us == chess::WHITE ? white_ : black_;
    player.set_node_factor(spec_.variation > 0 ? 1 + spec_.variation * (2 * vary_.uniform() - 1) : 1);
    MoveChoice c;
    try {
      c = player.choose(game_, timed_[us] ? seen_by(*clocks_, us, timed_[~us]) : std::optional<Clocks>(), rng_);
    } catch (const std::exception& e) {
      player_error(rec_, player, e);
      return false;
    }
    rec_.search_seconds += c.seconds;
    if (timed_[us] && flag_fell(pos, us, c.seconds)) return false;
    if (!legal(pos, c.move)) {
      finish(rec_, Ending::ERROR, chess::Result::ONGOING, "error: " + player.name() + " played an illegal move");
      return false;
    }
    const int fullmove = pos.fullmove();  // pos is the game's position: the move changes it
    game_.play(c.move);
    streaks_.add(spec_.adjudication, us, adjudication_score(c), fullmove, game_.position().rule50() == 0);
    rec_.plies.push_back(
        {c.move, c.best, c.score_cp, c.mate_in, c.depth, c.nodes, false, int32_t(std::lround(c.seconds * 1000))});
    return true;
  }

  // The record, with the rule that ended the game (when one did) and what the game layer
  // tracked of every rule.
  GameRecord record() && {
    if (game_.over()) finish(rec_, Ending::RULE, game_.result(), std::string(chess::rule_name(*game_.termination())));
    rec_.first_fire = game_.first_fire();
    rec_.perpetual_check = game_.perpetual_check();
    rec_.checks[0] = game_.checks_given(chess::WHITE), rec_.checks[1] = game_.checks_given(chess::BLACK);
    return std::move(rec_);
  }

 private:
  // By colour: the first player's clock is White's in even games.
  void start_clocks(uint64_t index) {
    const TimeControl &white_tc = spec_.clocks[index % 2], &black_tc = spec_.clocks[1 - index % 2];
    timed_ = {white_tc.on(), black_tc.on()};
    tc_ = {white_tc, black_tc};
    if (timed_[chess::WHITE] || timed_[chess::BLACK])
      clocks_ = Clocks{{white_tc.base_ms, black_tc.base_ms},
                       {white_tc.increment_ms, black_tc.increment_ms},
                       {white_tc.moves, black_tc.moves}};
  }

  // Charges the mover's clock with its seconds; true (the game ended) when its flag fell
  // (its time below minus its margin), else its time, at least 0, gets the increment. As
  // fastchess does, the move that ends a period brings the next period's base before it
  // is charged.
  bool flag_fell(const chess::Position& pos, chess::Color us, double seconds) {
    const TimeControl& tc = tc_[us];
    long& left = clocks_->left_ms[us];
    if (int& to_go = clocks_->moves_to_go[us]; tc.moves > 0) {
      if (to_go == 1)
        to_go = tc.moves, left += tc.base_ms;
      else
        --to_go;
    }
    left -= long(seconds * 1000);
    if (left >= -tc.margin_ms) {
      left = std::max(left, 0L) + clocks_->increment_ms[us];
      return false;
    }
    // Site: a flag fall in the first 5 moves voids the game. FIDE 6.9: it loses, unless
    // the opponent could not mate by any series of legal moves.
    if (spec_.ruleset == chess::Ruleset::SITE && pos.fullmove() <= 5)
      finish(rec_, Ending::VOID, chess::Result::ONGOING, "void");
    else if (chess::can_checkmate(pos, ~us))
      finish(rec_, Ending::FLAG_FALL, win_for(~us), "flag_fall");
    else
      finish(rec_, Ending::FLAG_FALL_DRAW, chess::Result::DRAW, "flag_fall_draw");
    return true;
  }

  const GameSpec& spec_;
  GameRecord rec_;
  Player &white_, &black_;
  chess::Game game_;
  chess::Random vary_, rng_;
  std::array<bool, 2> timed_{};      // by colour: a player with a clock
  std::array<TimeControl, 2> tc_{};  // by colour
  std::optional<Clocks> clocks_;     // when either player has one
  Streaks streaks_;
};

}  // namespace

GameRecord play_game(const GameSpec& spec, uint64_t index, Player& first, Player& second) {
  GamePlay play(spec, index, first, second);
  while (play.going() && !play.adjudicated() && play.next_move()) {
  }
  return std::move(play).record();
}

}  // namespace chesshpc
