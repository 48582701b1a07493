// Game pairs: pentanomial counts, the score and Elo interval from pairs, and the SPRT's
// log-likelihood ratio, checked against the values fishtest's own code gives
// (server/fishtest/stats/LLRcalc.py) and, by simulation, its error rates and length.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <sstream>

#include "jobs/selfplay/batch_job.h"
#include "jobs/selfplay/game_bytes.h"
#include "jobs/selfplay/sprt.h"

using namespace chesshpc;

namespace {

// LL 1, LD 2, DD+WL 5, WD 3, WW 2: 13 pairs.
Pentanomial example() {
  Pentanomial p;
  p.counts = {1, 2, 5, 3, 2};
  return p;
}

}  // namespace

TEST(Pentanomial, PairsCountByTheFirstPlayersPointsOverThePair) {
  Pentanomial p;
  for (double points : {0.0, 0.5, 1.0, 1.0, 1.5, 2.0, 2.0, 2.0}) p.add(points);
  EXPECT_EQ(p.counts, (std::array<uint64_t, 5>{1, 1, 2, 1, 3}));
  EXPECT_EQ(p.pairs(), 8u);
}

// The first player has White in even games; a game without a result leaves its pair out,
// and an odd last game has no partner.
TEST(Pentanomial, FromGamesPairsEvenWithOddAndSkipsPairsWithoutBothResults) {
  EXPECT_EQ(first_player_points(0, "1-0"), 1.0);
  EXPECT_EQ(first_player_points(1, "1-0"), 0.0);
  EXPECT_EQ(first_player_points(3, "0-1"), 1.0);
  EXPECT_EQ(first_player_points(2, "1/2-1/2"), 0.5);
  EXPECT_EQ(first_player_points(2, "*"), std::nullopt);
  // Pair 0: 1-0 as White, 0-1 as Black = WW; pair 1: 0-1 as White, a draw = LD; pair 2:
  // game 5 void; pair 3: a draw, 1-0 as Black = LD; game 8 alone. Out of order, as parts merge.
  Pentanomial p = pentanomial_of({5, 0, 1, 2, 3, 4, 6, 7, 8},
                                 {"*", "1-0", "0-1", "0-1", "1/2-1/2", "1-0", "1/2-1/2", "1-0", "1-0"});
  EXPECT_EQ(p.counts, (std::array<uint64_t, 5>{0, 2, 0, 0, 1}));
}

// The score interval (sprt.h) of the 13 pairs, computed independently from fishtest's
// LLRcalc.MLE_expected (the pentanomial of greatest likelihood with mean p, empty outcomes
// at 0.001) and a bisection for N (m - p)^2 = 1.96^2 V(p):
//   m = (0 + 0.5 + 2.5 + 2.25 + 2) / 13 = 0.5576923, interval [0.3922021, 0.7077749]
//   Elo = 400 log10(m / (1 - m)) = 40.268, low -76.100, high 153.671
// (the normal approximation m +- 1.96 sqrt(v / N) gave [0.4054831, 0.7099015]).
TEST(PairScore, ScoreIntervalFromPairs) {
  PairScore s = pair_score(example());
  EXPECT_NEAR(s.score, 0.5576923, 1e-7);
  EXPECT_NEAR(s.score_low, 0.3922021, 1e-7);
  EXPECT_NEAR(s.score_high, 0.7077749, 1e-7);
  EXPECT_NEAR(s.elo, 40.268, 1e-3);
  EXPECT_NEAR(s.elo_low, -76.100, 1e-3);
  EXPECT_NEAR(s.elo_high, 153.671, 1e-3);
  EXPECT_EQ(elo_text(s), "Elo 40.3 [-76.1, 153.7]");
  EXPECT_TRUE(std::isnan(pair_score(Pentanomial{}).score));
  EXPECT_NEAR(score_of_elo(elo_of_score(0.3)), 0.3, 1e-12);
}

