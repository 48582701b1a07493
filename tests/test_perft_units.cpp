// Work units: unique positions with their paths, and totals equal to direct perft.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <hdf5.h>

#include "jobs/perft/file.h"
#include "jobs/perft/units.h"

using namespace chesshpc;
using chess::Position;
using chess::u128;

namespace {

std::vector<uint64_t> unit_counts(const PerftPlan& plan) {
  std::vector<uint64_t> nodes;
  for (const PerftUnit& u : plan.units) nodes.push_back(chess::perft::count(u.pos, plan.depth - plan.split_depth));
  return nodes;
}

}  // namespace

// The numbers of distinct positions after 2, 3 and 4 plies from the start are published
// (400, 5,362, 72,078); paths still add up to perft of the split depth.
TEST(PerftUnits, UniquePositionsOfTheStartPosition) {
  PerftPlan two = plan_units(Position::start(), 5, 2);
  EXPECT_EQ(two.units.size(), 400u);
  PerftPlan three = plan_units(Position::start(), 5, 3);
  EXPECT_EQ(three.units.size(), 5362u);
  uint64_t paths = 0;
  for (const PerftUnit& u : three.units) paths += u.multiplicity();
  EXPECT_EQ(paths, 8902u);
  PerftPlan four = plan_units(Position::start(), 6, 4);
  EXPECT_EQ(four.units.size(), 72078u);
}

TEST(PerftUnits, UnitsAreBiggestFirstAndDeterministic) {
  PerftPlan a = plan_units(Position::start(), 6, 3), b = plan_units(Position::start(), 6, 3);
  ASSERT_EQ(a.units.size(), b.units.size());
  for (size_t i = 0; i < a.units.size(); ++i) {
    EXPECT_EQ(a.units[i].pos.key(), b.units[i].pos.key());
    if (i) {
      EXPECT_GE(a.units[i - 1].estimate, a.units[i].estimate);
    }
  }
}

TEST(PerftUnits, TotalAndDivideEqualDirectPerft) {
  struct Case {
    const char* fen;
    int depth, split;
  } cases[] = {{"startpos", 6, 3},
               {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4, 2},
               {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6, 3},
               {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4, 1}};
  for (const Case& c : cases) {
    Position root = Position::from_fen(c.fen);
    PerftPlan plan = plan_units(root, c.depth, c.split);
    std::vector<u128> divide = merge_divide(plan, unit_counts(plan));
    chess::perft::Options opt;
    opt.threads = 2;
    std::vector<chess::perft::RootCount> direct = chess::perft::divide(root, c.depth, opt);
    ASSERT_EQ(divide.size(), direct.size()) << c.fen;
    for (size_t i = 0; i < divide.size(); ++i) {
      EXPECT_EQ(plan.root_moves[i], direct[i].move);
      EXPECT_TRUE(divide[i] == direct[i].nodes) << c.fen << " root move " << i;
    }
    EXPECT_EQ(chess::to_string(sum(divide)), std::to_string(chess::perft::count(root, c.depth))) << c.fen;
  }
}

// Totals past 2^64 stay exact.
TEST(PerftUnits, MergeIs128Bit) {
  PerftPlan plan = plan_units(Position::start(), 2, 1);
  std::vector<uint64_t> nodes(plan.units.size(), uint64_t(1) << 63);
  EXPECT_EQ(chess::to_string(sum(merge_divide(plan, nodes))), "184467440737095516160");  // 20 * 2^63
}

TEST(PerftUnits, DefaultSplitGivesEnoughUnits) {
  EXPECT_EQ(default_split_depth(Position::start(), 9, 2), 3);   // 400 < 600 <= 8,902
  EXPECT_EQ(default_split_depth(Position::start(), 9, 64), 4);  // 8,902 < 19,200 <= 197,281
  EXPECT_EQ(default_split_depth(Position::start(), 3, 64), 2);  // never the last ply
}

