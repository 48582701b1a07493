#include "jobs/perft/dedup.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "core/movegen.h"

namespace chesshpc {

using chess::BoardCode;
using chess::Position;

// ---- DedupLevel ----

BoardCode waiting_side(const BoardCode& code) {
  const uint64_t occupied = code.q[0] | code.q[1] | code.q[2];
  const uint64_t waiting = code.state & 1 ? occupied & ~code.q[3] : code.q[3];
  BoardCode side;
  for (int k = 0; k < 3; ++k) side.q[k] = code.q[k] & waiting;
  side.q[3] = waiting;
  return side;
}

uint64_t placing_hash(const BoardCode& code, Bucketing by) {
  const uint64_t h = code.hash();
  if (by == Bucketing::Position) return h;
  constexpr uint64_t LOW = (uint64_t(1) << DEDUP_SLOT_BITS) - 1;
  return (waiting_side(code).hash() & ~LOW) | (h & LOW);
}

namespace {

// Slots for n positions at a load of at most 3/4, where linear probing stays short.
size_t slots_for(size_t n) { return std::max<size_t>(64, n + n / 3 + 1); }

}  // namespace

chess::LargePagesPtr<DedupLevel::Slot> DedupLevel::zeroed(size_t n) { return chess::allocate_zeroed<Slot>(n); }

DedupLevel::DedupLevel(size_t expected, int ranks, int rank, Bucketing by)
    : ranks_(size_t(ranks)), owned_((DEDUP_BUCKETS - size_t(rank) + size_t(ranks) - 1) / size_t(ranks)), by_(by) {
  set_slots(slots_for(expected));
}

void DedupLevel::set_slots(size_t n) {
  slots_ = zeroed(n);
  slot_count_ = n;
  scale_ = (uint64_t(n) << DEDUP_BUCKET_BITS) / owned_;
}

DedupLevel::Slot& DedupLevel::find(const BoardCode& code, uint64_t hash) {
  const size_t n = slot_count_;
  for (size_t i = home(hash);; i = i + 1 == n ? 0 : i + 1) {
    Slot& s = slots_[i];
    if (s.info == 0 || (s.q[0] == code.q[0] && s.q[1] == code.q[1] && s.q[2] == code.q[2] && s.q[3] == code.q[3] &&
                        s.state == code.state))
      return s;
  }
}

chess::BoardCode DedupLevel::code_of(const Slot& s) {
  chess::BoardCode c;
  std::memcpy(c.q, s.q, sizeof c.q);
  c.state = s.state;
  return c;
}

void DedupLevel::merge(Slot& s, unsigned root, uint64_t paths) {
  auto add_to = [paths](uint64_t& sum) {
    if (paths > MAX_PATHS - sum)
      throw std::overflow_error("perft dedup: over 2^64 paths from one root move to one position");
    sum += paths;
  };
  auto link = [&](uint64_t sum) {
    if (links_.size() >= NONE) throw std::length_error("perft dedup: over 4 billion overflow links on one rank");
    links_.push_back({sum, s.more, uint8_t(root)});
    s.more = uint32_t(links_.size() - 1);
  };
  const unsigned n = s.inline_roots();
  for (unsigned k = 0; k < n; ++k) {
    if (s.root[k] != root) continue;
    uint64_t sum = s.paths[k];
    add_to(sum);
    if (sum <= UINT32_MAX) {
      s.paths[k] = uint32_t(sum);
      return;
    }
    // Past 32 bits: the root move leaves the slot for a link, the last inline one takes its place.
    s.root[k] = s.root[n - 1], s.paths[k] = s.paths[n - 1];
    s.info = uint8_t(USED | (n - 1));
    return link(sum);
  }
  for (uint32_t l = s.more; l != NONE; l = links_[l].next)
    if (links_[l].root == root) return add_to(links_[l].paths);
  if (n < INLINE_ROOTS && paths <= UINT32_MAX) {
    s.root[n] = uint8_t(root), s.paths[n] = uint32_t(paths);
    s.info = uint8_t(USED | (n + 1));
  } else {
    link(paths);
  }
}

void DedupLevel::add(const BoardCode& code, uint64_t hash, std::span<const RootPath> roots) {
  Slot* s = &find(code, hash);
  if (s->info == 0) {
    if (4 * (used_ + 1) > 3 * slot_count_) {
      grow();
      s = &find(code, hash);
    }
    std::memcpy(s->q, code.q, sizeof s->q);
    s->state = code.state, s->more = NONE, s->info = USED;
    ++used_;
  }
  for (const auto& [root, paths] : roots) merge(*s, root, paths);
}

// Half as many slots again; the links stay where they are.
void DedupLevel::grow() {
  const size_t old_count = slot_count_;
  chess::LargePagesPtr<Slot> old = std::move(slots_);
  set_slots(old_count + old_count / 2);
  for (size_t i = 0; i < old_count; ++i)
    if (old[i].info) find(code_of(old[i]), hash(code_of(old[i]))) = old[i];
}

LevelTraffic DedupShard::total() const {
  LevelTraffic t;
  for (const LevelTraffic& l : traffic) {
    t.ply = l.ply, t.unique = l.unique, t.children += l.children;
    t.records_sent += l.records_sent, t.records_received += l.records_received;
    t.bytes_sent += l.bytes_sent, t.bytes_received += l.bytes_received;
    t.rounds += l.rounds, t.seconds += l.seconds, t.exchange_seconds += l.exchange_seconds;
    t.merge_seconds += l.merge_seconds;
  }
  return t;
}

namespace {

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// One level's routing on one rank: positions handed to route() go to their owners' next
// level, through per-rank byte buffers exchanged in rounds. A record on the wire: the
// code (34 bytes), the number of root moves n (1 byte), then n times a root move (1 byte)
// and its paths (8 bytes). Positions come in groups (a parent's children, a batch of
// received records) whose slots are prefetched together before any is merged.
class Router {
 public:
  static constexpr size_t GROUP = 256;  // at most; more than any position's legal moves

