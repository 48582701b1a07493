// The transposition table of hashed perft: subtree counts by position key and depth,
// shared by all threads of a process without locks, in two parts; a probe reads one
// 64-byte bucket (one cache line) of one part.
//
// The narrow part (3/4 of the table or more) holds the subtrees of depth 2, most of what is
// stored and probed (perft(10) of the start position stores 988 M of them against 106 M
// deeper), in 8-byte entries, eight a bucket: the key's low 48 bits and the count in one
// word, which a thread stores and loads whole, so no entry is ever read torn. A key's
// bucket is the high part of key * buckets (any number of buckets, so that the part
// fills what the wide one leaves): the keys of one bucket are a run of consecutive keys,
// 2^48 of them at most from 2^16 buckets on, and two keys with the same low 48 bits are
// a multiple of 2^48 apart, so from 2^16 buckets (a narrow part of 4 MB, tables of 8 MB
// on) no two keys of one bucket share their low 48 bits: the bucket and the 48 bits are
// the whole key, and a false hit needs two positions with the same 64-bit key, as in the
// wide part (eight entries, not four: one in 2^61 a probe). In a smaller table a miss
// meets another key's low 48 bits with a chance of at most 8 in 2^48 (its bucket's eight
// entries). A depth-2 count fits the 16 bits in any legal position (at most 218 moves a
// position, 218^2 < 2^16 - 1); a larger one is not stored (it is counted again). Depth 3
// would leave 39 key bits beside its 24-bit count: a whole key only from 2^25 buckets
// (2 GB), and a chance of 8 in 2^39 a probe below that.
//
// The wide part (a power of two of buckets, at most 1/4 of the table) holds the deeper
// subtrees, with the whole 64-bit key stored XORed with its data word (Hyatt's lockless
// scheme): an entry torn by two threads writing at once fails the check and is a miss,
// never a hit. A false hit needs two positions with the same 64-bit key in the same bucket
// at the same depth: about one in 2^62 per probe, or one in four million over a trillion
// probes.
//
// Replacement. A bucket keeps its entries in order of arrival, newest first: a store
// shifts the entries below its victim down one place and writes the new entry first. The
// narrow part drops its oldest entry; the wide part the oldest of its shallowest (a
// deeper subtree costs more to count again). Most transpositions swap moves a few plies
// apart, so a depth-first walk meets them soon after the first visit: recent entries are
// the ones probed again. The rule before this one kept each narrow bucket's largest counts
// and the wide part's first entry of the smallest depth, so old entries stayed for good and
// new ones took turns in one slot. Start-position perft(9), 2 threads, user time (medians of
// 2, interleaved; 2026-12-05): 1 GB 53.1 -> 48.9 s, 512 MB 62.3 -> 57.9 s; the narrow rule
// alone gave 50.3 s and 59.8 s, newest-four-plus-largest-four 52.1 s and 63.4 s, and
// moving a narrow hit to the front as well 50.7 s and 59.5 s (against 49.3 s and 56.9 s
// without, in the same series). A thread that reads a bucket while another shifts it may
// see an entry twice or miss one: a miss costs a recount, and no word is ever read torn (a
// wide entry's two words then disagree, which its check rejects).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>

#include "core/large_pages.h"
#include "core/types.h"

namespace chess {

// The table's probing, over memory it does not own: trivially copyable, so that a copy
// of the kernel compiled for another instruction set (core/perft_x86_64_v3.cpp) can take
// a PerftTable's view by value, as it takes a Position.
class PerftTableView {
 public:
  bool probe(Key key, int depth, uint64_t& count) const;
  void store(Key key, int depth, uint64_t count);
  // Starts loading the bucket of (key, depth) into the cache: a probe of it that follows
  // other work (making the siblings, prefetching theirs) then finds it there instead of
  // in memory.
  void prefetch(Key key, int depth) const {
    if (depth == NARROW_DEPTH)
      __builtin_prefetch(&narrow_bucket(key));
    else
      __builtin_prefetch(&wide_[key & wide_mask_]);
  }
  size_t bytes() const { return (wide_mask_ + 1 + narrow_buckets_) * 64; }

 protected:
  static constexpr int NARROW_DEPTH = 2;  // the deepest subtree the narrow part holds
  static constexpr int WIDE_SHARE = 4;    // the wide part's buckets: at most 1 in WIDE_SHARE
  // Narrow word: tag (the key's low 48 bits) << 16 | count + 1, so that an empty
  // (all-zero) entry has count field 0, below every stored one.
  static constexpr int COUNT_BITS = 16;
  static constexpr uint64_t COUNT_MASK = (uint64_t(1) << COUNT_BITS) - 1;
  static constexpr uint64_t MAX_WIDE_COUNT = (uint64_t(1) << 56) - 1;  // the count shares a word with the depth
  struct Entry {
    std::atomic<uint64_t> check{0};  // key ^ data
    std::atomic<uint64_t> data{0};   // count << 8 | depth; depth 0 marks an empty entry
  };
  struct alignas(64) WideBucket {
    Entry entries[4];
  };
  struct alignas(64) NarrowBucket {
    std::atomic<uint64_t> entries[8];
  };
  static_assert(sizeof(WideBucket) == 64 && sizeof(NarrowBucket) == 64);

