// Sizes as users write them on a command line or in UCI's Hash, and as every message
// prints them: one parser and one reporter for every memory option.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace chesshpc {

// A megabyte as UCI, Stockfish and every chesshpc message count it: 2^20 bytes.
inline constexpr size_t MB = size_t(1) << 20;

// A bare number is MB (as UCI's Hash and Stockfish's option are): "1024" is 1 GB. K, M,
// G or T (either case) name binary units (K = 2^10 ... T = 2^40), with an optional B or
// iB after them: "512M", "512m", "64MB", "1GiB". Returns 0 for text that is not a positive
// size or does not fit in size_t.
size_t parse_size(std::string_view text);

// bytes in MB, the one unit sizes are printed in: "64 MB" when whole, else with the
// decimals that keep it from reading as 0 ("1.5 MB", "0.0039 MB", "under 0.001 MB").
std::string format_size(uint64_t bytes);

// This machine's physical memory in bytes (what a size option may ask for at most); 0 when
// the system does not say.
uint64_t physical_memory();

}  // namespace chesshpc
