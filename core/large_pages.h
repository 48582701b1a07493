// Memory for hash tables: aligned to 2 MB and marked for transparent huge pages where
// the table spans at least one, because a table probed at random in 4 KB pages misses
// the TLB on nearly every probe and pays a page walk on top of the cache miss.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <memory>

namespace chess {

// Unmaps what allocate_large_pages(bytes) returned; knows its size, as munmap must.
struct LargePagesFree {
  size_t bytes = 0;
  void operator()(void* p) const;
};

// The bytes a table of bucket-byte buckets asked for bytes holds: the largest power-of-two
// number of buckets that fits in bytes (at least one), so that a key's low bits index it.
// PerftTable and SearchTT allocate this, and what a run reports as its table is this.
constexpr size_t table_bytes(size_t bytes, size_t bucket) {
  return bucket * std::bit_floor(std::max<size_t>(bytes / bucket, 1));
}

// At least bytes of zeroed memory, aligned to 64 bytes (to 2 MB from 2 MB on), fresh from
// the kernel: its pages are faulted in by whichever thread first touches them, so a
// table needs no clearing pass before its first use. Throws std::bad_alloc.
void* allocate_large_pages(size_t bytes);

template <typename T>
using LargePagesPtr = std::unique_ptr<T[], LargePagesFree>;

// n Ts as zero bytes, not constructed: for tables whose all-zero bytes are their empty
// value (plain integers, std::atomic<uint64_t>), which would gain nothing from a pass
// that constructs them but faulting every page in at once.
template <typename T>
LargePagesPtr<T> allocate_zeroed(size_t n) {
  return LargePagesPtr<T>(static_cast<T*>(allocate_large_pages(n * sizeof(T))), LargePagesFree{n * sizeof(T)});
}

}  // namespace chess
