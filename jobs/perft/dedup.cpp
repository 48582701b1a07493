#include "jobs/perft/dedup.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <type_traits>
#include <utility>

#include "core/game.h"
#include "core/movegen.h"

namespace chesshpc {

using chess::Position;

namespace {

using Record = DedupRecord;
static_assert(std::is_trivially_copyable_v<Record>);

// Open addressing with linear probing over entry indices (0: empty slot), for both merges
// of phase A: node-based maps cost about 1.7 us per record there (5.4 s for perft(8)'s
// 3.1 million ply-5 records), mostly in allocation.
class SlotIndex {
 public:
  explicit SlotIndex(size_t capacity) { reset(capacity); }
  // The slot holding index + 1 of the entry at hash h that same(index) accepts, or the empty
  // slot where such an entry goes. The table must keep an empty slot.
  template <class Same>
  uint32_t& find(uint64_t h, Same same) {
    for (size_t i = size_t(h) & mask_;; i = (i + 1) & mask_) {
      uint32_t& slot = slots_[i];
      if (slot == 0 || same(slot - 1)) return slot;
    }
  }
  size_t capacity() const { return slots_.size(); }
  // Empty, with at least `capacity` slots (a power of two).
  void reset(size_t capacity) {
    slots_.assign(std::bit_ceil(std::max<size_t>(capacity, 16)), 0);
    mask_ = slots_.size() - 1;
  }

 private:
  std::vector<uint32_t> slots_;
  size_t mask_ = 0;
};

uint64_t rooted_hash(chess::Key key, uint16_t root) { return key ^ (uint64_t(root) * 0x9E3779B97F4A7C15ULL); }

// This rank's records not yet sent, merged by (position, root move); at most `limit`.
class PreMerge {
 public:
  explicit PreMerge(size_t limit) : index_(2 * limit), limit_(limit) {}
  bool full() const { return records_.size() >= limit_; }
  void add(const Position& pos, uint16_t root, uint64_t paths) {
    uint32_t& slot = index_.find(rooted_hash(pos.key(), root), [&](uint32_t i) {
      return records_[i].root == root && records_[i].pos.key() == pos.key() &&
             chess::same_position(records_[i].pos, pos);
    });
    if (slot) return void(records_[slot - 1].paths += paths);
    records_.push_back({pos, root, paths});
    slot = uint32_t(records_.size());
    if (2 * records_.size() >= index_.capacity()) rehash();
  }
  std::vector<Record> take() {
    index_.reset(index_.capacity());
    return std::exchange(records_, {});
  }

 private:
  void rehash() {
    index_.reset(2 * index_.capacity());
    for (uint32_t i = 0; i < records_.size(); ++i)
      index_.find(rooted_hash(records_[i].pos.key(), records_[i].root), [](uint32_t) { return false; }) = i + 1;
  }
  SlotIndex index_;
  std::vector<Record> records_;
  size_t limit_;
};

// The leaves of one unit, dedup_ply - split_depth plies below it, each with every path of
// the unit (a copy-make walk).
void expand(const Position& pos, int plies, const PerftUnit& unit, PreMerge& out) {
  if (plies == 0) {
    for (const auto& [root, paths] : unit.paths) out.add(pos, root, paths);
    return;
  }
  for (chess::Move m : chess::legal_moves(pos)) expand(pos.after(m), plies - 1, unit, out);
}

// The owner's side: records merged by position identity, each position's paths per root
// move a linked list until the shard is built.
class Merger {
 public:
  void add(const Record& r) {
    uint32_t& slot = index_.find(r.pos.key(), [&](uint32_t i) {
      return positions_[i].key() == r.pos.key() && chess::same_position(positions_[i], r.pos);
    });
    if (!slot) {
      positions_.push_back(r.pos), head_.push_back(NONE);
      slot = uint32_t(positions_.size());
      if (2 * positions_.size() >= index_.capacity()) rehash();
      return link(uint32_t(positions_.size() - 1), r);
    }
    for (uint32_t l = head_[slot - 1]; l != NONE; l = links_[l].next)
      if (links_[l].root == r.root) return void(links_[l].paths += r.paths);
    link(slot - 1, r);
  }
  void build(DedupShard& shard) {
    shard.positions = std::move(positions_);
    shard.path_begin.assign(1, 0);
    for (uint32_t head : head_) {
      for (uint32_t l = head; l != NONE; l = links_[l].next) shard.paths.push_back({links_[l].root, links_[l].paths});
      shard.path_begin.push_back(uint32_t(shard.paths.size()));
    }
  }

 private:
  static constexpr uint32_t NONE = ~uint32_t(0);
  struct Link {
    uint64_t paths;
    uint32_t next;
    uint16_t root;
  };
  void link(uint32_t position, const Record& r) {
    links_.push_back({r.paths, head_[position], r.root});
    head_[position] = uint32_t(links_.size() - 1);
  }
  void rehash() {
    index_.reset(2 * index_.capacity());
    for (uint32_t i = 0; i < positions_.size(); ++i)
      index_.find(positions_[i].key(), [](uint32_t) { return false; }) = i + 1;
  }
  SlotIndex index_{1 << 16};
  std::vector<Position> positions_;
  std::vector<uint32_t> head_;  // per position: its last link
  std::vector<Link> links_;
};

// One all-to-all round: the pre-merged records to their owners, theirs into the shard.
void route(PreMerge& pending, const std::vector<char>& skip, Exchange& ex, Merger& merger, DedupShard& shard) {
  const size_t ranks = size_t(ex.size());
  std::vector<Payload> to(ranks);
  for (const Record& r : pending.take()) {
    const size_t bucket = dedup_bucket(r.pos.key());
    if (!skip.empty() && skip[bucket]) continue;
    const char* bytes = reinterpret_cast<const char*>(&r);
    to[bucket % ranks].insert(to[bucket % ranks].end(), bytes, bytes + sizeof r);
    ++shard.records_sent;
  }
  for (const Payload& from : ex.all_to_all(std::move(to)))
    for (size_t at = 0; at + sizeof(Record) <= from.size(); at += sizeof(Record)) {
      Record r;
      std::memcpy(&r, from.data() + at, sizeof r);
      merger.add(r);
      ++shard.records_received;
    }
  ++shard.rounds;
}

}  // namespace

DedupShard expand_and_route(const PerftPlan& plan, int dedup_ply, Exchange& ex, const std::vector<char>& skip,
                            size_t round_records) {
  DedupShard shard;
  Merger merger;
  PreMerge pending(round_records);
  const size_t ranks = size_t(ex.size());
  size_t next = size_t(ex.rank());
  for (bool finished = false; !finished;) {
    for (; next < plan.units.size() && !pending.full(); next += ranks)
      expand(plan.units[next].pos, dedup_ply - plan.split_depth, plan.units[next], pending);
    const bool mine_done = next >= plan.units.size();
    route(pending, skip, ex, merger, shard);
    finished = ex.all(mine_done);
  }
  merger.build(shard);
  shard.buckets.resize(DEDUP_BUCKETS);
  for (size_t i = 0; i < shard.positions.size(); ++i)
    shard.buckets[dedup_bucket(shard.positions[i].key())].push_back(uint32_t(i));
  return shard;
}

}  // namespace chesshpc
