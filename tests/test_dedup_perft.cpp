// Deep perft deduplicated at a ply (jobs/perft/dedup_job.h): the same total and divide as
// the split run, positions merged by identity and never by key alone, and phase A's
// routing over simulated ranks (threads exchanging through memory) giving each unique
// position to exactly one rank, the owner of its bucket.
#include <gtest/gtest.h>

#include <hdf5.h>

#include <barrier>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>
#include <unordered_map>

#include "core/game.h"
#include "core/movegen.h"
#include "jobs/io/h5.h"
#include "jobs/perft/dedup_job.h"
#include "jobs/perft/split_job.h"

using namespace chesshpc;
using chess::Position;
using chess::u128;

namespace {

const char* KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

PerftRequest request(const std::string& fen, int depth, int split_depth, int dedup_ply) {
  PerftRequest req;
  req.fen = fen, req.depth = depth, req.split_depth = split_depth, req.dedup_ply = dedup_ply;
  req.threads = 2, req.quiet = true;
  // A table where the run uses one: a dedup ply two or fewer plies above the depth counts
  // each subtree once, and refuses --hash.
  req.hash_bytes = !dedup_ply || depth - dedup_ply > 2 ? size_t(16) << 20 : 0;
  return req;
}

// The driver's calls in one process, without a file: plan, then every unit computed and
// recorded in order.
void run_in_process(UnitJob& job) {
  std::ostringstream err;
  ASSERT_EQ(job.plan(Ranks{}, err), 0) << err.str();
  ASSERT_EQ(job.open("", err), 0) << err.str();
  ASSERT_EQ(job.prepare(Ranks{}, err), 0) << err.str();
  for (size_t u = 0; u < job.units(); ++u)
    if (!job.done(u)) job.record(u, job.compute(u), 0, 0);
}

std::vector<u128> split_divide(const std::string& fen, int depth) {
  SplitPerft split(request(fen, depth, 2, 0));
  run_in_process(split);
  return split.divide();
}

struct Case {
  const char* fen;
  int depth;
  uint64_t published;
  int plies[2];  // two dedup plies
};

}  // namespace

TEST(DedupPerft, TotalAndDivideEqualTheSplitRun) {
  const Case cases[] = {
      {"startpos", 5, 4865609, {2, 3}},
      {"startpos", 6, 119060324, {3, 4}},
      {KIWIPETE, 5, 193690690, {2, 3}},
      // Chess960 (Stockfish's count): the board code keeps four rights bits, and decoding
      // takes the castling rooks' files from the root (a rook on b1 and one on g1, the
      // king's destination).
      {"1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1", 5, 8672978, {2, 3}},
  };
  for (const Case& c : cases) {
    std::vector<u128> reference = split_divide(c.fen, c.depth);
    ASSERT_EQ(sum(reference), u128(c.published)) << c.fen;
    for (int ply : c.plies) {
      DedupPerft dedup(request(c.fen, c.depth, 0, ply));
      run_in_process(dedup);
      EXPECT_EQ(dedup.total(), u128(c.published)) << c.fen << " at dedup ply " << ply;
      EXPECT_EQ(dedup.divide(), reference) << c.fen << " at dedup ply " << ply;
    }
  }
}

// The published numbers of distinct positions 3 and 4 plies from the start.
// Routed level by level from ply 1 (--split-depth 1) and from ply 3 (the default).
TEST(DedupPerft, ShardHoldsTheUniquePositionsOfTheDedupPly) {
  for (int split : {1, 0})
    for (auto [ply, unique] : {std::pair{3, 5362u}, std::pair{4, 72078u}, std::pair{5, 822518u}}) {
      DedupPerft dedup(request("startpos", ply + 1, split, ply));
      run_in_process(dedup);
      EXPECT_EQ(dedup.shard().level.size(), unique) << "ply " << ply << ", split " << split;
      const std::vector<LevelTraffic>& levels = dedup.shard().traffic;
      ASSERT_FALSE(levels.empty());
      EXPECT_EQ(levels.front().ply, split ? split : std::min(ply, 3));
      EXPECT_EQ(levels.back().ply, ply);
    }
}

