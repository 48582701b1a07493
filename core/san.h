// Standard Algebraic Notation (SAN), as PGN writes moves: e4, Nbd7, exd6, O-O, e8=Q+, Qh4#.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/position.h"

namespace chess {

// The SAN of legal move m in pos: piece letter, the least disambiguation that makes it
// unique (file, else rank, else both), 'x' for captures, "=Q" for promotions, "O-O" and
// "O-O-O", and '+' or '#' when the move checks or mates.
std::string to_san(const Position& pos, Move m);

// The legal move of pos that text names, or nothing. Accepts what PGN files contain in the
// wild: a trailing +, #, !, ?, !!, ?? and the like; "0-0" for "O-O"; promotion without '='
// (e8Q); a disambiguation that is given though not needed. Refuses an ambiguous text
// (Nd7 when two knights can go there) and one that names no legal move.
// Also accepted: a lowercase promotion letter (e8=q), an explicit pawn letter (Pe4), a
// full origin square (Ng1f3, Ng1-f3). Marks left out are not held against a move (exd5
// written ed5, a check without '+'), but a mark that says what the move does not do is
// refused, as a PGN file that says so is wrong: 'x' (or ':') on a move that captures
// nothing, '+' on a move that gives no check, '#' on a move that does not mate. A mate
// marked '+' is accepted (it is a check). Allocates nothing when no mark is given.
std::optional<Move> parse_san(const Position& pos, std::string_view text);

// Why parse_san refused a text: it is not SAN at all, it names no legal move, it names
// more than one, or its one move does not do what a mark says ('x', '+', '#').
enum class SanError : uint8_t { NONE, SYNTAX, ILLEGAL, AMBIGUOUS, NO_CAPTURE, NO_CHECK, NO_MATE };

// parse_san that also says why it refused (error is NONE when a move is returned).
std::optional<Move> parse_san(const Position& pos, std::string_view text, SanError& error);

// What a message says of a refused move text: "illegal move 'Nf6'", "move 'Nxf3' marks a
// capture ('x') but captures nothing"; the text shown as core/quote.h bounds it.
std::string san_refusal(SanError error, std::string_view text);

// Either notation: UCI (e2e4, e7e8q) is tried first, then SAN.
std::optional<Move> parse_move(const Position& pos, std::string_view text);
// parse_move that also says why it refused: as parse_san does for the SAN reading.
std::optional<Move> parse_move(const Position& pos, std::string_view text, SanError& error);

}  // namespace chess
