#include "core/uci.h"

#include "core/movegen.h"

namespace chess {

std::string square_to_string(Square s) { return {char('a' + file_of(s)), char('1' + rank_of(s))}; }

std::optional<Square> parse_square(std::string_view s) {
  if (s.size() != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8') return std::nullopt;
  return make_square(File(s[0] - 'a'), Rank(s[1] - '1'));
}

namespace {

// The destination UCI writes: for standard chess's castling the king's square, not its rook's.
Square uci_to(Move m, bool chess960) {
  return m.kind() == CASTLING && !chess960 ? castling_destinations(m.from(), m.to()).first : m.to();
}

}  // namespace

std::string to_uci(Move m, bool chess960) {
  std::string s = square_to_string(m.from()) + square_to_string(uci_to(m, chess960));
  if (m.kind() == PROMOTION) s += "nbrq"[m.promotion() - KNIGHT];
  return s;
}

std::optional<Move> parse_uci(const Position& pos, std::string_view text) {
  if (text.size() != 4 && text.size() != 5) return std::nullopt;
  auto from = parse_square(text.substr(0, 2)), to = parse_square(text.substr(2, 2));
  if (!from || !to) return std::nullopt;
  for (Move m : legal_moves(pos)) {
    if (m.from() != *from || uci_to(m, pos.is_chess960()) != *to) continue;
    if (m.kind() != PROMOTION ? text.size() == 4 : text.size() == 5 && text[4] == "nbrq"[m.promotion() - KNIGHT])
      return m;
  }
  return std::nullopt;
}

}  // namespace chess