namespace {

// A plan of hand-made units at split depth = dedup ply, one path each from root move i.
PerftPlan plan_of(const std::vector<Position>& units) {
  PerftPlan plan;
  plan.root = Position::start(), plan.depth = 3, plan.split_depth = 2;
  plan.root_moves.resize(units.size());
  for (size_t i = 0; i < units.size(); ++i) plan.units.push_back({units[i], {{uint16_t(i), 1}}, 1});
  return plan;
}

}  // namespace

// The clocks are not part of a position's identity; a legal en-passant right is.
TEST(DedupPerft, PositionsMergeByIdentity) {
  const Position a = Position::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");  // en passant legal
  const Position no_ep = Position::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2");
  const Position later = Position::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 7 40");  // a's identity, other clocks
  const Position other = Position::from_fen("4k3/8/8/3pP3/8/8/8/3K4 w - - 0 2");
  ASSERT_NE(a.ep_square(), chess::SQ_NONE);
  SoloExchange alone;
  DedupShard shard = expand_and_route(plan_of({a, no_ep, later, other, a}), 2, alone);
  ASSERT_EQ(shard.level.size(), 3u);  // a (three times), no_ep, other
  for (size_t i = 0; i < shard.level.slots(); ++i) {
    if (!shard.level.used(i)) continue;
    uint64_t paths = 0, roots = 0;
    shard.level.for_each_path(i, [&](unsigned, uint64_t n) { paths += n, ++roots; });
    const bool is_a = chess::same_position(chess::decode(shard.level.code(i)), a);
    EXPECT_EQ(paths, is_a ? 3u : 1u);
    EXPECT_EQ(roots, is_a ? 3u : 1u);  // root moves 0, 2 and 4
  }
}

// Two positions given the same hash stay two: the merge compares whole codes.
TEST(DedupPerft, EqualHashesDoNotMergePositions) {
  DedupLevel level;
  const chess::BoardCode a = chess::encode(Position::start());
  const chess::BoardCode b = chess::encode(Position::from_fen(KIWIPETE));
  const RootPaths five_from_7 = {{7, 5}};
  for (int i = 0; i < 3; ++i) level.add(i == 1 ? b : a, 42, five_from_7);
  ASSERT_EQ(level.size(), 2u);
  std::vector<size_t> used;
  for (size_t i = 0; i < level.slots(); ++i)
    if (level.used(i)) used.push_back(i);
  ASSERT_EQ(used.size(), 2u);  // adjacent slots: same hash, linear probing
  EXPECT_EQ(used[1], used[0] + 1);
  EXPECT_EQ(level.code(used[0]), a);
  EXPECT_EQ(level.code(used[1]), b);
  uint64_t paths = 0;
  unsigned roots = 0;
  level.for_each_path(used[0], [&](unsigned root, uint64_t n) { paths += n, roots += root; });
  EXPECT_EQ(paths, 10u);
  EXPECT_EQ(roots, 7u);  // one entry, root move 7
  const RootPaths too_many = {{7, DedupLevel::MAX_PATHS}};
  EXPECT_THROW(level.add(a, 42, too_many), std::overflow_error);
}

// Root moves beyond the two kept in a slot go to overflow links, and survive growth.
TEST(DedupPerft, ManyRootMovesPerPositionSurviveGrowth) {
  DedupLevel level;  // 64 slots: grows several times below
  const size_t slots = level.slots();
  std::vector<chess::BoardCode> codes;
  for (Position p : {Position::start(), Position::from_fen(KIWIPETE)})
    for (chess::Move m : chess::legal_moves(p)) codes.push_back(chess::encode(p.after(m)));
  for (unsigned root = 0; root < 5; ++root)
    for (const chess::BoardCode& c : codes) {
      const RootPaths paths = {{uint8_t(root), root + 1}};
      level.add(c, c.hash(), paths);
    }
  EXPECT_GT(level.slots(), slots);
  EXPECT_EQ(level.size(), codes.size());
  for (size_t i = 0; i < level.slots(); ++i) {
    if (!level.used(i)) continue;
    uint64_t paths = 0, roots = 0, wrong = 0;
    level.for_each_path(i, [&](unsigned root, uint64_t n) { paths += n, roots += 1, wrong += n != root + 1; });
    EXPECT_EQ(wrong, 0u);
    EXPECT_EQ(roots, 5u);
    EXPECT_EQ(paths, 15u);
  }
}