// Few pairs of one outcome: the interval is Wilson's of so many successes out of so many
// (1.96^2 = 3.8415: one pair won 1 / 4.8415 = 0.2065, two pairs lost 3.8415 / 5.8415 =
// 0.6576), the pseudo-count moving it in the 4th digit (fishtest's MLE as above:
// 0.2068586, 0.6573632), and a score of 1 or 0 has no finite Elo: said in words, never
// +-inf. (Before: "1.000 [1.000, 1.000], Elo inf [inf, inf]" and "Elo -inf [-inf, -inf]".)
TEST(PairScore, FewPairsOfOneOutcomeGiveAnHonestInterval) {
  Pentanomial won, lost, drawn;
  won.add(2), lost.add(0), lost.add(0), drawn.add(1);
  PairScore w = pair_score(won), l = pair_score(lost), d = pair_score(drawn);
  EXPECT_EQ(w.score, 1.0);
  EXPECT_NEAR(w.score_low, 0.2068586, 1e-7);
  EXPECT_EQ(w.score_high, 1.0);
  EXPECT_EQ(elo_text(w), "Elo at least -233.5 (no finite Elo at a score of 1)");
  EXPECT_EQ(l.score, 0.0);
  EXPECT_EQ(l.score_low, 0.0);
  EXPECT_NEAR(l.score_high, 0.6573632, 1e-7);
  EXPECT_EQ(elo_text(l), "Elo at most 113.2 (no finite Elo at a score of 0)");
  // One drawn pair: m = 0.5, its interval from V(p) of the MLE, not from a variance of 0.
  EXPECT_EQ(d.score, 0.5);
  EXPECT_NEAR(d.score_low + d.score_high, 1.0, 1e-9);
  EXPECT_LT(d.score_low, 0.2);
  EXPECT_EQ(elo_text(d), "Elo 0.0 [-375.7, 375.7]");
}

// alpha = beta = 0.05: lower = ln(0.05 / 0.95) = -2.944439, upper = ln(0.95 / 0.05) = 2.944439.
TEST(Sprt, BoundsFromAlphaAndBeta) {
  SprtSpec s;
  EXPECT_NEAR(s.lower(), -2.944439, 1e-6);
  EXPECT_NEAR(s.upper(), 2.944439, 1e-6);
  s.alpha = 0.1, s.beta = 0.2;  // ln(0.2 / 0.9) = -1.504077, ln(0.8 / 0.1) = 2.079442
  EXPECT_NEAR(s.lower(), -1.504077, 1e-6);
  EXPECT_NEAR(s.upper(), 2.079442, 1e-6);
  EXPECT_EQ(s.text(), "elo0=0 elo1=5 alpha=0.1 beta=0.2 model=normalized");
  s.model = EloModel::LOGISTIC;
  EXPECT_EQ(s.text(), "elo0=0 elo1=5 alpha=0.1 beta=0.2 model=logistic");
}

// The LLRs fishtest's own code gives (server/fishtest/stats/LLRcalc.py, LLR_normalized and
// LLR_logistic, run on these counts), and the example of its stat_util.py: 10789 19328
// 33806 19402 10543 pairs, logistic elo0=-3 elo1=1, LLR 2.131068.
TEST(Sprt, LlrIsFishtests) {
  using enum EloModel;
  EXPECT_NEAR(sprt_llr(example(), SprtSpec{0, 5, 0.05, 0.05, NORMALIZED}), 0.05063517883, 1e-9);
  EXPECT_NEAR(sprt_llr(example(), SprtSpec{0, 5, 0.05, 0.05, LOGISTIC}), 0.06189729128, 1e-9);
  EXPECT_NEAR(sprt_llr(example(), SprtSpec{0, 40, 0.05, 0.05, NORMALIZED}), 0.25680348206, 1e-9);
  Pentanomial p;
  p.counts = {10, 25, 60, 30, 15};
  EXPECT_NEAR(sprt_llr(p, SprtSpec{-5, 5, 0.05, 0.05, NORMALIZED}), 0.58043995251, 1e-9);
  EXPECT_NEAR(sprt_llr(p, SprtSpec{-5, 5, 0.05, 0.05, LOGISTIC}), 0.77989851421, 1e-9);
  p.counts = {10789, 19328, 33806, 19402, 10543};
  EXPECT_NEAR(sprt_llr(p, SprtSpec{-3, 1, 0.05, 0.05, LOGISTIC}), 2.131067811785, 1e-8);
  EXPECT_NEAR(sprt_llr(p, SprtSpec{0, 10, 0.05, 0.05, NORMALIZED}), -92.534177653513, 1e-6);
  // A pentanomial far from both hypotheses: 11 of 15 pairs WD (fishtest: 1.122344).
  p.counts = {1, 1, 1, 11, 1};
  EXPECT_NEAR(sprt_llr(p, SprtSpec{0, 40, 0.05, 0.05, LOGISTIC}), 1.1223440772, 1e-9);
  EXPECT_EQ(sprt_llr(Pentanomial{}, SprtSpec{}), 0.0);
}

