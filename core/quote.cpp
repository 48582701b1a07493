#include "core/quote.h"

namespace chess {

std::string excerpt(std::string_view text) {
  constexpr char HEX[] = "0123456789ABCDEF";
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    std::string shown;
    if (c == '\\')
      shown = "\\\\";
    else if (c >= 0x20 && c < 0x7F)
      shown = char(c);
    else
      shown = {'\\', 'x', HEX[c >> 4], HEX[c & 15]};
    if (out.size() + shown.size() > EXCERPT_CHARS) return out + "...";
    out += shown;
  }
  return out;
}

std::string quoted(std::string_view text) {
  // Built by appending: GCC 12 warns falsely (-Wrestrict) on "'" + std::string(...).
  std::string q = "'";
  q += excerpt(text);
  q += '\'';
  return q;
}

}  // namespace chess
