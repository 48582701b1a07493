// chesshpc: the command line. Each subcommand parses its options here and runs a job.
#include <iostream>
#include <string>
#include <vector>

#include "cluster/bench_farm.h"
#include "cluster/mpi_session.h"
#include "cluster/options.h"
#include "cluster/unit_driver.h"
#include "core/perft_table.h"
#include "core/zobrist.h"
#include "jobs/bench/search_bench.h"
#include "jobs/bench/suite.h"
#include "jobs/io/byte_size.h"
#include "jobs/io/version.h"
#include "jobs/perft/job.h"
#include "jobs/perft/split_job.h"
#include "jobs/rules/drawstats.h"
#include "jobs/rules/job.h"
#include "jobs/selfplay/batch.h"
#include "jobs/selfplay/export.h"
#include "jobs/uci/server.h"

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
    {"checkpoint", "SECONDS",
     "with --out: rewrite the file with the units done so far this often (default: 5, longer if writing took over 2%)"},
    {"resume", "", "with --out: continue the job recorded in FILE.h5, counting only the units it lacks"},
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

const std::vector<OptionSpec> SELFPLAY_OPTIONS = {
    {"games", "N", "games to play (required)"},
    {"seed", "S", "the batch's seed: game i's opening and randomness derive from (S, i) (default: 1)"},
    {"nodes", "N", "search nodes per move"},
    {"depth", "D", "search depth per move"},
    {"movetime", "MS", "milliseconds per move"},
    {"tc", "BASE+INC", "a clock per game in seconds, e.g. 10+0.1 (flag falls end games)"},
    {"white", "PLAYER", "the player with White in even games: chesshpc or uci:COMMAND (default: chesshpc)"},
    {"black", "PLAYER", "the other player (default: chesshpc); colours swap in odd games"},
    {"uci-options", "N=V,...", "setoption for external engines, e.g. Threads=1,Hash=16"},
    {"book", "FILE", "openings: an EPD or PGN book; each line played twice, colours swapped"},
    {"book-order", "sequential|random", "walk the book in order or in a seeded random order (default: sequential)"},
    {"random-plies", "N", "random legal plies after the book line (default: 0)"},
    {"ruleset", "fide|site", "rules that end the games (default: fide)"},
    {"claim", "first|never", "fide: claim threefold and 50 moves at once, or play on (default: first)"},
    {"resign-score", "CP", "adjudicate a loss when a side's score stays at or below -CP (default: off)"},
    {"resign-moves", "N", "...for N consecutive moves (default: 3)"},
    {"resign-one-sided", "", "...without the winner's score agreeing (default: both sides agree)"},
    {"draw-score", "CP", "adjudicate a draw when both scores stay within CP (default: off)"},
    {"draw-moves", "N", "...for N consecutive moves of each side (default: 8)"},
    {"draw-after", "MOVE", "...from move MOVE on (default: 40)"},
    {"max-plies", "N", "adjudicate a draw at N plies (default: off)"},
    {"temperature", "T", "chesshpc: sample moves by softmax over root scores at temperature T (pawns)"},
    {"sample-plies", "N", "...in the first N plies of the game (default: 0, no sampling)"},
    {"hash", "SIZE", "chesshpc: transposition table per search, cleared every game (default: 2M)"},
    {"games-per-unit", "N", "games in one unit of the task farm (default: 2)"},
    {"threads", "N", "games played at once by each rank (default: every core this process may use)"},
    {"out", "FILE.h5", "write games, positions and draw statistics to HDF5"},
    {"resume", "", "with --out: continue the batch recorded in FILE.h5.parts"},
    {"dedup", "", "with --out: write each position once (the first in game order)"},
    {"checkpoint", "SECONDS", "with --out: save finished games this often (default: 5, longer if saving took over 2%)"},
    {"json", "", "print the summary as one JSON object"},
    {"quiet", "", "no progress on stderr"},
    {"progress", "SECONDS", "seconds between progress reports (default: 1 on a terminal, 10 otherwise)"},
    {"help", "", "show this help"},
};

const std::vector<OptionSpec> EXPORT_OPTIONS = {
    {"pgn", "FILE.h5", "write the games of a selfplay file as PGN on stdout"},
    {"help", "", "show this help"},
};

const std::vector<OptionSpec> BENCH_OPTIONS = {
    {"depth", "D", "search depth per position (default: the bench's fixed depth)"},
    {"hash", "MB", "transposition table size in MB (default: 16)"},
    {"json", "", "print the result as one JSON object"},
    {"help", "", "show this help"},
};

const std::vector<OptionSpec> BENCH_SUITE_OPTIONS = {
    {"suite", "standard|quick", "the suite of measurements (default: standard; quick takes a second or two)"},
    {"threads", "T", "threads of the threaded benchmarks, per rank (default: every core this process may use)"},
    {"repeats", "N", "repeats of each measurement; the summary has their median (default: 3)"},
    {"out", "FILE.h5", "the result file (default: bench.h5)"},
    {"stockfish", "PATH|none", "Stockfish to compare perft with (default: /usr/games/stockfish when it exists)"},
    {"json", "", "print the machine and the summary as one JSON object"},
    {"quiet", "", "no progress on stderr"},
    {"progress", "SECONDS", "seconds between progress reports (default: 1 on a terminal, 10 otherwise)"},
    {"help", "", "show this help"},
};