// Two identical players, --sprt elo0=0 elo1=40; after one pair the LLR is fishtest's,
// between -0.18 and 0.15 whatever the pair, far inside +-2.94 (before: up to 13.59 after
// one pair, H1). The same at the default bounds (within +-0.021).
TEST(Sprt, OnePairNeverDecides) {
  const std::array<double, 5> elo40 = {-0.17531105827, -0.12818745808, -0.02285724675, 0.10193783420, 0.14906478307};
  const std::array<double, 5> defaults = {-0.02056854227, -0.01459867044, -0.00021520172, 0.01418319691, 0.02015312087};
  for (size_t outcome = 0; outcome < 5; ++outcome) {
    Pentanomial p;
    p.add(outcome / 2.0);
    EXPECT_NEAR(sprt_llr(p, SprtSpec{0, 40, 0.05, 0.05}), elo40[outcome], 1e-9) << outcome;
    EXPECT_NEAR(sprt_llr(p, SprtSpec{}), defaults[outcome], 1e-9) << outcome;
    PairSequence q(SprtSpec{0, 40, 0.05, 0.05});
    q.add(0, std::min(outcome / 2.0, 1.0)), q.add(1, outcome / 2.0 - std::min(outcome / 2.0, 1.0));
    EXPECT_EQ(q.pairs(), 1u);
    EXPECT_EQ(q.decision(), SprtDecision::NONE) << outcome;
  }
}

namespace {

// The fewest pairs of any outcomes whose LLR leaves the bounds (every pentanomial of n
// pairs, n = 1 to most), or 0 when none of up to `most` does.
uint64_t fewest_deciding(const SprtSpec& s, uint64_t most) {
  for (uint64_t n = 1; n <= most; ++n)
    for (uint64_t a = 0; a <= n; ++a)
      for (uint64_t b = 0; a + b <= n; ++b)
        for (uint64_t c = 0; a + b + c <= n; ++c)
          for (uint64_t d = 0; a + b + c + d <= n; ++d) {
            Pentanomial p;
            p.counts = {a, b, c, d, n - a - b - c - d};
            const double llr = sprt_llr(p, s);
            if (llr < s.lower() || llr > s.upper()) return n;
          }
  return 0;
}

}  // namespace

// sprt.h's rule for the first decision, pentanomial by pentanomial: at the defaults none
// of up to 20 pairs decides; at elo0=0 elo1=40 the first are 17 pairs all lost
// (normalized) and 25 pairs all drawn (logistic).
TEST(Sprt, NoFewPairsDecide) {
  EXPECT_EQ(fewest_deciding(SprtSpec{}, 20), 0u);
  EXPECT_EQ(fewest_deciding(SprtSpec{0, 5, 0.05, 0.05, EloModel::LOGISTIC}, 20), 0u);
  EXPECT_EQ(fewest_deciding(SprtSpec{0, 40, 0.05, 0.05}, 30), 17u);
  EXPECT_EQ(fewest_deciding(SprtSpec{0, 40, 0.05, 0.05, EloModel::LOGISTIC}, 30), 25u);
  Pentanomial drawn;
  drawn.counts[2] = 25;
  EXPECT_LT(sprt_llr(drawn, SprtSpec{0, 40, 0.05, 0.05, EloModel::LOGISTIC}), -2.944439);
}

