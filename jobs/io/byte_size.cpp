#include "jobs/io/byte_size.h"

#include <charconv>
#include <cstdint>

#include <unistd.h>

namespace chesshpc {

size_t parse_size(std::string_view text) {
  size_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || value == 0) return 0;
  std::string_view unit(end, size_t(text.data() + text.size() - end));
  int shift = unit.empty() ? 0 : unit == "K" ? 10 : unit == "M" ? 20 : unit == "G" ? 30 : unit == "T" ? 40 : -1;
  if (shift < 0 || value > (SIZE_MAX >> shift)) return 0;
  return value << shift;
}

uint64_t physical_memory() {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : 0;
}

}  // namespace chesshpc
