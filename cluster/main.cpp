// chesshpc: the command line. Each command's options and the request they make live
// beside its job (jobs/<job>/options.h); here, which command runs and on what: one
// process or the MPI farm.
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <iterator>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "cluster/bench_farm.h"
#include "cluster/mpi_session.h"
#include "cluster/unit_driver.h"
#include "core/quote.h"
#include "core/zobrist.h"
#include "jobs/bench/options.h"
#include "jobs/dataset/options.h"
#include "jobs/dataset/run.h"
#include "jobs/export/options.h"
#include "jobs/export/pgn.h"
#include "jobs/export/run.h"
#include "jobs/io/options.h"
#include "jobs/io/provenance.h"
#include "jobs/io/publish.h"
#include "jobs/io/version.h"
#include "jobs/perft/dedup_job.h"
#include "jobs/perft/options.h"
#include "jobs/perft/run.h"
#include "jobs/perft/split_job.h"
#include "jobs/positions/options.h"
#include "jobs/positions/run.h"
#include "jobs/rescore/options.h"
#include "jobs/rescore/rescore_job.h"
#include "jobs/rules/options.h"
#include "jobs/rules/run.h"
#include "jobs/selfplay/batch_job.h"
#include "jobs/selfplay/fastchess_args.h"
#include "jobs/selfplay/options.h"
#include "jobs/uci/server.h"
#include "jobs/verify/options.h"
#include "jobs/verify/perftree.h"
#include "jobs/verify/suite_job.h"

