// chesshpc: the command line. Each subcommand parses its options here and runs a job.
#include <iostream>
#include <string>
#include <vector>

#include "options.h"
#include "perft_job.h"

namespace chesshpc {
namespace {

const std::vector<OptionSpec> PERFT_OPTIONS = {
    {"fen", "FEN", "position to count from (default: startpos)"},
    {"depth", "D", "plies to count (required unless --epd)"},
    {"threads", "N", "TBB threads (default: every core this process may use)"},
    {"divide", "", "print each root move with its count"},
    {"detailed", "", "count captures, en passant, castles, promotions, checks, discovered and double checks, mates"},
    {"epd", "FILE", "check every ';Dn count' of every line of an EPD suite"},
    {"max-depth", "D", "with --epd: check depths up to D only"},
    {"json", "", "print results as JSON (one object; with --epd one per count checked)"},
    {"quiet", "", "no progress on stderr"},
    {"progress", "SECONDS", "seconds between progress reports (default: 1 on a terminal, 10 otherwise)"},
    {"help", "", "show this help"},
};

const char* USAGE =
    "usage: chesshpc COMMAND [options]\n"
    "commands:\n"
    "  perft     exact move-path counts: one position, divide, detailed counters, EPD suites\n"
    "run 'chesshpc COMMAND --help' for its options; 'chesshpc --version' for the build.\n";

int perft_command(const std::vector<std::string>& args) {
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
  return run_perft(req, std::cout, std::cerr);
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
    if (command == "perft") return perft_command(args);
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
