// Hashed perft: the table itself, and counts identical to the unhashed ones.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <vector>

#include "core/large_pages.h"
#include "core/perft.h"
#include "core/perft_table.h"
#include "core/search_tt.h"
#include "core/uci.h"
#include "jobs/perft/epd.h"

using namespace chess;

TEST(PerftTable, StoresAndFindsByKeyAndDepth) {
  PerftTable t(1 << 16);
  uint64_t n = 0;
  for (int depth : {2, 3, 5}) {  // the narrow part, and the wide one
    EXPECT_FALSE(t.probe(0x1234, depth, n)) << depth;
    t.store(0x1234, depth, 8902 + depth);
    ASSERT_TRUE(t.probe(0x1234, depth, n)) << depth;
    EXPECT_EQ(n, 8902u + depth);
  }
  EXPECT_FALSE(t.probe(0x1234, 4, n)) << "another depth is another subtree";
  EXPECT_FALSE(t.probe(0x1234 + (uint64_t(1) << 40), 5, n)) << "same wide bucket, another key";
  t.store(0x99, 2, 0);  // a subtree without leaves is a count too
  ASSERT_TRUE(t.probe(0x99, 2, n));
  EXPECT_EQ(n, 0u);
}

// A table of 128 bytes has one bucket of each part, so every key shares it.
TEST(PerftTable, KeepsTheDeepestEntriesOfAFullWideBucket) {
  PerftTable t(64);
  EXPECT_EQ(t.bytes(), 128u) << "two buckets at least";
  for (int d = 4; d <= 8; ++d) t.store(Key(100 + d), d, uint64_t(d) * 10);
  uint64_t n = 0;
  EXPECT_FALSE(t.probe(104, 4, n)) << "the shallowest entry made room";
  for (int d = 5; d <= 8; ++d) {
    ASSERT_TRUE(t.probe(Key(100 + d), d, n)) << d;
    EXPECT_EQ(n, uint64_t(d) * 10);
  }
}

// Among entries of the shallowest depth, the oldest makes room, whatever its slot.
TEST(PerftTable, DropsTheOldestOfTheShallowestWideEntries) {
  PerftTable t(64);
  t.store(1, 3, 31), t.store(2, 5, 52), t.store(3, 3, 33), t.store(4, 3, 34);
  uint64_t n = 0;
  t.store(5, 3, 35);  // the depth-3 entries are 1, 3, 4: 1 is the oldest
  EXPECT_FALSE(t.probe(1, 3, n));
  t.store(6, 3, 36);  // now 3
  EXPECT_FALSE(t.probe(3, 3, n));
  t.store(7, 4, 47);  // now 4; the depth-5 entry stays throughout
  EXPECT_FALSE(t.probe(4, 3, n));
  struct Kept {
    Key key;
    int depth;
    uint64_t count;
  };
  for (Kept k : {Kept{2, 5, 52}, Kept{5, 3, 35}, Kept{6, 3, 36}, Kept{7, 4, 47}}) {
    ASSERT_TRUE(t.probe(k.key, k.depth, n)) << k.key;
    EXPECT_EQ(n, k.count) << k.key;
  }
}

TEST(PerftTable, KeepsTheNewestEntriesOfAFullNarrowBucket) {
  PerftTable t(128);
  // Eight entries a bucket: each store after the eighth drops the oldest, whatever its
  // count (the largest here).
  const uint64_t counts[10] = {47524, 20, 9467, 400, 8902, 31, 7000, 600, 50, 3};
  for (int i = 0; i < 10; ++i) t.store(Key(1000 + i), 2, counts[i]);
  uint64_t n = 0;
  EXPECT_FALSE(t.probe(1000, 2, n)) << "the oldest, count 47524, made room";
  EXPECT_FALSE(t.probe(1001, 2, n)) << "then the next oldest";
  for (int i = 2; i < 10; ++i) {
    ASSERT_TRUE(t.probe(Key(1000 + i), 2, n)) << i;
    EXPECT_EQ(n, counts[i]);
  }
}

