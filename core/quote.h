// How a message shows text it was given (a FEN field, a PGN tag or move, an EPD line, an
// option value, a UCI command): bounded and escaped, so that a 100 KB field or a stray
// control byte cannot flood or garble a terminal or a log.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace chess {

// Characters of an excerpt at most, before "..." says that the text was cut.
inline constexpr size_t EXCERPT_CHARS = 60;

// text as a message shows it: printable ASCII as is, a backslash as "\\", every other byte
// (control characters, UTF-8 bytes) as \xNN; cut after EXCERPT_CHARS characters of the
// result (never inside an escape), then "...".
std::string excerpt(std::string_view text);

// excerpt(text) in single quotes: 'e4#'.
std::string quoted(std::string_view text);

}  // namespace chess
