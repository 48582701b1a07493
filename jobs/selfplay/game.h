// One selfplay game: an opening, two players, a ruleset and the adjudication rules, played
// to its end and recorded move by move. Everything random in it derives from
// (seed, game index), so a game is the same wherever and whenever it is played.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/game.h"
#include "core/random.h"
#include "jobs/selfplay/openings.h"

namespace chesshpc {

// A clock in milliseconds: base time and increment per move (0: no clock), the moves of
// each period when base_ms comes again after every `moves` moves of its side (0: one period
// for the game, tc=40/60 is 40), and how far below zero its time may go before the flag
// falls (fastchess's timemargin).
struct TimeControl {
  long base_ms = 0, increment_ms = 0;
  int moves = 0;
  long margin_ms = 0;
  bool on() const { return base_ms > 0; }
};

// Both clocks at a move, by colour (White, Black): time left, increment per move, and the
// moves left in the period (UCI's movestogo; 0: the clock has no periods).
struct Clocks {
  std::array<long, 2> left_ms{}, increment_ms{};
  std::array<int, 2> moves_to_go{};
};

// What a player decided at one position.
struct MoveChoice {
  chess::Move move = chess::Move::none();
  chess::Move best = chess::Move::none();  // the search's choice (move differs when sampled)
  std::optional<int> score_cp;             // the mover's view
  std::optional<int> mate_in;              // moves; negative when the mover is mated
  int depth = 0;
  uint64_t nodes = 0;
  double seconds = 0;
};

// A side of the game. Implementations: the built-in search, an external UCI engine.
class Player {
 public:
  virtual ~Player() = default;
  virtual std::string name() const = 0;
  virtual void new_game() = 0;
  // A new game that may start with the next choose() instead of now (an external engine
  // is sent its commands with the next search's, in one write): its errors are then
  // choose()'s. For one-position games, as rescore's.
  virtual void new_game_with_next_move() { new_game(); }
  // game: the game so far (start position and moves); clocks: both sides' when this player
  // has a clock, none when it moves by its own limits; rng: the game's own stream for any
  // random choice.
  virtual MoveChoice choose(const chess::Game& game, const std::optional<Clocks>& clocks, chess::Random& rng) = 0;
  // True once the player cannot be trusted to answer again (an external engine that timed
  // out, exited or broke the protocol): the batch starts a new one before the next game.
  virtual bool failed() const { return false; }
  // The next move's node limit is the player's times factor (GameSpec::variation), set
  // before each choose(); players without a node limit ignore it.
  void set_node_factor(double factor) { node_factor_ = factor; }

 protected:
  // The node limit of this move: nodes times the factor, at least 1; 0 (no node limit) stays 0.
  long game_nodes(long nodes) const { return nodes ? std::max(1L, std::lround(double(nodes) * node_factor_)) : 0; }

 private:
  double node_factor_ = 1;
};

// Whose rules adjudicate: chesshpc's own, or fastchess's, for its command lines. fastchess
// resigns a side right after the move whose score makes its run long enough (chesshpc: at
// its next turn), counts the draw's run over plies of both sides from the start, broken by
// a capture or a pawn move too, and asks the move number only when it adjudicates, and
// looks at the ply limit after the scores.
enum class AdjudicationRules : uint8_t { CHESSHPC, FASTCHESS };

// Game ends decided by the players' scores rather than the rules (0 turns a rule off).
struct Adjudication {
  AdjudicationRules rules = AdjudicationRules::CHESSHPC;
  int resign_score = 0;          // centipawns: a side at or below -score for resign_moves moves loses
  int resign_moves = 3;          // consecutive moves of the losing side
  bool resign_two_sided = true;  // the winner's own scores must agree (>= +score) over those moves
  int draw_score = 0;            // |score| at or below it, for both sides,
  int draw_moves = 8;            // for this many consecutive moves of each side,
  int draw_after_move = 40;      // from this move number on, is a draw
  int max_plies = 0;             // a game this long is a draw
};

// How a game ended: a rule of the game layer, an adjudication, or the clock.
enum class Ending : uint8_t { RULE, RESIGN, DRAW_ADJUDICATED, MAX_LENGTH, FLAG_FALL, FLAG_FALL_DRAW, VOID, ERROR };

struct PlyRecord {
  chess::Move move, best;
  std::optional<int> score_cp, mate_in;  // the mover's view
  int depth = 0;
  uint64_t nodes = 0;
  bool book = false;    // played from the opening, not chosen by a player
  int32_t time_ms = 0;  // the player's time choosing it
};

struct GameRecord {
  uint64_t index = 0;
  Opening opening;
  std::string white, black;                    // player names
  std::string white_settings, black_settings;  // what the batch asked of each (limits, options)
  uint64_t seed = 0;                           // the batch's seed: with index, all the game's randomness
  chess::Result result = chess::Result::ONGOING;
  Ending ending = Ending::RULE;
  std::string termination;       // the rule's name ("checkmate", ...) or "resign", "draw_adjudicated",
                                 // "max_length", "flag_fall", "flag_fall_draw", "void", "error: ..."
  std::vector<PlyRecord> plies;  // every move from the opening's start, book moves first
  std::array<int, chess::RULE_NB> first_fire{};
  bool perpetual_check = false;
  int checks[2] = {0, 0};     // given by White, by Black
  double search_seconds = 0;  // the players' time choosing moves (not in the dataset: it varies by run)
};

struct GameSpec {
  OpeningSpec openings;
  chess::Ruleset ruleset = chess::Ruleset::FIDE;
  chess::ClaimPolicy claims = chess::ClaimPolicy::FIRST;
  Adjudication adjudication;
  std::array<TimeControl, 2> clocks{};  // the first player's and the second's; off: the player's limits
  uint64_t seed = 0;
  // Per-move variation: the mover's node limit at each move of game i is scaled by a factor
  // drawn uniformly from [1 - variation, 1 + variation] out of (seed, i), so that the two
  // games of a pair differ even between deterministic players. 0: off.
  double variation = 0;
};

// Plays game `index`: `first` has White in even games and Black in odd ones. A player that
// throws (new_game() or choose(): an engine that hangs, exits, or answers what is no move)
// ends the game as an error, result `*` and termination "error: NAME: what".
GameRecord play_game(const GameSpec& spec, uint64_t index, Player& first, Player& second);

}  // namespace chesshpc
