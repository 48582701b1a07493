#include "jobs/rules/rule_stats.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace chesshpc {

namespace {

// Quantile with linear interpolation between order statistics, as numpy and pandas
// compute it by default, so that the file and a user's own check agree.
double quantile(const std::vector<int32_t>& sorted, double q) {
  if (sorted.empty()) return std::nan("");
  double pos = q * double(sorted.size() - 1);
  size_t lo = size_t(pos);
  size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (pos - double(lo)) * (sorted[hi] - sorted[lo]);
}

}  // namespace

RuleSummaries summarise_rules(const std::vector<std::array<int32_t, chess::RULE_NB>>& first_fire,
                              const std::vector<int32_t>& ended_by) {
  RuleSummaries out;
  for (int rule = 0; rule < chess::RULE_NB; ++rule) {
    std::vector<int32_t> plies;
    for (const auto& f : first_fire)
      if (f[rule] >= 0) plies.push_back(f[rule]);
    RuleSummary& s = out[rule];
    s.rule = chess::Rule(rule);
    s.ended = std::count(ended_by.begin(), ended_by.end(), rule);
    std::sort(plies.begin(), plies.end());
    s.fired = int64_t(plies.size());
    s.q1 = quantile(plies, 0.25), s.median = quantile(plies, 0.5), s.q3 = quantile(plies, 0.75);
  }
  return out;
}

std::string_view rule_key(size_t i) { return chess::rule_name(chess::Rule(i)); }

}  // namespace chesshpc