// Pairs count in game order whatever order the games come in, and nothing counts after the
// decision. Logistic elo0=-400 elo1=400 (fishtest: one pair won twice LLR 2.307147, two
// 4.609754): games 1, 3, 2 wait for game 0; then pairs 0 and 1 (WW) count, H1 after pair 1,
// and pair 2 never counts.
TEST(Sprt, PairSequenceCountsPairsInGameOrderUpToTheDecision) {
  const SprtSpec wide{-400, 400, 0.05, 0.05, EloModel::LOGISTIC};
  PairSequence q(wide);
  q.add(1, 1.0), q.add(3, 1.0), q.add(2, 1.0);
  EXPECT_EQ(q.pairs(), 0u);
  EXPECT_EQ(q.decision(), SprtDecision::NONE);
  q.add(0, 1.0);
  EXPECT_EQ(q.pairs(), 2u);
  EXPECT_EQ(q.decision(), SprtDecision::H1);
  EXPECT_NEAR(q.llr(), 4.609754, 1e-6);
  q.add(4, 0.0), q.add(5, 0.0);
  EXPECT_EQ(q.pairs(), 2u);
  EXPECT_STREQ(sprt_decision_name(q.decision()), "H1");
  PairSequence one(wide);
  one.add(0, 1.0), one.add(1, 1.0);
  EXPECT_NEAR(one.llr(), 2.307147, 1e-6);
  EXPECT_EQ(one.decision(), SprtDecision::NONE);
  // Losing pairs drive it the other way: H0 once the LLR is below -2.944439, after 144
  // pairs at the defaults; winning pairs H1 after 147.
  PairSequence down(SprtSpec{});
  for (uint64_t g = 0; down.decision() == SprtDecision::NONE && g < 1000; ++g) down.add(g, 0.0);
  EXPECT_EQ(down.decision(), SprtDecision::H0);
  EXPECT_EQ(down.pairs(), 144u);
  EXPECT_LT(down.llr(), down.spec().lower());
  PairSequence up(SprtSpec{});
  for (uint64_t g = 0; up.decision() == SprtDecision::NONE && g < 1000; ++g) up.add(g, 1.0);
  EXPECT_EQ(up.decision(), SprtDecision::H1);
  EXPECT_EQ(up.pairs(), 147u);
  // A void game leaves its pair out but the sequence goes on.
  PairSequence gap(SprtSpec{});
  gap.add(0, std::nullopt), gap.add(1, 1.0), gap.add(2, 0.5), gap.add(3, 0.5);
  EXPECT_EQ(gap.pairs(), 2u);
  EXPECT_NEAR(gap.llr(), -0.00021520172, 1e-9);
  EXPECT_EQ(llr_text(1.234, SprtSpec{}), "LLR 1.23 [-2.94, 2.94]");
  EXPECT_EQ(llr_text(-0.0, SprtSpec{}), "LLR 0.00 [-2.94, 2.94]");
  EXPECT_EQ(llr_text(-1.35e-16, SprtSpec{}), "LLR 0.00 [-2.94, 2.94]");  // fishtest's LLR of one DD pair at +-100
  EXPECT_EQ(llr_text(-0.006, SprtSpec{}), "LLR -0.01 [-2.94, 2.94]");
}

namespace {

// Rank 0's record of a unit of games with these results (game i's result results[i]), as
// another rank would send it; the games themselves are not played.
void record_games(SelfplayBatch& batch, uint64_t first, const std::vector<chess::Result>& results) {
  std::vector<GameRecord> games;
  for (uint64_t i = 0; i < results.size(); ++i) {
    GameRecord g;
    g.index = first + i, g.result = results[i];
    g.opening.start = chess::Position::start();
    g.termination = "checkmate";
    g.first_fire.fill(-1);
    games.push_back(g);
  }
  batch.record(size_t(first / GAMES_PER_UNIT), encode_games(games), 0, 0);
}

// What the progress line adds after the games per second (which depend on the clock).
std::string after_rate(const SelfplayBatch& batch) {
  const std::string detail = batch.progress_detail();
  const size_t rate = detail.find(" games/s");
  return rate == std::string::npos ? "no rate in '" + detail + "'" : detail.substr(rate + 8);
}

// A batch of 40 games, planned as rank 0 plans it (its players are never started).
SelfplayRequest batch_of_40(std::optional<SprtSpec> sprt) {
  SelfplayRequest req;
  req.games = 40, req.threads = 1, req.limits.nodes = 50, req.sprt = sprt;
  return req;
}

void plan(SelfplayBatch& batch) {
  std::ostringstream err;
  ASSERT_EQ(batch.plan(Ranks{}, err), 0) << err.str();
}

}  // namespace

