#include "core/perft_table.h"

#include <bit>

#include "core/large_pages.h"

namespace chess {

// The table's parts are fresh anonymous mappings, which the kernel hands out zeroed, and
// an all-zero entry is empty (a wide entry of depth 0, a narrow one of count field 0):
// nothing clears them, and their pages are faulted in by the counting threads where they
// first store, spread over them, and only the pages a run touches. Here (a VM with 2
// cores, transparent huge pages on madvise; 2026-12-01) `perft --depth 1 --hash 8G`,
// which stores nothing, took 0.42-37 s (median 2.7 s of 6, up to 33 s of system time)
// when the constructor cleared the table in parallel, and takes 0.01-0.04 s without the
// clear. A page fault's cost is the hypervisor's: 1 GB touched in 2 MB pages took
// 0.08-0.15 s where the host still backed the memory and up to 5 s where it had to give
// it again, in 4 KB pages a steady 0.6-0.9 s (and 0.1-0.17 s to unmap, against 0.004 s
// for 2 MB pages); so the table stays on huge pages, and its first touch overlaps the
// counting instead of preceding it.
PerftTable::PerftTable(size_t bytes) {
  const size_t buckets = size_for(bytes) / 64;
  const size_t wide = std::bit_floor(std::max<size_t>(buckets / WIDE_SHARE, 1));
  wide_memory_ = allocate_zeroed<WideBucket>(wide);
  narrow_memory_ = allocate_zeroed<NarrowBucket>(buckets - wide);
  wide_ = wide_memory_.get(), wide_mask_ = wide - 1;
  narrow_ = narrow_memory_.get(), narrow_buckets_ = buckets - wide;
}

}  // namespace chess
