// The chessprogramming wiki's perft positions ("Perft Results") with their published
// counts: what a benchmark's node counts are checked against, so that a fast wrong
// count is never reported as a result.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace chess {

struct PublishedPosition {
  std::string_view name;  // start, kiwipete, pos3, pos4, pos5, pos6; chess960 (start position 0)
  std::string_view fen;
  std::span<const uint64_t> counts;  // perft(1), perft(2), ...
};

// The six positions, in the wiki's order.
std::span<const PublishedPosition> published_positions();
// The position called name, or null: the six, and Chess960 start position 0 ("chess960",
// in X-FEN; Position::from_any_fen reads it).
const PublishedPosition* find_published(std::string_view name);
// perft(depth) of the position called name, when published (and below 2^64).
std::optional<uint64_t> published_count(std::string_view name, int depth);

}  // namespace chess
