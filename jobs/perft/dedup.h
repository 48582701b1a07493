// Exact distributed deduplication of deep perft, phase A: a breadth-first
// search over the ranks, one level (ply) at a time, from the split depth K down to the
// dedup ply L. Every unique position of a level lives on one rank, the owner of its
// bucket; each rank expands the positions it owns, and sends each child to the child's
// owner, where copies of one position arriving from anywhere merge exactly. Phase B then
// counts each unique position of ply L once, on its owner (jobs/perft/dedup_job.h).
//
// Why level by level: deduplicating only at L leaves the transpositions below the split
// to per-rank tables, and two ranks then repeat each other's subtrees (measured for
// perft(8): work efficiency 0.63 at 2 ranks). Routing every level makes a position's
// owner the only rank that ever expands it, as in transposition-driven scheduling
// (Romein et al., 2002), so the work at P ranks is the work at one.
//
// Records are compact (core/board_code.h) and carry every root move's paths at once: a
// child is one record of 35 + 9 x roots bytes, however many root moves reach its parent.
//
// Buckets are a fixed number (DEDUP_BUCKETS) of a hash of the board code, independent of
// the rank count: progress recorded per bucket survives a resume on any number of ranks.
// Bucket b lives on rank b % ranks while routing; at the dedup ply whole buckets then
// move between ranks to even out phase B (balance_buckets).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/board_code.h"
#include "core/large_pages.h"
#include "jobs/io/exchange.h"
#include "jobs/perft/units.h"

namespace chesshpc {

// 16,384: enough that whole buckets balance 1,024 ranks to within 5% (bench/perft_model.py
// --dedup: 4,096 left the busiest rank 1.2 x the mean at ply 9, 16,384 1.05).
constexpr int DEDUP_BUCKET_BITS = 14;
constexpr size_t DEDUP_BUCKETS = size_t(1) << DEDUP_BUCKET_BITS;
constexpr int DEDUP_SLOT_BITS = 64 - DEDUP_BUCKET_BITS;  // the placing hash's low bits

// Where a position goes: its placing hash's top DEDUP_BUCKET_BITS bits are its bucket (and so its owner,
// rank bucket % ranks while routing), the low bits its slot in the owner's table.
//
// Above the dedup ply the bucket is a hash of the whole position: the levels there are
// merged exactly wherever their positions go, so only the balance matters. At the dedup
// ply L the bucket is a hash of the waiting side's pieces alone (the side not to move).
// Phase B counts each position there with its owner's table, and two positions of ply L
// whose subtrees meet at ply L + 1 are, unless a capture is involved, the same waiting
// side's pieces with the mover's moved in two orders (1. Nf3 ... 2. Nc3 and 1. Nc3 ...
// 2. Nf3): bucketed by the waiting side they sit on one rank, whose table then counts
// their common children once. Bucketed by the whole position they sit on random ranks,
// and two ranks count each such child twice: perft(8) deduplicated at ply 5 took 1.44
// times the CPU time of one rank on two ranks, and 1.08 times bucketed by the waiting
// side; perft(7) at ply 4 executed 0.8% more instructions in move counting on two ranks
// than on one (valgrind --tool=callgrind).
enum class Bucketing : uint8_t { Position, WaitingSide };
inline size_t dedup_bucket(uint64_t placing_hash) { return size_t(placing_hash >> DEDUP_SLOT_BITS); }
uint64_t placing_hash(const chess::BoardCode& code, Bucketing by);
// The pieces of the side not to move, as a code of their own (state 0): what the dedup
// ply buckets by.
chess::BoardCode waiting_side(const chess::BoardCode& code);
inline size_t dedup_bucket(const chess::BoardCode& code, Bucketing by) { return dedup_bucket(placing_hash(code, by)); }

// (root move, paths from it to a position), the multiplicities a record carries.
using RootPath = std::pair<uint8_t, uint64_t>;
using RootPaths = std::vector<RootPath>;

// The unique positions of one level that one rank owns, each with its paths per root
// move, in an open-addressing table of 64-byte slots: the code, up to five root moves
// inline with paths below 2^32, the others (and a root move's paths from 2^32 on) in
// overflow links. Adding a child costs one probe, which touches one cache line in the
// common case: separate index, node and link arrays cost three to five cache misses per
// child (perft(7) at ply 5: DedupLevel::add was 29% of the run). With two root moves
// inline (64-bit paths) a position reached from a third needed links, whose walk (a cache
// miss per link) was 88 % of add()'s time routing perft(10)'s ply 7 (perf annotate).
// Above the dedup ply a slot's place is the position's place among this rank's buckets,
// then the low hash bits (multiply-shift onto any capacity), so that the rank's buckets
// fill the whole table (placing by the raw hash left the other ranks' share of it empty,
// and probing ran long). At the dedup ply, whose buckets differ in size by up to 7 times,
// a slot's place is the low bits alone: by bucket order, the big buckets overflowed
// their share into long probe runs (routing plies 4 to 6 of perft(9) took 117 s, not 3.3).
class DedupLevel {
 public:
  static constexpr uint64_t MAX_PATHS = ~uint64_t(0);  // per (position, root move)
  static constexpr size_t SLOT_BYTES = 64;

