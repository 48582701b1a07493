#include "core/large_pages.h"

#include <cstdlib>
#include <new>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace chess {

namespace {

constexpr size_t HUGE_PAGE = size_t(2) << 20;

}  // namespace

void LargePagesFree::operator()(void* p) const { std::free(p); }

void* allocate_large_pages(size_t bytes) {
  size_t align = bytes >= HUGE_PAGE ? HUGE_PAGE : 64;
  void* raw = std::aligned_alloc(align, (bytes + align - 1) / align * align);
  if (!raw) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (bytes >= HUGE_PAGE) madvise(raw, bytes, MADV_HUGEPAGE);
#endif
  return raw;
}

}  // namespace chess