namespace chesshpc {
namespace {

const char* USAGE =
    "usage: chesshpc COMMAND [options]\n"
    "commands:\n"
    "  perft      exact move-path counts: one position, divide, detailed counters, EPD suites\n"
    "  rules      play moves under a ruleset: how and when the game ends, when each rule first held\n"
    "  drawstats  replay a PGN corpus: per game and per rule, when each draw rule would have fired\n"
    "  selfplay   play a batch of games over ranks and threads into an HDF5 dataset\n"
    "  rescore    search a dataset's positions again with a player, over ranks and threads\n"
    "  positions  the positions of a PGN corpus as a dataset, filtered, sampled, deduplicated\n"
    "  export     a selfplay dataset in a trainer's format (Stockfish, bullet, EPD) or as PGN\n"
    "  convert    a dataset file in another format (plain, bin, binpack, bullet, epd, HDF5); --validate\n"
    "  shuffle    a dataset file's records in a seeded random order, in bounded memory\n"
    "  interleave dataset files into one, in proportion to their records (seeded)\n"
    "  stats      a dataset file's distributions: pieces, ply, score, result, phase, duplicates\n"
    "  uci        play chess over the UCI protocol on standard input and output (and answer go perft)\n"
    "  verify     check another engine's perft (UCI go perft or perftree) and drill down to the wrong move\n"
    "  perftree   the divide perftree reads: chesshpc perftree DEPTH FEN [MOVES]\n"
    "  bench      the benchmark suite into an HDF5 file; 'bench search': the search's node-count signature\n"
    "run 'chesshpc help COMMAND' (or 'chesshpc COMMAND --help') for its options; 'chesshpc --version' for the build.\n";

using Args = std::vector<std::string>;

int perft_command(const Options& opt, const std::string& command_line) {
  PerftRequest req = perft_request(opt, command_line);
  // Positions keep the keys they were made with: switch before any FEN is read.
  if (req.verify_keys) chess::zobrist::init(chess::zobrist::VERIFY_SEED);
  // An EPD suite runs in one process: started as ranks, rank 0 runs it (it alone reads the
  // file) and the others end at once, as drawstats' do.
  if (checks_epd_suite(opt)) return launch_rank() == 0 ? run_epd(req, std::cout, std::cerr) : EXIT_OK;
  // Under mpirun or srun, when asked for units, or for a result file (which holds units), the
  // run is a task farm over the ranks; alone, split as deep as the default for its threads.
  bool farm = req.split_depth != 0 || req.dedup_ply != 0 || launched_with_ranks() || !req.out.empty();
  if (!req.out.empty() && req.detailed)
    throw UsageError("--detailed runs in one process and writes no file; drop --out");
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

int rules_command(const Options& opt, const std::string&) {
  return run_rules(rules_request(opt), std::cout, std::cerr);
}

// drawstats runs on one process's threads: started as ranks (mpirun, srun), rank 0 does
// the work and the others end at once, rather than each replaying the corpus into the
// same --out.
int drawstats_command(const Options& opt, const std::string& command_line) {
  if (launch_rank() != 0) return EXIT_OK;
  return run_drawstats(drawstats_request(opt, command_line), std::cout, std::cerr);
}

// The games a PGN file holds, if it exists, before those a run adds (--pgn-append), a
// blank line between.
void append_existing(const std::string& path, std::ostream& out) {
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (text.empty()) return;
  out << text;
  if (text.back() != '\n') out << '\n';
  if (text.size() < 2 || text.compare(text.size() - 2, 2, "\n\n") != 0) out << '\n';
}

// --pgn-out: rank 0 writes the batch's games as export writes them, once the batch is done
// (after the file's own with --pgn-append).
int selfplay_command(const Options& opt, const std::string& command_line) {
  SelfplayBatch job(selfplay_request(opt, command_line));
  const int code = run_unit_job(job, std::cout, std::cerr);
  const std::string& pgn = opt.get("pgn-out", "");
  if (code != EXIT_OK || pgn.empty() || launch_rank() != 0) return code;
  PublishedFile file(pgn);
  if (opt.has("pgn-append")) append_existing(pgn, file.stream());
  const int written = write_pgn({job.kept_games(), job.started(), host_name()}, file.stream(), std::cerr);
  if (written != EXIT_OK) return written;
  if (std::string why = file.commit(); !why.empty()) {
    std::cerr << "chesshpc selfplay: cannot write '" << pgn << "': " << why << "\n";
    return EXIT_IO;
  }
  return EXIT_OK;
}

int rescore_command(const Options& opt, const std::string& command_line) {
  Rescore job(rescore_request(opt, command_line));
  return run_unit_job(job, std::cout, std::cerr);
}

// positions runs on one process's threads, as drawstats does.
int positions_command(const Options& opt, const std::string& command_line) {
  if (launch_rank() != 0) return EXIT_OK;
  return run_positions(positions_request(opt, command_line), std::cout, std::cerr);
}

int export_command(const Options& opt, const std::string&) {
  return run_export(export_request(opt, isatty(STDOUT_FILENO)), std::cout, std::cerr);
}

// The dataset commands (jobs/dataset/): one process each.
int convert_command(const Options& opt, const std::string& command_line) {
  return run_convert(convert_request(opt, command_line, isatty(STDOUT_FILENO)), std::cout, std::cerr);
}
int shuffle_command(const Options& opt, const std::string& command_line) {
  return run_shuffle(shuffle_request(opt, command_line, isatty(STDOUT_FILENO)), std::cout, std::cerr);
}
int interleave_command(const Options& opt, const std::string& command_line) {
  return run_interleave(interleave_request(opt, command_line, isatty(STDOUT_FILENO)), std::cout, std::cerr);
}
int stats_command(const Options& opt, const std::string& command_line) {
  return run_stats(stats_request(opt, command_line), std::cout, std::cerr);
}

int uci_command(const Options&, const std::string&) { return run_uci_server(std::cin, std::cout); }

int verify_command(const Options& opt, const std::string& command_line) {
  VerifySuite job(verify_request(opt, command_line));
  return run_unit_job(job, std::cout, std::cerr);
}

int perftree_command(const Options& opt, const std::string&) { return run_perftree(opt, std::cout, std::cerr); }

// The kind's own table: an option of the other kind is refused, and --help shows the
// kind's options.
const CommandOptions& bench_options(const Options& any) {
  return bench_kind(any) == BenchKind::SEARCH ? SEARCH_BENCH_OPTIONS : BENCH_SUITE_OPTIONS;
}

int bench_command(const Options& opt, const std::string& command_line) {
  if (bench_kind(opt) == BenchKind::SEARCH) return run_search_bench(search_bench_request(opt), std::cout);
  return run_bench_farm(bench_request(opt, command_line), std::cout, std::cerr);
}

const CommandOptions UCI_OPTIONS = command_options("uci", {},
                                                   "usage: chesshpc uci\n"
                                                   "plays chess over the UCI protocol on standard input and output "
                                                   "(uci, isready, setoption, position, go, stop, quit); "
                                                   "'go perft D' prints the divide as Stockfish does\n");

// A command: its options, parsed (and --help answered) before run is called with them.
// own, when set, picks the table the arguments are parsed with again (bench's kinds);
// translate, when set, turns another tool's options into the command's first (selfplay's
// fastchess and cutechess-cli lines).
struct Command {
  std::string_view name;
  const CommandOptions& options;
  int (*run)(const Options& opt, const std::string& command_line);
  const CommandOptions& (*own)(const Options& any) = nullptr;
  Args (*translate)(const Args& args) = nullptr;
};

const Command COMMANDS[] = {
    {"perft", PERFT_OPTIONS, perft_command},
    {"rules", RULES_OPTIONS, rules_command},
    {"uci", UCI_OPTIONS, uci_command},
    {"bench", BENCH_OPTIONS, bench_command, bench_options},
    {"drawstats", DRAWSTATS_OPTIONS, drawstats_command},
    {"selfplay", SELFPLAY_OPTIONS, selfplay_command, nullptr, fastchess_args},
    {"rescore", RESCORE_OPTIONS, rescore_command},
    {"positions", POSITIONS_OPTIONS, positions_command},
    {"export", EXPORT_OPTIONS, export_command},
    {"convert", CONVERT_OPTIONS, convert_command},
    {"shuffle", SHUFFLE_OPTIONS, shuffle_command},
    {"interleave", INTERLEAVE_OPTIONS, interleave_command},
    {"stats", STATS_OPTIONS, stats_command},
    {"verify", VERIFY_OPTIONS, verify_command},
    {"perftree", PERFTREE_OPTIONS, perftree_command},
};

// A word as a POSIX shell reads it back: as it is when it holds only characters no shell
// treats specially, else in single quotes.
std::string shell_word(const std::string& word) {
  const bool plain = !word.empty() && word.find_first_not_of(
                                          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                          "0123456789-_./=:,+@%") == std::string::npos;
  if (plain) return word;
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// The command line as a shell would run it again: the resume hint and the files' provenance.
std::string join_command_line(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) {
    if (i) s += ' ';
    s += shell_word(argv[i]);
  }
  return s;
}

// Bad usage, said once: every rank refuses the same arguments, rank 0 alone prints why and
// ends with the code, and the others end at once with none: mpirun ends the whole job
// when a rank first exits non-zero, and rank 0 must have said why by then; the job's code
// (mpirun's, srun's) is rank 0's.
int usage_exit(const std::string& message) {
  if (launch_rank() != 0) return EXIT_OK;
  std::cerr << message;
  return EXIT_USAGE;
}

// Runs a known command. Errors of the arguments are said here, each in one line: bad
// usage (exit 2, with where the command's options are listed), a file that cannot be
// written (exit 4), memory that ran out (exit 2: the run asked for more than there is).
int run_command(const Command& c, const Args& given, const std::string& command_line) {
  const CommandOptions* own = &c.options;
  try {
    const Args args = c.translate ? c.translate(given) : given;
    Options opt = c.options.parse(args);
    if (c.own) own = &c.own(opt);
    if (own != &c.options) opt = own->parse(args);
    if (opt.has("help")) {
      std::cout << own->help;
      return EXIT_OK;
    }
    return c.run(opt, command_line);
  } catch (const UsageError& e) {
    return usage_exit(std::string("chesshpc: ") + e.what() + "\nsee 'chesshpc " + own->command + " --help'\n");
  } catch (const FileError& e) {
    std::cerr << "chesshpc " << c.name << ": " << e.what() << "\n";
    return EXIT_IO;
  } catch (const std::bad_alloc&) {
    std::cerr << "chesshpc " << c.name
              << ": out of memory: the run needs more than this machine gives it (ask for a smaller --hash or "
                 "--memory, or fewer --threads)\n";
    return EXIT_USAGE;
  }
}

const Command* find_command(std::string_view name) {
  for (const Command& c : COMMANDS)
    if (c.name == name) return &c;
  return nullptr;
}

// An unknown command, with the closest known one when it looks like a typo.
int unknown_command(const std::string& command) {
  std::vector<std::string_view> names;
  for (const Command& c : COMMANDS) names.push_back(c.name);
  const std::string near = closest_name(command, names);
  if (!near.empty())
    return usage_exit("chesshpc: unknown command " + chess::quoted(command) + " (did you mean '" + near +
                      "'?)\nrun 'chesshpc --help' for the commands\n");
  return usage_exit("chesshpc: unknown command " + chess::quoted(command) + "\n" + USAGE);
}

int dispatch(int argc, char** argv) {
  Args args(argv + 1, argv + argc);
  // "chesshpc help perft" is "chesshpc perft --help".
  if (args.size() == 2 && args[0] == "help") {
    const Command* c = find_command(args[1]);
    if (!c) return unknown_command(args[1]);
    args = {args[1], "--help"};
  }
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::cout << USAGE;
    return args.empty() ? EXIT_USAGE : EXIT_OK;
  }
  if (args[0] == "--version") {
    std::cout << "chesshpc " << CHESSHPC_VERSION << " (" << CHESSHPC_GIT_COMMIT << ")\n";
    return EXIT_OK;
  }
  const std::string command = args[0];
  args.erase(args.begin());
  if (const Command* c = find_command(command)) return run_command(*c, args, join_command_line(argc, argv));
  return unknown_command(command);
}

}  // namespace
}  // namespace chesshpc

// What no command turned into its own exit code: an internal error (exit 6), never exit 1,
// which says that a result did not match.
int main(int argc, char** argv) {
  try {
    return chesshpc::dispatch(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "chesshpc: internal error: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "chesshpc: internal error: an exception of unknown type\n";
  }
  return chesshpc::EXIT_INTERNAL;
}
