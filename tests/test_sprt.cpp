// Game pairs: pentanomial counts, the score and Elo interval from pairs, and the SPRT's
// log-likelihood ratio, checked against worked examples computed by hand from the
// published formulas (M. Van den Bergh's notes on the normalized and generalized SPRT).
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "jobs/selfplay/batch.h"
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

// 13 pairs, per-game scores x = 0, 1/4, 1/2, 3/4, 1 with counts 1, 2, 5, 3, 2:
//   mean m = (0 + 0.5 + 2.5 + 2.25 + 2) / 13 = 7.25 / 13 = 0.5576923
//   E[x^2] = (0 + 0.125 + 1.25 + 1.6875 + 2) / 13 = 5.0625 / 13 = 0.3894231
//   variance v = 0.3894231 - 0.5576923^2 = 0.0784024
//   half width = 1.959964 x sqrt(0.0784024 / 13) = 1.959964 x 0.0776592 = 0.1522092
//   score 0.5576923 in [0.4054831, 0.7099015]
//   Elo = -400 log10(1 / 0.5576923 - 1) = -400 log10(0.7931034) = 40.268
//   low -400 log10(1 / 0.4054831 - 1) = -66.477, high -400 log10(1 / 0.7099015 - 1) = 155.461
TEST(PairScore, MeanVarianceAndIntervalFromPairs) {
  PairScore s = pair_score(example());
  EXPECT_NEAR(s.score, 0.5576923, 1e-7);
  EXPECT_NEAR(s.score_low, 0.4054831, 1e-7);
  EXPECT_NEAR(s.score_high, 0.7099015, 1e-7);
  EXPECT_NEAR(s.elo, 40.268, 1e-3);
  EXPECT_NEAR(s.elo_low, -66.477, 1e-3);
  EXPECT_NEAR(s.elo_high, 155.461, 1e-3);
  EXPECT_TRUE(std::isnan(pair_score(Pentanomial{}).score));
  EXPECT_NEAR(score_of_elo(elo_of_score(0.3)), 0.3, 1e-12);
}

// alpha = beta = 0.05: lower = ln(0.05 / 0.95) = -2.944439, upper = ln(0.95 / 0.05) = 2.944439.
TEST(Sprt, BoundsFromAlphaAndBeta) {
  SprtSpec s;
  EXPECT_NEAR(s.lower(), -2.944439, 1e-6);
  EXPECT_NEAR(s.upper(), 2.944439, 1e-6);
  s.alpha = 0.1, s.beta = 0.2;  // ln(0.2 / 0.9) = -1.504077, ln(0.8 / 0.1) = 2.079442
  EXPECT_NEAR(s.lower(), -1.504077, 1e-6);
  EXPECT_NEAR(s.upper(), 2.079442, 1e-6);
  EXPECT_EQ(s.text(), "elo0=0 elo1=5 alpha=0.1 beta=0.2");
}

// The example's pairs, elo0 = 0, elo1 = 5:
//   s0 = 0.5, s1 = 1 / (1 + 10^(-5/400)) = 1 / 1.9716280 = 0.5071951
//   LLR = N (s1 - s0) (2m - s0 - s1) / (2v)
//       = 13 x 0.0071951 x (1.1153846 - 1.0071951) / (2 x 0.0784024)
//       = 13 x 0.0071951 x 0.1081895 / 0.1568047 = 0.064536
// 140 pairs LL 10, LD 25, DD+WL 60, WD 30, WW 15, elo0 = -5, elo1 = 5:
//   m = (6.25 + 30 + 22.5 + 15) / 140 = 0.5267857
//   E[x^2] = (1.5625 + 15 + 16.875 + 15) / 140 = 0.3459821, v = 0.3459821 - 0.2775033 = 0.0684790
//   s0 = 0.4928049, s1 = 0.5071951: s1 - s0 = 0.0143902, s0 + s1 = 1
//   LLR = 140 x 0.0143902 x 0.0535714 / 0.1369579 = 0.788025
TEST(Sprt, LlrOfWorkedExamples) {
  EXPECT_NEAR(sprt_llr(example(), SprtSpec{0, 5, 0.05, 0.05}), 0.064536, 1e-6);
  Pentanomial p;
  p.counts = {10, 25, 60, 30, 15};
  EXPECT_NEAR(sprt_llr(p, SprtSpec{-5, 5, 0.05, 0.05}), 0.788025, 1e-6);
  EXPECT_EQ(sprt_llr(Pentanomial{}, SprtSpec{}), 0.0);
}

// One WW pair, the empty outcomes taken as 0.001 each (fishtest's regularisation):
//   N = 1.004, m = (0.001 x (0.25 + 0.5 + 0.75) + 1) / 1.004 = 1.0015 / 1.004 = 0.9975100
//   v = (0.001 x (0.99751^2 + 0.74751^2 + 0.49751^2 + 0.24751^2) + 0.00249^2) / 1.004 = 0.0018613
//   elo1 = 10: s1 = 0.5143872; LLR = 1.004 x 0.0143872 x (1.9950199 - 1.0143872) / 0.0037227 = 3.80507
// beyond 2.944439: H1 after that one pair.
TEST(Sprt, OneOutcomeIsRegularisedAndDecides) {
  Pentanomial p;
  p.add(2);
  EXPECT_NEAR(sprt_llr(p, SprtSpec{0, 10, 0.05, 0.05}), 3.80507, 1e-5);
}

