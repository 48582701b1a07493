// `chesshpc rules` and `chesshpc drawstats`: their options and the requests they make, and
// the rules group of options (--ruleset, --claim) that selfplay takes too.
#pragma once

#include <string>
#include <vector>

#include "jobs/io/options.h"
#include "jobs/rules/drawstats.h"
#include "jobs/rules/request.h"

namespace chesshpc {

// --ruleset and --claim; the ruleset's help names what it ends: "the game", "the games".
std::vector<OptionSpec> ruleset_options(const std::string& what_ends);
// Names other than fide|site and first|never are a UsageError.
void read_ruleset_choice(const Options& opt, RulesetChoice& into);

// The corpus commands' group: the ruleset (its help naming what it ends), --threads and
// the reporting options.
std::vector<OptionSpec> corpus_run_options(const std::string& what_ends);
// Reads that group and keeps the command line; the PGN file is the command's to read.
// Throws UsageError as read_ruleset_choice, read_threads and read_reporting do.
void read_corpus_run(const Options& opt, const std::string& command_line, CorpusRun& into);

extern const CommandOptions RULES_OPTIONS;
// Throws UsageError without --moves.
RulesRequest rules_request(const Options& opt);

extern const CommandOptions DRAWSTATS_OPTIONS;
// Throws UsageError without the PGN file.
DrawstatsRequest drawstats_request(const Options& opt, const std::string& command_line);

}  // namespace chesshpc