  // Room for about `expected` positions before the table grows (by half, rehashing), for
  // the buckets that rank `rank` of `ranks` owns.
  explicit DedupLevel(size_t expected = 0, int ranks = 1, int rank = 0, Bucketing by = Bucketing::Position);
  // The hash that places a position in this level (and on its owner).
  uint64_t hash(const chess::BoardCode& code) const { return placing_hash(code, by_); }
  // Merges each root move's paths into the position with this code (hash: hash(code)).
  // Throws std::overflow_error past MAX_PATHS paths for one root move.
  void add(const chess::BoardCode& code, uint64_t hash, std::span<const RootPath> roots);
  // Starts loading the slot where add() will look for this hash. A probe is a cache and
  // TLB miss (about 200 ns on the machines here); the routing loads a parent's children
  // together so that the misses overlap.
  void prefetch(uint64_t hash) const { __builtin_prefetch(&slots_[home(hash)]); }
  // Starts loading a slot that code() or for_each_path() will read: phase B reads a
  // bucket's slots, which lie all over the table, one cache and TLB miss each.
  void prefetch_slot(size_t slot) const { __builtin_prefetch(&slots_[slot]); }
  size_t size() const { return used_; }
  size_t slots() const { return slot_count_; }
  bool used(size_t slot) const { return slots_[slot].info != 0; }
  chess::BoardCode code(size_t slot) const { return code_of(slots_[slot]); }
  // f(root, paths) for each root move that reaches the position in this used slot.
  // Each root move once.
  template <class F>
  void for_each_path(size_t slot, F f) const {
    const Slot& s = slots_[slot];
    for (unsigned k = 0; k < s.inline_roots(); ++k) f(unsigned(s.root[k]), uint64_t(s.paths[k]));
    for (uint32_t l = s.more; l != NONE; l = links_[l].next) f(unsigned(links_[l].root), links_[l].paths);
  }
  // Root moves kept in overflow links, over all used slots (for tests and figures).
  size_t links() const { return links_.size(); }

 private:
  static constexpr uint32_t NONE = ~uint32_t(0);
  static constexpr unsigned INLINE_ROOTS = 5;
  static constexpr uint8_t USED = 0x80;
  struct alignas(64) Slot {
    uint64_t q[4];
    uint32_t paths[INLINE_ROOTS];  // below 2^32; a root move's larger sum lives in a link
    uint32_t more;                 // overflow links: root moves not inline
    uint16_t state;
    uint8_t root[INLINE_ROOTS];
    uint8_t info;  // USED | root moves inline; 0: empty slot
    unsigned inline_roots() const { return info & 7u; }
  };
  struct Link {
    uint64_t paths;
    uint32_t next;
    uint8_t root;
  };
  static_assert(sizeof(Slot) == SLOT_BYTES);
  static chess::BoardCode code_of(const Slot& s);
  // Zeroed slots on huge pages where the system has them: probed at random, 4 KB pages
  // miss the TLB on nearly every child (ply 6 of perft(8) took 11 s, not 3).
  static chess::LargePagesPtr<Slot> zeroed(size_t n);
  size_t home(uint64_t hash) const {
    if (by_ == Bucketing::WaitingSide)  // buckets of very different sizes: spread by the rest
      return size_t((unsigned __int128)(hash << DEDUP_BUCKET_BITS) * slot_count_ >> 64);
    const uint64_t local =
        (uint64_t(dedup_bucket(hash) / ranks_) << DEDUP_SLOT_BITS) | (hash & ((uint64_t(1) << DEDUP_SLOT_BITS) - 1));
    return std::min(size_t((unsigned __int128)local * scale_ >> 64), slot_count_ - 1);
  }
  Slot& find(const chess::BoardCode& code, uint64_t hash);
  void merge(Slot& s, unsigned root, uint64_t paths);
  void grow();

