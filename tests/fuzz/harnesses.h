// The fuzz harnesses, one per parser: each takes any bytes, must neither crash nor throw
// anything but its parser's documented error, and checks a round trip where one is cheap.
// A disagreement is reported on stderr and aborts, so that libFuzzer (tests/fuzz/
// fuzz_target.cpp) keeps the input and the GoogleTest replay (test_fuzz_inputs) fails.
// Each returns whether its parser accepted the input (a position, a move, a game, a
// readable EPD line, a command the server answered without complaint), which the replay
// of known inputs checks.
#pragma once

#include <string_view>

namespace chesshpc::fuzz {

// A FEN as Position::from_any_fen reads it. Accepted: writing it in X-FEN and
// Shredder-FEN and reading that again gives the same position and text; the key is the
// one computed from scratch; in standard chess, the legal moves are the independent
// reference's (tests/reference).
bool fen(std::string_view data);

// The first line a FEN (empty for the start position), every further line a move text
// for parse_move (UCI, else SAN), each played when legal. Every move read is legal, and
// its SAN and UCI read back as the same move. True when at least one move was read.
bool move(std::string_view data);

// A PGN file: split_pgn, then parse_pgn_game of each game. A game read is written with
// write_pgn and read again: the same start, moves and result, and the same text when
// written once more. True when at least one game was read.
bool pgn(std::string_view data);

// An EPD perft suite as read_epd reads it: every line lands either among the positions
// or the errors, and every position's FEN reads back as itself. True when it has a
// position and no error.
bool epd(std::string_view data);

// UCI commands fed to the server's loop from a buffer, with every search bounded (a node
// limit appended to each "go", Hash capped at 8 MB) so that an input ends fast. Every "go"
// before a "quit" gets one bestmove, unless refused while an infinite search runs. True
// when no line drew an "info string" complaint.
bool uci(std::string_view data);

}  // namespace chesshpc::fuzz
