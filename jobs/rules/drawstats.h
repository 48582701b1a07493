// drawstats: replays a PGN corpus under a ruleset and records, for every game, how it
// would have ended and the first ply at which each draw rule's condition held; writes
// the per-game rows and per-rule totals to HDF5 and prints a summary.
#pragma once

#include <array>
#include <ostream>
#include <string>
#include <vector>

#include "core/game.h"
#include "jobs/io/options.h"
#include "jobs/rules/job.h"
#include "jobs/rules/rule_stats.h"

namespace chesshpc {

struct DrawstatsRequest : RulesetChoice, Reporting {
  std::string pgn;
  std::string out;  // HDF5 file; empty: no file
  int threads = 0;
  std::string command_line;
};

// One game of the corpus, replayed.
struct GameRow {
  int64_t index = 0;         // 0-based, in file order
  int32_t first_line = 0;    // where the game starts in the file
  std::string result;        // the PGN Result tag (the termination marker if there is no tag)
  int32_t termination = -1;  // the Rule that ends it under the ruleset, -1 if none
  int32_t termination_ply = -1;
  int32_t plies = 0;  // moves recorded in the file
  bool perpetual_check = false;
  std::array<int32_t, chess::RULE_NB> first_fire{};
};

struct SkippedGame {
  int64_t index;
  int32_t line;
  std::string message;
  std::string variant;  // the Variant tag of a game of a variant not read; empty for a malformed game
};

struct DrawstatsResult {
  std::vector<GameRow> games;
  std::vector<SkippedGame> skipped;
  RuleSummaries rules;
  int64_t plies = 0;
  double seconds = 0;
  // Of the skipped games, those of a variant not read (the rest are malformed).
  int64_t skipped_variants() const;
};

// Parses and replays every game of the text, in parallel; rows come back in file order
// whatever the thread count.
DrawstatsResult compute_drawstats(const std::string& pgn_text, chess::Ruleset ruleset, chess::ClaimPolicy claims,
                                  int threads, class Progress* progress);

int run_drawstats(const DrawstatsRequest& req, std::ostream& out, std::ostream& err);

}  // namespace chesshpc
