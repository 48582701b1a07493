// The ruleset a request plays under, and the rules command's request.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/game.h"
#include "jobs/io/options.h"

namespace chesshpc {

// The rules group of options (--ruleset, --claim; jobs/rules/options.h). Requests derive
// from it, so that a job reads req.ruleset and the reader fills the request.
struct RulesetChoice {
  chess::Ruleset ruleset = chess::Ruleset::FIDE;
  chess::ClaimPolicy claims = chess::ClaimPolicy::FIRST;
};

// What every command that replays a PGN corpus under a ruleset takes (drawstats,
// positions): the corpus, the ruleset, the threads, the reporting and the command line
// for the file's provenance; its options are one group (corpus_run_options).
struct CorpusRun : RulesetChoice, Reporting {
  std::string pgn;  // a file (.gz and .zst read compressed), or "-": standard input
  int threads = 0;
  std::string command_line;
};

struct RulesRequest : RulesetChoice {
  std::string fen = "startpos";
  std::string moves;  // UCI or SAN, separated by spaces; move numbers like "1." are skipped
  bool json = false;
};

std::optional<chess::Ruleset> parse_ruleset(std::string_view s);
std::optional<chess::ClaimPolicy> parse_claims(std::string_view s);
std::string_view ruleset_name(chess::Ruleset r);
std::string_view claims_name(chess::ClaimPolicy c);

}  // namespace chesshpc
