// The bench suites and their bookkeeping: every perft count has a published count to
// meet, a wrong count is a mismatch, and the summary is the median of the repeats.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "core/published.h"
#include "jobs/bench/measure.h"
#include "jobs/bench/print.h"
#include "jobs/bench/results.h"
#include "jobs/bench/run.h"
#include "jobs/bench/search_bench.h"
#include "jobs/bench/suite.h"

using namespace chesshpc;

namespace {

// A spec as "benchmark set depth", with passes=, hash= and split= when set.
std::string spec_text(const BenchSpec& s) {
  std::string text =
      std::string(benchmark_name(s.benchmark)) + " " + std::string(s.set) + " " + std::to_string(s.depth);
  if (s.passes) text += " passes=" + std::to_string(s.passes);
  if (s.hash_mb) text += " hash=" + std::to_string(s.hash_mb);
  if (s.split_depth) text += " split=" + std::to_string(s.split_depth);
  return text;
}

std::vector<std::string> suite_text(const char* name) {
  std::vector<std::string> lines;
  for (const BenchSpec& s : find_suite(name)->specs) lines.push_back(spec_text(s));
  return lines;
}

}  // namespace

TEST(BenchSuite, EveryPerftOfEverySuiteHasAPublishedCount) {
  for (const char* name : {"standard", "quick"}) {
    const Suite* suite = find_suite(name);
    ASSERT_NE(suite, nullptr) << name;
    for (const BenchSpec& s : suite->specs) {
      if (is_perft(s.benchmark)) {
        EXPECT_TRUE(expected_nodes(s).has_value()) << name << " " << benchmark_name(s.benchmark) << " " << s.set;
      }
    }
    // The measurement that needs every rank comes last, after rank 0's own.
    EXPECT_EQ(suite->specs.back().benchmark, Benchmark::CLUSTER_PERFT) << name;
  }
  for (const char* name : {"perft", "perft-quick"}) {
    const Suite* suite = find_suite(name);
    ASSERT_NE(suite, nullptr) << name;
    ASSERT_EQ(suite->specs.size(), chess::published_positions().size()) << name;
    for (size_t i = 0; i < suite->specs.size(); ++i) {
      EXPECT_EQ(suite->specs[i].set, chess::published_positions()[i].name) << name;
      EXPECT_TRUE(expected_nodes(suite->specs[i]).has_value()) << name << " " << suite->specs[i].set;
    }
  }
  EXPECT_EQ(find_suite("fast"), nullptr);
}

// Result files compare across machines only within one suite version: these are the
// measurements of version 2, in the order they run. A change here without a new
// SUITE_VERSION fails.
TEST(BenchSuite, SuitesHoldTheMeasurementsOfTheirVersion) {
  EXPECT_EQ(SUITE_VERSION, 2);
  EXPECT_EQ(suite_text("standard"), (std::vector<std::string>{"movegen suite 1 passes=1000000",
                                                              "perft start 6",
                                                              "stockfish_perft start 6",
                                                              "perft kiwipete 5",
                                                              "stockfish_perft kiwipete 5",
                                                              "perft pos3 6",
                                                              "stockfish_perft pos3 6",
                                                              "perft pos4 5",
                                                              "stockfish_perft pos4 5",
                                                              "perft pos5 5",
                                                              "stockfish_perft pos5 5",
                                                              "perft chess960 6",
                                                              "perft_threads start 6",
                                                              "perft_threads kiwipete 5",
                                                              "perft_threads pos3 6",
                                                              "perft_threads pos4 5",
                                                              "perft_threads pos5 5",
                                                              "hashed_perft start 7 hash=256",
                                                              "search bench 11",
                                                              "cluster_perft start 7 hash=64 split=3"}));
  EXPECT_EQ(suite_text("quick"), (std::vector<std::string>{"movegen suite 1 passes=500",
                                                           "perft start 4",
                                                           "stockfish_perft start 4",
                                                           "perft kiwipete 3",
                                                           "stockfish_perft kiwipete 3",
                                                           "perft pos3 4",
                                                           "stockfish_perft pos3 4",
                                                           "perft pos4 3",
                                                           "stockfish_perft pos4 3",
                                                           "perft pos5 3",
                                                           "stockfish_perft pos5 3",
                                                           "perft chess960 4",
                                                           "perft_threads start 4",
                                                           "perft_threads kiwipete 3",
                                                           "perft_threads pos3 4",
                                                           "perft_threads pos4 3",
                                                           "perft_threads pos5 3",
                                                           "hashed_perft start 5 hash=16",
                                                           "search bench 5",
                                                           "cluster_perft start 5 hash=16 split=2"}));
  // The six positions on one thread at the depths of bench/perft_anchors.py, and small.
  EXPECT_EQ(suite_text("perft"), (std::vector<std::string>{"perft start 7", "perft kiwipete 6", "perft pos3 8",
                                                           "perft pos4 6", "perft pos5 6", "perft pos6 6"}));
  EXPECT_EQ(suite_text("perft-quick"), (std::vector<std::string>{"perft start 4", "perft kiwipete 3", "perft pos3 5",
                                                                 "perft pos4 3", "perft pos5 3", "perft pos6 3"}));
  EXPECT_EQ(suite_names(), "standard, quick, perft or perft-quick");
}

