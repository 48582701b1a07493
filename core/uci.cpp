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
  char buf[UCI_MOVE_BYTES];
  return std::string(buf, write_uci(m, chess960, buf));
}

size_t write_uci(Move m, bool chess960, char* out) {
  const Square from = m.from(), to = uci_to(m, chess960);
  out[0] = char('a' + file_of(from)), out[1] = char('1' + rank_of(from));
  out[2] = char('a' + file_of(to)), out[3] = char('1' + rank_of(to));
  if (m.kind() != PROMOTION) return 4;
  out[4] = "nbrq"[m.promotion() - KNIGHT];
  return 5;
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
