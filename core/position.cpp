#include "core/position.h"

#include "core/quote.h"
#include "core/uci.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <vector>

namespace chess {

namespace {

constexpr std::string_view PIECE_CHARS = "PNBRQK  pnbrqk";
constexpr const char* FIELD_NAMES[] = {"field count", "piece placement", "side to move", "castling",
                                       "en passant",  "half-move clock", "move number"};

std::vector<std::string_view> split_fields(std::string_view s) {
  std::vector<std::string_view> fields;
  size_t i = 0;
  while (true) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    if (i == s.size()) break;
    size_t j = s.find_first_of(" \t", i);
    if (j == std::string_view::npos) j = s.size();
    fields.push_back(s.substr(i, j - i));
    i = j;
  }
  return fields;
}

[[noreturn]] void fail(int field, const std::string& what) { throw FenError(field, what); }

using chess::quoted;  // beside the one-letter quote below, not hidden by it
std::string quoted(char c) { return quoted(std::string_view(&c, 1)); }

int parse_clock(std::string_view text, int field) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0)
    fail(field, quoted(text) + " is not a non-negative number");
  if (value > Position::CLOCK_MAX)
    fail(field, quoted(text) + " is out of range (at most " + std::to_string(Position::CLOCK_MAX) + ")");
  return value;
}

}  // namespace

FenError::FenError(int field, const std::string& what)
    : std::runtime_error(std::string("bad FEN: ") + FIELD_NAMES[field] + ": " + what), field_(field) {}

void Position::put_piece(Color c, PieceType pt, Square s) {
  by_color_[c] |= square_bb(s);
  by_type_[pt] |= square_bb(s);
}

std::string Position::chess960_back_rank(int n) {
  if (n < 0 || n > 959) return {};
  // The standard numbering (Scharnagl): n picks the light-squared bishop (b, d, f, h), the
  // dark-squared one (a, c, e, g), the queen among the 6 squares left, the knights among the
  // 5 left (10 ways, in this order); rook, king and rook fill the last three.
  constexpr int KNIGHTS[10][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}};
  std::string rank(8, ' ');
  rank[size_t(2 * (n % 4) + 1)] = 'B', n /= 4;
  rank[size_t(2 * (n % 4))] = 'B', n /= 4;
  auto put_on_empty = [&](int k, char piece) {  // on the k-th empty square, from a
    for (char& c : rank)
      if (c == ' ' && k-- == 0) return void(c = piece);
  };
  put_on_empty(n % 6, 'Q'), n /= 6;
  put_on_empty(KNIGHTS[n][1], 'N'), put_on_empty(KNIGHTS[n][0], 'N');
  for (char piece : {'R', 'K', 'R'}) put_on_empty(0, piece);
  return rank;
}