// The narrow part (depth 2) checks a key's bucket and its low 48 bits (perft_table.h).
TEST(PerftTable, NarrowEntriesVerifyTheKeyBitsTheContractNames) {
  PerftTable t(128);  // one narrow bucket: the bucket tells no key from another
  const Key key = 0x5EEDF00DCAFEull;
  uint64_t n = 0;
  t.store(key, 2, 1234);
  ASSERT_TRUE(t.probe(key, 2, n));
  EXPECT_EQ(n, 1234u);
  EXPECT_FALSE(t.probe(key, 3, n)) << "another depth is another subtree";
  for (int bit = 0; bit < 48; ++bit) EXPECT_FALSE(t.probe(key ^ (Key(1) << bit), 2, n)) << "bit " << bit;
  // The limit the contract states: in a table this small, a key that agrees in the low 48
  // bits is found (its bucket tells it apart from 2^16 buckets on).
  EXPECT_TRUE(t.probe(key ^ (Key(1) << 50), 2, n));
  PerftTable larger(size_t(8) << 20);  // 2^16 narrow buckets
  larger.store(key, 2, 1234);
  ASSERT_TRUE(larger.probe(key, 2, n));
  EXPECT_FALSE(larger.probe(key ^ (Key(1) << 63), 2, n));
  EXPECT_FALSE(larger.probe(key ^ (Key(1) << 48), 2, n)) << "the run of keys of one bucket is 2^48 long";

  // A key whose low 48 bits are 0 would read an empty narrow entry as a hit of count -1:
  // it is never stored nor found.
  PerftTable empty(128);
  const Key zero_tag = Key(0xABCD) << 48;
  EXPECT_FALSE(empty.probe(zero_tag, 2, n)) << n;
  empty.store(zero_tag, 2, 77);
  EXPECT_FALSE(empty.probe(zero_tag, 2, n));
  empty.store(zero_tag, 3, 77);  // the wide part keeps the whole key
  ASSERT_TRUE(empty.probe(zero_tag, 3, n));
  EXPECT_EQ(n, 77u);
}

TEST(PerftTable, NarrowCountsUpToTheFieldAndNoLarger) {
  PerftTable t(1 << 12);
  constexpr uint64_t LARGEST = (uint64_t(1) << 16) - 2;  // stored as count + 1 in 16 bits
  uint64_t n = 0;
  t.store(7, 2, LARGEST);
  ASSERT_TRUE(t.probe(7, 2, n));
  EXPECT_EQ(n, LARGEST);
  t.store(8, 2, LARGEST + 1);
  EXPECT_FALSE(t.probe(8, 2, n)) << "too large for the field: not stored";
  t.store(8, 3, uint64_t(1) << 40);  // the wide part holds it
  ASSERT_TRUE(t.probe(8, 3, n));
  EXPECT_EQ(n, uint64_t(1) << 40);
}

// A table is the size asked in whole 2 MB, not the power of two below it (perft(10)'s
// table of 10 GB was one of 8): the wide part the largest power of two of buckets up to a
// quarter, the narrow part the rest, and every bucket of both reachable.
TEST(PerftTable, AnySizeInWholeHugePages) {
  constexpr size_t MB = size_t(1) << 20;
  EXPECT_EQ(PerftTable::size_for(100 * MB), 100 * MB);
  EXPECT_EQ(PerftTable::size_for(10 * 1024 * MB), 10 * 1024 * MB);
  EXPECT_EQ(PerftTable::size_for(3 * MB + 5), 2 * MB);
  EXPECT_EQ(PerftTable::size_for(MB), MB);  // below 2 MB, a power of two as before
  EXPECT_EQ(PerftTable::size_for(1000), 512u);
  EXPECT_EQ(PerftTable::size_for(1), 128u);
  PerftTable t(10 * MB + 123);
  EXPECT_EQ(t.bytes(), 10 * MB);
  // 10 MB: a wide part of 2 MB (32768 buckets of 163840, the largest power of two up to a
  // quarter) and a narrow one of 8 MB (131072 buckets). Keys spread over the whole key
  // space reach every narrow bucket; all of them are found.
  uint64_t n = 0;
  std::vector<Key> keys;
  for (uint64_t i = 0; i < 100000; ++i) keys.push_back(Key(i * 0x9E3779B97F4A7C15ull + 1));
  for (size_t i = 0; i < keys.size(); ++i) t.store(keys[i], 2 + int(i % 3), i % 50000);  // within 16 bits
  size_t found = 0, right = 0;
  for (size_t i = 0; i < keys.size(); ++i)
    if (t.probe(keys[i], 2 + int(i % 3), n)) ++found, right += n == i % 50000;
  EXPECT_EQ(right, found);
  // 66,667 depth-2 keys in 131,072 eight-entry buckets, 33,333 deeper ones in 32,768
  // four-entry buckets: a bucket overflows rarely.
  EXPECT_GT(found, 99000u);
}

