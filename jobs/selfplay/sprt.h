// Game pairs and the sequential test over them. Games 2k and 2k + 1 are a pair: the same
// opening, colours swapped, the first player White in the even game. A pair's outcome for
// the first player is one of five (LL, LD, DD or WL, WD, WW: 0 to 2 points), and pairs,
// not games, are the independent draws: the statistics of a batch (score, Elo and their
// intervals, the SPRT's log-likelihood ratio) come from these pentanomial frequencies.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace chesshpc {

// Pair counts by the first player's points over the pair: [0] LL (0), [1] LD (0.5),
// [2] DD or WL (1), [3] WD (1.5), [4] WW (2).
inline constexpr std::array<const char*, 5> PENTANOMIAL_NAMES = {"LL", "LD", "DD+WL", "WD", "WW"};
struct Pentanomial {
  std::array<uint64_t, 5> counts{};

  // points: the first player's points over the pair, 0, 0.5, 1, 1.5 or 2.
  void add(double points) { ++counts[size_t(points * 2 + 0.5)]; }
  uint64_t pairs() const { return counts[0] + counts[1] + counts[2] + counts[3] + counts[4]; }
};

// The first player's mean score per game (0 to 1) and its 95% interval, from the pairs'
// mean and variance (the pentanomial variance: pairs are the independent draws), with
// the logistic Elo of each. NaN without pairs; the interval is the score itself when
// every pair had the same outcome.
struct PairScore {
  double score, score_low, score_high;
  double elo, elo_low, elo_high;  // -400 log10(1 / s - 1): +-inf at a score of 1 or 0
};
PairScore pair_score(const Pentanomial& p);

// The logistic Elo difference of a score (0 to 1), and the score of an Elo difference.
double elo_of_score(double score);
double score_of_elo(double elo);

// --sprt elo0=E0 elo1=E1 alpha=A beta=B: H0 (the first player's logistic Elo over the
// second is elo0) against H1 (it is elo1), errors of the first kind alpha and second beta.
struct SprtSpec {
  double elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05;

  double lower() const;      // log(beta / (1 - alpha)): at or below, H0 is accepted
  double upper() const;      // log((1 - beta) / alpha): at or above, H1 is accepted
  std::string text() const;  // "elo0=0 elo1=5 alpha=0.05 beta=0.05"
};

// The log-likelihood ratio of H1 against H0 over the pairs, in the normal approximation of
// the generalized SPRT (M. Van den Bergh's notes, as fishtest and fastchess use it): with
// N pairs whose per-game score x (a pair's points / 2) has mean m and variance v,
//   LLR = N (s1 - s0) (2 m - s0 - s1) / (2 v),  s0, s1 the scores of elo0, elo1.
// A count of zero is taken as 0.001 (the regularisation fishtest applies), so that a
// batch of one outcome still has a variance. 0 without pairs.
double sprt_llr(const Pentanomial& p, const SprtSpec& s);

// "LLR 1.23 [-2.94, 2.94]": the ratio and the spec's bounds.
std::string llr_text(double llr, const SprtSpec& s);

enum class SprtDecision { NONE, H0, H1 };
const char* sprt_decision_name(SprtDecision d);  // "none", "H0", "H1"

// The SPRT over the pairs in game order, as the games come in from any rank in any order:
// pair k counts once both its games and every pair before it are in, so that the decision
// and the pair it comes at depend on the batch alone, not on which rank finished first. A
// pair with a game that has no result (void, error) counts as no pair. A game of an odd
// last index has no partner and never counts.
class PairSequence {
 public:
  explicit PairSequence(SprtSpec spec) : spec_(spec) {}

  // Game `game`'s points for the first player (1, 0.5, 0), or none.
  void add(uint64_t game, std::optional<double> first_points);
  SprtDecision decision() const { return decision_; }
  // Pairs counted so far (up to the decision once there is one): games [0, 2 x pairs).
  uint64_t pairs() const { return next_pair_; }
  double llr() const { return llr_; }
  const SprtSpec& spec() const { return spec_; }

 private:
  SprtSpec spec_;
  std::map<uint64_t, std::optional<double>> waiting_;  // games of pairs not yet counted
  uint64_t next_pair_ = 0;
  Pentanomial counted_;
  double llr_ = 0;
  SprtDecision decision_ = SprtDecision::NONE;
};

// The first player's points in a game of a result ("1-0", "0-1", "1/2-1/2"; anything else
// none): the first player has White in even games.
std::optional<double> first_player_points(uint64_t game, const std::string& result);

// The pentanomial counts of every complete pair among the games (indices and results, as
// /games holds them, in any order); pairs with a game without a result are left out.
Pentanomial pentanomial_of(const std::vector<uint64_t>& game, const std::vector<std::string>& result);

}  // namespace chesshpc
