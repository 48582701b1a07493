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

struct Format {
  std::string_view name;
  std::string_view help;                      // what --help says of it: who reads it
  size_t record_bytes;                        // a fixed-size record; 0 for text (or variable size)
  bool binary;                                // refused on a terminal
  bool needs_score;                           // the format has no "no score": unscored positions are left out
  bool needs_fen;                             // writes the FEN (written from the position for these only)
  bool standard_only;                         // its castling names no rook: Chess960 positions are refused
  std::unique_ptr<PositionWriter> (*make)();  // nullptr: whole games (pgn), not positions
};

std::span<const Format> formats();
// The format of that name, or nullptr.
const Format* find_format(std::string_view name);
// "plain|bin|...", for usage lines and messages.
std::string format_names();

}  // namespace chesshpc