// Five root moves stay in the slot (no overflow link, which costs a cache miss per merge);
// the sixth and a root move's paths past 2^32 go to links, each root move still once.
TEST(DedupPerft, FiveRootMovesInlineLargerSumsInLinks) {
  DedupLevel level;
  const chess::BoardCode a = chess::encode(Position::start());
  for (unsigned root = 0; root < 5; ++root) {
    const RootPaths paths = {{uint8_t(root), 10 + root}};
    level.add(a, a.hash(), paths);
  }
  EXPECT_EQ(level.links(), 0u);
  const RootPaths sixth = {{9, 1}};
  level.add(a, a.hash(), sixth);
  EXPECT_EQ(level.links(), 1u);
  // Root 2 reaches 2^32 + 11 paths: out of its slot into a link, root 4 moved into its place.
  const RootPaths big = {{2, uint64_t(UINT32_MAX)}};
  level.add(a, a.hash(), big);
  const RootPaths more = {{2, 3}, {4, 5}};
  level.add(a, a.hash(), more);
  EXPECT_EQ(level.links(), 2u);
  std::map<unsigned, uint64_t> got;
  size_t entries = 0;
  for (size_t i = 0; i < level.slots(); ++i)
    if (level.used(i)) level.for_each_path(i, [&](unsigned root, uint64_t n) { got[root] += n, ++entries; });
  EXPECT_EQ(entries, 6u);
  const std::map<unsigned, uint64_t> want = {{0, 10}, {1, 11}, {2, uint64_t(UINT32_MAX) + 12 + 3},
                                             {3, 13}, {4, 19}, {9, 1}};
  EXPECT_EQ(got, want);
  const RootPaths too_many = {{2, DedupLevel::MAX_PATHS}};
  EXPECT_THROW(level.add(a, a.hash(), too_many), std::overflow_error);
}

namespace {

// Ranks as threads: all_to_all and all() through shared memory, each a barrier round.
class ThreadRanks {
 public:
  explicit ThreadRanks(int n) : n_(n), sync_(n), mail_(size_t(n), std::vector<Payload>(size_t(n))), votes_(size_t(n)) {}
  class Rank : public Exchange {
   public:
    Rank(ThreadRanks& all, int rank) : all_(all), rank_(rank) {}
    int rank() const override { return rank_; }
    int size() const override { return all_.n_; }
    std::vector<Payload> all_to_all(std::vector<Payload> to) override {
      all_.mail_[size_t(rank_)] = std::move(to);
      all_.sync_.arrive_and_wait();
      std::vector<Payload> from;
      for (auto& box : all_.mail_) from.push_back(box[size_t(rank_)]);
      all_.sync_.arrive_and_wait();
      return from;
    }
    bool all(bool mine) override {
      all_.votes_[size_t(rank_)] = mine;
      all_.sync_.arrive_and_wait();
      bool every = true;
      for (bool v : all_.votes_) every = every && v;
      all_.sync_.arrive_and_wait();
      return every;
    }

   private:
    ThreadRanks& all_;
    int rank_;
  };

 private:
  int n_;
  std::barrier<> sync_;
  std::vector<std::vector<Payload>> mail_;  // [from][to]
  std::vector<bool> votes_;
};

}  // namespace

// Small rounds (2 KB), so that routing takes many rounds and ranks finish their units
// in different rounds.
TEST(DedupPerft, RoutingGivesEachPositionToTheOwnerOfItsBucketOnce) {
  const PerftPlan plan = plan_units(Position::start(), 6, 2);
  for (int n : {2, 3}) {
    ThreadRanks ranks(n);
    std::vector<DedupShard> shards(static_cast<size_t>(n));
    std::vector<std::thread> threads;
    for (int r = 0; r < n; ++r)
      threads.emplace_back([&, r] {
        ThreadRanks::Rank ex(ranks, r);
        RouteOptions small_rounds;
        small_rounds.round_bytes = 2048;
        shards[size_t(r)] = expand_and_route(plan, 4, ex, small_rounds);
      });
    for (std::thread& t : threads) t.join();
    size_t unique = 0;
    uint64_t paths = 0;
    std::vector<size_t> load(size_t(n), 0);
    for (int r = 0; r < n; ++r) {
      const DedupShard& s = shards[size_t(r)];
      EXPECT_GT(s.total().rounds, 10) << n << " ranks";
      EXPECT_GT(s.total().bytes_received, 0u) << n << " ranks";
      EXPECT_EQ(s.owner, shards[0].owner) << "every rank agrees on the owners";
      for (size_t b = 0; b < DEDUP_BUCKETS; ++b) {
        if (s.owner[b] != uint32_t(r)) {
          EXPECT_TRUE(s.buckets[b].empty()) << b;
        }
        load[size_t(r)] += s.buckets[b].size();
        for (const uint32_t i : s.buckets[b]) {
          EXPECT_EQ(dedup_bucket(s.level.hash(s.level.code(i))), b);
          s.level.for_each_path(i, [&](unsigned, uint64_t k) { paths += k; });
        }
      }
      unique += load[size_t(r)];
    }
    EXPECT_EQ(unique, 72078u) << n << " ranks";
    EXPECT_EQ(paths, 197281u) << n << " ranks";  // perft(4): every path, once
    // Balanced: ply 4's groups are lumpy (543 of them, the largest 0.4% of the positions),
    // and b % ranks alone leaves ranks uneven (bench/dedup_balance: 8 ranks, the busiest
    // 1.27 x the mean).
    for (size_t r = 0; r < size_t(n); ++r) EXPECT_LE(double(load[r]), 1.01 * 72078 / n) << n << " ranks";
  }
}

