// The small utilities every layer shares: 128-bit counts as text, sizes on the command
// line, thread counts.
#include <gtest/gtest.h>

#include <tbb/info.h>

#include "core/int128.h"
#include "core/quote.h"
#include "core/threads.h"
#include "jobs/io/byte_size.h"

using chess::u128;

TEST(Int128, ReadsAndWritesCountsPast64Bits) {
  // perft(14) of the start position, as published: 3 * 2^64 + 6544789300456874389.
  std::optional<u128> perft14 = chess::parse_u128("61885021521585529237");
  ASSERT_TRUE(perft14);
  EXPECT_EQ(uint64_t(*perft14 >> 64), 3u);
  EXPECT_EQ(uint64_t(*perft14), 6544789300456874389ULL);
  EXPECT_EQ(chess::to_string(*perft14), "61885021521585529237");
  EXPECT_EQ(chess::to_string(0), "0");
  EXPECT_EQ(chess::to_string(~u128(0)), "340282366920938463463374607431768211455");
  EXPECT_EQ(chess::parse_u128("340282366920938463463374607431768211455"), ~u128(0));
}

TEST(Int128, RefusesTextThatIsNotACount) {
  for (const char* bad : {"", "-1", "+1", " 1", "1 ", "1e3", "12,345", "340282366920938463463374607431768211456"})
    EXPECT_FALSE(chess::parse_u128(bad)) << bad;
  EXPECT_EQ(chess::parse_u128("007"), u128(7));
}

// A bare number is MB, as UCI's Hash and Stockfish read it ("perft --hash 64" was
// 64 bytes, and a Stockfish user's --hash 1024 got no table); 64MB, 512m and 1GiB were
// refused.
TEST(ByteSize, ParsesSizes) {
  using chesshpc::parse_size;
  EXPECT_EQ(parse_size("512M"), size_t(512) << 20);
  EXPECT_EQ(parse_size("8G"), size_t(8) << 30);
  EXPECT_EQ(parse_size("64K"), size_t(64) << 10);
  EXPECT_EQ(parse_size("1T"), size_t(1) << 40);
  EXPECT_EQ(parse_size("1024"), size_t(1) << 30);
  EXPECT_EQ(parse_size("64"), size_t(64) << 20);
  EXPECT_EQ(parse_size("1"), size_t(1) << 20);
  EXPECT_EQ(parse_size("64MB"), size_t(64) << 20);
  EXPECT_EQ(parse_size("512m"), size_t(512) << 20);
  EXPECT_EQ(parse_size("1GiB"), size_t(1) << 30);
  EXPECT_EQ(parse_size("16kb"), size_t(16) << 10);
  EXPECT_EQ(parse_size("2tib"), size_t(2) << 40);
  for (const char* bad :
       {"", "M", "0", "0M", "-1M", "1.5G", "12X", "64B", "1MiBs", "1 M", "M1", "1Mi", "17179869184G", "17592186044416"})
    EXPECT_EQ(parse_size(bad), 0u) << bad;
}

// Every size is printed in MB (2^20 bytes), never as "0 MB" when it is not nothing.
TEST(ByteSize, PrintsSizesInMegabytes) {
  using chesshpc::format_size;
  EXPECT_EQ(format_size(0), "0 MB");
  EXPECT_EQ(format_size(size_t(64) << 20), "64 MB");
  EXPECT_EQ(format_size(size_t(1) << 30), "1024 MB");
  EXPECT_EQ(format_size(size_t(1536) << 10), "1.5 MB");
  EXPECT_EQ(format_size(size_t(255) << 20 | size_t(300) << 10), "255.3 MB");
  EXPECT_EQ(format_size(4096), "0.0039 MB");
  EXPECT_EQ(format_size(1), "under 0.001 MB");
}

TEST(Threads, ZeroMeansEveryCoreThisProcessMayUse) {
  EXPECT_EQ(chess::resolve_threads(3), 3);
  EXPECT_EQ(chess::resolve_threads(0), tbb::info::default_concurrency());
  EXPECT_GE(chess::resolve_threads(0), 1);
}

// rescore's engines: one a CPU when they are as many as the CPUs, else none pinned.
TEST(Threads, EnginesAsManyAsTheCpusGetOneEachOtherCountsAreLeftToTheScheduler) {
  EXPECT_EQ(chess::engine_cpu({2, 5}, 2, 0), 2);
  EXPECT_EQ(chess::engine_cpu({2, 5}, 2, 1), 5);
  EXPECT_EQ(chess::engine_cpu({2, 5}, 2, 2), -1);
  EXPECT_EQ(chess::engine_cpu({2, 5}, 2, -1), -1);
  EXPECT_EQ(chess::engine_cpu({0, 1, 2, 3}, 2, 0), -1);  // fewer engines than CPUs
  EXPECT_EQ(chess::engine_cpu({0, 1}, 3, 0), -1);        // more
  EXPECT_EQ(chess::engine_cpu({3}, 1, 0), -1);           // one: its reader may run beside it
  EXPECT_EQ(chess::engine_cpu({}, 1, 0), -1);
}

// One excerpt for every message that quotes what it was given.
TEST(Quote, BoundsAndEscapesWhatAMessageShows) {
  EXPECT_EQ(chess::quoted("e4#"), "'e4#'");
  EXPECT_EQ(chess::excerpt(""), "");
  EXPECT_EQ(chess::excerpt(std::string(60, 'a')), std::string(60, 'a'));
  EXPECT_EQ(chess::excerpt(std::string(61, 'a')), std::string(60, 'a') + "...");
  EXPECT_EQ(chess::excerpt(std::string(100000, 'a')), std::string(60, 'a') + "...");
  EXPECT_EQ(chess::excerpt("a\x01\tb\x7F\\"), "a\\x01\\x09b\\x7F\\\\");
  EXPECT_EQ(chess::excerpt("\xC3\xA9"), "\\xC3\\xA9");  // UTF-8 bytes, escaped one by one
  EXPECT_EQ(chess::excerpt(std::string("a\0b", 3)), "a\\x00b");
  // Cut before an escape that would not fit whole, never inside it.
  EXPECT_EQ(chess::excerpt(std::string(57, 'a') + "\x01"), std::string(57, 'a') + "...");
  EXPECT_EQ(chess::excerpt(std::string(56, 'a') + "\x01"), std::string(56, 'a') + "\\x01");
}
