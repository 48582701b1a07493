// Hashed perft: the table itself, and counts identical to the unhashed ones.
#include <gtest/gtest.h>

#include <fstream>

#include "core/perft.h"
#include "core/perft_table.h"
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