  // A round ends once this rank holds about round_bytes for the others.
  // With owners, bucket b goes to rank (*owners)[b], not b % ranks.
  Router(Exchange& ex, DedupLevel& next, const std::vector<char>* skip, LevelTraffic& t, const RouteOptions& options,
         const std::vector<uint32_t>* owners = nullptr)
      : ex_(ex),
        next_(next),
        skip_(skip),
        owners_(owners),
        t_(t),
        round_bytes_(options.round_bytes),
        stop_(options.stop),
        to_(size_t(ex.size())) {}

  // codes[i] for i < n (n <= GROUP), each with the same paths.
  void route(const BoardCode* codes, size_t n, std::span<const RootPath> roots) {
    const size_t ranks = to_.size(), me = size_t(ex_.rank());
    t_.children += n;
    uint64_t hash[GROUP];
    uint16_t owner[GROUP];
    for (size_t i = 0; i < n; ++i) {
      hash[i] = next_.hash(codes[i]);
      const size_t bucket = dedup_bucket(hash[i]);
      owner[i] = skip_ && (*skip_)[bucket] ? uint16_t(0xFFFF)
                 : owners_                 ? uint16_t((*owners_)[bucket])
                                           : uint16_t(bucket % ranks);
      if (owner[i] == me) next_.prefetch(hash[i]);
    }
    for (size_t i = 0; i < n; ++i)
      if (owner[i] == me)
        next_.add(codes[i], hash[i], roots);
      else if (owner[i] != 0xFFFF)
        send(codes[i], roots, owner[i]);
  }
  bool full() const { return pending_ >= round_bytes_; }

  // One round: every rank's block to its owner, what came here merged. Returns whether
  // every rank said it was done.
  bool exchange(bool mine_done) {
    const auto t0 = std::chrono::steady_clock::now();
    gather();
    ex_.all_to_all(out_, in_);
    const bool done = ex_.all(mine_done);
    if (stop_ && !ex_.all(!stop_())) throw RoutingStopped();
    t_.exchange_seconds += since(t0);
    ++t_.rounds;
    const auto t1 = std::chrono::steady_clock::now();
    for (size_t r = 0; r < in_.at.size(); ++r)
      merge(reinterpret_cast<const unsigned char*>(in_.bytes.data() + in_.at[r]), in_.size[r]);
    t_.merge_seconds += since(t1);
    return done;
  }