const char* USAGE =
    "usage: chesshpc COMMAND [options]\n"
    "commands:\n"
    "  perft      exact move-path counts: one position, divide, detailed counters, EPD suites\n"
    "  rules      play moves under a ruleset: how and when the game ends, when each rule first held\n"
    "  drawstats  replay a PGN corpus: per game and per rule, when each draw rule would have fired\n"
    "  selfplay   play a batch of games over ranks and threads into an HDF5 dataset\n"
    "  export     a selfplay dataset as PGN\n"
    "  uci        play chess over the UCI protocol on standard input and output\n"
    "  bench      the benchmark suite into an HDF5 file; 'bench search': the search's node-count signature\n"
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
    req.hash_bytes = parse_size(*hash);
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
  req.resume = opt.has("resume");
  req.checkpoint_interval = opt.get_double("checkpoint", req.checkpoint_interval, 0.01, 86400);
  if ((req.resume || opt.has("checkpoint")) && req.out.empty())
    throw UsageError("--resume and --checkpoint go with --out FILE.h5");
  if (!req.out.empty() && !opt.has("split-depth") && !launched_with_ranks())
    throw UsageError("--out goes with a run split into units: add --split-depth K");
  if (req.detailed && opt.has("split-depth")) throw UsageError("--detailed runs in one process; drop --split-depth");
  // Under mpirun or srun, or when asked for units, the run is a task farm over the ranks.
  if (opt.has("split-depth") || launched_with_ranks()) {
    SplitPerft job(req);
    return run_unit_job(job, std::cout, std::cerr);
  }
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

PlayerSpec player_option(const Options& opt, const char* name) {
  std::string text = opt.get(name, "chesshpc");
  PlayerSpec p;
  if (text == "chesshpc") return p;
  if (text.rfind("uci:", 0) != 0 || text.size() == 4)
    throw UsageError(std::string("--") + name + " must be chesshpc or uci:COMMAND, not '" + text + "'");
  p.command = text.substr(4);
  std::string list = opt.get("uci-options", "");
  for (size_t a = 0, b; a < list.size(); a = b + 1) {
    b = list.find(',', a);
    if (b == std::string::npos) b = list.size();
    std::string item = list.substr(a, b - a);
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) throw UsageError("--uci-options takes NAME=VALUE,..., not '" + item + "'");
    p.options.push_back({item.substr(0, eq), item.substr(eq + 1)});
  }
  return p;
}

TimeControl clock_option(const std::string& text) {
  size_t plus = text.find('+');
  char* end = nullptr;
  double base = std::strtod(text.c_str(), &end);
  double inc = plus == std::string::npos ? 0 : std::strtod(text.c_str() + plus + 1, nullptr);
  if (!(base > 0) || (plus == std::string::npos ? *end != 0 : end != text.c_str() + plus) || !(inc >= 0))
    throw UsageError("--tc takes BASE+INC in seconds, e.g. 10+0.1, not '" + text + "'");
  return {long(base * 1000), long(inc * 1000)};
}

int selfplay_command(const std::vector<std::string>& args, const std::string& command_line) {
  Options opt("selfplay", args, SELFPLAY_OPTIONS);
  if (opt.has("help")) {
    std::cout << "usage: chesshpc selfplay --games N (--nodes N | --depth D | --movetime MS | --tc BASE+INC) "
                 "[--seed S] [--out FILE.h5] [options]\n"
              << Options::help_text(SELFPLAY_OPTIONS);
    return EXIT_OK;
  }
  SelfplayRequest req;
  if (!opt.has("games")) throw UsageError("selfplay needs --games N");
  req.games = opt.get_u64("games", 0);
  if (req.games == 0) throw UsageError("--games must be 1 or more");
  req.seed = opt.get_u64("seed", 1);
  req.limits.nodes = opt.get_int("nodes", 0, 1, 2000000000);
  req.limits.depth = opt.get_int("depth", 0, 1, 100);
  req.limits.movetime_ms = opt.get_int("movetime", 0, 1, 86400000);
  if (auto tc = opt.get("tc")) req.clock = clock_option(*tc);
  int limits = opt.has("nodes") + opt.has("depth") + opt.has("movetime") + opt.has("tc");
  if (limits != 1) throw UsageError("selfplay needs one of --nodes, --depth, --movetime or --tc");
  req.first = player_option(opt, "white");
  req.second = player_option(opt, "black");
  req.book = opt.get("book", "");
  std::string order = opt.get("book-order", "sequential");
  if (order != "sequential" && order != "random")
    throw UsageError("--book-order must be sequential or random, not '" + order + "'");
  req.book_order = order == "random" ? BookOrder::RANDOM : BookOrder::SEQUENTIAL;
  req.random_plies = opt.get_int("random-plies", 0, 0, 200);
  req.ruleset = ruleset_option(opt);
  req.claims = claims_option(opt);
  Adjudication& a = req.adjudication;
  a.resign_score = opt.get_int("resign-score", 0, 1, 100000);
  a.resign_moves = opt.get_int("resign-moves", a.resign_moves, 1, 1000);
  a.resign_two_sided = !opt.has("resign-one-sided");
  a.draw_score = opt.get_int("draw-score", 0, 1, 100000);
  a.draw_moves = opt.get_int("draw-moves", a.draw_moves, 1, 1000);
  a.draw_after_move = opt.get_int("draw-after", a.draw_after_move, 1, 10000);
  a.max_plies = opt.get_int("max-plies", 0, 1, 100000);
  req.temperature = opt.get_double("temperature", 0, 0, 100);
  req.sample_plies = opt.get_int("sample-plies", 0, 0, 1000);
  if (auto hash = opt.get("hash")) {
    req.hash_bytes = parse_size(*hash);
    if (!req.hash_bytes) throw UsageError("--hash takes a size like 16M or 1G, not '" + *hash + "'");
  }
  req.games_per_unit = opt.get_int("games-per-unit", 0, 1, 1000000);
  req.threads = opt.get_int("threads", 0, 1, 4096);
  req.out = opt.get("out", "");
  req.resume = opt.has("resume");
  req.dedup = opt.has("dedup");
  req.checkpoint_interval = opt.get_double("checkpoint", 0, 0.01, 86400);
  if ((req.resume || req.dedup || opt.has("checkpoint")) && req.out.empty())
    throw UsageError("--resume, --dedup and --checkpoint go with --out FILE.h5");
  req.json = opt.has("json");
  req.quiet = opt.has("quiet");
  req.progress_interval = opt.get_double("progress", 0, 0.01, 86400);
  req.command_line = command_line;
  SelfplayBatch job(req);
  return run_unit_job(job, std::cout, std::cerr);
}

