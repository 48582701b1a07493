// Hashed perft: the table itself, and counts identical to the unhashed ones.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>

#include "core/large_pages.h"
#include "core/perft.h"
#include "core/perft_table.h"
#include "core/search_tt.h"
#include "jobs/perft/epd.h"

using namespace chess;

TEST(PerftTable, StoresAndFindsByKeyAndDepth) {
  PerftTable t(1 << 16);
  uint64_t n = 0;
  EXPECT_FALSE(t.probe(0x1234, 3, n));
  t.store(0x1234, 3, 8902);
  ASSERT_TRUE(t.probe(0x1234, 3, n));
  EXPECT_EQ(n, 8902u);
  EXPECT_FALSE(t.probe(0x1234, 4, n)) << "another depth is another subtree";
  EXPECT_FALSE(t.probe(0x1234 + (uint64_t(1) << 40), 3, n)) << "same bucket, another key";
}

TEST(PerftTable, KeepsTheDeepestEntriesOfAFullBucket) {
  PerftTable t(64);  // one bucket of four entries
  EXPECT_EQ(t.bytes(), 64u);
  for (int d = 2; d <= 6; ++d) t.store(Key(100 + d), d, uint64_t(d) * 10);
  uint64_t n = 0;
  EXPECT_FALSE(t.probe(102, 2, n)) << "the shallowest entry made room";
  for (int d = 3; d <= 6; ++d) {
    ASSERT_TRUE(t.probe(Key(100 + d), d, n)) << d;
    EXPECT_EQ(n, uint64_t(d) * 10);
  }
}

// Tables are never cleared by a pass: their memory must come zeroed, also right after an
// earlier table of the same size stored in its memory (a stale count read as a hit would
// be a silently wrong total).
TEST(PerftTable, StartsEmptyWhereAnEarlierTableStored) {
  constexpr size_t BYTES = 1 << 12;
  auto fill = [](PerftTable& t) {
    for (Key k = 1; k <= 4 * BYTES / 64; ++k) t.store(k, 5, k + 7);
  };
  {
    PerftTable earlier(BYTES);
    fill(earlier);
    uint64_t n = 0;
    ASSERT_TRUE(earlier.probe(BYTES / 64, 5, n));
  }
  for (int round = 0; round < 2; ++round) {
    PerftTable t(BYTES);
    uint64_t n = 0;
    for (Key k = 1; k <= 4 * BYTES / 64; ++k) ASSERT_FALSE(t.probe(k, 5, n)) << "stale entry " << k;
    fill(t);
  }
}

TEST(PerftTable, HugePageTablesAreZeroedAlignedAndWhole) {
  constexpr size_t N = ((size_t(2) << 20) + 24) / sizeof(uint64_t);  // past 2 MB, not a page multiple
  LargePagesPtr<uint64_t> a = allocate_zeroed<uint64_t>(N);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a.get()) % (size_t(2) << 20), 0u);
  uint64_t sum = 0;
  for (size_t i = 0; i < N; ++i) sum |= a[i];
  EXPECT_EQ(sum, 0u);
  a[N - 1] = 42;  // the last element is mapped
  EXPECT_EQ(a[N - 1], 42u);

  PerftTable t(size_t(4) << 20);
  ASSERT_EQ(t.bytes(), size_t(4) << 20);
  const Key last = (size_t(4) << 20) / 64 - 1;  // the last bucket
  uint64_t n = 0;
  EXPECT_FALSE(t.probe(last, 9, n));
  t.store(last, 9, 123456789);
  ASSERT_TRUE(t.probe(last, 9, n));
  EXPECT_EQ(n, 123456789u);
}

// The search's table is reused (resize to the same size, clear for a new game): there a
// pass must clear it; a new size gets fresh memory, empty too.
TEST(SearchTT, ResizeAndClearForgetEveryEntry) {
  SearchTT tt(size_t(1) << 20);
  const Move m = Move(SQ_E2, SQ_E4);
  for (Key k = 1; k <= 1000; ++k) tt.store(k, 10, 5, BOUND_EXACT, 4, m);
  ASSERT_NE(tt.probe(500), nullptr);
  tt.resize(size_t(1) << 20);
  for (Key k = 1; k <= 1000; ++k) ASSERT_EQ(tt.probe(k), nullptr) << "resize to the same size kept " << k;
  for (Key k = 1; k <= 1000; ++k) tt.store(k, 10, 5, BOUND_EXACT, 4, m);
  tt.clear();
  for (Key k = 1; k <= 1000; ++k) ASSERT_EQ(tt.probe(k), nullptr) << "clear kept " << k;
  for (Key k = 1; k <= 1000; ++k) tt.store(k, 10, 5, BOUND_EXACT, 4, m);
  tt.resize(size_t(2) << 20);
  EXPECT_EQ(tt.bytes(), size_t(2) << 20);
  for (Key k = 1; k <= 1000; ++k) ASSERT_EQ(tt.probe(k), nullptr) << "a new size kept " << k;
}

// Every perftsuite line to depth 5, with a table small enough that buckets overflow and
// entries are replaced all the time, shared by two threads.
TEST(HashedPerft, EqualsUnhashedOnThePerftSuite) {
  std::ifstream in(std::string(CHESSHPC_TEST_DATA) + "/perftsuite.epd");
  chesshpc::EpdFile suite = chesshpc::read_epd(in);
  ASSERT_EQ(suite.lines.size(), 126u);
  PerftTable table(1 << 16);
  perft::Options hashed;
  hashed.threads = 2;
  hashed.table = &table;
  for (const auto& line : suite.lines) {
    Position pos = Position::from_fen(line.fen);
    for (int depth = 1; depth <= 5; ++depth)
      ASSERT_EQ(perft::total(perft::divide(pos, depth, hashed)), perft::count(pos, depth)) << line.fen << " d" << depth;
  }
}

TEST(HashedPerft, DeepCountsAndTheSecondKeySet) {
  PerftTable table(size_t(16) << 20);
  EXPECT_EQ(perft::count(Position::start(), 6, &table), 119060324u);
  Position kiwipete = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  EXPECT_EQ(perft::count(kiwipete, 5, &table), 193690690u);

  // The verification keys give other keys for the same positions and the same counts.
  Key default_key = Position::start().key();
  zobrist::init(zobrist::VERIFY_SEED);
  PerftTable fresh(size_t(16) << 20);
  EXPECT_NE(Position::start().key(), default_key);
  EXPECT_EQ(perft::count(Position::start(), 6, &fresh), 119060324u);
  zobrist::init(zobrist::DEFAULT_SEED);
  EXPECT_EQ(Position::start().key(), default_key);
}