// The progress line of an --sprt batch shows the LLR over the pairs counted so far and its
// bounds, and the decision once there is one; without --sprt no LLR at all. Logistic
// elo0=-100 elo1=100, the LLRs fishtest gives: pair 0 drawn twice (DD) 0; then pairs lost
// twice (LL): with one -1.150, with 4 -2.878 (undecided), the 5th -3.454, below
// -2.944439: H0 after pair 5.
// (Before the first game it read "0.0 games/s;; LLR 0.00".)
TEST(SelfplayBatch, ProgressShowsTheLlrAndTheDecisionOnlyWithSprt) {
  using chess::Result;
  SelfplayBatch batch(batch_of_40(SprtSpec{-100, 100, 0.05, 0.05, EloModel::LOGISTIC}));
  plan(batch);
  EXPECT_EQ(after_rate(batch), "; LLR 0.00 [-2.94, 2.94]");
  record_games(batch, 0, {Result::DRAW, Result::DRAW});
  EXPECT_EQ(after_rate(batch), "; 1/2-1/2 2; LLR 0.00 [-2.94, 2.94]");
  // Game 3 before game 2: pair 1 counts once both are in. The first player has White in
  // even games: 0-1 there and 1-0 in odd games is a pair it lost twice.
  record_games(batch, 3, {Result::WHITE_WINS});
  EXPECT_EQ(after_rate(batch), "; 1-0 1 1/2-1/2 2; LLR 0.00 [-2.94, 2.94]");
  record_games(batch, 2, {Result::BLACK_WINS});
  EXPECT_EQ(after_rate(batch), "; 0-1 1 1-0 1 1/2-1/2 2; LLR -1.15 [-2.94, 2.94]");
  for (uint64_t pair = 2; pair <= 4; ++pair) record_games(batch, 2 * pair, {Result::BLACK_WINS, Result::WHITE_WINS});
  EXPECT_EQ(after_rate(batch), "; 0-1 4 1-0 4 1/2-1/2 2; LLR -2.88 [-2.94, 2.94]");
  EXPECT_FALSE(batch.enough());
  record_games(batch, 10, {Result::BLACK_WINS, Result::WHITE_WINS});
  EXPECT_TRUE(batch.enough());
  EXPECT_EQ(after_rate(batch), "; 0-1 5 1-0 5 1/2-1/2 2; LLR -3.45 [-2.94, 2.94] H0");
  // A pair won twice after the decision (a unit still out then) counts in the results only.
  record_games(batch, 12, {Result::WHITE_WINS, Result::BLACK_WINS});
  EXPECT_EQ(after_rate(batch), "; 0-1 6 1-0 6 1/2-1/2 2; LLR -3.45 [-2.94, 2.94] H0");

  SelfplayBatch plain(batch_of_40(std::nullopt));
  plan(plain);
  EXPECT_EQ(after_rate(plain), "");
  record_games(plain, 0, {Result::DRAW, Result::WHITE_WINS});
  EXPECT_EQ(after_rate(plain), "; 1-0 1 1/2-1/2 1");
  EXPECT_FALSE(plain.enough());
}

