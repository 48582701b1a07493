// Deep perft deduplicated at a ply (jobs/perft/dedup_job.h): the same total and divide as
// the split run, positions merged by identity and never by key alone, and phase A's
// routing over simulated ranks (threads exchanging through memory) giving each unique
// position to exactly one rank, the owner of its bucket.
#include <gtest/gtest.h>

#include <barrier>
#include <cstring>
#include <mutex>
#include <sstream>
#include <thread>

#include "core/game.h"
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
  req.threads = 2, req.hash_bytes = size_t(16) << 20, req.quiet = true;
  return req;
}

// The driver's calls in one process, without a file: plan, then every unit computed and
// recorded in order.
void run_in_process(UnitJob& job) {
  std::ostringstream err;
  ASSERT_EQ(job.plan(Ranks{}, err), 0) << err.str();
  ASSERT_EQ(job.open("", err), 0) << err.str();
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
TEST(DedupPerft, ShardHoldsTheUniquePositionsOfTheDedupPly) {
  for (auto [ply, unique] : {std::pair{3, 5362u}, std::pair{4, 72078u}}) {
    DedupPerft dedup(request("startpos", ply + 1, 0, ply));
    run_in_process(dedup);
    EXPECT_EQ(dedup.shard().positions.size(), unique);
  }
}

namespace {

// A plan of hand-made units at split depth = dedup ply, one path each from root move i.
PerftPlan plan_of(const std::vector<Position>& units) {
  PerftPlan plan;
  plan.root = Position::start(), plan.depth = 3, plan.split_depth = 2;
  for (size_t i = 0; i < units.size(); ++i) plan.units.push_back({units[i], {{uint16_t(i), 1}}, 1});
  return plan;
}

// p with the key of q: the key's 8 bytes found in the position's bytes and overwritten.
Position with_key_of(Position p, const Position& q) {
  chess::Key from = p.key(), to = q.key();
  auto* bytes = reinterpret_cast<unsigned char*>(&p);
  for (size_t at = 0; at + sizeof from <= sizeof p; ++at)
    if (std::memcmp(bytes + at, &from, sizeof from) == 0) {
      std::memcpy(bytes + at, &to, sizeof to);
      break;
    }
  return p;
}

}  // namespace

TEST(DedupPerft, PositionsMergeByIdentityNotByKey) {
  const Position a = Position::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");  // en passant legal
  const Position no_ep = Position::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 2");
  const Position later = Position::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 7 40");  // a's identity, other clocks
  const Position other = with_key_of(Position::from_fen("4k3/8/8/3pP3/8/8/8/3K4 w - - 0 2"), a);
  ASSERT_NE(a.ep_square(), chess::SQ_NONE);
  ASSERT_EQ(other.key(), a.key());
  ASSERT_FALSE(chess::same_position(a, other));
  SoloExchange alone;
  DedupShard shard = expand_and_route(plan_of({a, no_ep, later, other, a}), 2, alone);
  ASSERT_EQ(shard.positions.size(), 3u);  // a (three times), no_ep, other
  for (size_t i = 0; i < shard.positions.size(); ++i) {
    uint64_t paths = 0;
    for (auto [root, n] : shard.paths_of(i)) paths += n;
    EXPECT_EQ(paths, chess::same_position(shard.positions[i], a) ? 3u : 1u);
  }
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

// Small rounds (64 records), so that routing takes many rounds and ranks finish their units
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
        shards[size_t(r)] = expand_and_route(plan, 4, ex, {}, 64);
      });
    for (std::thread& t : threads) t.join();
    size_t unique = 0;
    uint64_t paths = 0;
    for (int r = 0; r < n; ++r) {
      const DedupShard& s = shards[size_t(r)];
      EXPECT_GT(s.rounds, 10) << n << " ranks";
      unique += s.positions.size();
      for (size_t i = 0; i < s.positions.size(); ++i) {
        EXPECT_EQ(dedup_bucket(s.positions[i].key()) % size_t(n), size_t(r));
        for (auto [root, k] : s.paths_of(i)) paths += k;
      }
    }
    EXPECT_EQ(unique, 72078u) << n << " ranks";
    EXPECT_EQ(paths, 197281u) << n << " ranks";  // perft(4): every path, once
  }
}
