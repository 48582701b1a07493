// chesshpc: the command line. Each subcommand parses its options here and runs a job.
#include <iostream>
#include <string>
#include <vector>

#include "drawstats.h"
#include "options.h"
#include "perft_farm.h"
#include "perft_job.h"
#include "perft_table.h"
#include "rules_job.h"
#include "search_bench.h"
#include "uci_server.h"
#include "version.h"
#include "zobrist.h"

namespace chesshpc {
namespace {

const std::vector<OptionSpec> PERFT_OPTIONS = {
    {"fen", "FEN", "position to count from (default: startpos)"},
    {"depth", "D", "plies to count (required unless --epd)"},
    {"threads", "N", "TBB threads (default: every core this process may use)"},
    {"divide", "", "print each root move with its count"},
    {"detailed", "", "count captures, en passant, castles, promotions, checks, discovered and double checks, mates"},
    {"hash", "SIZE", "transposition table for subtree counts, e.g. 512M or 8G (default: none)"},
    {"verify-keys", "", "use the second, independent Zobrist key set, to cross-check a hashed run"},
    {"split-depth", "K", "split into the unique positions K plies down and run them as units over MPI ranks"},
    {"out", "FILE.h5", "with units: write units, divide, exact total, per-rank load and provenance to HDF5"},
    {"epd", "FILE", "check every ';Dn count' of every line of an EPD suite"},
    {"max-depth", "D", "with --epd: check depths up to D only"},
    {"json", "", "print results as JSON (one object; with --epd one per count checked)"},
    {"quiet", "", "no progress on stderr"},
    {"progress", "SECONDS", "seconds between progress reports (default: 1 on a terminal, 10 otherwise)"},
    {"help", "", "show this help"},
};

const std::vector<OptionSpec> RULES_OPTIONS = {
    {"fen", "FEN", "start position (default: startpos)"},
    {"moves", "MOVES", "the moves, UCI or SAN, separated by spaces"},
    {"ruleset", "fide|site", "rules that end the game (default: fide)"},
    {"claim", "first|never", "fide: claim threefold and 50 moves at once, or play on (default: first)"},
    {"json", "", "print the result as one JSON object"},
    {"help", "", "show this help"},
};

const std::vector<OptionSpec> DRAWSTATS_OPTIONS = {
    {"ruleset", "fide|site", "rules that end the games (default: fide)"},
    {"claim", "first|never", "fide: claim threefold and 50 moves at once, or play on (default: first)"},
    {"out", "FILE.h5", "write per-game rows and per-rule totals to this HDF5 file"},
    {"threads", "N", "TBB threads (default: every core this process may use)"},
    {"json", "", "print the summary as one JSON object"},
    {"quiet", "", "no progress on stderr"},
    {"progress", "SECONDS", "seconds between progress reports (default: 1 on a terminal, 10 otherwise)"},
    {"help", "", "show this help"},
};

const std::vector<OptionSpec> BENCH_OPTIONS = {
    {"depth", "D", "search depth per position (default: the bench's fixed depth)"},
    {"hash", "MB", "transposition table size in MB (default: 16)"},
    {"json", "", "print the result as one JSON object"},
    {"help", "", "show this help"},
};

const char* USAGE =
    "usage: chesshpc COMMAND [options]\n"
    "commands:\n"
    "  perft      exact move-path counts: one position, divide, detailed counters, EPD suites\n"
    "  rules      play moves under a ruleset: how and when the game ends, when each rule first held\n"
    "  drawstats  replay a PGN corpus: per game and per rule, when each draw rule would have fired\n"
    "  uci        play chess over the UCI protocol on standard input and output\n"
    "  bench      'bench search': fixed positions to a fixed depth; node-count signature and speed\n"
    "run 'chesshpc COMMAND --help' for its options; 'chesshpc --version' for the build.\n";

int perft_command(const std::vector<std::string>& args, const std::string& command_line) {
  Options opt("perft", args, PERFT_OPTIONS);
  if (opt.has("help")) {
    std::cout << "usage: chesshpc perft [--fen FEN] --depth D [options]\n"
              << "       chesshpc perft --epd FILE [--max-depth D] [options]\n"
              << Options::help_text(PERFT_OPTIONS);
    return EXIT_OK;
  }
  PerftRequest req;
  req.fen = opt.get("fen", "startpos");
  req.threads = opt.get_int("threads", 0, 1, 4096);
  req.divide = opt.has("divide");
  req.detailed = opt.has("detailed");
  req.json = opt.has("json");
  req.quiet = opt.has("quiet");
  req.progress_interval = opt.get_double("progress", 0, 0.01, 86400);
  if (auto hash = opt.get("hash")) {
    req.hash_bytes = chess::parse_size(*hash);
    if (!req.hash_bytes) throw UsageError("--hash takes a size like 512M or 8G, not '" + *hash + "'");
  }
  req.verify_keys = opt.has("verify-keys");
  // Positions keep the keys they were made with: switch before any FEN is read.
  if (req.verify_keys) chess::zobrist::init(chess::zobrist::VERIFY_SEED);
  if (auto epd = opt.get("epd")) {
    if (opt.has("fen") || opt.has("depth")) throw UsageError("--epd checks a suite; it takes no --fen or --depth");
    if (req.divide || req.detailed) throw UsageError("--epd takes no --divide or --detailed");
    req.epd = *epd;
    req.max_depth = opt.get_int("max-depth", req.max_depth, 1, 64);
    return run_epd(req, std::cout, std::cerr);
  }
  if (opt.has("max-depth")) throw UsageError("--max-depth goes with --epd");
  if (!opt.has("depth")) throw UsageError("perft needs --depth D (or --epd FILE)");
  req.depth = opt.get_int("depth", 0, 1, 20);
  req.split_depth = opt.get_int("split-depth", 0, 1, 19);
  req.out = opt.get("out", "");
  req.command_line = command_line;
  if (!req.out.empty() && !opt.has("split-depth") && !launched_with_ranks())
    throw UsageError("--out goes with a run split into units: add --split-depth K");
  if (req.detailed && opt.has("split-depth")) throw UsageError("--detailed runs in one process; drop --split-depth");
  // Under mpirun or srun, or when asked for units, the run is a task farm over the ranks.
  if (opt.has("split-depth") || launched_with_ranks()) return run_perft_farm(req, std::cout, std::cerr);
  return run_perft(req, std::cout, std::cerr);
}

chess::Ruleset ruleset_option(const Options& opt) {
  auto r = parse_ruleset(opt.get("ruleset", "fide"));
  if (!r) throw UsageError("--ruleset must be fide or site, not '" + opt.get("ruleset", "") + "'");
  return *r;
}

chess::ClaimPolicy claims_option(const Options& opt) {
  auto c = parse_claims(opt.get("claim", "first"));
  if (!c) throw UsageError("--claim must be first or never, not '" + opt.get("claim", "") + "'");
  return *c;
}

int rules_command(const std::vector<std::string>& args) {
  Options opt("rules", args, RULES_OPTIONS);
  if (opt.has("help")) {
    std::cout << "usage: chesshpc rules [--fen FEN] --moves \"e2e4 e7e5 ...\" [options]\n"
              << Options::help_text(RULES_OPTIONS);
    return EXIT_OK;
  }
  RulesRequest req;
  req.fen = opt.get("fen", "startpos");
  if (!opt.has("moves")) throw UsageError("rules needs --moves \"...\" (possibly empty)");
  req.moves = opt.get("moves", "");
  req.ruleset = ruleset_option(opt);
  req.claims = claims_option(opt);
  req.json = opt.has("json");
  return run_rules(req, std::cout, std::cerr);
}

int drawstats_command(const std::vector<std::string>& args, const std::string& command_line) {
  Options opt("drawstats", args, DRAWSTATS_OPTIONS, 1);
  if (opt.has("help")) {
    std::cout << "usage: chesshpc drawstats GAMES.pgn [--out FILE.h5] [options]\n"
              << Options::help_text(DRAWSTATS_OPTIONS);
    return EXIT_OK;
  }
  if (opt.positional().empty()) throw UsageError("drawstats needs a PGN file");
  DrawstatsRequest req;
  req.pgn = opt.positional()[0];
  req.out = opt.get("out", "");
  req.ruleset = ruleset_option(opt);
  req.claims = claims_option(opt);
  req.threads = opt.get_int("threads", 0, 1, 4096);
  req.json = opt.has("json");
  req.quiet = opt.has("quiet");
  req.progress_interval = opt.get_double("progress", 0, 0.01, 86400);
  req.command_line = command_line;
  return run_drawstats(req, std::cout, std::cerr);
}

int bench_command(const std::vector<std::string>& args) {
  Options opt("bench", args, BENCH_OPTIONS, 1);
  if (opt.has("help")) {
    std::cout << "usage: chesshpc bench search [--depth D] [--hash MB] [--json]\n" << Options::help_text(BENCH_OPTIONS);
    return EXIT_OK;
  }
  if (opt.positional().empty() || opt.positional()[0] != "search") throw UsageError("bench needs a kind: search");
  SearchBenchRequest req;
  req.depth = opt.get_int("depth", 0, 1, 64);
  req.hash_mb = opt.get_int("hash", 16, 1, 65536);
  req.json = opt.has("json");
  return run_search_bench(req, std::cout);
}

std::string join_command_line(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) {
    if (i) s += ' ';
    s += argv[i];
  }
  return s;
}

int dispatch(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::cout << USAGE;
    return args.empty() ? EXIT_USAGE : EXIT_OK;
  }
  if (args[0] == "--version") {
    std::cout << "chesshpc " << CHESSHPC_VERSION << " (" << CHESSHPC_GIT_COMMIT << ")\n";
    return EXIT_OK;
  }
  std::string command = args[0];
  args.erase(args.begin());
  try {
    if (command == "perft") return perft_command(args, join_command_line(argc, argv));
    if (command == "rules") return rules_command(args);
    if (command == "uci") {
      Options opt("uci", args, {});
      return run_uci_server(std::cin, std::cout);
    }
    if (command == "bench") return bench_command(args);
    if (command == "drawstats") return drawstats_command(args, join_command_line(argc, argv));
    throw UsageError("unknown command '" + command + "'");
  } catch (const UsageError& e) {
    std::cerr << "chesshpc: " << e.what() << "\n" << USAGE;
    return EXIT_USAGE;
  }
}

}  // namespace
}  // namespace chesshpc

int main(int argc, char** argv) {
  try {
    return chesshpc::dispatch(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "chesshpc: error: " << e.what() << "\n";
    return 1;
  }
}