// Phase B's table shares transpositions one ply below L within a rank only. At L the
// bucket is the waiting side's pieces, so every pair of ply-L positions whose subtrees
// meet at ply L + 1 by moves that capture nothing sits on one rank: here every ply-4
// position's non-capturing children, over 3 ranks, have parents on one rank only.
// (Bucketed by the whole position, 499,836 of the 804,634 have parents on two ranks.)
TEST(DedupPerft, TranspositionsOnePlyBelowTheDedupPlyStayOnOneRank) {
  const PerftPlan plan = plan_units(Position::start(), 6, 3);
  constexpr int N = 3;
  ThreadRanks ranks(N);
  std::vector<DedupShard> shards(N);
  std::vector<std::thread> threads;
  for (int r = 0; r < N; ++r)
    threads.emplace_back([&, r] {
      ThreadRanks::Rank ex(ranks, r);
      shards[size_t(r)] = expand_and_route(plan, 4, ex);
    });
  for (std::thread& t : threads) t.join();
  std::unordered_map<uint64_t, int> owner_of;  // child's key -> rank of its parents, or -1
  size_t children = 0, shared = 0;
  for (int r = 0; r < N; ++r) {
    const DedupShard& shard = shards[size_t(r)];
    for (const std::vector<uint32_t>& bucket : shard.buckets)
      for (const uint32_t i : bucket) {
        const Position pos = chess::decode(shard.level.code(i));
        for (const chess::Move m : chess::legal_moves(pos)) {
          const bool en_passant = chess::type_of(pos.piece_on(m.from())) == chess::PAWN &&
                                  chess::file_of(m.from()) != chess::file_of(m.to());
          if (pos.piece_on(m.to()) != chess::NO_PIECE || en_passant) continue;
          Position child = pos;
          child.do_move(m);
          const auto [at, fresh] = owner_of.try_emplace(child.key(), r);
          children += fresh;
          if (!fresh && at->second != r && at->second != -1) at->second = -1, ++shared;
        }
      }
  }
  EXPECT_EQ(children, 804634u);  // distinct non-capturing children of the 72,078 ply-4 positions
  EXPECT_EQ(shared, 0u) << children;
}

// Whole buckets move from the busiest rank to the idlest until the busiest is within 1%
// of the mean, the biggest first that narrows the gap; nothing moves when b % ranks is
// even already, and a bucket bigger than a rank's share stays where it is.
TEST(DedupPerft, BalancingMovesWholeBucketsToTheIdlestRank) {
  std::vector<uint64_t> sizes(DEDUP_BUCKETS, 10);
  std::vector<uint32_t> plain(DEDUP_BUCKETS);
  for (size_t b = 0; b < DEDUP_BUCKETS; ++b) plain[b] = uint32_t(b % 2);
  EXPECT_EQ(balance_buckets(sizes, 2), plain);

  sizes[0] = 2000;  // rank 0: 8191 x 10 + 2000 = 83910, rank 1: 81920
  const std::vector<uint32_t> owner = balance_buckets(sizes, 2);
  uint64_t load[2] = {0, 0};
  size_t moved = 0;
  for (size_t b = 0; b < DEDUP_BUCKETS; ++b) load[owner[b]] += sizes[b], moved += owner[b] != plain[b];
  EXPECT_EQ(owner[0], 0u);  // 2000 > half the gap of 1990
  // The mean is 82915: rank 0 is within 1% (83744.15) after 17 buckets of 10.
  EXPECT_EQ(moved, 17u);
  EXPECT_EQ(load[0], 83740u);
  EXPECT_EQ(load[1], 82090u);
  EXPECT_EQ(balance_buckets(sizes, 2), owner) << "the same on every rank";

  std::vector<uint64_t> one(DEDUP_BUCKETS, 0);
  one[5] = 1000;  // one bucket holds everything: nothing helps
  EXPECT_EQ(balance_buckets(one, 3)[5], 5u % 3);
}

