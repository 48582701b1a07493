// A game: a start position plus its moves, with everything the rules of play need: the
// position history for repetition, the half-move clock, and the checks each side has
// given. It ends games as a ruleset says, and records for every rule the first ply at
// which its condition held, whatever ruleset is in force.
#pragma once

#include <array>
#include <optional>
#include <string_view>
#include <vector>

#include "core/position.h"

namespace chess {

enum class Ruleset : uint8_t {
  FIDE,  // the FIDE Laws of Chess
  SITE,  // an online play site: 30-move rule, 10 consecutive / 30 total checks, no repetition
};

// Whether a player claims a draw (threefold repetition, 50-move rule) as soon as the
// claim is possible (FIRST, as game generators do) or plays on (NEVER).
enum class ClaimPolicy : uint8_t { FIRST, NEVER };

// Every rule whose condition is tracked; the order is the order of the names in reports.
enum class Rule : uint8_t {
  CHECKMATE,
  STALEMATE,
  INSUFFICIENT_MATERIAL,
  THREEFOLD_REPETITION,
  FIVEFOLD_REPETITION,
  FIFTY_MOVES,
  SEVENTY_FIVE_MOVES,
  SITE_THIRTY_MOVES,
  SITE_TEN_CHECKS,
  SITE_THIRTY_CHECKS,
};
constexpr int RULE_NB = 10;

// "checkmate", "stalemate", "insufficient_material", "threefold_repetition",
// "fivefold_repetition", "fifty_moves", "seventy_five_moves", "site_thirty_moves",
// "site_ten_checks", "site_thirty_checks".
std::string_view rule_name(Rule r);
inline constexpr size_t RULE_NAME_MAX_BYTES = 21;  // "insufficient_material"
std::optional<Rule> rule_from_name(std::string_view name);

enum class Result : uint8_t { WHITE_WINS, BLACK_WINS, DRAW, ONGOING };
std::string_view result_string(Result r);  // "1-0", "0-1", "1/2-1/2", "*"

// Conditions, exactly (ply 0 is the start position, ply n the position after n moves):
//   checkmate, stalemate    the side to move has no legal move, in check or not
//   insufficient_material   no sequence of legal moves can mate: K v K, K+N v K, K+B v K,
//                           and kings with any number of bishops all on squares of one colour
//   threefold_repetition    the position has stood 3 times (same side to move, pieces,
//                           castling rights, and en-passant rights where the capture is legal)
//   fivefold_repetition     the position has stood 5 times
//   fifty_moves             the last 50 moves of each side (100 plies) had no capture and no
//                           pawn move, and the position is not checkmate
//   seventy_five_moves      likewise 75 moves (150 plies)
//   site_thirty_moves       likewise 30 moves (60 plies)
//   site_ten_checks         one side's last 10 moves all gave check, and the side to move is
//                           not mated
//   site_thirty_checks      one player has been checked 30 times in the game, and is not mated
// The clock rules read the position's half-move clock, so a FEN's clock counts; checks
// are counted from the game's first move, repetitions from the start position on.
//
// Rules in force: FIDE ends a game by checkmate, stalemate, insufficient material,
// fivefold and 75 moves, and by threefold and 50 moves when the claim policy claims.
// SITE ends it by checkmate, stalemate, insufficient material, 30 moves, 10 consecutive
// and 30 total checks; it has no claims, so the claim policy does not matter there.
class Game {
 public:
  explicit Game(const Position& start = Position::start(), Ruleset rules = Ruleset::FIDE,
                ClaimPolicy claims = ClaimPolicy::FIRST);

  // Plays a legal move (the caller checks legality, e.g. with parse_move). Allowed after
  // the game is over, so that recorded games can be followed to their end.
  void play(Move m);

  const Position& position() const { return history_.back(); }
  const Position& start() const { return history_.front(); }
  const Position& position_at(int ply) const { return history_[size_t(ply)]; }
  int ply() const { return int(history_.size()) - 1; }
  const std::vector<Move>& moves() const { return moves_; }
  // Whether the move played at ply (0-based) gave check.
  bool gave_check(int ply) const { return gave_check_[size_t(ply)] != 0; }

  // The rule that ended the game under its ruleset at the first position where one did,
  // or nothing while it goes on. Precedence at one position: checkmate, stalemate,
  // insufficient material, then the automatic draws (fivefold, 75 moves; site: 30 moves,
  // checks), then the claims (threefold, 50 moves) when the claim policy claims.
  std::optional<Rule> termination() const { return termination_; }
  int termination_ply() const { return termination_ply_; }  // -1 while ongoing
  Result result() const;
  bool over() const { return termination_.has_value(); }

  // The first ply at which each rule's condition held, or -1 if it never did.
  const std::array<int, RULE_NB>& first_fire() const { return first_fire_; }
  int first_fire(Rule r) const { return first_fire_[int(r)]; }

  // True when a position repeated (threefold) because every move of one side between its
  // first and its third occurrence gave check. Any position's third occurrence counts,
  // not only the first threefold, and it stays true once set.
  bool perpetual_check() const { return perpetual_check_; }

  // Site rule: a player may resign only after move 15 (from the 16th move on), read as:
  // the side to move is about to play move 16 or later by the position's move number
  // (so White's 15th and Black's 15th move may not be a resignation, White's 16th may).
  // The move number is the FEN's, as PGN counts it. FIDE has no such limit: always true.
  bool may_resign() const;

  // How many times the current position has stood, this time included.
  int repetitions() const { return occurrences_.back().count; }

  // Checks given so far by side c.
  int checks_given(Color c) const { return checks_received_[~c]; }

 private:
  // Where the position at a ply stood before: the nearest earlier ply with the same
  // position (-1 if none), and how many times it has stood up to this ply.
  struct Occurrence {
    int previous;
    int count;
  };

  Occurrence find_repetition() const;
  void evaluate(bool in_check);  // updates first_fire_ and termination_ for the current position
  bool one_side_checked_throughout(int from, int to) const;

  Ruleset rules_;
  ClaimPolicy claims_;
  std::vector<Position> history_;  // ply 0 .. ply()
  std::vector<Move> moves_;
  std::vector<uint8_t> gave_check_;            // per move: did it give check
  std::vector<Occurrence> occurrences_;        // per ply
  uint16_t enforced_ = 0;                      // bit per Rule: the rules that end a game under rules_ and claims_
  uint16_t fired_ = 0;                         // bit per Rule: first_fire_ is set
  int consecutive_checks_[COLOR_NB] = {0, 0};  // by the side giving them
  int checks_received_[COLOR_NB] = {0, 0};
  std::array<int, RULE_NB> first_fire_;
  std::optional<Rule> termination_;
  int termination_ply_ = -1;
  bool perpetual_check_ = false;
};

// Dead position by material alone (see insufficient_material above).
bool insufficient_material(const Position& pos);
// Whether side could still checkmate by some series of legal moves, for a flag fall (FIDE
// 6.9: the player whose flag fell draws when the opponent could not). False when the
// board is dead, when side has only its king, or when side has a lone knight or bishop
// against a bare king; true otherwise, since with other pieces on the board a helpmate
// exists in general (positions dead only by a pawn blockade count as can-mate).
bool can_checkmate(const Position& pos, Color side);
// Same position for repetition: side, pieces, castling rights, legal en-passant rights;
// not the clocks. Position keeps an en-passant square only where the capture is legal, so
// comparing squares compares rights.
bool same_position(const Position& a, const Position& b);

}  // namespace chess
