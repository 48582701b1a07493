#include "jobs/io/byte_size.h"

#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstdio>

#include <unistd.h>

namespace chesshpc {

namespace {

// The binary shift a unit names ("", "K", "m", "GB", "TiB", ...), or -1.
int unit_shift(std::string_view unit) {
  if (unit.empty()) return 20;
  const char prefix = char(std::toupper(static_cast<unsigned char>(unit[0])));
  const int shift = prefix == 'K' ? 10 : prefix == 'M' ? 20 : prefix == 'G' ? 30 : prefix == 'T' ? 40 : -1;
  std::string suffix;
  for (char c : unit.substr(1)) suffix += char(std::tolower(static_cast<unsigned char>(c)));
  return suffix.empty() || suffix == "b" || suffix == "ib" ? shift : -1;
}

}  // namespace

size_t parse_size(std::string_view text) {
  size_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || value == 0) return 0;
  const int shift = unit_shift(std::string_view(end, size_t(text.data() + text.size() - end)));
  if (shift < 0 || value > (SIZE_MAX >> shift)) return 0;
  return value << shift;
}

std::string format_size(uint64_t bytes) {
  char text[48];
  const double mb = double(bytes) / double(MB);
  if (bytes % MB == 0)
    std::snprintf(text, sizeof text, "%llu MB", static_cast<unsigned long long>(bytes / MB));
  else if (mb >= 0.001)
    std::snprintf(text, sizeof text, mb >= 0.1 ? "%.1f MB" : "%.2g MB", mb);
  else
    return "under 0.001 MB";
  return text;
}

uint64_t physical_memory() {
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : 0;
}

}  // namespace chesshpc
