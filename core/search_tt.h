// The search's transposition table: one per Search, never shared between threads, so
// entries need no atomics and a search's node count depends only on its own history.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/large_pages.h"
#include "core/types.h"

namespace chess {

enum Bound : uint8_t { BOUND_NONE, BOUND_UPPER, BOUND_LOWER, BOUND_EXACT = BOUND_UPPER | BOUND_LOWER };

struct TTEntry {
  Key key;
  Move move;
  int16_t score;  // mate scores relative to this node (see score_to_tt)
  int16_t eval;
  uint8_t depth;
  uint8_t gen_bound;  // generation in bits 2-7, bound in bits 0-1

  Bound bound() const { return Bound(gen_bound & 3); }
};

class SearchTT {
 public:
  explicit SearchTT(size_t bytes = size_t(16) << 20) { resize(bytes); }

  // Rounds down to a power of two number of buckets (at least one: size_for) and clears.
  void resize(size_t bytes);
  // The bytes a table asked for bytes allocates (bytes() after resize(bytes)).
  static constexpr size_t size_for(size_t bytes);
  void clear();
  // Ages the entries of earlier searches, so that they are replaced first.
  void new_search() { generation_ = uint8_t(generation_ + 4); }

  // Starts loading key's bucket into the cache, ahead of the probe.
  void prefetch(Key key) const { __builtin_prefetch(&bucket(key)); }
  // The entry for key, or nullptr.
  const TTEntry* probe(Key key) const;
  void store(Key key, int score, int eval, Bound bound, int depth, Move m);

  // Per mille of a sample of entries written by the current search (UCI hashfull).
  int hashfull() const;
  size_t bytes() const { return buckets_ * sizeof(Bucket); }

 private:
  static constexpr int WAYS = 4;
  struct alignas(64) Bucket {
    TTEntry entry[WAYS];
  };
  Bucket& bucket(Key key) const { return table_[key & (buckets_ - 1)]; }

  LargePagesPtr<Bucket> table_;
  size_t buckets_ = 0;
  uint8_t generation_ = 0;
};

constexpr size_t SearchTT::size_for(size_t bytes) { return table_bytes(bytes, sizeof(Bucket)); }

}  // namespace chess
