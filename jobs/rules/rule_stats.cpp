#include "jobs/rules/rule_stats.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace chesshpc {

namespace {

// The k-th (0-based) smallest ply counted in games_at_ply.
int32_t order_statistic(const std::vector<int64_t>& games_at_ply, int64_t k) {
  int64_t below = 0;
  for (size_t ply = 0; ply < games_at_ply.size(); ++ply) {
    below += games_at_ply[ply];
    if (k < below) return int32_t(ply);
  }
  return int32_t(games_at_ply.size()) - 1;
}

// Quantile with linear interpolation between order statistics, as numpy and pandas
// compute it by default, so that the file and a user's own check agree.
double quantile(const std::vector<int64_t>& games_at_ply, int64_t n, double q) {
  if (n == 0) return std::nan("");
  double pos = q * double(n - 1);
  int64_t lo = int64_t(pos);
  int64_t hi = std::min(lo + 1, n - 1);
  int32_t at_lo = order_statistic(games_at_ply, lo), at_hi = order_statistic(games_at_ply, hi);
  return at_lo + (pos - double(lo)) * (at_hi - at_lo);
}

}  // namespace

void RuleTally::add(const std::array<int32_t, chess::RULE_NB>& first_fire, int32_t ended_by) {
  for (int rule = 0; rule < chess::RULE_NB; ++rule) {
    int32_t ply = first_fire[rule];
    if (ply < 0) continue;
    std::vector<int64_t>& at = games_at_ply_[rule];
    if (size_t(ply) >= at.size()) at.resize(size_t(ply) + 1);
    ++at[size_t(ply)];
    ++fired_[rule];
  }
  if (ended_by >= 0) ++ended_[ended_by];
}

RuleSummaries RuleTally::summaries() const {
  RuleSummaries out;
  for (int rule = 0; rule < chess::RULE_NB; ++rule) {
    RuleSummary& s = out[rule];
    s.rule = chess::Rule(rule);
    s.fired = fired_[rule], s.ended = ended_[rule];
    const std::vector<int64_t>& at = games_at_ply_[rule];
    s.q1 = quantile(at, s.fired, 0.25), s.median = quantile(at, s.fired, 0.5), s.q3 = quantile(at, s.fired, 0.75);
  }
  return out;
}

RuleSummaries summarise_rules(const std::vector<std::array<int32_t, chess::RULE_NB>>& first_fire,
                              const std::vector<int32_t>& ended_by) {
  RuleTally tally;
  for (size_t g = 0; g < first_fire.size(); ++g) tally.add(first_fire[g], ended_by[g]);
  return tally.summaries();
}

std::string_view rule_key(size_t i) { return chess::rule_name(chess::Rule(i)); }

}  // namespace chesshpc
