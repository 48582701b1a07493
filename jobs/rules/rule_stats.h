// Per-rule draw statistics over a set of games: in how many games each rule's condition
// held, how many games it ended, and the first-fire ply's quartiles. Shared by drawstats
// (a PGN corpus) and selfplay (a batch of games).
#pragma once

#include <hdf5.h>

#include <array>
#include <cstdint>
#include <vector>

#include "core/game.h"

namespace chesshpc {

struct RuleSummary {
  int64_t fired = 0;                  // games in which the condition held at some ply
  int64_t ended = 0;                  // games the ruleset ended by this rule
  double q1 = 0, median = 0, q3 = 0;  // first-fire ply over the games where it fired; NaN if none
};

using RuleSummaries = std::array<RuleSummary, chess::RULE_NB>;

// first_fire[g][rule]: the first ply at which the rule held in game g, -1 if never;
// ended_by[g]: the Rule that ended game g, -1 if none.
RuleSummaries summarise_rules(const std::vector<std::array<int32_t, chess::RULE_NB>>& first_fire,
                              const std::vector<int32_t>& ended_by);

// Writes the group `name` with one row per rule: name, fired, ended, first_fire_q1,
// first_fire_median, first_fire_q3.
void write_rule_summaries(hid_t parent, const char* name, const RuleSummaries& s);

// Writes one first_fire_RULE column per rule into group g (-1 = never).
void write_first_fire_columns(hid_t g, const std::vector<std::array<int32_t, chess::RULE_NB>>& first_fire);

}  // namespace chesshpc