 private:
  void send(const BoardCode& code, std::span<const RootPath> roots, size_t rank) {
    Payload& to = to_[rank];
    const size_t at = to.size();
    to.resize(at + BoardCode::BYTES + 1 + 9 * roots.size());
    unsigned char* p = reinterpret_cast<unsigned char*>(to.data() + at);
    code.write(p);
    p += BoardCode::BYTES;
    *p++ = uint8_t(roots.size());
    for (const auto& [root, paths] : roots) {
      *p++ = root;
      std::memcpy(p, &paths, 8);
      p += 8;
    }
    pending_ += to.size() - at;
    ++t_.records_sent;
  }

  // The per-rank buffers into one block each of out_; all keep their memory for the next
  // round (fresh buffers each round cost page faults: 2 s a gigabyte in a VM here).
  void gather() {
    out_.at.assign(to_.size(), 0), out_.size.assign(to_.size(), 0);
    if (out_.bytes.size() < pending_) out_.bytes.resize(pending_);
    size_t at = 0;
    for (size_t r = 0; r < to_.size(); ++r) {
      std::copy(to_[r].begin(), to_[r].end(), out_.bytes.begin() + long(at));
      out_.at[r] = at, out_.size[r] = to_[r].size(), at += to_[r].size();
      to_[r].clear();
    }
    t_.bytes_sent += pending_;
    pending_ = 0;
  }

  // Received records in batches: parsed and prefetched, then merged.
  void merge(const unsigned char* p, size_t bytes) {
    t_.bytes_received += bytes;
    const unsigned char* end = p + bytes;
    constexpr size_t BATCH = 128;
    BoardCode codes[BATCH];
    uint64_t hash[BATCH];
    size_t begin[BATCH + 1];
    while (p < end) {
      size_t n = 0;
      roots_.clear();
      for (; n < BATCH && p < end; ++n) {
        if (end - p < ptrdiff_t(BoardCode::BYTES + 1)) throw std::runtime_error("perft dedup: a truncated record");
        codes[n] = BoardCode::read(p);
        const unsigned k = p[BoardCode::BYTES];
        p += BoardCode::BYTES + 1;
        if (end - p < ptrdiff_t(9 * k)) throw std::runtime_error("perft dedup: a truncated record");
        begin[n] = roots_.size();
        for (unsigned i = 0; i < k; ++i, p += 9) {
          uint64_t paths;
          std::memcpy(&paths, p + 1, 8);
          roots_.push_back({p[0], paths});
        }
        hash[n] = next_.hash(codes[n]);
        next_.prefetch(hash[n]);
      }
      begin[n] = roots_.size();
      for (size_t i = 0; i < n; ++i)
        next_.add(codes[i], hash[i], std::span<const RootPath>(roots_.data() + begin[i], begin[i + 1] - begin[i]));
      t_.records_received += n;
    }
  }

