// The formats `chesshpc export` writes, one table entry each: a new format is a writer
// and a row in FORMATS.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "jobs/export/codecs.h"

namespace chesshpc {

// Writes positions one after another into a buffer; a format that compresses across
// positions (binpack) keeps its state here and flushes it in finish().
class PositionWriter {
 public:
  virtual ~PositionWriter() = default;
  virtual void add(const ExportPosition& p, std::string& out) = 0;
  virtual void finish(std::string&) {}
};

// What a format's record holds of a position beyond its pieces and side to move: each
// reader gives "none" for the rest (codecs.h's DecodedPosition).
enum Carries : unsigned {
  CARRIES_MOVE = 1,        // the move played
  CARRIES_SCORE = 2,       // a score, and "no score" (VALUE_NONE) for a position without one
  CARRIES_RESULT = 4,      // the game's result
  CARRIES_NO_RESULT = 8,   // "no result" too (without it a position lacking one is left out)
  CARRIES_PLY = 16,        // a ply of its own (the others' reads as the full-move number's)
  CARRIES_CLOCKS = 32,     // the half-move clock and the full-move number
  CARRIES_RIGHTS = 64,     // castling rights and the en-passant square
  CARRIES_SIDE = 128,      // the side to move (bullet's board is the mover's, read as White to move)
  CARRIES_FULLMOVE = 256,  // the full-move number itself (binpack's is the ply's)
};

struct Format {
  std::string_view name;
  std::string_view help;                      // what --help says of it: who reads it
  size_t record_bytes;                        // a fixed-size record; 0 for text (or variable size)
  bool binary;                                // refused on a terminal
  bool needs_score;                           // the format has no "no score": unscored positions are left out
  bool needs_fen;                             // writes the FEN (written from the position for these only)
  bool standard_only;                         // its castling names no rook: Chess960 positions are refused
  std::unique_ptr<PositionWriter> (*make)();  // nullptr: whole games (pgn), not positions
  // The read side (chesshpc convert, shuffle, interleave, stats): a file name's ending,
  // what a record holds, and its reader: of record_bytes bytes (read_fixed), of text up
  // to and including record_end (read_text, given the record without its last newline),
  // or neither (binpack: its chains, binpack::ChunkReader; pgn: not read).
  std::string_view extension = "";
  unsigned carries = 0;
  DecodedPosition (*read_fixed)(const uint8_t*) = nullptr;
  DecodedPosition (*read_text)(std::string_view) = nullptr;
  std::string_view record_end = "\n";
};

std::span<const Format> formats();
// The format of that name, or nullptr.
const Format* find_format(std::string_view name);
// "plain|bin|...", for usage lines and messages.
std::string format_names();

}  // namespace chesshpc