namespace {

constexpr double NELO_PER_T = 800 / 2.302585092994046;  // normalized Elo per t-value: 800 / ln 10

// Pairs of two independent games, each a win with probability s - d / 2, a draw with d: the
// pentanomial probabilities LL, LD, DD+WL, WD, WW.
std::array<double, 5> pair_distribution(double s, double d) {
  const double w = s - d / 2, l = 1 - s - d / 2;
  return {l * l, 2 * l * d, d * d + 2 * w * l, 2 * w * d, w * w};
}

struct PairMoments {
  double mean = 0, variance = 0;  // of the pair's per-game score 0, 1/4, ..., 1
};

PairMoments pair_moments(const std::array<double, 5>& q) {
  PairMoments m;
  for (size_t i = 0; i < 5; ++i) m.mean += q[i] * double(i) / 4;
  for (size_t i = 0; i < 5; ++i) m.variance += q[i] * (double(i) / 4 - m.mean) * (double(i) / 4 - m.mean);
  return m;
}

// The pentanomial at draw ratio d whose Elo under the model is elo: logistic, the score of
// the Elo; normalized, the score whose (mean - 1/2) / sd over pairs is sqrt(2) elo / NELO_PER_T
// (fishtest's t-value of pairs), by bisection on the score.
std::array<double, 5> distribution_at(double elo, EloModel model, double d) {
  if (model == EloModel::LOGISTIC) return pair_distribution(score_of_elo(elo), d);
  const double t = std::sqrt(2.0) * elo / NELO_PER_T;
  double lo = d / 2, hi = 1 - d / 2;
  for (int i = 0; i < 100; ++i) {
    const double s = (lo + hi) / 2;
    const PairMoments m = pair_moments(pair_distribution(s, d));
    ((m.mean - 0.5) / std::sqrt(m.variance) < t ? lo : hi) = s;
  }
  return pair_distribution((lo + hi) / 2, d);
}

// Wald's approximation of the expected pairs (as fishtest's sprt.py models the LLR: a
// drift per pair of (s - (s0 + s1) / 2)(s1 - s0) / v, s and v the pairs' true mean and
// variance, s0 and s1 the hypotheses' scores, the normalized model's at sd sqrt(2 v) per
// game): E[pairs] = (P(H0) lower + (1 - P(H0)) upper) / drift, P(H0) taken as 1 - alpha
// at elo0 and beta at elo1.
double wald_pairs(const std::array<double, 5>& q, const SprtSpec& spec, double accept_h0) {
  const PairMoments m = pair_moments(q);
  auto score = [&](double elo) {
    return spec.model == EloModel::LOGISTIC ? score_of_elo(elo) : 0.5 + elo / NELO_PER_T * std::sqrt(2 * m.variance);
  };
  const double s0 = score(spec.elo0), s1 = score(spec.elo1);
  const double drift = (m.mean - (s0 + s1) / 2) * (s1 - s0) / m.variance;
  return (accept_h0 * spec.lower() + (1 - accept_h0) * spec.upper()) / drift;
}

struct SimulatedSprts {
  uint64_t h0 = 0, h1 = 0, undecided = 0;
  double mean_pairs = 0;
};

// `runs` SPRTs over pairs drawn from q (mt19937_64, fully specified by the standard, so the
// same draws everywhere), each through PairSequence as a batch counts its pairs.
SimulatedSprts simulate(const SprtSpec& spec, const std::array<double, 5>& q, int runs, uint64_t seed) {
  std::mt19937_64 rng(seed);
  SimulatedSprts out;
  uint64_t pairs = 0;
  for (int run = 0; run < runs; ++run) {
    PairSequence test(spec);
    for (uint64_t pair = 0; test.decision() == SprtDecision::NONE && pair < 100000; ++pair) {
      double u = double(rng() >> 11) * 0x1p-53;
      size_t outcome = 0;
      while (outcome < 4 && u >= q[outcome]) u -= q[outcome++];
      const double points = double(outcome) / 2, even = std::min(points, 1.0);
      test.add(2 * pair, even), test.add(2 * pair + 1, points - even);
    }
    pairs += test.pairs();
    ++(test.decision() == SprtDecision::H0 ? out.h0 : test.decision() == SprtDecision::H1 ? out.h1 : out.undecided);
  }
  out.mean_pairs = double(pairs) / runs;
  return out;
}

// Error rates and length of the SPRT by simulation, 2,000 SPRTs at elo0 and 2,000 at elo1,
// pairs drawn at a draw ratio of 0.6 with the chosen model's Elo: the false H1 rate at
// elo0 at most alpha + 3 binomial sigma (0.05 + 3 sqrt(0.05 x 0.95 / 2000) = 0.0646), the
// false H0 rate at elo1 at most beta + the same, and the mean pairs within 15% of Wald's
// approximation (it leaves out the overshoot over the bounds, so the mean is seldom below).
void check_error_rates(const SprtSpec& spec) {
  constexpr int RUNS = 2000;
  constexpr double DRAWS = 0.6;
  const double margin = 3 * std::sqrt(0.05 * 0.95 / RUNS);
  const auto at0 = distribution_at(spec.elo0, spec.model, DRAWS), at1 = distribution_at(spec.elo1, spec.model, DRAWS);
  const SimulatedSprts h0 = simulate(spec, at0, RUNS, 23), h1 = simulate(spec, at1, RUNS, 24);
  EXPECT_EQ(h0.undecided + h1.undecided, 0u);
  EXPECT_LE(double(h0.h1) / RUNS, spec.alpha + margin) << h0.h1 << " false H1 of " << RUNS;
  EXPECT_LE(double(h1.h0) / RUNS, spec.beta + margin) << h1.h0 << " false H0 of " << RUNS;
  const double wald0 = wald_pairs(at0, spec, 1 - spec.alpha), wald1 = wald_pairs(at1, spec, spec.beta);
  EXPECT_NEAR(h0.mean_pairs / wald0, 1, 0.15) << h0.mean_pairs << " pairs at elo0, Wald " << wald0;
  EXPECT_NEAR(h1.mean_pairs / wald1, 1, 0.15) << h1.mean_pairs << " pairs at elo1, Wald " << wald1;
  std::printf("%s: false H1 %.4f at elo0, false H0 %.4f at elo1; pairs %.1f and %.1f, Wald %.1f and %.1f\n",
              spec.text().c_str(), double(h0.h1) / RUNS, double(h1.h0) / RUNS, h0.mean_pairs, h1.mean_pairs, wald0,
              wald1);
}

}  // namespace

