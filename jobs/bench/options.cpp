#include "jobs/bench/options.h"

#include <filesystem>
#include <iostream>

#include "core/quote.h"
#include "core/search_tt.h"
#include "jobs/bench/suite.h"
#include "jobs/io/byte_size.h"

namespace chesshpc {

const CommandOptions BENCH_SUITE_OPTIONS = command_options(
    "bench",
    {
        {"suite", "standard|quick|perft|perft-quick",
         "the suite of measurements (default: standard; quick takes a second or two; perft: the six positions "
         "on one thread at the anchors' depths, in G nodes/s; perft-quick: the same at small depths)"},
        threads_option("threads of the threaded benchmarks, per rank", "T"),
        {"repeats", "N", "repeats of each measurement; the summary has their median (default: 3)"},
        out_option("the result file (default: bench.h5, or bench-2.h5, bench-3.h5, ... when it exists)"),
        force_option(),
        {"stockfish", "PATH|none", "Stockfish to compare perft with (default: /usr/games/stockfish when it exists)"},
        reporting_options("print the machine and the summary as one JSON object"),
    },
    "usage: chesshpc bench [suite] [--suite standard|quick|perft|perft-quick] [--threads T] [--repeats N] [--out "
    "FILE.h5] "
    "[--stockfish PATH|none] [--force] [--json]\n"
    "       chesshpc bench search [options]   (its options: chesshpc bench search --help)\n",
    1);

const CommandOptions SEARCH_BENCH_OPTIONS =
    command_options("bench search",
                    {
                        {"depth", "D", "search depth per position (default: the bench's fixed depth)"},
                        hash_option("transposition table, e.g. 64 (a bare number is MB) or 1G; the table is the "
                                    "largest power of two that fits, and reported so (default: 16)"),
                        json_option("print the result as one JSON object"),
                    },
                    "usage: chesshpc bench search [--depth D] [--hash SIZE] [--json]\n", 1);

const CommandOptions BENCH_OPTIONS = [] {
  const CommandOptions& suite = BENCH_SUITE_OPTIONS;
  const CommandOptions& search = SEARCH_BENCH_OPTIONS;
  CommandOptions any{suite.command, search.table, 1, suite.help};
  any.table.insert(any.table.end(), suite.table.begin(), suite.table.end());
  return any;
}();

BenchKind bench_kind(const Options& any) {
  std::string kind = any.positional().empty() ? "suite" : any.positional()[0];
  if (kind == "search") return BenchKind::SEARCH;
  if (kind == "suite") return BenchKind::SUITE;
  throw UsageError("bench takes a kind: suite (the default) or search, not " + chess::quoted(kind));
}

namespace {

// The default file, or when it exists the first of NAME-2.h5, NAME-3.h5, ... that does
// not, said on stderr (rank 0): a second bench run keeps the first's file.
std::string fresh_name(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) return path;
  const std::string stem = path.substr(0, path.rfind(".h5"));
  std::string name;
  for (int n = 2;
       std::filesystem::exists(std::filesystem::symlink_status(name = stem + "-" + std::to_string(n) + ".h5", ec));
       ++n) {
  }
  if (launch_rank() == 0) std::cerr << "chesshpc bench: '" << path << "' exists: writing '" << name << "'\n";
  return name;
}

}  // namespace

BenchRequest bench_request(const Options& opt, const std::string& command_line) {
  BenchRequest req;
  req.suite = opt.get("suite", req.suite);
  if (!find_suite(req.suite))
    throw UsageError("--suite must be " + std::string(suite_names()) + ", not " + chess::quoted(req.suite));
  req.threads = read_threads(opt);
  req.repeats = opt.get_int("repeats", req.repeats, 1, 1000);
  req.out = read_out(opt, opt.has("out") || opt.has("force") ? req.out : fresh_name(req.out));
  req.stockfish = opt.get("stockfish", "");
  if (opt.has("stockfish") && req.stockfish.empty()) throw UsageError("--stockfish takes a path or none");
  read_reporting(opt, req);
  req.command_line = command_line;
  return req;
}

SearchBenchRequest search_bench_request(const Options& opt) {
  SearchBenchRequest req;
  req.depth = opt.get_int("depth", 0, 1, 64);
  // What the table allocates, in MB: a power of two of at least 1 MB.
  req.hash_mb = int(chess::SearchTT::size_for(read_hash_size(opt, size_t(req.hash_mb) * MB, "64 or 1G")) / MB);
  req.json = read_json(opt);
  return req;
}

}  // namespace chesshpc
