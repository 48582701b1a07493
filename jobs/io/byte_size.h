// Sizes as users write them on a command line: "512M", "8G", "64K" or plain bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace chesshpc {

// Binary units (K = 2^10 ... T = 2^40). Returns 0 for text that is not a positive size
// or does not fit in size_t.
size_t parse_size(std::string_view text);

// This machine's physical memory in bytes (what a size option may ask for at most); 0 when
// the system does not say.
uint64_t physical_memory();

}  // namespace chesshpc