  Exchange& ex_;
  DedupLevel& next_;
  const std::vector<char>* skip_;
  const std::vector<uint32_t>* owners_;
  LevelTraffic& t_;
  size_t round_bytes_, pending_ = 0;
  const std::function<bool()>& stop_;
  std::vector<Payload> to_;  // per rank, this round's records
  Blocks out_, in_;
  RootPaths roots_;  // of the batch being merged
};

// Every child of pos, each with the paths of pos.
template <chess::Color Us>
void route_children(const Position& pos, const RootPaths& roots, Router& router) {
  BoardCode children[Router::GROUP];
  size_t n = 0;
  auto play = [&](chess::Square from, chess::Square to, chess::PieceType pt, chess::MoveKind kind,
                  chess::PieceType promo) {
    if (n == Router::GROUP) throw std::length_error("perft dedup: a position with over 256 legal moves");
    Position child = pos;
    child.apply<Us, false>(from, to, pt, kind, promo);
    children[n++] = chess::encode(child);
  };
  chess::PlaySink<decltype(play)> sink{play};
  chess::generate_legal<Us>(pos, sink);
  router.route(children, n, roots);
}

// Feeds router from source(i) for i < n, in rounds, until every rank is done with its own.
template <class Source>
void run_level(size_t n, Source source, Router& router) {
  size_t i = 0;
  for (bool finished = false; !finished;) {
    while (i < n && !router.full()) source(i++);
    finished = router.exchange(i >= n);
  }
}

// Level K: this rank's share of the plan's units, to their owners.
void seed(const PerftPlan& plan, Router& router, const Exchange& ex) {
  const size_t ranks = size_t(ex.size()), mine = (plan.units.size() + ranks - 1 - size_t(ex.rank())) / ranks;
  RootPaths roots;
  run_level(
      mine,
      [&](size_t i) {
        const PerftUnit& unit = plan.units[i * ranks + size_t(ex.rank())];
        roots.clear();
        for (const auto& [root, paths] : unit.paths) roots.push_back({uint8_t(root), paths});
        const BoardCode code = chess::encode(unit.pos);
        router.route(&code, 1, roots);
      },
      router);
}

// The next level from the positions of `level`; expanded() after each.
void expand(const DedupLevel& level, const chess::CastlingSetup& setup, Router& router,
            const std::function<void()>& expanded) {
  RootPaths roots;
  run_level(
      level.slots(),
      [&](size_t i) {
        if (!level.used(i)) return;
        if (expanded) expanded();
        roots.clear();
        level.for_each_path(i, [&](unsigned root, uint64_t paths) { roots.push_back({uint8_t(root), paths}); });
        const Position pos = chess::decode(level.code(i), false, setup);
        if (pos.side_to_move() == chess::WHITE)
          route_children<chess::WHITE>(pos, roots, router);
        else
          route_children<chess::BLACK>(pos, roots, router);
      },
      router);
}

// This rank's bucket lists: its used slots by bucket, for the buckets it owns.
void list_buckets(DedupShard& shard, int rank) {
  shard.buckets.assign(DEDUP_BUCKETS, {});
  for (size_t i = 0; i < shard.level.slots(); ++i) {
    if (!shard.level.used(i)) continue;
    const size_t b = dedup_bucket(shard.level.hash(shard.level.code(i)));
    if (shard.owner[b] == uint32_t(rank)) shard.buckets[b].push_back(uint32_t(i));
  }
}

// Collective: every rank's bucket sizes summed, the owners balanced, and the positions of
// buckets that changed owner sent there, in rounds (the level's own routing, over the
// owners). Moved positions stay in the old owner's table, unlisted.
void rebalance(DedupShard& shard, Exchange& ex, const RouteOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  Payload mine(DEDUP_BUCKETS * sizeof(uint64_t));
  for (size_t b = 0; b < DEDUP_BUCKETS; ++b) {
    const uint64_t n = shard.buckets[b].size();
    std::memcpy(mine.data() + b * sizeof n, &n, sizeof n);
  }
  std::vector<uint64_t> sizes(DEDUP_BUCKETS, 0);
  for (const Payload& from : ex.all_to_all(std::vector<Payload>(size_t(ex.size()), mine)))
    for (size_t b = 0; b < DEDUP_BUCKETS && from.size() == mine.size(); ++b) {
      uint64_t n;
      std::memcpy(&n, from.data() + b * sizeof n, sizeof n);
      sizes[b] += n;
    }
  shard.owner = balance_buckets(sizes, ex.size());
  std::vector<BoardCode> codes;  // the positions leaving, with their paths
  RootPaths roots;
  std::vector<size_t> begin{0};
  for (size_t b = 0; b < DEDUP_BUCKETS; ++b) {
    if (shard.owner[b] == uint32_t(ex.rank())) continue;
    for (const uint32_t slot : shard.buckets[b]) {
      codes.push_back(shard.level.code(slot));
      shard.level.for_each_path(slot, [&](unsigned root, uint64_t paths) { roots.push_back({uint8_t(root), paths}); });
      begin.push_back(roots.size());
    }
  }
  LevelTraffic& t = shard.traffic.back();
  Router router(ex, shard.level, nullptr, t, options, &shard.owner);
  run_level(
      codes.size(),
      [&](size_t i) {
        router.route(&codes[i], 1, std::span<const RootPath>(roots.data() + begin[i], begin[i + 1] - begin[i]));
      },
      router);
  t.children -= codes.size();  // moved, not generated
  list_buckets(shard, ex.rank());
  t.seconds += since(t0);
}

}  // namespace

std::vector<uint32_t> balance_buckets(const std::vector<uint64_t>& sizes, int ranks) {
  const size_t n = sizes.size(), p = size_t(ranks);
  std::vector<uint32_t> owner(n);
  std::vector<uint64_t> load(p, 0);
  for (size_t b = 0; b < n; ++b) owner[b] = uint32_t(b % p), load[b % p] += sizes[b];
  const double mean = double(std::accumulate(sizes.begin(), sizes.end(), uint64_t(0))) / double(p);
  for (size_t moves = 0; moves < n; ++moves) {
    const size_t busiest = size_t(std::max_element(load.begin(), load.end()) - load.begin());
    const size_t idlest = size_t(std::min_element(load.begin(), load.end()) - load.begin());
    if (double(load[busiest]) <= 1.01 * mean) break;
    // The biggest bucket of the busiest rank at most half the gap: both ranks end at
    // most where the busiest was.
    const uint64_t half_gap = (load[busiest] - load[idlest]) / 2;
    size_t best = n;
    for (size_t b = 0; b < n; ++b)
      if (owner[b] == busiest && sizes[b] > 0 && sizes[b] <= half_gap && (best == n || sizes[b] > sizes[best]))
        best = b;
    if (best == n) break;
    owner[best] = uint32_t(idlest), load[busiest] -= sizes[best], load[idlest] += sizes[best];
  }
  return owner;
}

std::vector<double> estimate_unique(const Position& root, int max_ply) {
  std::vector<double> unique{1};
  for (int ply = 1; ply <= max_ply && unique.back() <= 50000; ++ply)
    unique.push_back(double(plan_units(root, ply + 1, ply).units.size()));
  const size_t exact = unique.size();
  double growth = exact >= 2 && unique[exact - 2] > 0 ? unique[exact - 1] / unique[exact - 2] : 1;
  for (int ply = int(exact); ply <= max_ply; ++ply) {
    growth *= 0.95;
    unique.push_back(unique.back() * growth);
  }
  return unique;
}

DedupShard expand_and_route(const PerftPlan& plan, int dedup_ply, Exchange& ex, const RouteOptions& options) {
  if (plan.root_moves.size() > 256) throw std::length_error("perft dedup: more than 256 root moves");
  const std::vector<char>* last_skip = options.skip.empty() ? nullptr : &options.skip;
  DedupShard shard;
  DedupLevel current;
  // The next level's size, guessed from the last growth (at first: 20 moves a position,
  // no transpositions), shared out over the ranks; a wrong guess costs a rehash or memory.
  double growth = 20, expected = double(plan.units.size()) / ex.size();
  for (int ply = plan.split_depth; ply <= dedup_ply; ++ply) {
    const auto t0 = std::chrono::steady_clock::now();
    LevelTraffic t;
    t.ply = ply;
    if (ply > plan.split_depth) expected = double(current.size()) * growth * 1.1;
    DedupLevel next{size_t(expected), ex.size(), ex.rank(),
                    ply == dedup_ply ? Bucketing::WaitingSide : Bucketing::Position};
    Router router(ex, next, ply == dedup_ply ? last_skip : nullptr, t, options);
    if (ply == plan.split_depth)
      seed(plan, router, ex);
    else {
      if (options.on_expand) options.on_expand(ply, current.size());
      expand(current, plan.root.castling_setup(), router, options.expanded);
    }
    if (ply > plan.split_depth && current.size()) growth = double(next.size()) / double(current.size());
    current = std::move(next);
    t.unique = current.size(), t.seconds = since(t0);
    shard.traffic.push_back(t);
    if (options.on_level) options.on_level(t);
  }
  shard.level = std::move(current);
  shard.owner.resize(DEDUP_BUCKETS);
  for (size_t b = 0; b < DEDUP_BUCKETS; ++b) shard.owner[b] = uint32_t(b % size_t(ex.size()));
  list_buckets(shard, ex.rank());
  if (ex.size() > 1) rebalance(shard, ex, options);
  return shard;
}

}  // namespace chesshpc
