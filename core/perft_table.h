// The transposition table of hashed perft: subtree counts by position key and depth,
// shared by all threads of a process without locks.
//
// A wrong hit would be a silently wrong count, so an entry keeps the whole 64-bit key,
// and stores it XORed with its data word (Hyatt's lockless scheme): an entry torn by two
// threads writing at once fails the check and is a miss, never a hit. A false hit needs
// two positions with the same 64-bit key in the same bucket at the same depth: about one
// in 2^62 per probe, or one in four million over a trillion probes.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/large_pages.h"
#include "core/types.h"

namespace chess {

class PerftTable {
 public:
  // Uses the largest power-of-two number of 64-byte buckets that fits in bytes (at least
  // one), on huge pages where the system offers them: a fresh mapping, empty without a
  // clearing pass (its pages are first touched by the threads that store into them).
  explicit PerftTable(size_t bytes);
  // The bytes a table asked for bytes allocates (bytes() of PerftTable(bytes)).
  static constexpr size_t size_for(size_t bytes);

  bool probe(Key key, int depth, uint64_t& count) const;
  void store(Key key, int depth, uint64_t count);
  // Starts loading key's bucket into the cache: a probe of it that follows other work
  // (the subtrees of the earlier siblings) then finds it there instead of in memory.
  void prefetch(Key key) const { __builtin_prefetch(&buckets_[key & mask_]); }
  size_t bytes() const { return (mask_ + 1) * sizeof(Bucket); }

 private:
  static constexpr uint64_t MAX_COUNT = (uint64_t(1) << 56) - 1;  // the count shares a word with the depth
  struct Entry {
    std::atomic<uint64_t> check{0};  // key ^ data
    std::atomic<uint64_t> data{0};   // count << 8 | depth; depth 0 marks an empty entry
  };
  struct alignas(64) Bucket {
    Entry entries[4];
  };

  LargePagesPtr<Bucket> buckets_;
  size_t mask_;
};

constexpr size_t PerftTable::size_for(size_t bytes) { return table_bytes(bytes, sizeof(Bucket)); }

}  // namespace chess
