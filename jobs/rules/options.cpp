#include "jobs/rules/options.h"

#include "core/quote.h"

namespace chesshpc {

std::vector<OptionSpec> ruleset_options(const std::string& what_ends) {
  return {{"ruleset", "fide|site", "rules that end " + what_ends + " (default: fide)"},
          {"claim", "first|never", "fide: claim threefold and 50 moves at once, or play on (default: first)"}};
}

void read_ruleset_choice(const Options& opt, RulesetChoice& into) {
  std::string ruleset = opt.get("ruleset", "fide");
  auto r = parse_ruleset(ruleset);
  if (!r) throw UsageError("--ruleset must be fide or site, not " + chess::quoted(ruleset));
  into.ruleset = *r;
  std::string claim = opt.get("claim", "first");
  auto c = parse_claims(claim);
  if (!c) throw UsageError("--claim must be first or never, not " + chess::quoted(claim));
  into.claims = *c;
}

std::vector<OptionSpec> corpus_run_options(const std::string& what_ends) {
  std::vector<OptionSpec> group = ruleset_options(what_ends),
                          reporting = reporting_options("print the summary as one JSON object");
  group.push_back(threads_option());
  group.insert(group.end(), reporting.begin(), reporting.end());
  return group;
}

void read_corpus_run(const Options& opt, const std::string& command_line, CorpusRun& into) {
  read_ruleset_choice(opt, into);
  into.threads = read_threads(opt);
  read_reporting(opt, into);
  into.command_line = command_line;
}

const CommandOptions RULES_OPTIONS =
    command_options("rules",
                    {
                        {"fen", "FEN", "start position (default: startpos)"},
                        {"moves", "MOVES", "the moves, UCI or SAN, separated by spaces"},
                        ruleset_options("the game"),
                        json_option("print the result as one JSON object"),
                    },
                    "usage: chesshpc rules [--fen FEN] --moves \"e2e4 e7e5 ...\" [options]\n");

RulesRequest rules_request(const Options& opt) {
  RulesRequest req;
  req.fen = opt.get("fen", "startpos");
  if (!opt.has("moves")) throw UsageError("rules needs --moves \"...\" (possibly empty)");
  req.moves = opt.get("moves", "");
  read_ruleset_choice(opt, req);
  req.json = read_json(opt);
  return req;
}

const CommandOptions DRAWSTATS_OPTIONS =
    command_options("drawstats",
                    {
                        out_option("write per-game rows and per-rule totals to this HDF5 file"),
                        force_option(),
                        corpus_run_options("the games"),
                    },
                    "usage: chesshpc drawstats GAMES.pgn [--out FILE.h5] [options]\n", 1);

DrawstatsRequest drawstats_request(const Options& opt, const std::string& command_line) {
  if (opt.positional().empty()) throw UsageError("drawstats needs a PGN file");
  DrawstatsRequest req;
  req.pgn = opt.positional()[0];
  req.out = read_out(opt);
  read_corpus_run(opt, command_line, req);
  return req;
}

}  // namespace chesshpc