// Exact while cheap (up to the first ply over 50,000), then within 1.0 to 1.4 times the
// published numbers of distinct positions: a plan errs on the safe side.
TEST(DedupPerft, UniquePositionEstimatesErrHigh) {
  const std::vector<double> est = estimate_unique(Position::start(), 7);
  ASSERT_EQ(est.size(), 8u);
  const double exact[] = {1, 20, 400, 5362, 72078};
  for (size_t ply = 0; ply < 5; ++ply) EXPECT_EQ(est[ply], exact[ply]) << ply;
  const double published[] = {822518, 9417681, 96400068};
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_GE(est[5 + i], published[i]) << 5 + i;
    EXPECT_LE(est[5 + i], 1.4 * published[i]) << 5 + i;
  }
}

// ---- Resume checks what the file holds twice -----------------------------------------------

namespace {

// Rewrites the 1-D datasets `columns` of group in the HDF5 file at path through edit, which
// gets each column's values as bytes and the size of one (extendible datasets may shrink).
void edit_columns(const std::string& path, const char* group, std::initializer_list<const char*> columns,
                  const std::function<void(std::vector<char>& bytes, size_t size)>& edit) {
  const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), g = H5Gopen2(f, group, H5P_DEFAULT);
  for (const char* name : columns) {
    const hid_t d = H5Dopen2(g, name, H5P_DEFAULT), space = H5Dget_space(d), stored = H5Dget_type(d);
    const hid_t type = H5Tget_native_type(stored, H5T_DIR_ASCEND);
    hsize_t rows = 0;
    H5Sget_simple_extent_dims(space, &rows, nullptr);
    const size_t size = H5Tget_size(type);
    std::vector<char> bytes(rows * size);
    H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data());
    edit(bytes, size);
    const hsize_t now = bytes.size() / size;
    H5Dset_extent(d, &now);
    H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data());
    H5Tclose(type), H5Tclose(stored), H5Sclose(space), H5Dclose(d);
  }
  H5Gclose(g), H5Fclose(f);
}

template <class T>
T column_value(const std::string& path, const std::string& column, size_t row) {
  std::vector<T> values;
  h5::read_column(h5::open_read(path), column, values);
  return values.at(row);
}

// A complete file of perft(5) deduplicated at ply 3, its first /bucket_divide row's bucket,
// that row's sum (both below 2^64 here) and the bucket's nodes.
struct DedupFileCase {
  std::string path;
  int64_t bucket;
  uint64_t row_nodes;
  std::string bucket_nodes;
};

DedupFileCase complete_dedup_file(const std::string& name) {
  PerftRequest req = request("startpos", 5, 0, 3);
  req.out = testing::TempDir() + name;
  std::filesystem::remove(req.out);
  DedupPerft dedup(req);
  run_in_process(dedup);
  dedup.checkpoint()();
  const int64_t bucket = column_value<int64_t>(req.out, "bucket_divide/bucket", 0);
  return {req.out, bucket, column_value<uint64_t>(req.out, "bucket_divide/nodes_lo", 0),
          column_value<std::string>(req.out, "buckets/nodes", size_t(bucket))};
}

// The exit code and message of a resume of path.
std::pair<int, std::string> resume_dedup(const std::string& path) {
  PerftRequest req = request("startpos", 5, 0, 3);
  req.out = path, req.resume = true;
  DedupPerft dedup(req);
  std::ostringstream err;
  EXPECT_EQ(dedup.plan(Ranks{}, err), 0) << err.str();
  return {dedup.open("", err), err.str()};
}

}  // namespace

