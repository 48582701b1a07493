// `chesshpc bench` and `chesshpc bench search`: their options and the requests they make.
#pragma once

#include <string>

#include "jobs/bench/request.h"
#include "jobs/bench/search_bench.h"
#include "jobs/io/options.h"

namespace chesshpc {

// The two kinds take different options. BENCH_OPTIONS knows every option of both, so
// that an option's value is not taken for the kind; the options of the kind are then
// parsed again, and --help answered, with that kind's table (the suite's help points to
// the search's).
extern const CommandOptions BENCH_OPTIONS;
extern const CommandOptions BENCH_SUITE_OPTIONS;
extern const CommandOptions SEARCH_BENCH_OPTIONS;

enum class BenchKind { SUITE, SEARCH };
// The kind BENCH_OPTIONS found: suite unless the one positional names another.
// Throws UsageError for a kind that is neither.
BenchKind bench_kind(const Options& any);

// Throws UsageError for an unknown suite or --stockfish without a path.
BenchRequest bench_request(const Options& opt, const std::string& command_line);
SearchBenchRequest search_bench_request(const Options& opt);

}  // namespace chesshpc
