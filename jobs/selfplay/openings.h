// Openings of a selfplay batch: a book (EPD positions or PGN lines) or a Chess960 or DFRC
// start, random plies, or both, chosen for game i from (seed, i / 2) alone: games 2p and 2p + 1 share their
// opening and swap colours, whatever rank or thread plays them.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/position.h"

namespace chesshpc {

struct BookError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct BookLine {
  std::string text;                // as the book gives it: the EPD line, or the PGN line in SAN
  chess::Position start;           // where the line begins
  std::vector<chess::Move> moves;  // empty for EPD
};

// Reads a book of one of three kinds: PGN (each game's main line; told by a .pgn name or
// a first non-blank '['), lines of UCI moves from the start position (data/openings.txt;
// told by a first line that starts with a square pair like "e2e4"), or EPD (one position
// a line: the four FEN fields, optional clocks, then any opcodes, which are ignored).
// '#' starts a comment line in the last two. Throws BookError naming the file, the line
// and the fault; a book without a line is an error too. With digest, also a hash of the
// file's bytes (64-bit FNV-1a, 16 hex digits), so that a batch can tell the book changed.
std::vector<BookLine> read_book(const std::string& path, std::string* digest = nullptr);
// The same over the file's bytes, read already (by rank 0, for every rank: jobs/io/root_file.h).
std::vector<BookLine> parse_book(const std::string& path, const std::string& text, std::string* digest = nullptr);

enum class BookOrder : uint8_t { SEQUENTIAL, RANDOM };

// The chess a batch plays: standard chess from the book or the start position, or Chess960
// or Double Fischer Random (DFRC) from a start position drawn per game pair.
enum class Variant : uint8_t { STANDARD, CHESS960, DFRC };
constexpr std::string_view VARIANT_NAMES[] = {"standard", "chess960", "dfrc"};
constexpr std::string_view variant_name(Variant v) { return VARIANT_NAMES[int(v)]; }
std::optional<Variant> variant_from_name(std::string_view name);
// A recorded game's start position: its FEN (X-FEN or Shredder-FEN) as chess of that
// variant, so that a Chess960 game from the classical position keeps king-takes-rook
// castling. Throws FenError.
chess::Position variant_position(const std::string& fen, Variant v);
// The start of a Chess960 (N, 0 to 959) or DFRC (W * 960 + B) game by its number.
chess::Position numbered_start(Variant v, int64_t number);

struct OpeningSpec {
  const std::vector<BookLine>* book = nullptr;  // none: the start position
  BookOrder order = BookOrder::SEQUENTIAL;
  int random_plies = 0;  // uniformly random legal plies after the book line
  uint64_t seed = 0;
  Variant variant = Variant::STANDARD;  // not standard: no book; the start drawn from (seed, pair)
};

struct Opening {
  int64_t id = 0;  // book line index, or -1 without a book
  Variant variant = Variant::STANDARD;
  // Chess960: the start position's number N (0 to 959, 518 the classical one); DFRC:
  // W * 960 + B, white's back rank of number W and black's of B; -1 for standard chess.
  int64_t start_number = -1;
  std::string text;  // the book line, with " +N random plies" when there are any
  chess::Position start;
  std::vector<chess::Move> moves;  // book moves and random plies, played before the players start
};

// The opening of game `game`. Chess960 and DFRC draw the start's number (each back rank
// uniformly from the 960) from the pair's own stream. Random plies never end the game (no mate, stalemate or
// dead position): a sequence that would is drawn again from the same stream.
Opening opening_for(const OpeningSpec& spec, uint64_t game);

}  // namespace chesshpc