// A /bucket_divide row removed, or a count in it changed: the bucket's nodes in /buckets
// disagree, and the resume is refused naming the bucket (it once resumed to a wrong total).
TEST(DedupPerft, ResumeRefusesBucketDivideThatDisagreesWithBuckets) {
  const DedupFileCase c = complete_dedup_file("dedup_check.h5");
  ASSERT_EQ(resume_dedup(c.path).first, 0);
  const u128 nodes = *chess::parse_u128(c.bucket_nodes);
  const std::string cannot =
      "chesshpc perft: cannot resume from '" + c.path + "': bucket " + std::to_string(c.bucket) + "'s rows of ";

  edit_columns(c.path, "bucket_divide", {"bucket", "root", "nodes_hi", "nodes_lo"},
               [](std::vector<char>& bytes, size_t size) { bytes.erase(bytes.begin(), bytes.begin() + long(size)); });
  EXPECT_EQ(resume_dedup(c.path),
            std::pair(3, cannot + "/bucket_divide sum to " + chess::to_string(nodes - c.row_nodes) +
                             ", but its nodes in "
                             "/buckets are " +
                             c.bucket_nodes + "\n"));

  const DedupFileCase d = complete_dedup_file("dedup_count.h5");
  edit_columns(d.path, "bucket_divide", {"nodes_lo"}, [](std::vector<char>& bytes, size_t) {
    uint64_t n;
    std::memcpy(&n, bytes.data(), sizeof n);
    ++n;
    std::memcpy(bytes.data(), &n, sizeof n);
  });
  EXPECT_EQ(resume_dedup(d.path).second, "chesshpc perft: cannot resume from '" + d.path + "': bucket " +
                                             std::to_string(d.bucket) + "'s rows of /bucket_divide sum to " +
                                             chess::to_string(*chess::parse_u128(d.bucket_nodes) + 1) +
                                             ", but its nodes in /buckets are " + d.bucket_nodes + "\n");
}

namespace {

// Sets the root attribute name of the HDF5 file at path to value (an integer, or text for
// a text attribute), in the attribute's own type.
void set_root_attr(const std::string& path, const char* name, int64_t value, const std::string& text = "") {
  const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT), a = H5Aopen(f, name, H5P_DEFAULT);
  const hid_t type = H5Aget_type(a);
  const char* chars = text.c_str();
  if (H5Tget_class(type) == H5T_STRING)
    H5Awrite(a, type, &chars);
  else
    H5Awrite(a, H5T_NATIVE_INT64, &value);
  H5Tclose(type), H5Aclose(a), H5Fclose(f);
}

}  // namespace

// The other facts the file holds twice: a /bucket_divide row given twice, buckets_done
// against the done rows, a complete file's total against its buckets' sum.
TEST(DedupPerft, ResumeRefusesTheFileSayingOneThingTwoWays) {
  const DedupFileCase twice = complete_dedup_file("dedup_twice.h5");
  edit_columns(twice.path, "bucket_divide", {"bucket", "root", "nodes_hi", "nodes_lo"},
               [](std::vector<char>& bytes, size_t size) {
                 const std::vector<char> first(bytes.begin(), bytes.begin() + long(size));
                 bytes.insert(bytes.begin(), first.begin(), first.end());
               });
  EXPECT_EQ(resume_dedup(twice.path),
            std::pair(3, "chesshpc perft: cannot resume from '" + twice.path + "': /bucket_divide holds bucket " +
                             std::to_string(twice.bucket) + "'s root move " +
                             std::to_string(column_value<int32_t>(twice.path, "bucket_divide/root", 0)) + " twice\n"));

  const DedupFileCase done = complete_dedup_file("dedup_done.h5");
  set_root_attr(done.path, "buckets_done", 16383);
  EXPECT_EQ(resume_dedup(done.path), std::pair(3, "chesshpc perft: cannot resume from '" + done.path +
                                                      "': its buckets_done is 16383, but /buckets has 16384 done\n"));

  const DedupFileCase total = complete_dedup_file("dedup_total.h5");
  set_root_attr(total.path, "total", 0, "4865610");
  EXPECT_EQ(resume_dedup(total.path), std::pair(3, "chesshpc perft: cannot resume from '" + total.path +
                                                       "': its total is 4865610, but its buckets sum to 4865609\n"));
}
