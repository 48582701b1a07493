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

// The first player's mean score per game (0 to 1) and its 95% interval from the pairs
// (pairs are the independent draws). The interval is the score interval (Wilson's, for
// pentanomial counts): every p with N (m - p)^2 <= 1.96^2 V(p), N pairs of mean per-game
// score m, V(p) the pair score's variance under the pentanomial of greatest likelihood
// with mean p, an empty outcome counted as PSEUDO_PAIRS. So it never collapses to a
// point: one pair won twice gives [0.2069, 1], Wilson's interval of one success out of
// one [0.2066, 1] but for the pseudo-count. Its ends reach 0 or 1 only at a score of 0 or
// 1, whose Elo is unbounded (+-inf); elo_text says so in words. NaN without pairs.
struct PairScore {
  double score, score_low, score_high;
  double elo, elo_low, elo_high;  // 400 log10(s / (1 - s)): +-inf at a score of 1 or 0
};
PairScore pair_score(const Pentanomial& p);

// "Elo 40.3 [-76.1, 153.7]"; at a score of 1 "Elo at least -233.5 (no finite Elo at a
// score of 1)", at 0 "Elo at most 233.5 (no finite Elo at a score of 0)": never +-inf.
std::string elo_text(const PairScore& s);

// The logistic Elo difference of a score (0 to 1), and the score of an Elo difference.
double elo_of_score(double score);
double score_of_elo(double elo);

// What elo0 and elo1 measure: fishtest's normalized Elo (the score's distance from 0.5 in
// per-game standard deviations, x 800 / ln 10: a test's expected length then does not
// depend on the draw rate) or the logistic Elo of the score.
enum class EloModel { NORMALIZED, LOGISTIC };
const char* elo_model_name(EloModel m);  // "normalized", "logistic"

// --sprt elo0=E0 elo1=E1 alpha=A beta=B model=M: H0 (the first player's Elo over the
// second is elo0) against H1 (it is elo1), errors of the first kind alpha and second beta.
// The default model is normalized, as fishtest's for new tests.
struct SprtSpec {
  double elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05;
  EloModel model = EloModel::NORMALIZED;

  double lower() const;      // log(beta / (1 - alpha)): below it, H0 is accepted
  double upper() const;      // log((1 - beta) / alpha): above it, H1 is accepted
  std::string text() const;  // "elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized"
};

// An empty pentanomial outcome counts as this many pairs in the LLR and the intervals:
// fishtest's regularisation (LLRcalc.regularize), which keeps few pairs from deciding.
inline constexpr double PSEUDO_PAIRS = 1e-3;

// The generalized SPRT's log-likelihood ratio of H1 against H0 over the pairs, as fishtest
// computes it (server/fishtest/stats/LLRcalc.py, LLR_logistic and LLR_normalized): the
// counts, an empty outcome taken as PSEUDO_PAIRS, give N pairs and frequencies f_i of the
// per-game scores a_i = 0, 1/4, 1/2, 3/4, 1; under each hypothesis the pentanomial of
// greatest likelihood q_i given f (Van den Bergh's multinomial MLE under a constraint:
// q_i = f_i / (1 + x g_i), x solving sum f_i g_i / (1 + x g_i) = 0) with
//   logistic:   mean score s = 1 / (1 + 10^(-elo / 400)), g_i = a_i - s;
//   normalized: t-value (mean - 1/2) / sd = sqrt(2) elo ln(10) / 800, g_i = a_i - 1/2 -
//               t sd (1 + ((mean - a_i) / sd)^2) / 2 at q's own mean and sd, iterated;
//   LLR = N sum f_i ln(q1_i / q0_i).
// The pseudo-count bounds what few pairs can do: no pentanomial of 20 pairs or fewer
// decides at the defaults (elo0=0 elo1=5 alpha=beta=0.05; pairs all won decide after 147,
// all lost after 144), none of 16 or fewer at elo0=0 elo1=40 (17 pairs all lost decide
// H0, normalized; logistic: 25 all drawn). 0 without pairs.
double sprt_llr(const Pentanomial& p, const SprtSpec& s);

// "LLR 1.23 [-2.94, 2.94]": the ratio and the spec's bounds.
std::string llr_text(double llr, const SprtSpec& s);

enum class SprtDecision { NONE, H0, H1 };
const char* sprt_decision_name(SprtDecision d);  // "none", "H0", "H1"

// The SPRT over the pairs in game order, as the games come in from any rank in any order:
// after each pair the LLR over all pairs so far; the first pair after which it is below
// lower() or above upper() decides (fishtest's stop rule, checked after every pair; no
// correction for overshoot, which fishtest makes for updates in batches of pairs).
// Pair k counts once both its games and every pair before it are in, so that the decision
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

// The first player's games and pairs as fastchess counts them: its wins, draws and losses
// over every game with a result, and the complete pairs, with the pairs of a win and a
// loss told from those of two draws (both are 1 point, pentanomial counts[2]).
struct MatchStats {
  uint64_t wins = 0, draws = 0, losses = 0;
  Pentanomial penta;
  uint64_t win_loss_pairs = 0;  // of penta.counts[2]; the rest drew twice
  uint64_t games() const { return wins + draws + losses; }
};
MatchStats match_stats(const std::vector<uint64_t>& game, const std::vector<std::string>& result);

// fastchess's figures of a match from its pairs (EloPentanomial): the mean per-game score
// s, its variance per pair v / N (v the pentanomial variance of the per-game scores 0,
// 1/4, 1/2, 3/4, 1), the 95% interval s +- 1.959963984540054 sqrt(v / N); Elo
// -400 log10(1 / s - 1) and nElo (s - 1/2) / sqrt(2 v) x 800 / ln 10, each +- half the
// width of the interval's image; LOS (1 - erf(-(s - 1/2) / sqrt(2 v / N))) / 2. Without
// pairs, or at a score of 0 or 1, the figures are NaN or infinite, as fastchess's are.
struct MatchElo {
  double score, elo, elo_error, nelo, nelo_error, los;
};
MatchElo match_elo(const Pentanomial& p);

// A decimal number as fastchess writes {:.2f}: "12.34", "-0.50", "inf", "nan".
std::string fixed2(double value);

// The lines fastchess prints for a finished match of two engines: first and second their
// names, limits what each was asked ("1000 nodes", "10+0.1", "0.1/move"; "a - b" when they
// differ), threads and hash their Threads and Hash options ("1t", "16MB", "NULL"), book
// the book's file name (empty: none), sprt the test (none: no LLR line):
//   Results of A vs B (1000 nodes, 1t, 16MB, book.epd):
//   Elo: 10.43 +/- 20.12, nElo: 15.02 +/- 28.99
//   LOS: 84.67 %, DrawRatio: 46.00 %, PairsRatio: 1.27
//   Games: 100, Wins: 30, Losses: 27, Draws: 43, Points: 51.5 (51.50 %)
//   Ptnml(0-2): [1, 10, 23, 14, 2], WL/DD Ratio: 0.77
//   LLR: 0.15 (5.1%) (-2.94, 2.94) [0.00, 5.00]
// between two lines of 50 dashes.
struct MatchHeader {
  std::string first, second, limits, threads, hash, book;
};
class PairSequence;
std::string fastchess_summary(const MatchHeader& h, const MatchStats& m, const PairSequence* sprt);

}  // namespace chesshpc
