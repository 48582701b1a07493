#include "jobs/rules/rule_stats.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "jobs/io/h5.h"

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
    s.ended = std::count(ended_by.begin(), ended_by.end(), rule);
    std::sort(plies.begin(), plies.end());
    s.fired = int64_t(plies.size());
    s.q1 = quantile(plies, 0.25), s.median = quantile(plies, 0.5), s.q3 = quantile(plies, 0.75);
  }
  return out;
}

void write_rule_summaries(hid_t parent, const char* group, const RuleSummaries& summaries) {
  h5::Handle g = h5::create_group(parent, group);
  std::vector<std::string> name;
  std::vector<int64_t> fired, ended;
  std::vector<double> q1, median, q3;
  for (int rule = 0; rule < chess::RULE_NB; ++rule) {
    const RuleSummary& s = summaries[rule];
    name.emplace_back(chess::rule_name(chess::Rule(rule)));
    fired.push_back(s.fired), ended.push_back(s.ended);
    q1.push_back(s.q1), median.push_back(s.median), q3.push_back(s.q3);
  }
  h5::write_column(g.id(), "name", name, "rule");
  h5::write_column(g.id(), "fired", fired, "games in which the rule's condition held");
  h5::write_column(g.id(), "ended", ended, "games the ruleset ended by this rule");
  h5::write_column(g.id(), "first_fire_q1", q1, "first quartile of the first-fire ply; NaN if never");
  h5::write_column(g.id(), "first_fire_median", median, "median first-fire ply; NaN if never");
  h5::write_column(g.id(), "first_fire_q3", q3, "third quartile of the first-fire ply; NaN if never");
}

void write_first_fire_columns(hid_t g, const std::vector<std::array<int32_t, chess::RULE_NB>>& first_fire) {
  for (int rule = 0; rule < chess::RULE_NB; ++rule) {
    std::vector<int32_t> fire;
    for (const auto& f : first_fire) fire.push_back(f[rule]);
    std::string name(chess::rule_name(chess::Rule(rule)));
    h5::write_column(g, "first_fire_" + name, fire, "first ply at which " + name + " held; -1 = never");
  }
}

}  // namespace chesshpc