TEST(SprtSimulation, NormalizedErrorRatesAndLength) { check_error_rates(SprtSpec{0, 40, 0.05, 0.05}); }

TEST(SprtSimulation, LogisticErrorRatesAndLength) {
  check_error_rates(SprtSpec{0, 40, 0.05, 0.05, EloModel::LOGISTIC});
}

// fastchess's figures and lines for 50 pairs [1, 10, 23, 14, 2] (5 of the 23 a win and a
// loss): the values its EloPentanomial's formulas give, worked out apart (Python).
TEST(Sprt, FastchessSummaryOfAMatch) {
  MatchStats m;
  m.wins = 31, m.draws = 44, m.losses = 25;
  m.penta.counts = {1, 10, 23, 14, 2};
  m.win_loss_pairs = 5;
  const MatchElo e = match_elo(m.penta);
  EXPECT_EQ(fixed2(e.elo) + " " + fixed2(e.elo_error) + " " + fixed2(e.nelo) + " " + fixed2(e.nelo_error),
            "20.87 40.78 35.10 68.10");
  EXPECT_EQ(fixed2(e.los * 100), "84.38");
  MatchHeader h{"Engine1", "Engine2", "1000 nodes", "1t", "16MB", "book.epd"};
  EXPECT_EQ(fastchess_summary(h, m, nullptr),
            "--------------------------------------------------\n"
            "Results of Engine1 vs Engine2 (1000 nodes, 1t, 16MB, book.epd):\n"
            "Elo: 20.87 +/- 40.78, nElo: 35.10 +/- 68.10\n"
            "LOS: 84.38 %, DrawRatio: 46.00 %, PairsRatio: 1.45\n"
            "Games: 100, Wins: 31, Losses: 25, Draws: 44, Points: 53.0 (53.00 %)\n"
            "Ptnml(0-2): [1, 10, 23, 14, 2], WL/DD Ratio: 0.28\n"
            "--------------------------------------------------\n");
  // With a test: fastchess's LLR line, the share of the bound it reached.
  PairSequence sprt(SprtSpec{});
  h.book = "";
  const std::string s = fastchess_summary(h, m, &sprt);
  EXPECT_NE(s.find("Results of Engine1 vs Engine2 (1000 nodes, 1t, 16MB):\n"), std::string::npos) << s;
  EXPECT_NE(s.find("\nLLR: 0.00 (0.0%) (-2.94, 2.94) [0.00, 5.00]\n"), std::string::npos) << s;
}

// W/D/L and the pairs from games' results: a pair of a win and a loss is told from two draws.
TEST(Sprt, MatchStatsTellWinLossFromTwoDraws) {
  // Pairs (0,1): first player wins both; (2,3): wins then loses; (4,5): two draws; 6 alone.
  const MatchStats m = match_stats({0, 1, 2, 3, 4, 5, 6}, {"1-0", "0-1", "1-0", "1-0", "1/2-1/2", "1/2-1/2", "0-1"});
  EXPECT_EQ(m.wins, 3u);
  EXPECT_EQ(m.losses, 2u);
  EXPECT_EQ(m.draws, 2u);
  EXPECT_EQ(m.penta.counts, (std::array<uint64_t, 5>{0, 0, 2, 0, 1}));
  EXPECT_EQ(m.win_loss_pairs, 1u);
}
