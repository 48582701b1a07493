#include "jobs/bench/suite.h"

#include <array>

#include "jobs/bench/search_bench.h"

namespace chesshpc {

namespace {

struct SetDepth {
  std::string_view set;
  int depth;
};

// What distinguishes one suite from another: the positions and depths of each benchmark.
struct SuiteTable {
  std::string_view name;
  int movegen_passes;
  std::array<SetDepth, 5> perft;  // perft, stockfish_perft and perft_threads alike
  // Perft of Chess960 start 0 on one thread, beside standard chess's: no Stockfish ratio
  // (its go perft would need UCI_Chess960).
  SetDepth chess960;
  SetDepth hashed;
  int hashed_mb;
  int search_depth;
  SetDepth cluster;
  int cluster_split, cluster_mb;
};

// standard: about half a second a measurement on one core of a 2020s x86-64 (the cluster
// one a few seconds); quick: the same benchmarks in a second or two, for tests.
constexpr SuiteTable TABLES[] = {
    {"standard",
     1000000,
     {{{"start", 6}, {"kiwipete", 5}, {"pos3", 6}, {"pos4", 5}, {"pos5", 5}}},
     {"chess960", 6},
     {"start", 7},
     256,
     BENCH_DEPTH,
     {"start", 7},
     3,
     64},
    {"quick",
     500,
     {{{"start", 4}, {"kiwipete", 3}, {"pos3", 4}, {"pos4", 3}, {"pos5", 3}}},
     {"chess960", 4},
     {"start", 5},
     16,
     5,
     {"start", 5},
     2,
     16},
};

// The six positions on one thread, without a table, at the depths perft comparisons
// quote (bench/perft_anchors.py runs the anchor programs at the same ones): leaves per
// second as the anchors report them. perft-quick: the same at small depths, for tests.
struct PerftSuiteTable {
  std::string_view name;
  std::array<SetDepth, 6> perft;
};

constexpr PerftSuiteTable PERFT_TABLES[] = {
    {"perft", {{{"start", 7}, {"kiwipete", 6}, {"pos3", 8}, {"pos4", 6}, {"pos5", 6}, {"pos6", 6}}}},
    {"perft-quick", {{{"start", 4}, {"kiwipete", 3}, {"pos3", 5}, {"pos4", 3}, {"pos5", 3}, {"pos6", 3}}}},
};

std::vector<BenchSpec> expand(const PerftSuiteTable& t) {
  std::vector<BenchSpec> specs;
  for (SetDepth p : t.perft) specs.push_back({Benchmark::PERFT, p.set, p.depth});
  return specs;
}

std::vector<BenchSpec> expand(const SuiteTable& t) {
  std::vector<BenchSpec> specs = {{Benchmark::MOVEGEN, "suite", 1, t.movegen_passes}};
  // Stockfish right after chesshpc on each position: the two runs of one ratio see the
  // machine in the same state.
  for (SetDepth p : t.perft) {
    specs.push_back({Benchmark::PERFT, p.set, p.depth});
    specs.push_back({Benchmark::STOCKFISH_PERFT, p.set, p.depth});
  }
  specs.push_back({Benchmark::PERFT, t.chess960.set, t.chess960.depth});
  for (SetDepth p : t.perft) specs.push_back({Benchmark::PERFT_THREADS, p.set, p.depth});
  specs.push_back({Benchmark::HASHED_PERFT, t.hashed.set, t.hashed.depth, 0, t.hashed_mb});
  specs.push_back({Benchmark::SEARCH, "bench", t.search_depth});
  specs.push_back({Benchmark::CLUSTER_PERFT, t.cluster.set, t.cluster.depth, 0, t.cluster_mb, t.cluster_split});
  return specs;
}

// The standard suite searches at the depth of `chesshpc bench search`: a change there is a
// change of the suite.
static_assert(BENCH_DEPTH == 11, "BENCH_DEPTH changed: bump SUITE_VERSION and update this check");

}  // namespace

std::string_view benchmark_name(Benchmark b) {
  switch (b) {
    case Benchmark::MOVEGEN: return "movegen";
    case Benchmark::PERFT: return "perft";
    case Benchmark::STOCKFISH_PERFT: return "stockfish_perft";
    case Benchmark::PERFT_THREADS: return "perft_threads";
    case Benchmark::HASHED_PERFT: return "hashed_perft";
    case Benchmark::SEARCH: return "search";
    case Benchmark::CLUSTER_PERFT: return "cluster_perft";
  }
  return "?";
}

const Suite* find_suite(std::string_view name) {
  static const std::vector<Suite> suites = [] {
    std::vector<Suite> s;
    for (const SuiteTable& t : TABLES) s.push_back({t.name, expand(t)});
    for (const PerftSuiteTable& t : PERFT_TABLES) s.push_back({t.name, expand(t)});
    return s;
  }();
  for (const Suite& s : suites)
    if (s.name == name) return &s;
  return nullptr;
}

std::string_view suite_names() { return "standard, quick, perft or perft-quick"; }

bool is_perft(Benchmark b) {
  return b == Benchmark::PERFT || b == Benchmark::STOCKFISH_PERFT || b == Benchmark::PERFT_THREADS ||
         b == Benchmark::HASHED_PERFT || b == Benchmark::CLUSTER_PERFT;
}

bool is_threaded(Benchmark b) {
  return b == Benchmark::PERFT_THREADS || b == Benchmark::HASHED_PERFT || b == Benchmark::SEARCH ||
         b == Benchmark::CLUSTER_PERFT;
}

}  // namespace chesshpc
