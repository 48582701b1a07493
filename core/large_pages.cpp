#include "core/large_pages.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace chess {

namespace {

constexpr size_t HUGE_PAGE = size_t(2) << 20;
constexpr size_t PAGE = size_t(4) << 10;

size_t alignment_for(size_t bytes) { return bytes >= HUGE_PAGE ? HUGE_PAGE : 64; }

}  // namespace

#ifdef __linux__

// An anonymous mapping is zero and costs nothing until touched; a mapping HUGE_PAGE
// larger than asked is trimmed to an aligned start, so that every 2 MB of the table can
// be one huge page.
void* allocate_large_pages(size_t bytes) {
  const size_t align = alignment_for(bytes);
  const size_t length = (std::max<size_t>(bytes, 1) + PAGE - 1) / PAGE * PAGE;
  const size_t padded = align > 64 ? length + align : length;
  void* raw = mmap(nullptr, padded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  if (align == 64) return raw;
  const uintptr_t start = uintptr_t(raw), aligned = (start + align - 1) / align * align;
  if (aligned > start) munmap(raw, aligned - start);
  if (const size_t tail = start + padded - (aligned + length)) munmap(reinterpret_cast<void*>(aligned + length), tail);
#ifdef MADV_HUGEPAGE
  madvise(reinterpret_cast<void*>(aligned), length, MADV_HUGEPAGE);
#endif
  return reinterpret_cast<void*>(aligned);
}

void LargePagesFree::operator()(void* p) const { munmap(p, std::max<size_t>(bytes, 1)); }

#else

void* allocate_large_pages(size_t bytes) {
  const size_t align = alignment_for(bytes);
  const size_t length = (std::max<size_t>(bytes, 1) + align - 1) / align * align;
  void* raw = std::aligned_alloc(align, length);
  if (!raw) throw std::bad_alloc();
  return std::memset(raw, 0, length);
}

void LargePagesFree::operator()(void* p) const { std::free(p); }

#endif

}  // namespace chess