  NarrowBucket& narrow_bucket(Key key) const {
    return narrow_[uint64_t((unsigned __int128)key * narrow_buckets_ >> 64)];
  }
  // What a narrow entry of key holds above its count. A tag of 0 would match an empty
  // entry: probe and store skip those keys, one in 2^48.
  static uint64_t narrow_tag(Key key) { return key << COUNT_BITS >> COUNT_BITS; }

  WideBucket* wide_ = nullptr;
  size_t wide_mask_ = 0;
  NarrowBucket* narrow_ = nullptr;
  uint64_t narrow_buckets_ = 0;
};

class PerftTable : public PerftTableView {
 public:
  // Uses size_for(bytes) bytes: the wide part the largest power-of-two number of 64-byte
  // buckets up to a quarter of them (at least one), the narrow part the rest (at least
  // one); on huge pages where the system offers them: fresh mappings, empty without a
  // clearing pass (their pages are first touched by the threads that store into them).
  explicit PerftTable(size_t bytes);
  // The bytes a table asked for bytes allocates (bytes() of PerftTable(bytes)): bytes
  // rounded down to whole 2 MB (huge pages) from 2 MB on, below that to a power of two of
  // at least 128. Any size, not a power of two: perft(10)'s depth-2 subtrees want a
  // narrow part between 6 and 8 GB (bench/README.md), where the next power of two
  // up would double the memory a run first touches.
  static constexpr size_t size_for(size_t bytes);
  const PerftTableView& view() const { return *this; }

 private:
  LargePagesPtr<WideBucket> wide_memory_;
  LargePagesPtr<NarrowBucket> narrow_memory_;
};

constexpr size_t PerftTable::size_for(size_t bytes) {
  constexpr size_t HUGE_PAGE = size_t(2) << 20;
  return bytes >= HUGE_PAGE ? bytes / HUGE_PAGE * HUGE_PAGE : table_bytes(std::max<size_t>(bytes, 128), 64);
}

// Inline: the kernel's copy for x86-64-v3 compiles its own.
inline bool PerftTableView::probe(Key key, int depth, uint64_t& count) const {
  if (depth == NARROW_DEPTH) {
    const uint64_t want = narrow_tag(key);
    if (!want) return false;
    for (const std::atomic<uint64_t>& e : narrow_bucket(key).entries) {
      const uint64_t w = e.load(std::memory_order_relaxed);
      if ((w >> COUNT_BITS) == want) {
        count = (w & COUNT_MASK) - 1;
        return true;
      }
    }
    return false;
  }
  const WideBucket& b = wide_[key & wide_mask_];
  for (const Entry& e : b.entries) {
    uint64_t data = e.data.load(std::memory_order_relaxed);
    if ((e.check.load(std::memory_order_relaxed) ^ data) == key && int(data & 0xFF) == depth) {
      count = data >> 8;
      return true;
    }
  }
  return false;
}

inline void PerftTableView::store(Key key, int depth, uint64_t count) {
  if (depth == NARROW_DEPTH) {
    const uint64_t want = narrow_tag(key);
    if (!want || count >= COUNT_MASK) return;
    // Keep the eight newest (see "Replacement" above): the oldest drops off the end.
    std::atomic<uint64_t>* e = narrow_bucket(key).entries;
    for (int i = int(std::extent_v<decltype(NarrowBucket::entries)>) - 1; i > 0; --i)
      e[i].store(e[i - 1].load(std::memory_order_relaxed), std::memory_order_relaxed);
    e[0].store(want << COUNT_BITS | (count + 1), std::memory_order_relaxed);
    return;
  }
  if (count > MAX_WIDE_COUNT) return;
  // Drop the oldest of the shallowest entries (see "Replacement" above), and put the new
  // one first.
  Entry* e = wide_[key & wide_mask_].entries;
  constexpr int LAST = int(std::extent_v<decltype(WideBucket::entries)>) - 1;
  int victim = LAST, victim_depth = 256;
  for (int i = LAST; i >= 0; --i) {
    const int d = int(e[i].data.load(std::memory_order_relaxed) & 0xFF);
    if (d < victim_depth) victim = i, victim_depth = d;
  }
  for (int i = victim; i > 0; --i) {
    e[i].data.store(e[i - 1].data.load(std::memory_order_relaxed), std::memory_order_relaxed);
    e[i].check.store(e[i - 1].check.load(std::memory_order_relaxed), std::memory_order_relaxed);
  }
  const uint64_t data = count << 8 | uint64_t(depth);
  e[0].data.store(data, std::memory_order_relaxed);
  e[0].check.store(key ^ data, std::memory_order_relaxed);
}

}  // namespace chess