// Pairs count in game order whatever order the games come in, and nothing counts after the
// decision: games 1, 3, 2 wait for game 0; then pair 0 (WW) decides H1 and pair 1 never counts.
TEST(Sprt, PairSequenceCountsPairsInGameOrderUpToTheDecision) {
  PairSequence q(SprtSpec{0, 10, 0.05, 0.05});
  q.add(1, 1.0), q.add(3, 0.0), q.add(2, 0.0);
  EXPECT_EQ(q.pairs(), 0u);
  EXPECT_EQ(q.decision(), SprtDecision::NONE);
  q.add(0, 1.0);
  EXPECT_EQ(q.pairs(), 1u);
  EXPECT_EQ(q.decision(), SprtDecision::H1);
  EXPECT_NEAR(q.llr(), 3.80507, 1e-5);
  q.add(4, 0.0), q.add(5, 0.0);
  EXPECT_EQ(q.pairs(), 1u);
  EXPECT_STREQ(sprt_decision_name(q.decision()), "H1");
  // Losing pairs drive it the other way: H0 once the LLR reaches -2.944439.
  PairSequence down(SprtSpec{0, 10, 0.05, 0.05});
  for (uint64_t g = 0; down.decision() == SprtDecision::NONE && g < 200; ++g) down.add(g, 0.0);
  EXPECT_EQ(down.decision(), SprtDecision::H0);
  EXPECT_LE(down.llr(), down.spec().lower());
  // A void game leaves its pair out but the sequence goes on.
  PairSequence gap(SprtSpec{});
  gap.add(0, std::nullopt), gap.add(1, 1.0), gap.add(2, 0.5), gap.add(3, 0.5);
  EXPECT_EQ(gap.pairs(), 2u);
  EXPECT_EQ(llr_text(1.234, SprtSpec{}), "LLR 1.23 [-2.94, 2.94]");
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
// bounds, and the decision once there is one; without --sprt no LLR at all. Pair 0 drawn
// twice (DD): N = 1.004, m = 0.5, v = 0.001 x (0.25 + 0.0625 + 0.0625 + 0.25) / 1.004,
//   LLR = 1.004 x 0.0143872 x (1 - 1.0143872) / (2 v) = -0.16692, undecided.
// Then pairs lost twice (LL): with 9 of them N = 10.003, m = 0.0501849, v = 0.0226364,
// LLR -2.90551, still undecided; the 10th makes N = 11.003, m = 0.0456239, v = 0.0207872,
// LLR -3.51502 below -2.944439: H0 after pair 10.
// (Before the first game it read "0.0 games/s;; LLR 0.00".)
TEST(SelfplayBatch, ProgressShowsTheLlrAndTheDecisionOnlyWithSprt) {
  using chess::Result;
  SelfplayBatch batch(batch_of_40(SprtSpec{0, 10, 0.05, 0.05}));
  plan(batch);
  EXPECT_EQ(after_rate(batch), "; LLR 0.00 [-2.94, 2.94]");
  record_games(batch, 0, {Result::DRAW, Result::DRAW});
  EXPECT_EQ(after_rate(batch), "; 1/2-1/2 2; LLR -0.17 [-2.94, 2.94]");
  // Game 3 before game 2: pair 1 counts once both are in. The first player has White in
  // even games: 0-1 there and 1-0 in odd games is a pair it lost twice.
  record_games(batch, 3, {Result::WHITE_WINS});
  EXPECT_EQ(after_rate(batch), "; 1-0 1 1/2-1/2 2; LLR -0.17 [-2.94, 2.94]");
  record_games(batch, 2, {Result::BLACK_WINS});
  EXPECT_EQ(after_rate(batch), "; 0-1 1 1-0 1 1/2-1/2 2; LLR -0.12 [-2.94, 2.94]");
  for (uint64_t pair = 2; pair <= 9; ++pair) record_games(batch, 2 * pair, {Result::BLACK_WINS, Result::WHITE_WINS});
  EXPECT_EQ(after_rate(batch), "; 0-1 9 1-0 9 1/2-1/2 2; LLR -2.91 [-2.94, 2.94]");
  EXPECT_FALSE(batch.enough());
  record_games(batch, 20, {Result::BLACK_WINS, Result::WHITE_WINS});
  EXPECT_TRUE(batch.enough());
  EXPECT_EQ(after_rate(batch), "; 0-1 10 1-0 10 1/2-1/2 2; LLR -3.52 [-2.94, 2.94] H0");
  // A pair won twice after the decision (a unit still out then) counts in the results only.
  record_games(batch, 22, {Result::WHITE_WINS, Result::BLACK_WINS});
  EXPECT_EQ(after_rate(batch), "; 0-1 11 1-0 11 1/2-1/2 2; LLR -3.52 [-2.94, 2.94] H0");

  SelfplayBatch plain(batch_of_40(std::nullopt));
  plan(plain);
  EXPECT_EQ(after_rate(plain), "");
  record_games(plain, 0, {Result::DRAW, Result::WHITE_WINS});
  EXPECT_EQ(after_rate(plain), "; 1-0 1 1/2-1/2 1");
  EXPECT_FALSE(plain.enough());
}