TEST(BenchSuite, PublishedTableHoldsTheWikiCounts) {
  EXPECT_EQ(chess::published_count("start", 6), 119060324u);
  EXPECT_EQ(chess::published_count("kiwipete", 5), 193690690u);
  EXPECT_EQ(chess::published_count("pos6", 5), 164075551u);
  EXPECT_EQ(chess::published_count("pos5", 6), 3048196529u);
  EXPECT_FALSE(chess::published_count("pos5", 7).has_value());
  EXPECT_FALSE(chess::published_count("nowhere", 1).has_value());
  EXPECT_EQ(chess::published_positions().size(), 6u);
  EXPECT_EQ(chess::published_count("chess960", 6), 121983565u);  // Chess960 start 0, beside the six
}

TEST(BenchSuite, WrongCountIsAMismatchNamingTheMeasurement) {
  BenchSpec spec{Benchmark::PERFT_THREADS, "start", 4};
  EXPECT_NO_THROW(check_nodes(spec, 197281));
  try {
    check_nodes(spec, 197280);
    FAIL() << "no mismatch";
  } catch (const CountMismatch& e) {
    EXPECT_STREQ(e.what(), "perft_threads start depth 4 counted 197280 nodes; the published count is 197281");
  }
  EXPECT_NO_THROW(check_nodes({Benchmark::SEARCH, "bench", 5}, 12345)) << "search has no published count";
}

TEST(BenchSuite, MeasurementsCountWhatTheyShould) {
  BenchSpec movegen{Benchmark::MOVEGEN, "suite", 1, 3};
  EXPECT_EQ(measure(movegen, 1).nodes, 3u * (20 + 48 + 14 + 6 + 44 + 46));
  EXPECT_EQ(measure({Benchmark::PERFT, "kiwipete", 3}, 1).nodes, 97862u);
  EXPECT_EQ(measure({Benchmark::HASHED_PERFT, "pos3", 5, 0, 4}, 2).nodes, 674624u);
  // Two searches at once, each counting what `chesshpc bench search --depth 3` counts.
  BenchResult search = measure({Benchmark::SEARCH, "bench", 3}, 2);
  EXPECT_EQ(search.nodes, 2 * bench_search(3, 16).nodes);
  EXPECT_TRUE(std::isfinite(search.seconds) && search.seconds > 0) << search.seconds;
}

