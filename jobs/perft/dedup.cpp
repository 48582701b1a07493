#include "jobs/perft/dedup.h"

#include <cstring>
#include <type_traits>
#include <unordered_map>

#include "core/game.h"
#include "core/movegen.h"

namespace chesshpc {

using chess::Position;

namespace {

using Record = DedupRecord;
static_assert(std::is_trivially_copyable_v<Record>);

struct PositionHash {
  size_t operator()(const Position& p) const { return size_t(p.key()); }
};
struct SamePosition {
  bool operator()(const Position& a, const Position& b) const { return chess::same_position(a, b); }
};

struct RootedPosition {
  Position pos;
  uint16_t root;
};
struct RootedHash {
  size_t operator()(const RootedPosition& r) const { return size_t(r.pos.key() ^ (uint64_t(r.root) << 48)); }
};
struct SameRooted {
  bool operator()(const RootedPosition& a, const RootedPosition& b) const {
    return a.root == b.root && chess::same_position(a.pos, b.pos);
  }
};

// The records of this rank's units not yet sent, merged by (position, root move).
using PreMerge = std::unordered_map<RootedPosition, uint64_t, RootedHash, SameRooted>;

void expand(const Position& pos, int plies, const PerftUnit& unit, PreMerge& out) {
  if (plies == 0) {
    for (const auto& [root, paths] : unit.paths) out[{pos, root}] += paths;
    return;
  }
  for (chess::Move m : chess::legal_moves(pos)) expand(pos.after(m), plies - 1, unit, out);
}

// The owner's side: records merged into the shard by position identity.
class Merger {
 public:
  explicit Merger(DedupShard& shard) : shard_(shard) {}
  void add(const Record& r) {
    auto [it, fresh] = index_.try_emplace(r.pos, uint32_t(shard_.positions.size()));
    if (fresh) shard_.positions.push_back(r.pos), shard_.paths.emplace_back();
    auto& paths = shard_.paths[it->second];
    for (auto& p : paths)
      if (p.first == r.root) return void(p.second += r.paths);
    paths.push_back({r.root, r.paths});
  }

 private:
  DedupShard& shard_;
  std::unordered_map<Position, uint32_t, PositionHash, SamePosition> index_;
};

// One all-to-all round: the pre-merged records to their owners, theirs into the shard.
void route(PreMerge& pending, const std::vector<char>& skip, Exchange& ex, Merger& merger, DedupShard& shard) {
  const size_t ranks = size_t(ex.size());
  std::vector<Payload> to(ranks);
  for (const auto& [key, paths] : pending) {
    const size_t bucket = dedup_bucket(key.pos.key());
    if (!skip.empty() && skip[bucket]) continue;
    Record r{key.pos, key.root, paths};
    Payload& p = to[bucket % ranks];
    ++shard.records_sent;
    const char* bytes = reinterpret_cast<const char*>(&r);
    p.insert(p.end(), bytes, bytes + sizeof r);
  }
  pending.clear();
  for (const Payload& from : ex.all_to_all(std::move(to)))
    for (size_t at = 0; at + sizeof(Record) <= from.size(); at += sizeof(Record)) {
      Record r;
      std::memcpy(&r, from.data() + at, sizeof r);
      merger.add(r);
    }
  ++shard.rounds;
}

}  // namespace

DedupShard expand_and_route(const PerftPlan& plan, int dedup_ply, Exchange& ex, const std::vector<char>& skip,
                            size_t round_records) {
  DedupShard shard;
  Merger merger(shard);
  PreMerge pending;
  const size_t ranks = size_t(ex.size());
  size_t next = size_t(ex.rank());
  for (bool finished = false; !finished;) {
    for (; next < plan.units.size() && pending.size() < round_records; next += ranks)
      expand(plan.units[next].pos, dedup_ply - plan.split_depth, plan.units[next], pending);
    const bool mine_done = next >= plan.units.size();
    route(pending, skip, ex, merger, shard);
    finished = ex.all(mine_done);
  }
  shard.buckets.resize(DEDUP_BUCKETS);
  for (size_t i = 0; i < shard.positions.size(); ++i)
    shard.buckets[dedup_bucket(shard.positions[i].key())].push_back(uint32_t(i));
  return shard;
}

}  // namespace chesshpc
