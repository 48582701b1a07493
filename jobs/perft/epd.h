// EPD perft suites: "FEN ;D1 20 ;D2 400 ..." one position a line, as perftsuite.epd and
// most published suites write them.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace chesshpc {

struct EpdLine {
  int line_number = 0;                             // 1-based, in the file
  std::string fen;                                 // the position as FEN; "0 1" for clocks the line does not give
  std::vector<std::pair<int, uint64_t>> expected;  // (depth, count), in file order
};

struct EpdError {
  int line_number;
  std::string text;     // the line as read
  std::string message;  // what is wrong with it
};

struct EpdFile {
  std::vector<EpdLine> lines;
  std::vector<EpdError> errors;  // unreadable lines; reading goes on past them
};

// Blank lines and lines starting with '#' are skipped; CRLF line ends and a trailing ';'
// are accepted.
// A line is unreadable when its position is not a legal FEN (the FenError message is
// kept), when a field is not ";Dn count" with n >= 1, or when it has no such field.
EpdFile read_epd(std::istream& in);

}  // namespace chesshpc
