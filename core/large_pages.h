// Memory for hash tables: aligned to 2 MB and marked for transparent huge pages where
// the table spans at least one, because a table probed at random in 4 KB pages misses
// the TLB on nearly every probe and pays a page walk on top of the cache miss.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <memory>

namespace chess {

struct LargePagesFree {
  void operator()(void* p) const;
};

// The bytes a table of bucket-byte buckets asked for bytes holds: the largest power-of-two
// number of buckets that fits in bytes (at least one), so that a key's low bits index it.
// PerftTable and SearchTT allocate this, and what a run reports as its table is this.
constexpr size_t table_bytes(size_t bytes, size_t bucket) {
  return bucket * std::bit_floor(std::max<size_t>(bytes / bucket, 1));
}

// Uninitialised memory of at least bytes; throws std::bad_alloc.
void* allocate_large_pages(size_t bytes);

template <typename T>
using LargePagesPtr = std::unique_ptr<T[], LargePagesFree>;

}  // namespace chess
