#include "core/san.h"

#include "core/movegen.h"
#include "core/quote.h"
#include "core/uci.h"

namespace chess {

namespace {

constexpr char PIECE_LETTER[PIECE_TYPE_NB] = {'P', 'N', 'B', 'R', 'Q', 'K'};

// The squares from which a piece of type pt has a legal move to the squares of to_bb.
// Pawns are not asked for: their SAN needs no disambiguation beyond the capture file.
struct OriginSink {
  PieceType pt;
  Bitboard to_bb;
  Bitboard origins = 0;

  void piece_moves(PieceType p, Square from, Bitboard to) {
    if (p == pt && (to & to_bb)) origins |= square_bb(from);
  }
  void pawn_moves(Bitboard, int) {}
  void promotions(Bitboard, int) {}
  void en_passant(Square, Square) {}
  void castle(Square, Square) {}
};

// The file, the rank, or both, whichever first tells the mover apart from the other
// pieces of its type that can reach the same square.
void append_disambiguation(const Position& pos, Move m, PieceType pt, std::string& s) {
  OriginSink sink{pt, square_bb(m.to())};
  generate_legal(pos, sink);
  Bitboard others = sink.origins & ~square_bb(m.from());
  if (!others) return;
  if (!(others & file_bb(file_of(m.from()))))
    s += char('a' + file_of(m.from()));
  else if (!(others & rank_bb(rank_of(m.from()))))
    s += char('1' + rank_of(m.from()));
  else {
    s += char('a' + file_of(m.from()));
    s += char('1' + rank_of(m.from()));
  }
}

// What a SAN text says, before looking at the position.
struct SanText {
  PieceType pt = PAWN;
  Square to = SQ_NONE;
  Bitboard from_mask = ~Bitboard(0);  // the origins the text allows
  PieceType promo = NO_PIECE_TYPE;
  int castle = 0;  // 1 king side, 2 queen side, 0 not castling
  // The marks the text gives, checked against the move once it is known.
  bool capture_mark = false;
  bool check_mark = false;
  bool mate_mark = false;
};

constexpr bool is_file(char c) { return c >= 'a' && c <= 'h'; }
constexpr bool is_rank(char c) { return c >= '1' && c <= '8'; }
constexpr bool is_castle_o(char c) { return c == 'O' || c == '0' || c == 'o'; }

PieceType piece_from_letter(char c) {
  switch (c) {
    case 'P': return PAWN;
    case 'N': return KNIGHT;
    case 'B': return BISHOP;
    case 'R': return ROOK;
    case 'Q': return QUEEN;
    case 'K': return KING;
    default: return NO_PIECE_TYPE;
  }
}

// Promotion letters may be lowercase: at the end of a move 'b' cannot be a file.
PieceType promotion_from_letter(char c) {
  switch (c) {
    case 'N':
    case 'n': return KNIGHT;
    case 'B':
    case 'b': return BISHOP;
    case 'R':
    case 'r': return ROOK;
    case 'Q':
    case 'q': return QUEEN;
    default: return NO_PIECE_TYPE;
  }
}

// "O-O" or "O-O-O" with O written as O, o or 0: 1 or 2, else 0.
int read_castle(std::string_view t) {
  if (t.size() != 3 && t.size() != 5) return 0;
  for (size_t i = 0; i < t.size(); ++i)
    if (i % 2 ? t[i] != '-' : !is_castle_o(t[i])) return 0;
  return t.size() == 3 ? 1 : 2;
}

// Splits the text into its parts; false when it is not SAN. Works from the end, where
// the destination square sits in every form, so that nothing needs lookahead.
bool read_san(std::string_view t, SanText& out) {
  while (!t.empty() && (t.back() == '+' || t.back() == '#' || t.back() == '!' || t.back() == '?')) {
    out.check_mark |= t.back() == '+';
    out.mate_mark |= t.back() == '#';
    t.remove_suffix(1);
  }
  if ((out.castle = read_castle(t))) return true;

  if (t.size() >= 3 && promotion_from_letter(t.back()) != NO_PIECE_TYPE &&
      (is_rank(t[t.size() - 2]) || t[t.size() - 2] == '=')) {
    out.promo = promotion_from_letter(t.back());
    t.remove_suffix(1);
    if (t.back() == '=') t.remove_suffix(1);
  }

  if (t.size() < 2 || !is_file(t[t.size() - 2]) || !is_rank(t.back())) return false;
  out.to = make_square(File(t[t.size() - 2] - 'a'), Rank(t.back() - '1'));
  t.remove_suffix(2);

  if (!t.empty() && (out.pt = piece_from_letter(t.front())) != NO_PIECE_TYPE)
    t.remove_prefix(1);
  else
    out.pt = PAWN;
  if (out.promo != NO_PIECE_TYPE && out.pt != PAWN) return false;

  if (!t.empty() && (t.back() == 'x' || t.back() == ':' || t.back() == '-')) {
    out.capture_mark = t.back() != '-';
    t.remove_suffix(1);
  }
  bool has_file = false;
  if (!t.empty() && is_file(t.front())) {
    out.from_mask &= file_bb(File(t.front() - 'a'));
    has_file = true;
    t.remove_prefix(1);
  }
  if (!t.empty() && is_rank(t.front())) {
    out.from_mask &= rank_bb(Rank(t.front() - '1'));
    t.remove_prefix(1);
  }
  if (!t.empty()) return false;

  // A pawn named by its destination alone ("e4") pushes straight up its file.
  if (out.pt == PAWN && !has_file) out.from_mask &= file_bb(file_of(out.to));
  return true;
}

// Collects the legal moves that fit a SAN text. Only the count and the last one found
// matter: one is the answer, more is an ambiguity.
struct MatchSink {
  const SanText& san;
  Bitboard to_bb;
  Move found = Move::none();
  int count = 0;

