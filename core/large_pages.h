// Memory for hash tables: aligned to 2 MB and marked for transparent huge pages where
// the table spans at least one, because a table probed at random in 4 KB pages misses
// the TLB on nearly every probe and pays a page walk on top of the cache miss.
#pragma once

#include <cstddef>
#include <memory>

namespace chess {

struct LargePagesFree {
  void operator()(void* p) const;
};

// Uninitialised memory of at least bytes; throws std::bad_alloc.
void* allocate_large_pages(size_t bytes);

template <typename T>
using LargePagesPtr = std::unique_ptr<T[], LargePagesFree>;

}  // namespace chess