int export_command(const std::vector<std::string>& args) {
  Options opt("export", args, EXPORT_OPTIONS);
  if (opt.has("help")) {
    std::cout << "usage: chesshpc export --pgn FILE.h5 > games.pgn\n" << Options::help_text(EXPORT_OPTIONS);
    return EXIT_OK;
  }
  if (!opt.has("pgn")) throw UsageError("export needs --pgn FILE.h5");
  return export_pgn(opt.get("pgn", ""), std::cout, std::cerr);
}

int search_bench_command(const std::vector<std::string>& args) {
  Options opt("bench search", args, BENCH_OPTIONS, 1);
  SearchBenchRequest req;
  req.depth = opt.get_int("depth", 0, 1, 64);
  req.hash_mb = opt.get_int("hash", 16, 1, 65536);
  req.json = opt.has("json");
  return run_search_bench(req, std::cout);
}

int suite_bench_command(const std::vector<std::string>& args, const std::string& command_line) {
  Options opt("bench", args, BENCH_SUITE_OPTIONS, 1);
  BenchRequest req;
  req.suite = opt.get("suite", req.suite);
  if (!find_suite(req.suite))
    throw UsageError("--suite must be " + std::string(suite_names()) + ", not '" + req.suite + "'");
  req.threads = opt.get_int("threads", 0, 1, 4096);
  req.repeats = opt.get_int("repeats", req.repeats, 1, 1000);
  req.out = opt.get("out", req.out);
  req.stockfish = opt.get("stockfish", "");
  if (opt.has("stockfish") && req.stockfish.empty()) throw UsageError("--stockfish takes a path or none");
  req.json = opt.has("json");
  req.quiet = opt.has("quiet");
  req.progress_interval = opt.get_double("progress", 0, 0.01, 86400);
  req.command_line = command_line;
  return run_bench_farm(req, std::cout, std::cerr);
}

// `bench search` and `bench [suite]` take different options: find the kind first (with
// every option of both known, so that an option's value is not taken for the kind).
int bench_command(const std::vector<std::string>& args, const std::string& command_line) {
  std::vector<OptionSpec> all = BENCH_OPTIONS;
  all.insert(all.end(), BENCH_SUITE_OPTIONS.begin(), BENCH_SUITE_OPTIONS.end());
  Options any("bench", args, all, 1);
  std::string kind = any.positional().empty() ? "suite" : any.positional()[0];
  if (any.has("help")) {
    std::cout << "usage: chesshpc bench [suite] [--suite standard|quick] [--threads T] [--repeats N] [--out FILE.h5] "
                 "[--stockfish PATH|none] [--json]\n"
              << Options::help_text(BENCH_SUITE_OPTIONS)
              << "usage: chesshpc bench search [--depth D] [--hash MB] [--json]\n"
              << Options::help_text(BENCH_OPTIONS);
    return EXIT_OK;
  }
  if (kind == "search") return search_bench_command(args);
  if (kind == "suite") return suite_bench_command(args, command_line);
  throw UsageError("bench takes a kind: suite (the default) or search, not '" + kind + "'");
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
    if (command == "bench") return bench_command(args, join_command_line(argc, argv));
    if (command == "drawstats") return drawstats_command(args, join_command_line(argc, argv));
    if (command == "selfplay") return selfplay_command(args, join_command_line(argc, argv));
    if (command == "export") return export_command(args);
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
