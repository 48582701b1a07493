// UCI long algebraic notation: e2e4, e7e8q, e1g1 for castling.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/position.h"

namespace chess {

std::string square_to_string(Square s);
std::optional<Square> parse_square(std::string_view s);

std::string to_uci(Move m);
// The legal move of pos written as text, or nothing when the text names no legal move.
std::optional<Move> parse_uci(const Position& pos, std::string_view text);

}  // namespace chess