namespace {

// The number that ends text, 0 to 959, or -1.
int start_number(std::string_view text) {
  int n = -1;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  return ec == std::errc() && end == text.data() + text.size() && !text.empty() && n >= 0 && n <= 959 ? n : -1;
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// "chess960:N" or "dfrc:W,B" as a FEN, or the text itself when it is neither.
std::string named_start(std::string_view text) {
  int white = -1, black = -1;
  if (text.starts_with("chess960:")) {
    white = black = start_number(text.substr(9));
    if (white < 0) fail(1, quoted(text) + ": a Chess960 start position is a number from 0 to 959");
  } else if (text.starts_with("dfrc:")) {
    std::string_view numbers = text.substr(5);
    size_t comma = numbers.find(',');
    if (comma != std::string_view::npos)
      white = start_number(numbers.substr(0, comma)), black = start_number(numbers.substr(comma + 1));
    if (white < 0 || black < 0)
      fail(1, quoted(text) + ": a Double Fischer Random start is dfrc:W,B, two numbers from 0 to 959");
  } else {
    return std::string(text);
  }
  return lower(Position::chess960_back_rank(black)) + "/pppppppp/8/8/8/8/PPPPPPPP/" +
         Position::chess960_back_rank(white) + " w KQkq - 0 1";
}

}  // namespace

Position Position::from_fen(std::string_view text, bool chess960) {
  if (text == "startpos") text = START_FEN;
  if (text.starts_with("chess960:") || text.starts_with("dfrc:")) chess960 = true;
  const std::string named = named_start(text);
  std::string_view fen = named;
  std::vector<std::string_view> f = split_fields(fen);
  if (f.size() != 6 && f.size() != 4)
    fail(0, "expected 6 fields (or 4 without the clocks), got " + std::to_string(f.size()));

  Position pos;
  pos.chess960_ = chess960;
  // Field 1: ranks 8 down to 1, separated by '/'.
  int rank = 7, file = 0;
  for (char ch : f[0]) {
    if (ch == '/') {
      if (file != 8) fail(1, "rank " + std::to_string(rank + 1) + " has " + std::to_string(file) + " squares, not 8");
      if (--rank < 0) fail(1, "more than 8 ranks");
      file = 0;
    } else if (ch >= '1' && ch <= '8') {
      file += ch - '0';
    } else if (ch == '0' || ch == '9') {
      // Not a piece letter either; saying so would hide that the count is what is wrong.
      fail(1, quoted(ch) + " is not a count of 1 to 8 empty squares");
    } else {
      size_t idx = PIECE_CHARS.find(ch);
      if (idx == std::string_view::npos || ch == ' ') fail(1, "unknown piece letter " + quoted(ch));
      if (file < 8) pos.put_piece(Color(idx >> 3), PieceType(idx & 7), make_square(File(file), Rank(rank)));
      ++file;
    }
    if (file > 8) fail(1, "rank " + std::to_string(rank + 1) + " has more than 8 squares");
  }
  if (file != 8) fail(1, "rank " + std::to_string(rank + 1) + " has " + std::to_string(file) + " squares, not 8");
  if (rank != 0) fail(1, "only " + std::to_string(8 - rank) + " ranks, not 8");

  // Field 2.
  if (f[1] != "w" && f[1] != "b") fail(2, quoted(f[1]) + " is neither 'w' nor 'b'");
  pos.side_ = f[1] == "w" ? WHITE : BLACK;

  // Field 4: checked for plausibility after the pieces are known.
  if (f[3] != "-") {
    std::optional<Square> ep = parse_square(f[3]);
    if (!ep) fail(4, quoted(f[3]) + " is not a square");
    pos.ep_ = *ep;
  }

  if (f.size() == 6) {
    pos.rule50_ = uint16_t(parse_clock(f[4], 5));
    pos.fullmove_ = uint16_t(std::max(1, parse_clock(f[5], 6)));
  }

  pos.validate_pieces();
  // Field 3, once the kings and rooks are known.
  pos.read_castling(f[2]);
  pos.validate_rest();

  // Keep the en-passant square only where the capture is legal: that is what makes two
  // positions the same for repetition and for the key.
  if (pos.ep_ != SQ_NONE) {
    Square ep = Square(pos.ep_);
    Bitboard capturers = PAWN_ATTACKS[~pos.side_to_move()][ep] & pos.pieces(pos.side_to_move(), PAWN);
    bool legal = false;
    while (capturers && !legal) legal = pos.ep_capture_legal(pop_lsb(capturers));
    if (!legal) pos.ep_ = SQ_NONE;
  }
  pos.key_ = pos.compute_key();
  return pos;
}

std::string Position::clock_overflow() const {
  if (fullmove_ == CLOCK_MAX && side_ == BLACK)
    return "the move number would pass " + std::to_string(CLOCK_MAX) + ", the most chesshpc keeps";
  if (rule50_ == CLOCK_MAX)
    return "the half-move clock would pass " + std::to_string(CLOCK_MAX) + ", the most chesshpc keeps";
  return {};
}

FenStyle fen_style_of(std::string_view fen) {
  const std::vector<std::string_view> f = split_fields(fen);
  if (f.size() < 3 || f[2] == "-") return FenStyle::XFEN;
  for (char c : f[2])
    if (std::string_view("KQkq").find(c) != std::string_view::npos) return FenStyle::XFEN;
  return FenStyle::SHREDDER;
}

Position Position::from_any_fen(std::string_view fen) {
  try {
    return from_fen(fen);
  } catch (const FenError& e) {
    if (e.field() != 3) throw;
  }
  return from_fen(fen, true);
}

Position Position::from_bitboards(const Bitboard (&by_type)[PIECE_TYPE_NB], Bitboard black, Color side,
                                  CastlingRights castling, Square ep, bool with_key, const CastlingSetup& setup) {
  Position pos;
  Bitboard occupied = 0;
  for (int pt = PAWN; pt <= KING; ++pt) pos.by_type_[pt] = by_type[pt], occupied |= by_type[pt];
  pos.by_color_[BLACK] = black;
  pos.by_color_[WHITE] = occupied & ~black;
  pos.side_ = side, pos.castling_ = castling, pos.ep_ = ep, pos.chess960_ = setup.chess960;
  for (int i = 0; i < 4; ++i)
    if (castling >> i & 1) {
      const Color c = Color(i >> 1);
      pos.castle_mask_ |= pos.pieces(c, KING) | square_bb(make_square(setup.rook_file[i], relative_rank(c, RANK_1)));
    }
  if (with_key) pos.key_ = pos.compute_key();
  return pos;
}

CastlingSetup Position::castling_setup() const {
  CastlingSetup setup;
  setup.chess960 = chess960_;
  for (int i = 0; i < 4; ++i)
    if (castling_ >> i & 1) setup.rook_file[i] = file_of(castling_rook_square(CastlingRights(1 << i)));
  return setup;
}

void Position::read_castling(std::string_view field) {
  if (field == "-") return;
  if (!chess960_) {
    // Standard chess: any order of KQkq, for a king on e1/e8 and rooks in the corners.
    constexpr Square squares[4][2] = {{SQ_E1, SQ_H1}, {SQ_E1, SQ_A1}, {SQ_E8, SQ_H8}, {SQ_E8, SQ_A8}};
    for (char ch : field) {
      size_t idx = std::string_view("KQkq").find(ch);
      if (idx == std::string_view::npos) fail(3, "unknown castling letter " + quoted(ch));
      if (castling_ & (1 << idx)) fail(3, quoted(ch) + " given twice");
      castling_ |= uint8_t(1 << idx);
      castle_mask_ |= square_bb(squares[idx][0]) | square_bb(squares[idx][1]);
    }
    validate_castling();
    return;
  }

  // Chess960: X-FEN's KQkq (the outermost rook on that side of the king) and file letters
  // (Shredder-FEN, or X-FEN's inner rook), in any order and mix.
  Square rook_of[4] = {SQ_NONE, SQ_NONE, SQ_NONE, SQ_NONE};
  char letter_of[4] = {};
  for (char ch : field) {
    const char up = char(std::toupper(static_cast<unsigned char>(ch)));
    if (up != 'K' && up != 'Q' && (up < 'A' || up > 'H')) fail(3, "unknown castling letter " + quoted(ch));
    const Color c = ch == up ? WHITE : BLACK;
    const std::string side = c == WHITE ? "white" : "black";
    const Rank back = relative_rank(c, RANK_1);
    const Square ksq = king_square(c);
    if (rank_of(ksq) != back)
      fail(3, quoted(ch) + " but the " + side + " king is on " + square_to_string(ksq) + ", not on its back rank " +
                  char('1' + back));
    const Bitboard rooks = pieces(c, ROOK) & rank_bb(back);
    Square rook;
    if (up == 'K' || up == 'Q') {
      const Bitboard beyond = up == 'K' ? rooks & ~(2 * square_bb(ksq) - 1) : rooks & (square_bb(ksq) - 1);
      if (!beyond)
        fail(3, quoted(ch) + " but no " + side + " rook on rank " + char('1' + back) + " on the " +
                    (up == 'K' ? "h" : "a") + " side of the king on " + square_to_string(ksq));
      rook = up == 'K' ? msb(beyond) : lsb(beyond);
    } else {
      rook = make_square(File(up - 'A'), back);
      if (piece_on(rook) != make_piece(c, ROOK))
        fail(3, quoted(ch) + " but no " + side + " rook on " + square_to_string(rook));
    }
    const int i = 2 * c + (rook < ksq);
    if (rook_of[i] == rook) fail(3, quoted(ch) + " given twice (" + quoted(letter_of[i]) + " names the same rook)");
    if (rook_of[i] != SQ_NONE)
      fail(3, quoted(letter_of[i]) + " and " + quoted(ch) + " both name a rook on the " + (rook > ksq ? "h" : "a") +
                  " side of the " + side + " king on " + square_to_string(ksq) +
                  ": a king castles with one rook on each side of it");
    rook_of[i] = rook, letter_of[i] = ch;
    castling_ |= uint8_t(1 << i);
    castle_mask_ |= square_bb(ksq) | square_bb(rook);
  }
}

// The material a game can reach: 8 pawns and 8 pieces a side at the start, a capture only
// removes, and each promotion turns one pawn into one piece. Nothing else can be a position
// of a game, and the fixed-size buffers rely on it: no such position has more than 218
// legal moves (MoveList) or 32 pieces (pack()).
void Position::validate_material() const {
  constexpr int START_COUNT[PIECE_TYPE_NB] = {8, 2, 2, 2, 1, 1};  // by PieceType, pawn to king
  for (Color c : {WHITE, BLACK}) {
    const std::string side = c == WHITE ? "white" : "black";
    const int pawns = popcount(pieces(c, PAWN)), total = popcount(pieces(c));
    if (pawns > START_COUNT[PAWN]) fail(1, side + " has " + std::to_string(pawns) + " pawns, more than 8");
    if (total > 16) fail(1, side + " has " + std::to_string(total) + " pieces and pawns, more than 16");
    int promoted = 0;  // at least: pieces beyond those of the start position
    for (PieceType pt : {KNIGHT, BISHOP, ROOK, QUEEN})
      promoted += std::max(0, popcount(pieces(c, pt)) - START_COUNT[pt]);
    if (promoted > START_COUNT[PAWN] - pawns)
      fail(1, side + " has " + std::to_string(promoted) +
                  " promoted pieces (beyond 1 queen, 2 rooks, 2 bishops, 2 knights) but with " + std::to_string(pawns) +
                  " pawns left at most " + std::to_string(START_COUNT[PAWN] - pawns) + " can have promoted");
  }
}

void Position::validate_pieces() const {
  for (Color c : {WHITE, BLACK}) {
    int kings = popcount(pieces(c, KING));
    if (kings != 1)
      fail(1, std::string(c == WHITE ? "white" : "black") + " has " + std::to_string(kings) + " kings, not 1");
  }
  if (Bitboard misplaced = pieces(PAWN) & (RANK_1_BB | RANK_8_BB)) {
    Square s = lsb(misplaced);
    fail(1, "pawn on " + square_to_string(s) + ": no pawn can stand on rank " + char('1' + rank_of(s)));
  }
  validate_material();
}

void Position::validate() const {
  validate_pieces();
  validate_castling();
  validate_rest();
}

// Each right's king and rook where the right needs them: standard chess's in their start
// squares, Chess960's on the back rank with the right's rook (the mask's) on its side of
// the king.
void Position::validate_castling() const {
  for (int i = 0; i < 4; ++i) {
    if (!(castling_ >> i & 1)) continue;
    const Color c = Color(i >> 1);
    const char letter = "KQkq"[i];
    const bool king_side = !(i & 1);
    const Rank back = relative_rank(c, RANK_1);
    const Square ksq = king_square(c);
    if (!chess960_) {
      const Square king = make_square(FILE_E, back), rook = make_square(king_side ? FILE_H : FILE_A, back);
      if (ksq != king) fail(3, quoted(letter) + " but no king on " + square_to_string(king));
      if (piece_on(rook) != make_piece(c, ROOK)) fail(3, quoted(letter) + " but no rook on " + square_to_string(rook));
      continue;
    }
    const std::string side = c == WHITE ? "white" : "black";
    if (rank_of(ksq) != back)
      fail(3, quoted(letter) + " but the " + side + " king is on " + square_to_string(ksq) + ", not on its back rank " +
                  char('1' + back));
    const Bitboard k = square_bb(ksq), rooks = castle_mask_ & rank_bb(back) & (king_side ? ~(2 * k - 1) : k - 1);
    if (popcount(rooks) != 1 || piece_on(lsb(rooks)) != make_piece(c, ROOK))
      fail(3, quoted(letter) + " but no " + side + " rook on rank " + char('1' + back) + " on the " +
                  (king_side ? "h" : "a") + " side of the king on " + square_to_string(ksq));
  }
}

void Position::validate_rest() const {
  if (ep_ != SQ_NONE) {
    // The side that just moved pushed a pawn two squares through ep_.
    Color mover = ~side_to_move();
    Square ep = Square(ep_);
    Square pawn = ep + pawn_push(mover), origin = ep - pawn_push(mover);
    std::string name = square_to_string(ep);
    if (relative_rank(mover, ep) != RANK_3)
      fail(4, name + " is not on the rank a double push by " + (mover == WHITE ? "white" : "black") + " passes");
    if (piece_on(pawn) != make_piece(mover, PAWN))
      fail(4, name + " but no " + (mover == WHITE ? "white" : "black") + " pawn on " + square_to_string(pawn));
    if (pieces() & square_bb(ep)) fail(4, name + " is occupied, so no pawn can have passed over it");
    if (pieces() & square_bb(origin))
      fail(4, name + " but " + square_to_string(origin) + " is occupied, so no pawn can have just left it");
  }

  Color them = ~side_to_move();
  if (attackers_to(king_square(them), pieces()) & pieces(side_to_move()))
    fail(2, std::string(them == WHITE ? "white" : "black") + " is in check but " + (them == WHITE ? "black" : "white") +
                " is to move");
}

// Written into a buffer rather than appended to a string char by char: export writes a FEN
// per position, and this takes 160 ns where the appends took 230 (perf record of an epd
// export of 199 K positions).
std::string Position::fen(FenStyle style) const {
  char buf[FEN_MAX_BYTES];
  return std::string(buf, write_fen(buf, style));
}

size_t Position::write_fen(char* out, FenStyle style) const {
  char* s = out;
  // The occupied squares of each rank in file order, the empty ones between as digits.
  const PiecePlanes planes = piece_planes();
  for (int r = 7; r >= 0; --r) {
    int file = 0;
    for (Bitboard b = planes.occupied & rank_bb(Rank(r)); b;) {
      const Square sq = pop_lsb(b);
      if (const int f = file_of(sq); f > file) *s++ = char('0' + f - file);
      *s++ = PIECE_CHARS[planes.on_occupied(sq)];
      file = file_of(sq) + 1;
    }
    if (file < 8) *s++ = char('0' + 8 - file);
    *s++ = r ? '/' : ' ';
  }
  *s++ = side_ == WHITE ? 'w' : 'b';
  *s++ = ' ';
  if (!castling_) *s++ = '-';
  for (int i = 0; i < 4; ++i) {
    if (!(castling_ & (1 << i))) continue;
    const Color c = Color(i >> 1);
    const Square rook = castling_rook_square(CastlingRights(1 << i));
    // X-FEN's K or Q names the outermost rook on that side; an inner one needs its file.
    const Bitboard rooks = pieces(c, ROOK) & rank_bb(rank_of(rook));
    const Bitboard outer = i & 1 ? rooks & (square_bb(rook) - 1) : rooks & ~(2 * square_bb(rook) - 1);
    char letter = style == FenStyle::XFEN && !outer ? "KQ"[i & 1] : char('A' + file_of(rook));
    *s++ = c == WHITE ? letter : char(std::tolower(letter));
  }
  *s++ = ' ';
  if (ep_ == SQ_NONE)
    *s++ = '-';
  else
    *s++ = char('a' + file_of(Square(ep_))), *s++ = char('1' + rank_of(Square(ep_)));
  for (unsigned clock : {unsigned(rule50_), unsigned(fullmove_)}) {
    char digits[8];
    int n = 0;
    do digits[n++] = char('0' + clock % 10);
    while (clock /= 10);
    *s++ = ' ';
    while (n) *s++ = digits[--n];
  }
  return size_t(s - out);
}

Key Position::compute_key() const {
  const auto& z = zobrist::keys;
  Key k = 0;
  for (Color c : {WHITE, BLACK})
    for (int pt = PAWN; pt <= KING; ++pt)
      for (Bitboard b = pieces(c, PieceType(pt)); b;) k ^= z.psq[c][pt][pop_lsb(b)];
  k ^= z.castling[castling_];
  if (ep_ != SQ_NONE) k ^= z.en_passant[file_of(Square(ep_))];
  if (side_ == BLACK) k ^= z.side;
  return k;
}

void Position::do_move(Move m) {
  Square from = m.from();
  PieceType pt = type_of(piece_on(from));
  if (side_to_move() == WHITE)
    apply<WHITE>(from, m.to(), pt, m.kind(), m.promotion());
  else
    apply<BLACK>(from, m.to(), pt, m.kind(), m.promotion());
}

bool Position::gives_check(Move m) const {
  Color us = side_to_move();
  Square from = m.from(), to = m.to(), ksq = king_square(~us);
  if (m.kind() == CASTLING) {
    // Only the castled rook, or a slider the king or rook uncovers, can check.
    auto [kto, rto] = castling_destinations(from, to);
    Bitboard occupied = (pieces() ^ square_bb(from) ^ square_bb(to)) | square_bb(kto) | square_bb(rto);
    Bitboard orth = (pieces(us, ROOK, QUEEN) & ~square_bb(to)) | square_bb(rto);
    return (rook_attacks(ksq, occupied) & orth) || (bishop_attacks(ksq, occupied) & pieces(us, BISHOP, QUEEN));
  }
  PieceType moved = type_of(piece_on(from));
  PieceType arrives = m.kind() == PROMOTION ? m.promotion() : moved;
  Bitboard occupied = (pieces() ^ square_bb(from)) | square_bb(to);
  Bitboard mine[PIECE_TYPE_NB];
  for (int pt = PAWN; pt <= KING; ++pt) mine[pt] = pieces(us, PieceType(pt)) & ~square_bb(from);
  mine[arrives] |= square_bb(to);
  if (m.kind() == EN_PASSANT) occupied ^= square_bb(to - pawn_push(us));
  return (bishop_attacks(ksq, occupied) & (mine[BISHOP] | mine[QUEEN])) ||
         (rook_attacks(ksq, occupied) & (mine[ROOK] | mine[QUEEN])) || (KNIGHT_ATTACKS[ksq] & mine[KNIGHT]) ||
         (PAWN_ATTACKS[~us][ksq] & mine[PAWN]);
}

void Position::do_null_move() {
  if (ep_ != SQ_NONE) key_ ^= zobrist::keys.en_passant[file_of(Square(ep_))];
  ep_ = SQ_NONE;
  key_ ^= zobrist::keys.side;
  ++rule50_;
  fullmove_ += side_ == BLACK;
  side_ ^= 1;
}

bool Position::operator==(const Position& o) const {
  return by_color_[WHITE] == o.by_color_[WHITE] && by_color_[BLACK] == o.by_color_[BLACK] &&
         std::equal(by_type_, by_type_ + PIECE_TYPE_NB, o.by_type_) && side_ == o.side_ && ep_ == o.ep_ &&
         castling_ == o.castling_ && castle_mask_ == o.castle_mask_ && chess960_ == o.chess960_ &&
         rule50_ == o.rule50_ && fullmove_ == o.fullmove_;
}

}  // namespace chess
