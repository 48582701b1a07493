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

  void add(const Adjudication& a, chess::Color us, std::optional<int> score, int fullmove) {
    if (!score) {
      losing[us] = winning[us] = level = 0;
      return;
    }
    losing[us] = a.resign_score && *score <= -a.resign_score ? losing[us] + 1 : 0;
    winning[us] = a.resign_score && *score >= a.resign_score ? winning[us] + 1 : 0;
    level = a.draw_score && fullmove >= a.draw_after_move && std::abs(*score) <= a.draw_score ? level + 1 : 0;
  }
  bool resigns(const Adjudication& a, chess::Color us) const {
    return a.resign_score && losing[us] >= a.resign_moves && (!a.resign_two_sided || winning[~us] >= a.resign_moves);
  }
  bool level_draw(const Adjudication& a) const { return a.draw_score && level >= 2 * a.draw_moves; }
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
  if (!opponent_timed) clocks.left_ms[~us] = clocks.left_ms[us], clocks.increment_ms[~us] = clocks.increment_ms[us];
  return clocks;
}

chess::Result win_for(chess::Color c) {
  return c == chess::WHITE ? chess::Result::WHITE_WINS : chess::Result::BLACK_WINS;
}

}  // namespace

GameRecord play_game(const GameSpec& spec, uint64_t index, Player& first, Player& second) {
  GameRecord rec;
  rec.index = index;
  rec.opening = opening_for(spec.openings, index);
  Player& white = index % 2 == 0 ? first : second;
  Player& black = index % 2 == 0 ? second : first;
  rec.white = white.name(), rec.black = black.name();
  chess::Game game(rec.opening.start, spec.ruleset, spec.claims);
  for (chess::Move m : rec.opening.moves) {
    game.play(m);
    rec.plies.push_back({m, m, {}, {}, 0, 0, true});
  }
  for (Player* p : {&white, &black}) {
    try {
      if (rec.ending != Ending::ERROR) p->new_game();
    } catch (const std::exception& e) {
      player_error(rec, *p, e);
    }
  }
  chess::Random vary = chess::stream(spec.seed, index, VARIATION_STREAM);
  chess::Random rng = chess::stream(spec.seed, index, PLAY_STREAM);
  // By colour: the first player's clock is White's in even games.
  const TimeControl &white_tc = spec.clocks[index % 2], &black_tc = spec.clocks[1 - index % 2];
  const std::array<bool, 2> timed = {white_tc.on(), black_tc.on()};
  std::optional<Clocks> clock;
  if (timed[chess::WHITE] || timed[chess::BLACK])
    clock = Clocks{{white_tc.base_ms, black_tc.base_ms}, {white_tc.increment_ms, black_tc.increment_ms}};
  const Adjudication& adj = spec.adjudication;
  Streaks streaks;

  while (rec.ending != Ending::ERROR && !game.over()) {
    const chess::Position& pos = game.position();
    const chess::Color us = pos.side_to_move();
    if (std::string full = pos.clock_overflow(); !full.empty()) {
      finish(rec, Ending::ERROR, chess::Result::ONGOING, "error: " + full);
      break;
    }
    if (adj.max_plies && game.ply() >= adj.max_plies) {
      finish(rec, Ending::MAX_LENGTH, chess::Result::DRAW, "max_length");
      break;
    }
    if (streaks.resigns(adj, us) && game.may_resign()) {
      finish(rec, Ending::RESIGN, win_for(~us), "resign");
      break;
    }
    if (streaks.level_draw(adj)) {
      finish(rec, Ending::DRAW_ADJUDICATED, chess::Result::DRAW, "draw_adjudicated");
      break;
    }
    Player& player = us == chess::WHITE ? white : black;
    player.set_node_factor(spec.variation > 0 ? 1 + spec.variation * (2 * vary.uniform() - 1) : 1);
    MoveChoice c;
    try {
      c = player.choose(game, timed[us] ? seen_by(*clock, us, timed[~us]) : std::optional<Clocks>(), rng);
    } catch (const std::exception& e) {
      player_error(rec, player, e);
      break;
    }
    rec.search_seconds += c.seconds;
    if (timed[us]) {
      long& left = clock->left_ms[us];
      left -= long(c.seconds * 1000);
      if (left < 0) {
        // Site: a flag fall in the first 5 moves voids the game. FIDE 6.9: it loses, unless
        // the opponent could not mate by any series of legal moves.
        if (spec.ruleset == chess::Ruleset::SITE && pos.fullmove() <= 5)
          finish(rec, Ending::VOID, chess::Result::ONGOING, "void");
        else if (chess::can_checkmate(pos, ~us))
          finish(rec, Ending::FLAG_FALL, win_for(~us), "flag_fall");
        else
          finish(rec, Ending::FLAG_FALL_DRAW, chess::Result::DRAW, "flag_fall_draw");
        break;
      }
      left += clock->increment_ms[us];
    }
    if (!legal(pos, c.move)) {
      finish(rec, Ending::ERROR, chess::Result::ONGOING, "error: " + player.name() + " played an illegal move");
      break;
    }
    streaks.add(adj, us, adjudication_score(c), pos.fullmove());
    game.play(c.move);
    rec.plies.push_back(
        {c.move, c.best, c.score_cp, c.mate_in, c.depth, c.nodes, false, int32_t(std::lround(c.seconds * 1000))});
  }
  if (game.over()) finish(rec, Ending::RULE, game.result(), std::string(chess::rule_name(*game.termination())));
  rec.first_fire = game.first_fire();
  rec.perpetual_check = game.perpetual_check();
  rec.checks[0] = game.checks_given(chess::WHITE), rec.checks[1] = game.checks_given(chess::BLACK);
  return rec;
}

}  // namespace chesshpc
