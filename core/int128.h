// 128-bit unsigned counts. Perft totals pass 2^64 at depth 14 of the start position
// (61,885,021,521,585,529,237), and merged divides and resumed totals add many 64-bit
// subtree counts, so every total is a u128. Neither std::to_string nor iostreams know
// the type: its decimal text goes in and out here.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace chess {

using u128 = unsigned __int128;

// Decimal digits, without separators.
std::string to_string(u128 v);

// The value of decimal digits only (no sign, space or separator); nothing for other text
// or a value past 2^128 - 1.
std::optional<u128> parse_u128(std::string_view text);

}  // namespace chess