  void add(Move m) {
    found = m;
    ++count;
  }
  void piece_moves(PieceType p, Square from, Bitboard to) {
    if (p == san.pt && (to & to_bb) && (san.from_mask & square_bb(from))) add(Move(from, san.to));
  }
  void pawn_moves(Bitboard to, int step) {
    if (san.pt == PAWN && san.promo == NO_PIECE_TYPE && (to & to_bb) && (san.from_mask & square_bb(san.to - step)))
      add(Move(san.to - step, san.to));
  }
  void promotions(Bitboard to, int step) {
    if (san.pt == PAWN && san.promo != NO_PIECE_TYPE && (to & to_bb) && (san.from_mask & square_bb(san.to - step)))
      add(Move(san.to - step, san.to, PROMOTION, san.promo));
  }
  void en_passant(Square from, Square to) {
    if (san.pt == PAWN && san.promo == NO_PIECE_TYPE && to == san.to && (san.from_mask & square_bb(from)))
      add(Move(from, to, EN_PASSANT));
  }
  void castle(Square from, Square to) {
    if (san.castle == (to > from ? 1 : 2)) add(Move(from, to, CASTLING));
  }
};

// Whether the one legal move m that text names does what its marks say. The check is
// asked only of a text that marks one, and the mate (a search for a reply) only of '#'.
SanError marks_error(const Position& pos, Move m, const SanText& san) {
  if (san.capture_mark && m.kind() != EN_PASSANT && !(pos.pieces(~pos.side_to_move()) & square_bb(m.to())))
    return SanError::NO_CAPTURE;
  if (!san.check_mark && !san.mate_mark) return SanError::NONE;
  if (!pos.gives_check(m)) return san.mate_mark ? SanError::NO_MATE : SanError::NO_CHECK;
  if (san.mate_mark && has_legal_move(pos.after(m))) return SanError::NO_MATE;
  return SanError::NONE;
}

// UCI's shape: two squares and an optional promotion letter.
bool looks_like_uci(std::string_view t) {
  return (t.size() == 4 || t.size() == 5) && is_file(t[0]) && is_rank(t[1]) && is_file(t[2]) && is_rank(t[3]);
}

}  // namespace

std::string to_san(const Position& pos, Move m) {
  std::string s;
  Square from = m.from(), to = m.to();
  if (m.kind() == CASTLING)
    s = to > from ? "O-O" : "O-O-O";
  else {
    PieceType pt = type_of(pos.piece_on(from));
    bool capture = m.kind() == EN_PASSANT || (pos.pieces(~pos.side_to_move()) & square_bb(to));
    if (pt == PAWN) {
      if (capture) s += char('a' + file_of(from));
    } else {
      s += PIECE_LETTER[pt];
      if (pt != KING) append_disambiguation(pos, m, pt, s);
    }
    if (capture) s += 'x';
    s += char('a' + file_of(to));
    s += char('1' + rank_of(to));
    if (m.kind() == PROMOTION) {
      s += '=';
      s += PIECE_LETTER[m.promotion()];
    }
  }
  if (pos.gives_check(m)) s += has_legal_move(pos.after(m)) ? '+' : '#';
  return s;
}

std::optional<Move> parse_san(const Position& pos, std::string_view text, SanError& error) {
  SanText san;
  if (!read_san(text, san)) {
    error = SanError::SYNTAX;
    return std::nullopt;
  }
  MatchSink sink{san, san.castle ? 0 : square_bb(san.to)};
  generate_legal(pos, sink);
  error = sink.count == 1 ? marks_error(pos, sink.found, san) : sink.count ? SanError::AMBIGUOUS : SanError::ILLEGAL;
  if (error != SanError::NONE) return std::nullopt;
  return sink.found;
}

std::string san_refusal(SanError error, std::string_view text) {
  const std::string move = "move " + quoted(text);
  switch (error) {
    case SanError::SYNTAX: return "unreadable " + move;
    case SanError::ILLEGAL: return "illegal " + move;
    case SanError::AMBIGUOUS: return "ambiguous " + move;
    case SanError::NO_CAPTURE: return move + " marks a capture ('x') but captures nothing";
    case SanError::NO_CHECK: return move + " marks a check ('+') but gives no check";
    case SanError::NO_MATE: return move + " marks a mate ('#') but does not mate";
    case SanError::NONE: break;
  }
  return move;
}

std::optional<Move> parse_san(const Position& pos, std::string_view text) {
  SanError error;
  return parse_san(pos, text, error);
}

std::optional<Move> parse_move(const Position& pos, std::string_view text, SanError& error) {
  // parse_uci compares against every legal move's text; a SAN move never has UCI's shape
  // except a fully disambiguated pawn move, which means the same move in both.
  if (looks_like_uci(text))
    if (auto m = parse_uci(pos, text)) return error = SanError::NONE, m;
  return parse_san(pos, text, error);
}

std::optional<Move> parse_move(const Position& pos, std::string_view text) {
  SanError error;
  return parse_move(pos, text, error);
}

}  // namespace chess
