// What every job shares: exit codes and reading the position a user gave.
#pragma once

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "core/position.h"

namespace chesshpc {

// Exit codes shared by every command.
// EXIT_STOPPED: a signal stopped the run before the end; what it finished is kept for --resume.
// EXIT_INTERNAL: an error no other code names (a failure of the system or a bug), so that
// it is never read as a result mismatch.
enum ExitCode {
  EXIT_OK = 0,
  EXIT_MISMATCH = 1,
  EXIT_USAGE = 2,
  EXIT_INPUT = 3,
  EXIT_IO = 4,
  EXIT_STOPPED = 5,
  EXIT_INTERNAL = 6
};

// A count in words, as every summary line writes one: "1 position", "2 positions",
// "0 faults", "1 engine query". one: the singular; many: the plural, one + "s" if empty.
inline std::string plural(unsigned long long n, std::string_view one, std::string_view many = {}) {
  std::string word(n != 1 && !many.empty() ? many : one);
  if (n != 1 && many.empty()) word += 's';
  return std::to_string(n) + " " + word;
}

// The position of fen (standard chess, or Chess960 when its castling field says so), or
// nothing after telling err why not ("chesshpc COMMAND: bad FEN: ...").
inline std::optional<chess::Position> read_position(const std::string& fen, const char* command, std::ostream& err) {
  try {
    return chess::Position::from_any_fen(fen);
  } catch (const chess::FenError& e) {
    err << "chesshpc " << command << ": " << e.what() << "\n";
    return std::nullopt;
  }
}

// The move text names in pos (UCI or SAN, as chess::parse_move reads it), or nothing after
// telling err in one line why not: "chesshpc COMMAND: illegal move 'e2e4' at ply 2 (position
// FEN)", or the clock the move would carry past 65535. ply: the move's number in the line.
std::optional<chess::Move> read_move(const chess::Position& pos, const std::string& text, int ply, const char* command,
                                     std::ostream& err);
// The position after --moves played from pos with read_move, the moves appended to played
// when given; nothing after the line of the first move refused.
std::optional<chess::Position> play_moves(chess::Position pos, const std::vector<std::string>& moves,
                                          const char* command, std::ostream& err,
                                          std::vector<chess::Move>* played = nullptr);

// Why the input file a user named cannot be read: "it is a directory" (which opens, and
// reads as an empty file), the system's reason when in could not open it, or "" when in
// is ready to read.
inline std::string unreadable_input(const std::string& path, const std::ifstream& in) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return "it is a directory";
  return in ? "" : std::strerror(errno);
}

// After a job printed what it computed: the one line saying that its file could not be
// written (error: why; "" when it was) and what an earlier write left (kept; "" when
// nothing). Returns EXIT_IO, or EXIT_OK when error is empty.
inline int say_unwritten(const char* command, const std::string& error, const std::string& kept, std::ostream& err) {
  if (error.empty()) return EXIT_OK;
  err << "chesshpc " << command << ": " << error << (kept.empty() ? "" : "; " + kept) << "\n";
  return EXIT_IO;
}

}  // namespace chesshpc
