// PGN (Portable Game Notation) reading and writing.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/position.h"

namespace chess {

struct PgnGame {
  std::vector<std::pair<std::string, std::string>> tags;  // in file order
  Position start = Position::start();  // from the FEN tag when present (with SetUp "1"), else the start position
  std::vector<Move> moves;             // the main line; variations are skipped
  std::string result;                  // the game termination marker: "1-0", "0-1", "1/2-1/2" or "*"
  std::vector<std::string> comments;   // written after move i when non-empty (the parser keeps none)
  int first_line = 0;                  // 1-based line of the game's first tag or move in the file

  // The tag's value, or "" when the game has no such tag.
  std::string tag(std::string_view name) const;
};

struct PgnError {
  int line;             // 1-based line of the fault
  std::string message;  // what is wrong, naming the move text where one is at fault
  std::string variant;  // the Variant tag of a game of a variant not read here; else empty

  // "line 14: illegal move 'Nf6' at ply 9": the line, then the message.
  std::string what() const;
};

// The rules a Variant tag names, compared without case, spaces, dashes and underscores:
// standard chess ("Standard", "Chess", "Normal", "From Position", or an empty tag),
// Chess960 ("Chess960", "Chess 960", "960", "Fischerandom", "Fischer Random", "FRC", and
// Double Fischer Random, whose rules are Chess960's), or another variant (Crazyhouse,
// Atomic, Three-check...), whose games are not read.
enum class PgnVariant : uint8_t { STANDARD, CHESS960, UNSUPPORTED };
PgnVariant pgn_variant(std::string_view tag);

// One game's text within a file, and the line it starts on.
struct PgnChunk {
  std::string_view text;
  int first_line;
};

// Splits a PGN file into the text of each game without parsing moves, so that games can
// be parsed in parallel. A game ends with its termination marker; tags after movetext
// start the next game.
// Details: a leading byte-order mark is skipped; comments after a termination marker
// stay with its game; comments before the first game belong to none; a game without tags
// starts at its first move; a tag name repeated within one tag section starts a game (the
// one before had neither movetext nor marker). A tag-pair line (such as [Event "x"])
// inside a brace comment closes that comment here, so that an unbalanced brace costs one
// game, not the rest of the file (parse_pgn_game reports the brace). Texts hold no
// trailing whitespace.
std::vector<PgnChunk> split_pgn(std::string_view file);

// The size of a UTF-8 byte-order mark starting text: 3, or 0 when there is none.
size_t byte_order_mark_size(std::string_view text);

// The games of a piece of a PGN stream (split_pgn_part), and where the next piece starts.
struct PgnPart {
  std::vector<PgnChunk> games;
  size_t rest = 0;    // offset in the piece of what is not yet split (the game still open)
  int rest_line = 0;  // its line in the stream
};

// Splits a PGN stream read in pieces into exactly the games split_pgn finds in the whole,
// each once. text: the stream from the rest of the call before (the stream's start at
// first, past any byte-order mark), then whatever was read since; first_line: that
// point's line; line_start: whether a line starts there. Unless last (the stream ends with
// text), only whole lines are split, and the game still open at their end is left to the
// next call, which takes text from part.rest onwards (the bytes before it are done with).
PgnPart split_pgn_part(std::string_view text, int first_line, bool line_start, bool last);

// Parses one game: tag pairs, movetext (move numbers, SAN moves, comments in {} and ;,
// NAGs like $1, variations in (), annotation glyphs) and the termination marker. Returns
// false and fills error on an illegal or unreadable move, an unbalanced brace or
// parenthesis, a bad tag pair, or a missing termination marker.
// A FEN tag sets the start position whether or not SetUp "1" is present; with a Variant
// tag of Chess960 (pgn_variant) it may be X-FEN or Shredder-FEN, and the game is Chess960.
// A game of a variant not supported fails at its Variant tag's line, with error.variant set. Moves inside
// variations are skipped unread. After the marker only comments and NAGs may follow.
// The game is cleared first, so one PgnGame can be reused across calls (its vectors keep
// their capacity).
bool parse_pgn_game(const PgnChunk& chunk, PgnGame& game, PgnError& error);

// A movetext token without its move number, as the PGN reader takes it: "12.Nf3" and
// "12...Nf6" are "Nf3" and "Nf6", a move number alone ("12.", "12...", "12") is "".
std::string_view without_move_number(std::string_view token);

// The moves of a line as every command's --moves reads it, the PGN reader's way: words
// separated by blanks, move numbers dropped ("1. e4 e5", "1.e4 e5" and "e4 e5" are the
// same two moves), each move left for the position to read (SAN or UCI).
std::vector<std::string> move_list(std::string_view text);

// The game as PGN: the seven-tag roster first (Event, Site, Date, Round, White, Black,
// Result; "?" where missing, except Date "????.??.??" and Result the game's result, as
// the PGN standard writes them), then SetUp "1" and FEN when the start is not the
// standard position (or the game has a FEN tag), then the other tags in their order
// (Variant "Chess960" for a Chess960 start, added when missing, so that the text reads back),
// then SAN movetext wrapped at 80 columns with each move's comment in braces after it,
// ending with the result and a blank line.
std::string write_pgn(const PgnGame& game);

}  // namespace chess