// The result file keeps a total past 2^64 exactly, as text and as two 64-bit halves.
TEST(PerftFile, TotalPast64BitsIsExact) {
  PerftPlan plan = plan_units(Position::start(), 2, 1);
  UnitResults r(plan.units.size());
  for (size_t i = 0; i < plan.units.size(); ++i) r.record(i, uint64_t(1) << 63, 0.5, 0);
  r.nodes[0] += 7;  // so that the low half is not zero by accident
  r.load = {{0, 0, 10.0, 0.5, "node1"}};
  PerftRequest req;
  req.depth = 2, req.split_depth = 1;
  std::string path = testing::TempDir() + "big_total.h5";
  PerftFile(path, req, plan, "2026-01-01T00:00:00Z", 1).write(r);

  hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  hid_t a = H5Aopen(f, "total", H5P_DEFAULT);
  hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  H5Tset_cset(type, H5T_CSET_UTF8);
  char* text = nullptr;
  H5Aread(a, type, &text);
  EXPECT_STREQ(text, "184467440737095516167");  // 20 * 2^63 + 7
  H5free_memory(text);
  H5Tclose(type), H5Aclose(a);
  uint64_t hi = 0, lo = 0;
  a = H5Aopen(f, "total_hi", H5P_DEFAULT);
  H5Aread(a, H5T_NATIVE_UINT64, &hi);
  H5Aclose(a);
  a = H5Aopen(f, "total_lo", H5P_DEFAULT);
  H5Aread(a, H5T_NATIVE_UINT64, &lo);
  H5Aclose(a);
  EXPECT_EQ(hi, 10u);  // 20 * 2^63 + 7 = 10 * 2^64 + 7
  EXPECT_EQ(lo, 7u);
  H5Fclose(f);
}

// A checkpoint holds the done units; reading it back for a resume gives exactly those,
// marks the next run, and refuses a file of another job by naming what differs.
TEST(PerftFile, CheckpointReadsBackForResume) {
  PerftPlan plan = plan_units(Position::start(), 3, 1);
  UnitResults r(plan.units.size());
  for (size_t i = 0; i < 5; ++i) r.record(i, 400 + i, 0.25, int(i % 2));
  r.load = {{0, 0, 1.0, 0.1, "node1"}, {0, 1, 0.9, 0.2, "node2"}};
  PerftRequest req;
  std::string path = testing::TempDir() + "checkpoint.h5";
  PerftFile(path, req, plan, "2026-01-01T00:00:00Z", 1).write(r);

  UnitResults back = read_perft_file(path, plan);
  EXPECT_EQ(back.this_run, 1);
  EXPECT_EQ(back.count_done(), 5u);
  for (size_t i = 0; i < plan.units.size(); ++i) {
    EXPECT_EQ(back.done(i), i < 5);
    EXPECT_EQ(back.nodes[i], i < 5 ? 400 + i : 0);
    EXPECT_EQ(back.rank[i], i < 5 ? int(i % 2) : -1);
  }
  ASSERT_EQ(back.load.size(), 2u);
  EXPECT_EQ(back.load[1].rank, 1);
  EXPECT_DOUBLE_EQ(back.load[1].idle, 0.2);
  EXPECT_EQ(back.load[1].host, "node2");
  EXPECT_TRUE(holds_unfinished_perft(path));

  auto refused = [&](const PerftPlan& other) {
    try {
      read_perft_file(path, other);
    } catch (const ResumeError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_THAT(refused(plan_units(Position::start(), 4, 1)), testing::HasSubstr("depth is 3, this run's is 4"));
  EXPECT_THAT(refused(plan_units(Position::start(), 3, 2)), testing::HasSubstr("split depth is 1, this run's is 2"));
  EXPECT_THAT(refused(plan_units(Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1"), 3, 1)),
              testing::HasSubstr("its FEN is rnbqkbnr"));
}
