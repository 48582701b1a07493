#include "core/int128.h"

namespace chess {

std::string to_string(u128 v) {
  if (v == 0) return "0";
  std::string s;
  for (; v; v /= 10) s += char('0' + int(v % 10));
  return {s.rbegin(), s.rend()};
}

std::optional<u128> parse_u128(std::string_view text) {
  if (text.empty()) return std::nullopt;
  constexpr u128 MAX = ~u128(0);
  u128 v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    unsigned digit = unsigned(c - '0');
    if (v > (MAX - digit) / 10) return std::nullopt;
    v = v * 10 + digit;
  }
  return v;
}

}  // namespace chess
