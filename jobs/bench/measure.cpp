#include "jobs/bench/measure.h"

#include <chrono>
#include <latch>
#include <memory>
#include <thread>
#include <vector>

#include "core/movegen.h"
#include "core/perft.h"
#include "core/published.h"
#include "jobs/bench/search_bench.h"

namespace chesshpc {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

chess::Position set_position(std::string_view set) { return chess::Position::from_any_fen(set_fen(set)); }

BenchResult movegen(const BenchSpec& spec) {
  std::vector<chess::Position> positions;
  for (const chess::PublishedPosition& p : chess::published_positions())
    positions.push_back(chess::Position::from_fen(p.fen));
  BenchResult r;
  auto t0 = Clock::now();
  for (int pass = 0; pass < spec.passes; ++pass)
    for (const chess::Position& pos : positions) r.nodes += chess::legal_moves(pos).size();
  r.seconds = seconds_since(t0);
  return r;
}

BenchResult single_thread_perft(const BenchSpec& spec) {
  chess::Position pos = set_position(spec.set);
  auto t0 = Clock::now();
  BenchResult r{chess::perft::count(pos, spec.depth), 0};
  r.seconds = seconds_since(t0);
  return r;
}

BenchResult threaded_perft(const BenchSpec& spec, int threads) {
  chess::Position pos = set_position(spec.set);
  std::unique_ptr<chess::PerftTable> table;
  if (spec.hash_mb) table = std::make_unique<chess::PerftTable>(size_t(spec.hash_mb) << 20);
  chess::perft::Options opt;
  opt.threads = threads;
  opt.table = table.get();
  auto t0 = Clock::now();
  chess::u128 nodes = chess::perft::total(chess::perft::divide(pos, spec.depth, opt));
  return {uint64_t(nodes), seconds_since(t0)};
}

// T searches of the bench positions at once, one per thread, each with its own tables.
// As in `chesshpc bench search`, only searching is timed (not clearing tables between
// positions): the time is the longest of the threads' searching times.
BenchResult concurrent_search(const BenchSpec& spec, int threads) {
  std::vector<SearchBenchResult> results(static_cast<size_t>(threads));
  std::latch start(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      start.arrive_and_wait();
      results[size_t(t)] = bench_search(spec.depth, 16);
    });
  for (std::thread& t : pool) t.join();
  BenchResult r;
  for (const SearchBenchResult& s : results) {
    // A search limited by depth is deterministic: every thread's count is the signature.
    if (s.nodes != results[0].nodes)
      throw CountMismatch("search at depth " + std::to_string(spec.depth) + ": concurrent searches counted " +
                          std::to_string(results[0].nodes) + " and " + std::to_string(s.nodes) + " nodes");
    r.nodes += s.nodes;
    r.seconds = std::max(r.seconds, s.seconds);
  }
  return r;
}

}  // namespace

std::string set_fen(std::string_view set) {
  const chess::PublishedPosition* p = chess::find_published(set);
  if (!p) throw std::logic_error("bench: no published position '" + std::string(set) + "'");
  return std::string(p->fen);
}

BenchResult measure(const BenchSpec& spec, int threads) {
  switch (spec.benchmark) {
    case Benchmark::MOVEGEN: return movegen(spec);
    case Benchmark::PERFT: return single_thread_perft(spec);
    case Benchmark::PERFT_THREADS:
    case Benchmark::HASHED_PERFT: return threaded_perft(spec, threads);
    case Benchmark::SEARCH: return concurrent_search(spec, threads);
    case Benchmark::STOCKFISH_PERFT:
    case Benchmark::CLUSTER_PERFT: break;
  }
  throw std::logic_error("bench: " + std::string(benchmark_name(spec.benchmark)) + " does not run here");
}

std::optional<uint64_t> expected_nodes(const BenchSpec& spec) {
  if (spec.benchmark == Benchmark::MOVEGEN) {
    uint64_t moves = 0;
    for (const chess::PublishedPosition& p : chess::published_positions()) moves += p.counts[0];
    return moves * uint64_t(spec.passes);
  }
  if (!is_perft(spec.benchmark)) return std::nullopt;
  return chess::published_count(spec.set, spec.depth);
}

void check_nodes(const BenchSpec& spec, uint64_t nodes) {
  std::optional<uint64_t> expected = expected_nodes(spec);
  if (!expected || *expected == nodes) return;
  throw CountMismatch(std::string(benchmark_name(spec.benchmark)) + " " + std::string(spec.set) + " depth " +
                      std::to_string(spec.depth) + " counted " + std::to_string(nodes) +
                      " nodes; the published count is " + std::to_string(*expected));
}

}  // namespace chesshpc
