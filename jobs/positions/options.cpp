#include "jobs/positions/options.h"

#include <algorithm>

#include "jobs/export/options.h"
#include "jobs/rules/options.h"

namespace chesshpc {

namespace {

// export's filters but those of a search's output (book moves, scores): a corpus has none.
constexpr const char* SCORE_FILTERS[] = {"skip-book", "skip-mate", "max-score"};

std::vector<OptionSpec> corpus_filter_options() {
  std::vector<OptionSpec> all = filter_options(), kept;
  for (const OptionSpec& o : all)
    if (std::none_of(std::begin(SCORE_FILTERS), std::end(SCORE_FILTERS), [&](const char* s) { return o.name == s; }))
      kept.push_back(o);
  return kept;
}

}  // namespace

const CommandOptions POSITIONS_OPTIONS = command_options(
    "positions",
    {
        out_option("the positions, in selfplay's /games and /positions layout (required)"),
        force_option(),
        corpus_filter_options(),
        {"per-game", "K", "keep K positions of each game, drawn after the filters (all of a game with fewer)"},
        {"fraction", "F", "keep each position with probability F, drawn after the filters"},
        {"seed", "S", "the sampling's seed: game i's draws derive from (S, i) (default: 1)"},
        {"memory", "SIZE", "the most --dedup's set of positions seen may take; a bare number is MB (default: 1G)"},
        corpus_run_options("the games (the /games table's termination and first_fire)"),
    },
    "usage: chesshpc positions CORPUS.pgn[.gz|.zst|-] --out FILE.h5 [filters] [--per-game K | --fraction F]\n", 1);

PositionsRequest positions_request(const Options& opt, const std::string& command_line) {
  PositionsRequest req;
  if (opt.positional().empty()) throw UsageError("positions needs a PGN file (or - for standard input)");
  req.pgn = opt.positional()[0];
  req.out = read_out(opt);
  if (req.out.empty()) throw UsageError("positions needs --out FILE.h5");
  req.filters = read_filters(opt);
  if (opt.has("per-game") && opt.has("fraction")) throw UsageError("give --per-game or --fraction, not both");
  req.per_game = opt.get_int("per-game", 0, 1, 100000);
  req.fraction = opt.get_double("fraction", 0, 1e-9, 1);
  req.seed = opt.get_u64("seed", 1);
  req.dedup_bytes = read_size_option(opt, "memory", req.dedup_bytes, "512M or 4G");
  read_corpus_run(opt, command_line, req);
  return req;
}

}  // namespace chesshpc
