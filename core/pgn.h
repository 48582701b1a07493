// PGN (Portable Game Notation) reading and writing.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "position.h"

namespace chess {

struct PgnGame {
  std::vector<std::pair<std::string, std::string>> tags;  // in file order
  Position start;           // from the FEN tag when present (with SetUp "1"), else the start position
  std::vector<Move> moves;  // the main line; variations are skipped
  std::string result;       // the game termination marker: "1-0", "0-1", "1/2-1/2" or "*"
  int first_line = 0;       // 1-based line of the game's first tag or move in the file

  // The tag's value, or "" when the game has no such tag.
  std::string tag(std::string_view name) const;
};

struct PgnError {
  int line;             // 1-based line of the fault
  std::string message;  // what is wrong, naming the move text where one is at fault
};

// One game's text within a file, and the line it starts on.
struct PgnChunk {
  std::string_view text;
  int first_line;
};

// Splits a PGN file into the text of each game without parsing moves, so that games can
// be parsed in parallel. A game ends with its termination marker; tags after movetext
// start the next game.
std::vector<PgnChunk> split_pgn(std::string_view file);

// Parses one game: tag pairs, movetext (move numbers, SAN moves, comments in {} and ;,
// NAGs like $1, variations in (), annotation glyphs) and the termination marker. Returns
// false and fills error on an illegal or unreadable move, an unbalanced brace or
// parenthesis, a bad tag pair, or a missing termination marker.
bool parse_pgn_game(const PgnChunk& chunk, PgnGame& game, PgnError& error);

// The game as PGN: the seven-tag roster first (Event, Site, Date, Round, White, Black,
// Result; "?" where missing), then the other tags, then SAN movetext wrapped at 80 columns,
// ending with the result and a blank line.
std::string write_pgn(const PgnGame& game);

}  // namespace chess
