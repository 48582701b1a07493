// Per-rule draw statistics over a set of games: in how many games each rule's condition
// held, how many games it ended, and the first-fire ply's quartiles. Shared by drawstats
// (a PGN corpus) and selfplay (a batch of games), with the result-file columns both write.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.h"
#include "jobs/io/h5_table.h"

namespace chesshpc {

struct RuleSummary {
  chess::Rule rule{};                 // the rule the row is about
  int64_t fired = 0;                  // games in which the condition held at some ply
  int64_t ended = 0;                  // games the ruleset ended by this rule
  double q1 = 0, median = 0, q3 = 0;  // first-fire ply over the games where it fired; NaN if none
};

using RuleSummaries = std::array<RuleSummary, chess::RULE_NB>;

// The statistics of RuleSummaries gathered game by game in memory bounded by the longest
// first-fire ply, not by the number of games: a count of games per first-fire ply for each
// rule. Plies are integers, so the quartiles read from the counts are exactly those of the
// sorted plies.
class RuleTally {
 public:
  // first_fire[rule]: the first ply at which the rule held, -1 if never; ended_by: the Rule
  // that ended the game, -1 if none.
  void add(const std::array<int32_t, chess::RULE_NB>& first_fire, int32_t ended_by);
  RuleSummaries summaries() const;

 private:
  std::array<std::vector<int64_t>, chess::RULE_NB> games_at_ply_;
  std::array<int64_t, chess::RULE_NB> fired_{}, ended_{};
};

// first_fire[g][rule]: the first ply at which the rule held in game g, -1 if never;
// ended_by[g]: the Rule that ended game g, -1 if none.
RuleSummaries summarise_rules(const std::vector<std::array<int32_t, chess::RULE_NB>>& first_fire,
                              const std::vector<int32_t>& ended_by);

// Rule i's name, as the key of the first_fire_RULE columns.
std::string_view rule_key(size_t i);
inline constexpr h5::Keys RULE_KEYS{"RULE", chess::RULE_NB, &rule_key};

// The first_fire_RULE columns of a table of games, one per rule, from M: a row's
// std::array<int32_t, RULE_NB> of first-fire plies, or a vector of them in a struct of columns.
template <auto M>
constexpr auto first_fire_column() {
  return h5::column<M>("first_fire_RULE", "first ply at which RULE held; -1 = never", &RULE_KEYS);
}

// The per-rule table, one row per rule; its group is the file's (drawstats: /rules,
// selfplay: /drawstats).
constexpr auto rule_summary_table(std::string_view group, std::string_view description) {
  return h5::table(
      group, description,
      {
          h5::computed<RuleSummary>("name", "rule",
                                    [](const RuleSummary& s) { return std::string(rule_key(size_t(s.rule))); }),
          h5::column<&RuleSummary::fired>("fired", "games in which the rule's condition held"),
          h5::column<&RuleSummary::ended>("ended", "games the ruleset ended by this rule"),
          h5::column<&RuleSummary::q1>("first_fire_q1", "first quartile of the first-fire ply; NaN if never"),
          h5::column<&RuleSummary::median>("first_fire_median", "median first-fire ply; NaN if never"),
          h5::column<&RuleSummary::q3>("first_fire_q3", "third quartile of the first-fire ply; NaN if never"),
      });
}

}  // namespace chesshpc