  chess::LargePagesPtr<Slot> slots_;
  size_t slot_count_ = 0;
  size_t ranks_ = 1, owned_ = DEDUP_BUCKETS;  // buckets of this rank
  Bucketing by_ = Bucketing::Position;
  uint64_t scale_ = 0;  // slot_count_ * DEDUP_BUCKETS / owned_: local -> slot
  void set_slots(size_t n);
  std::vector<Link> links_;
  size_t used_ = 0;
};

// What one rank did in phase A, per level and in all (a row of the result file's /levels).
struct LevelTraffic {
  int32_t run = 0, rank = 0;  // set where the ranks' rows are gathered
  int32_t ply = 0;
  uint64_t unique = 0;                              // positions this rank owns at this ply
  uint64_t children = 0;                            // positions this rank generated for this ply, before any merging
  uint64_t records_sent = 0, records_received = 0;  // to and from other ranks
  uint64_t bytes_sent = 0, bytes_received = 0;
  int32_t rounds = 0;
  double seconds = 0, exchange_seconds = 0;  // in all; inside the collectives
  double merge_seconds = 0;                  // merging what other ranks sent
};

// This rank's unique positions at the dedup ply, and per bucket the positions in it (only
// the buckets this rank owns are non-empty).
struct DedupShard {
  DedupLevel level;
  std::vector<std::vector<uint32_t>> buckets;  // per bucket: used slots of level, ascending
  std::vector<uint32_t> owner;                 // per bucket: the rank that counts it (phase B)
  std::vector<LevelTraffic> traffic;           // levels K to L
  LevelTraffic total() const;                  // over the levels
};

// Unique positions per ply from 0 to max_ply, for planning memory: exact up to the first
// ply with over 50,000 (counted here, in well under a second), then extrapolated with the
// last growth factor shrinking 5% a ply, as the start position's published counts do
// (growth 13.4, 11.4, 11.5, 10.2, 10.3, 9.3 from ply 4 on). From the start position it
// overestimates plies 5 to 7 by 1.1 to 1.3 times: a plan errs on the safe side.
std::vector<double> estimate_unique(const chess::Position& root, int max_ply);

// Bytes a rank gathers for the others before a round of exchange.
constexpr size_t DEDUP_ROUND_BYTES = size_t(32) << 20;

// Memory per unique position owned: a 64-byte slot at 3/4 load, and overflow links.
constexpr size_t DEDUP_BYTES_PER_POSITION = 100;

// How expand_and_route runs beside its plan.
struct RouteOptions {
  // Children of the last level in buckets b with skip[b] (done by an earlier run) are
  // dropped before routing; empty: none.
  std::vector<char> skip;
  // A rank sends once its buffers hold about this many bytes, so that memory for records
  // in flight stays bounded whatever the level's size.
  size_t round_bytes = DEDUP_ROUND_BYTES;
  std::function<void(const LevelTraffic&)> on_level;  // hears each level as it ends
  // Hear a level's expansion start (the ply it makes, the positions of the ply before it
  // this rank expands) and each position expanded: phase A's progress.
  std::function<void(int ply, uint64_t positions)> on_expand;
  std::function<void()> expanded;
  // Polled every round, on every rank or on none: when it is true on any rank, every
  // rank throws RoutingStopped after the same round.
  std::function<bool()> stop;
};

struct RoutingStopped {};

// Phase B's owners for buckets of these sizes (positions, summed over the ranks): bucket b
// on rank b % ranks, then whole buckets moved from the busiest rank to the idlest, the
// biggest that narrows their gap, until the busiest is within 1% of the mean or no move
// helps. Buckets are whole groups of one waiting side each (Bucketing), so a moved bucket
// takes its transpositions along. Why: the groups differ in size (cv 3.2 at ply 6 from the
// start position), and at 8 ranks ply 5's buckets left the busiest rank 11% over the mean.
// The same on every rank for the same sizes.
std::vector<uint32_t> balance_buckets(const std::vector<uint64_t>& sizes, int ranks);

// Collective over ex. Routes the units u with u % ex.size() == ex.rank() of plan (ply K =
// plan.split_depth) to their owners, then one level at a time expands the owned positions
// and routes their children, down to ply dedup_ply (K <= dedup_ply). Positions merge by
// their full code, never by a hash alone. Last, the buckets are balanced (balance_buckets)
// and the positions of moved buckets sent to their new owners: shard.owner says where
// each bucket is, and shard.buckets lists this rank's only.
DedupShard expand_and_route(const PerftPlan& plan, int dedup_ply, Exchange& ex, const RouteOptions& options = {});

}  // namespace chesshpc
