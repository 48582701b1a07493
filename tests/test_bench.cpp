// The bench suites and their bookkeeping: every perft count has a published count to
// meet, a wrong count is a mismatch, and the summary is the median of the repeats.
#include <gtest/gtest.h>

#include <cmath>

#include "core/published.h"
#include "jobs/bench/measure.h"
#include "jobs/bench/results.h"
#include "jobs/bench/suite.h"

using namespace chesshpc;

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
  EXPECT_EQ(find_suite("fast"), nullptr);
}

TEST(BenchSuite, PublishedTableHoldsTheWikiCounts) {
  EXPECT_EQ(chess::published_count("start", 6), 119060324u);
  EXPECT_EQ(chess::published_count("kiwipete", 5), 193690690u);
  EXPECT_EQ(chess::published_count("pos6", 5), 164075551u);
  EXPECT_FALSE(chess::published_count("pos5", 6).has_value());
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
  BenchResult search = measure({Benchmark::SEARCH, "bench", 3}, 2);
  EXPECT_EQ(search.nodes % 2, 0u) << "two searches of the same count";
  EXPECT_GT(search.seconds, 0);
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
