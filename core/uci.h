// UCI long algebraic notation: e2e4, e7e8q; castling as the king's move (e1g1) in standard
// chess and as the king taking its own rook (e1h1) in Chess960, as UCI_Chess960 asks.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/position.h"

namespace chess {

std::string square_to_string(Square s);
std::optional<Square> parse_square(std::string_view s);

// The longest text to_uci writes: a promotion, e7e8q.
inline constexpr size_t UCI_MOVE_BYTES = 5;
std::string to_uci(Move m, bool chess960 = false);
// The same text into out (at most UCI_MOVE_BYTES, no terminating null); returns its length.
size_t write_uci(Move m, bool chess960, char* out);
// The legal move of pos written as text, or nothing when the text names no legal move.
// Castling is read in the notation of pos (is_chess960).
std::optional<Move> parse_uci(const Position& pos, std::string_view text);

}  // namespace chess