// Every measurement of the quick suite that runs in one process (all but Stockfish's and
// the cluster's) counts exactly its published count (search: bench search's, once a
// thread), in a time that is finite and positive, and its row's n/s is nodes / seconds.
TEST(BenchSuite, QuickSuiteMeasurementsCountExactly) {
  int measured = 0;
  for (const BenchSpec& spec : find_suite("quick")->specs) {
    if (spec.benchmark == Benchmark::STOCKFISH_PERFT || spec.benchmark == Benchmark::CLUSTER_PERFT) continue;
    SCOPED_TRACE(spec_text(spec));
    const BenchResult r = measure(spec, 2);
    const std::optional<uint64_t> expected = expected_nodes(spec);
    EXPECT_EQ(r.nodes, expected ? *expected : 2 * bench_search(spec.depth, 16).nodes);
    EXPECT_TRUE(std::isfinite(r.seconds) && r.seconds > 0) << r.seconds;
    const MeasurementRow row{
        std::string(benchmark_name(spec.benchmark)), std::string(spec.set), spec.depth, 0, 2, 1, r.nodes, r.seconds};
    EXPECT_DOUBLE_EQ(row.nodes_per_second(), double(r.nodes) / r.seconds);
    ++measured;
  }
  EXPECT_EQ(measured, 14);
  EXPECT_EQ(MeasurementRow{}.nodes_per_second(), 0) << "no time, no rate";
}

// perft-quick's six one-thread measurements count the published counts of the six
// positions (core/published.cpp), as the perft suite's do at the anchors' depths.
TEST(BenchSuite, PerftQuickSuiteCountsThePublishedCountsOfTheSix) {
  const Suite* suite = find_suite("perft-quick");
  ASSERT_NE(suite, nullptr);
  for (const BenchSpec& spec : suite->specs) {
    SCOPED_TRACE(spec_text(spec));
    EXPECT_EQ(spec.benchmark, Benchmark::PERFT);
    const BenchResult r = measure(spec, 2);
    EXPECT_EQ(r.nodes, chess::published_count(spec.set, spec.depth).value());
    EXPECT_NO_THROW(check_nodes(spec, r.nodes));
    EXPECT_TRUE(std::isfinite(r.seconds) && r.seconds > 0) << r.seconds;
  }
}

// A suite of one-thread perft alone says its figures in G nodes/s, the anchors' unit, in
// place of the Stockfish ratios it has none of; its JSON rows carry them too.
TEST(BenchSuite, PerftSuitePrintsGNodesPerSecond) {
  BenchRun run;
  run.suite = "perft-quick";
  run.rows = {{"perft", "start", 4, 0, 1, 1, 197281, 0.0002}, {"perft", "pos6", 3, 0, 1, 1, 89890, 0.0001}};
  run.summary = summarize(run.rows);
  std::ostringstream text, json;
  print_bench(run, false, "", text);
  EXPECT_NE(text.str().find("\nperft, 1 thread, no table, median G nodes/s: start 4: 0.986, pos6 3: 0.899\n"),
            std::string::npos)
      << text.str();
  EXPECT_EQ(text.str().find("Stockfish"), std::string::npos) << text.str();
  print_bench(run, true, "", json);
  EXPECT_NE(json.str().find("\"median_g_nodes_per_second\": 0.986405"), std::string::npos) << json.str();
}

TEST(BenchSuite, SummaryIsTheMedianOfTheRepeatsWithStockfishRatio) {
  std::vector<MeasurementRow> rows = {
      {"perft", "start", 4, 0, 1, 1, 1000, 1.0},
      {"perft", "start", 4, 1, 1, 1, 1000, 3.0},
      {"stockfish_perft", "start", 4, 0, 1, 1, 1000, 4.0},
      {"stockfish_perft", "start", 4, 1, 1, 1, 1000, 4.0},
      {"search", "bench", 5, 0, 2, 1, 50, 0.5},
      {"search", "bench", 5, 1, 2, 1, 50, 0.25},
  };
  std::vector<SummaryRow> s = summarize(rows);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].benchmark, "perft");
  EXPECT_DOUBLE_EQ(s[0].median_seconds, 2.0);
  EXPECT_DOUBLE_EQ(s[0].min_seconds, 1.0);
  EXPECT_DOUBLE_EQ(s[0].max_seconds, 3.0);
  EXPECT_DOUBLE_EQ(s[0].median_nodes_per_second, (1000.0 + 1000.0 / 3) / 2);
  EXPECT_DOUBLE_EQ(s[0].stockfish_ratio, s[0].median_nodes_per_second / 250.0);
  EXPECT_TRUE(std::isnan(s[1].stockfish_ratio));
  EXPECT_EQ(s[2].threads, 2);
  EXPECT_DOUBLE_EQ(s[2].median_nodes_per_second, 150.0);
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2.0);
}
