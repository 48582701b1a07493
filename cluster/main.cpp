// chesshpc: the command line. Each command's options and the request they make live
// beside its job (jobs/<job>/options.h); here, which command runs and on what: one
// process or the MPI farm.
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "cluster/bench_farm.h"
#include "cluster/mpi_session.h"
#include "cluster/unit_driver.h"
#include "core/quote.h"
#include "core/zobrist.h"
#include "jobs/bench/options.h"
#include "jobs/io/options.h"
#include "jobs/io/version.h"
#include "jobs/perft/dedup_job.h"
#include "jobs/perft/options.h"
#include "jobs/perft/split_job.h"
#include "jobs/rules/options.h"
#include "jobs/selfplay/batch.h"
#include "jobs/selfplay/export.h"
#include "jobs/selfplay/options.h"
#include "jobs/uci/server.h"

namespace chesshpc {
namespace {

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

using Args = std::vector<std::string>;

int perft_command(const Options& opt, const Args&, const std::string& command_line) {
  PerftRequest req = perft_request(opt, command_line);
  // Positions keep the keys they were made with: switch before any FEN is read.
  if (req.verify_keys) chess::zobrist::init(chess::zobrist::VERIFY_SEED);
  if (checks_epd_suite(opt)) return run_epd(req, std::cout, std::cerr);
  // Under mpirun or srun, or when asked for units, the run is a task farm over the ranks.
  bool farm = req.split_depth != 0 || req.dedup_ply != 0 || launched_with_ranks();
  if (!req.out.empty() && !farm) throw UsageError("--out goes with a run split into units: add --split-depth K");
  if (req.dedup_ply) {
    DedupPerft job(req);
    return run_unit_job(job, std::cout, std::cerr);
  }
  if (farm) {
    SplitPerft job(req);
    return run_unit_job(job, std::cout, std::cerr);
  }
  return run_perft(req, std::cout, std::cerr);
}

int rules_command(const Options& opt, const Args&, const std::string&) {
  return run_rules(rules_request(opt), std::cout, std::cerr);
}

int drawstats_command(const Options& opt, const Args&, const std::string& command_line) {
  return run_drawstats(drawstats_request(opt, command_line), std::cout, std::cerr);
}

int selfplay_command(const Options& opt, const Args&, const std::string& command_line) {
  SelfplayBatch job(selfplay_request(opt, command_line));
  return run_unit_job(job, std::cout, std::cerr);
}

int export_command(const Options& opt, const Args&, const std::string&) {
  return export_pgn(export_file(opt), std::cout, std::cerr);
}

int uci_command(const Options&, const Args&, const std::string&) { return run_uci_server(std::cin, std::cout); }

// The kind's own table parses the arguments again, so that an option of the other kind
// is refused.
int bench_command(const Options& any, const Args& args, const std::string& command_line) {
  if (bench_kind(any) == BenchKind::SEARCH)
    return run_search_bench(search_bench_request(SEARCH_BENCH_OPTIONS.parse(args)), std::cout);
  return run_bench_farm(bench_request(BENCH_SUITE_OPTIONS.parse(args), command_line), std::cout, std::cerr);
}

// uci takes no options, not even --help.
const CommandOptions UCI_OPTIONS{"uci", {}, 0, ""};

// A command: its options, parsed (and --help answered) before run is called with them
// and with the arguments (which bench parses again by kind).
struct Command {
  std::string_view name;
  const CommandOptions& options;
  int (*run)(const Options& opt, const Args& args, const std::string& command_line);
};

const Command COMMANDS[] = {
    {"perft", PERFT_OPTIONS, perft_command},
    {"rules", RULES_OPTIONS, rules_command},
    {"uci", UCI_OPTIONS, uci_command},
    {"bench", BENCH_OPTIONS, bench_command},
    {"drawstats", DRAWSTATS_OPTIONS, drawstats_command},
    {"selfplay", SELFPLAY_OPTIONS, selfplay_command},
    {"export", EXPORT_OPTIONS, export_command},
};

std::string join_command_line(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) {
    if (i) s += ' ';
    s += argv[i];
  }
  return s;
}

int run_command(const std::string& name, const Args& args, const std::string& command_line) {
  for (const Command& c : COMMANDS) {
    if (c.name != name) continue;
    Options opt = c.options.parse(args);
    if (opt.has("help")) {
      std::cout << c.options.help;
      return EXIT_OK;
    }
    return c.run(opt, args, command_line);
  }
  throw UsageError("unknown command " + chess::quoted(name));
}

int dispatch(int argc, char** argv) {
  Args args(argv + 1, argv + argc);
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
    return run_command(command, args, join_command_line(argc, argv));
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