// Tables are never cleared by a pass: their memory must come zeroed, also right after an
// earlier table of the same size stored in its memory (a stale count read as a hit would
// be a silently wrong total).
TEST(PerftTable, StartsEmptyWhereAnEarlierTableStored) {
  constexpr size_t BYTES = 1 << 12;
  constexpr Key KEYS = 8 * BYTES / 64;
  auto fill = [](PerftTable& t) {
    for (Key k = 1; k <= KEYS; ++k) t.store(k * 0x9E3779B97F4A7C15ull, 2 + k % 3, k + 7);  // both parts
  };
  {
    PerftTable earlier(BYTES);
    fill(earlier);
    uint64_t n = 0, found = 0;
    for (Key k = 1; k <= KEYS; ++k) found += earlier.probe(k * 0x9E3779B97F4A7C15ull, 2 + k % 3, n);
    ASSERT_GT(found, KEYS / 4);  // 1 in 3 stores to the 384 narrow entries, 2 in 3 to the 64 wide ones
  }
  for (int round = 0; round < 2; ++round) {
    PerftTable t(BYTES);
    uint64_t n = 0;
    for (Key k = 1; k <= KEYS; ++k)
      ASSERT_FALSE(t.probe(k * 0x9E3779B97F4A7C15ull, 2 + k % 3, n)) << "stale entry " << k;
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
  const Key last_wide = (size_t(4) << 20) / 64 / 4 - 1;  // the wide part's last bucket
  const Key last_narrow = ~Key(0);                       // the narrow part's: the key's high part
  uint64_t n = 0;
  EXPECT_FALSE(t.probe(last_wide, 9, n));
  EXPECT_FALSE(t.probe(last_narrow, 2, n));
  t.store(last_wide, 9, 123456789);
  t.store(last_narrow, 2, 12345);
  ASSERT_TRUE(t.probe(last_wide, 9, n));
  EXPECT_EQ(n, 123456789u);
  ASSERT_TRUE(t.probe(last_narrow, 2, n));
  EXPECT_EQ(n, 12345u);
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

// Tables of two and of 64 buckets: every store replaces another, in both parts, and the
// counts stay the published ones.
TEST(HashedPerft, TinyTablesGiveThePublishedCounts) {
  const Position kiwipete = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  for (size_t bytes : {size_t(128), size_t(1) << 12}) {
    PerftTable table(bytes);
    perft::Options hashed;
    hashed.threads = 2;
    hashed.table = &table;
    EXPECT_EQ(perft::total(perft::divide(Position::start(), 6, hashed)), 119060324u) << bytes;
    EXPECT_EQ(perft::total(perft::divide(kiwipete, 5, hashed)), 193690690u) << bytes;
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

// A node's children are all made before any is probed (core/perft_kernel.h,
// HashedChildren): a child's stored count, of either part, is taken as it stands, and a
// child that missed is counted and stored. A count planted for a child and for a
// grandchild shows in the total, so a kernel that counted a child found in the table
// again, or took another child's entry, fails here.
TEST(HashedPerft, ChildrenFoundInTheTableAreTakenAndTheOthersStored) {
  const Position start = Position::start();
  const Position e4 = start.after(*parse_uci(start, "e2e4"));
  const Position e4e5 = e4.after(*parse_uci(e4, "e7e5"));
  const uint64_t e4_3 = perft::count(e4, 3), e4e5_2 = perft::count(e4e5, 2);
  ASSERT_EQ(e4_3, 13160u);  // e2e4's line of the start position's divide at depth 4
  PerftTable table(size_t(1) << 20);
  table.store(e4.key(), 3, 1000000);  // the wide part
  EXPECT_EQ(perft::count(start, 4, &table), 197281u - e4_3 + 1000000);
  PerftTable narrow(size_t(1) << 20);
  narrow.store(e4e5.key(), 2, 7);  // the narrow part, two plies down
  EXPECT_EQ(perft::count(start, 4, &narrow), 197281u - e4e5_2 + 7);
  uint64_t n = 0;
  const Position d4 = start.after(*parse_uci(start, "d2d4"));
  ASSERT_TRUE(narrow.probe(d4.key(), 3, n)) << "a child that missed is stored";
  EXPECT_EQ(n, perft::count(d4, 3));
  EXPECT_TRUE(narrow.probe(e4.key(), 3, n));
  EXPECT_EQ(n, e4_3 - e4e5_2 + 7) << "stored with its grandchild's planted count";
}

// count_once (a position of a deduplicated level): the position itself is neither probed
// nor stored, its children go through the table as count's do. A kernel that probed the
// root takes its planted count; one that stored it leaves it in the table.
TEST(HashedPerft, CountOnceSkipsTheRootAndHashesItsChildren) {
  const Position start = Position::start();
  const Position e4 = start.after(*parse_uci(start, "e2e4"));
  PerftTable planted(size_t(1) << 20);
  planted.store(start.key(), 4, 5);  // the root: not to be read
  planted.store(e4.key(), 3, 1000);  // a child: to be read
  EXPECT_EQ(perft::count_once(start, 4, &planted), 197281u - 13160u + 1000);

  PerftTable table(size_t(1) << 20);
  EXPECT_EQ(perft::count_once(start, 5, &table), 4865609u);
  uint64_t n = 0;
  EXPECT_FALSE(table.probe(start.key(), 5, n)) << "the root is not stored";
  ASSERT_TRUE(table.probe(e4.key(), 4, n)) << "its children are";
  EXPECT_EQ(n, perft::count(e4, 4));

  const Position kiwipete = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  for (int depth = 0; depth <= 4; ++depth)
    EXPECT_EQ(perft::count_once(kiwipete, depth, &table), perft::count(kiwipete, depth)) << depth;
  EXPECT_EQ(perft::count_once(kiwipete, 3, nullptr), 97862u);
}
