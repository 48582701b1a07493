#include "jobs/export/codecs.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/uci.h"

namespace chesshpc {

namespace {

// Bits written from bit 0 of byte 0 upwards, as Stockfish's BitStream writes them: bit k
// of the stream is bit k % 64 of little-endian word k / 64.
class BitWriter {
 public:
  // The low n bits (n <= 32) of value, least significant first.
  void put(unsigned value, int n) {
    const uint64_t v = uint64_t(value) & ((uint64_t(1) << n) - 1);
    words_[cursor_ / 64] |= v << (cursor_ % 64);
    if (cursor_ % 64 + n > 64) words_[cursor_ / 64 + 1] |= v >> (64 - cursor_ % 64);
    cursor_ += n;
  }
  void store(uint8_t* out) const {
    for (int i = 0; i < 32; ++i) out[i] = uint8_t(words_[i / 8] >> (8 * (i % 8)));
  }

 private:
  uint64_t words_[4] = {};
  int cursor_ = 0;
};

// The Huffman codes of pawn to queen (as values written least significant bit first) and
// their lengths; an empty square is a single 0.
struct HuffmanCode {
  unsigned code;
  int bits;
};
constexpr HuffmanCode PIECE_CODES[] = {{0b0001, 4}, {0b0011, 4}, {0b0101, 4}, {0b0111, 4}, {0b1001, 4}};

template <class T>
void put_le(uint8_t* at, T value) {
  for (size_t i = 0; i < sizeof(T); ++i) at[i] = uint8_t(uint64_t(value) >> (8 * i));
}

// .plain's keys, one a line, in the record's order; "e" ends the record.
constexpr std::string_view PLAIN_KEYS[] = {"fen", "move", "score", "ply", "result", "e"};
// EPD's operations as append_epd writes them: half-move clock, full-move number, score,
// result.
constexpr std::string_view EPD_OPS[] = {"hmvc", "fmvn", "ce", "c9"};
// The EPD standard's mate scale is 32767 minus the plies; Stockfish's is VALUE_MATE minus them.
constexpr int EPD_MATE_SHIFT = 32767 - VALUE_MATE;
// White's loss, draw and win, as EPD's c9 (PGN) and bullet's text write them.
constexpr std::string_view RESULT_TEXT[] = {"0-1", "1/2-1/2", "1-0"};
constexpr std::string_view BULLET_RESULT_TEXT[] = {"0.0", "0.5", "1.0"};

// -1, 0, 1 from the mover's view, as .bin and .plain write a result.
int signed_result(Wdl w) { return w == WDL_WIN ? 1 : w == WDL_LOSS ? -1 : 0; }

// -1, 0, 1 for White, as bullet's text and EPD's c9 write a result.
int white_result(const ExportPosition& p) {
  return p.pos.side_to_move() == chess::WHITE ? signed_result(p.wdl) : -signed_result(p.wdl);
}

void append_int(std::string& out, long v) {
  char buf[24];
  char* end = buf + sizeof buf;
  char* at = end;
  const bool negative = v < 0;
  unsigned long u = negative ? 0UL - (unsigned long)v : (unsigned long)v;
  do *--at = char('0' + u % 10);
  while (u /= 10);
  if (negative) *--at = '-';
  out.append(at, size_t(end - at));
}

// The FEN's first n space-separated fields.
std::string_view fen_fields(std::string_view fen, int n) {
  size_t at = 0;
  for (int i = 0; i < n && at != std::string_view::npos; ++i) at = fen.find(' ', at + (i ? 1 : 0));
  return at == std::string_view::npos ? fen : fen.substr(0, at);
}

}  // namespace

std::optional<chess::Move> decode_move(const chess::Position& pos, std::string_view uci) {
  using namespace chess;
  if (uci.size() != 4 && uci.size() != 5) return std::nullopt;
  const std::optional<Square> from = parse_square(uci.substr(0, 2)), to = parse_square(uci.substr(2, 2));
  if (!from || !to) return std::nullopt;
  const Piece pc = pos.piece_on(*from);
  if (pc == NO_PIECE || color_of(pc) != pos.side_to_move()) return std::nullopt;
  if (uci.size() == 5) {
    const size_t promo = std::string_view("nbrq").find(uci[4]);
    if (promo == std::string_view::npos) return std::nullopt;
    return Move(*from, *to, PROMOTION, PieceType(KNIGHT + promo));
  }
  if (type_of(pc) == KING) {
    if (pos.piece_on(*to) == make_piece(color_of(pc), ROOK)) return Move(*from, *to, CASTLING);  // Chess960
    if (!pos.is_chess960() && (file_of(*to) == FILE_G || file_of(*to) == FILE_C) && file_of(*from) == FILE_E)
      return Move(*from, make_square(file_of(*to) == FILE_G ? FILE_H : FILE_A, rank_of(*from)), CASTLING);
  }
  if (type_of(pc) == PAWN && *to == pos.ep_square()) return Move(*from, *to, EN_PASSANT);
  return Move(*from, *to);
}

int stockfish_score(double score_cp, int mate_in) {
  if (mate_in > 0) return VALUE_MATE - (2 * mate_in - 1);  // mating in N moves: 2N - 1 plies
  if (mate_in < 0) return -VALUE_MATE + 2 * -mate_in;      // mated in N moves: 2N plies
  if (std::isnan(score_cp)) return VALUE_NONE;
  return int(std::clamp(std::lround(score_cp), long(-MAX_CP_SCORE), long(MAX_CP_SCORE)));
}

int game_ply(const chess::Position& pos) {
  return std::max(2 * (pos.fullmove() - 1), 0) + (pos.side_to_move() == chess::BLACK);
}

uint16_t stockfish_move(chess::Move m) {
  static constexpr uint16_t KIND[] = {0, 1, 2, 3};  // NORMAL, PROMOTION, EN_PASSANT, CASTLING
  const unsigned promo = m.kind() == chess::PROMOTION ? unsigned(m.promotion() - chess::KNIGHT) : 0;
  return uint16_t((KIND[m.kind()] << 14) | (promo << 12) | (unsigned(m.from()) << 6) | unsigned(m.to()));
}

PackedSfen pack_sfen(const chess::Position& pos) {
  BitWriter w;
  w.put(pos.side_to_move() == chess::BLACK, 1);
  w.put(pos.king_square(chess::WHITE), 6);
  w.put(pos.king_square(chess::BLACK), 6);
  for (int rank = 7; rank >= 0; --rank) {
    for (int file = 0; file < 8; ++file) {
      const chess::Piece pc = pos.piece_on(chess::make_square(chess::File(file), chess::Rank(rank)));
      if (pc == chess::NO_PIECE) {
        w.put(0, 1);
      } else if (chess::type_of(pc) != chess::KING) {
        const HuffmanCode& c = PIECE_CODES[chess::type_of(pc)];
        w.put(c.code, c.bits);
        w.put(chess::color_of(pc) == chess::BLACK, 1);
      }
    }
  }
  const chess::CastlingRights cr = pos.castling();
  w.put((cr & chess::WHITE_OO) != 0, 1), w.put((cr & chess::WHITE_OOO) != 0, 1);
  w.put((cr & chess::BLACK_OO) != 0, 1), w.put((cr & chess::BLACK_OOO) != 0, 1);
  if (pos.ep_square() == chess::SQ_NONE) {
    w.put(0, 1);
  } else {
    w.put(1, 1);
    w.put(pos.ep_square(), 6);
  }
  const unsigned rule50 = unsigned(pos.rule50()), fullmove = unsigned(pos.fullmove());
  w.put(rule50, 6);
  w.put(fullmove, 8);
  w.put(fullmove >> 8, 8);
  w.put(rule50 >> 6, 1);
  PackedSfen out;
  w.store(out.data());
  return out;
}

BinRecord bin_record(const ExportPosition& p) {
  BinRecord out{};
  const PackedSfen sfen = pack_sfen(p.pos);
  std::copy(sfen.begin(), sfen.end(), out.begin());
  put_le(out.data() + BinLayout::SCORE, int16_t(p.score));
  put_le(out.data() + BinLayout::MOVE, stockfish_move(p.move));
  put_le(out.data() + BinLayout::PLY, uint16_t(game_ply(p.pos)));
  put_le(out.data() + BinLayout::RESULT, int8_t(signed_result(p.wdl)));
  return out;
}

BulletBoard bullet_board(const ExportPosition& p) {
  const chess::Color us = p.pos.side_to_move();
  // The mover's frame: for black, rank r becomes rank 7 - r (a byte swap of a bitboard).
  auto frame = [us](chess::Bitboard b) { return us == chess::WHITE ? b : __builtin_bswap64(b); };
  const chess::Bitboard ours = frame(p.pos.pieces(us)), theirs = frame(p.pos.pieces(~us));
  chess::Bitboard by_type[chess::PIECE_TYPE_NB];
  for (int pt = 0; pt < chess::PIECE_TYPE_NB; ++pt) by_type[pt] = frame(p.pos.pieces(chess::PieceType(pt)));
  BulletBoard out{};
  const uint64_t occ = ours | theirs;
  put_le(out.data(), occ);
  int idx = 0;
  for (uint64_t left = occ; left; left &= left - 1, ++idx) {
    const uint64_t bit = left & -left;
    int type = 0;
    while (!(by_type[type] & bit)) ++type;
    const unsigned nibble = unsigned((theirs & bit) ? 8 : 0) | unsigned(type);
    out[BulletLayout::PIECES + size_t(idx / 2)] |= uint8_t(nibble << (4 * (idx & 1)));
  }
  put_le(out.data() + BulletLayout::SCORE, int16_t(p.score));
  out[BulletLayout::RESULT] = uint8_t(signed_result(p.wdl) + 1);
  out[BulletLayout::OUR_KING] = uint8_t(std::countr_zero(ours & by_type[chess::KING]));
  out[BulletLayout::THEIR_KING] = uint8_t(std::countr_zero(theirs & by_type[chess::KING]) ^ 56);
  return out;
}

void append_plain(const ExportPosition& p, std::string& out) {
  out.append(PLAIN_KEYS[0]).append(" ").append(p.fen);
  out.append("\n").append(PLAIN_KEYS[1]).append(" ").append(p.move_uci);
  out.append("\n").append(PLAIN_KEYS[2]).append(" ");
  append_int(out, p.score);
  out.append("\n").append(PLAIN_KEYS[3]).append(" ");
  append_int(out, game_ply(p.pos));
  out.append("\n").append(PLAIN_KEYS[4]).append(" ");
  append_int(out, signed_result(p.wdl));
  out.append("\n").append(PLAIN_KEYS[5]).append("\n");
}

void append_bullet_text(const ExportPosition& p, std::string& out) {
  out.append(p.fen).append(" | ");
  append_int(out, p.pos.side_to_move() == chess::WHITE ? p.score : -p.score);
  out.append(" | ").append(BULLET_RESULT_TEXT[white_result(p) + 1]).append("\n");
}

void append_epd(const ExportPosition& p, std::string& out) {
  out.append(fen_fields(p.fen, 4)).append(" ").append(EPD_OPS[0]).append(" ");
  append_int(out, p.pos.rule50());
  out.append("; ").append(EPD_OPS[1]).append(" ");
  append_int(out, p.pos.fullmove());
  if (p.score != VALUE_NONE) {
    const int ce = p.score > MAX_CP_SCORE    ? p.score + EPD_MATE_SHIFT
                   : p.score < -MAX_CP_SCORE ? p.score - EPD_MATE_SHIFT
                                             : p.score;
    out.append("; ").append(EPD_OPS[2]).append(" ");
    append_int(out, ce);
  }
  if (p.wdl != WDL_NONE)
    out.append("; ").append(EPD_OPS[3]).append(" \"").append(RESULT_TEXT[white_result(p) + 1]).append("\"");
  out.append(";\n");
}

namespace {

// Bits read as BitWriter wrote them: bit k of the stream is bit k % 64 of little-endian
// word k / 64.
class BitReader {
 public:
  explicit BitReader(const uint8_t* in) {
    for (int i = 0; i < 32; ++i) words_[i / 8] |= uint64_t(in[i]) << (8 * (i % 8));
  }
  // The next n bits (n <= 32), the first the least significant.
  unsigned get(int n) {
    if (cursor_ + n > 256) throw RecordError("the packed position runs past its 32 bytes");
    const int at = cursor_ % 64;
    uint64_t v = words_[cursor_ / 64] >> at;
    if (at + n > 64) v |= words_[cursor_ / 64 + 1] << (64 - at);
    cursor_ += n;
    return unsigned(v & ((uint64_t(1) << n) - 1));
  }

 private:
  uint64_t words_[4] = {};
  int cursor_ = 0;
};

template <class T>
T get_le(const uint8_t* at) {
  uint64_t v = 0;
  for (size_t i = 0; i < sizeof(T); ++i) v |= uint64_t(at[i]) << (8 * i);
  return T(v);
}

Wdl wdl_of_signed(int r) { return r > 0 ? WDL_WIN : r < 0 ? WDL_LOSS : WDL_DRAW; }

// The mover's result from White's (-1, 0, 1).
Wdl mover_wdl(const chess::Position& pos, int white) {
  return wdl_of_signed(pos.side_to_move() == chess::WHITE ? white : -white);
}

chess::Position position_of_fen(std::string_view fen, bool any_variant) {
  try {
    return any_variant ? chess::Position::from_any_fen(fen) : chess::Position::from_fen(fen);
  } catch (const chess::FenError& e) {
    throw RecordError("position '" + std::string(fen) + "': " + e.what());
  }
}

// A whole decimal integer, or a RecordError naming what.
long parse_long(std::string_view text, std::string_view what) {
  long v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc() || ptr != end || text.empty())
    throw RecordError(std::string(what) + " '" + std::string(text.substr(0, 32)) + "' is no whole number");
  return v;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// The index of text in a table of names, or -1.
template <size_t N>
int index_in(const std::string_view (&names)[N], std::string_view text) {
  for (size_t i = 0; i < N; ++i)
    if (names[i] == text) return int(i);
  return -1;
}

// A move in UCI read from its squares; "0000" and "(none)" are none.
chess::Move read_uci_move(const chess::Position& pos, std::string_view text) {
  if (text == "0000" || text == "(none)") return chess::Move::none();
  const std::optional<chess::Move> m = decode_move(pos, text);
  if (!m) throw RecordError("move '" + std::string(text.substr(0, 16)) + "' names no move of the side to move");
  return *m;
}

// The position of a binary record's bitboards (clocks 0 and 1, no en passant), checked as a
// FEN is (Position::validate) before anything else reads it: fen() and king_square() may
// assume what validate() checks, and damaged bytes hold anything.
chess::Position checked_position(const chess::Bitboard (&by_type)[chess::PIECE_TYPE_NB], chess::Bitboard black,
                                 chess::Color side, chess::CastlingRights rights) {
  const chess::Position pos = chess::Position::from_bitboards(by_type, black, side, rights, chess::SQ_NONE, true);
  try {
    pos.validate();
  } catch (const chess::FenError& e) {
    throw RecordError(std::string("position: ") + e.what());
  }
  return pos;
}

}  // namespace

chess::Move move_of_stockfish(uint16_t raw) {
  if (raw == 0) return chess::Move::none();
  return chess::Move(chess::Square(raw >> 6 & 63), chess::Square(raw & 63), chess::MoveKind(raw >> 14),
                     chess::PieceType(chess::KNIGHT + (raw >> 12 & 3)));
}

// The position is built from its bitboards (checked_position), without the detour through
// FEN text (half the reading time of a .bin); one with an en-passant square goes through
// FEN, which keeps the square only where a capture is legal.
chess::Position unpack_sfen(const uint8_t* bytes) {
  using namespace chess;
  BitReader r(bytes);
  const Color side = r.get(1) ? BLACK : WHITE;
  const unsigned king[2] = {r.get(6), r.get(6)};
  Bitboard by_type[PIECE_TYPE_NB] = {}, black = square_bb(Square(king[1]));
  by_type[KING] = square_bb(Square(king[0])) | square_bb(Square(king[1]));
  for (int rank = 7; rank >= 0; --rank) {
    for (int file = 0; file < 8; ++file) {
      const unsigned sq = unsigned(8 * rank + file);
      if (sq == king[0] || sq == king[1] || !r.get(1)) continue;
      const unsigned code = 1 | r.get(3) << 1;
      int type = 0;
      while (type < 5 && PIECE_CODES[type].code != code) ++type;
      if (type == 5) throw RecordError("piece code " + std::to_string(code) + " names no piece");
      by_type[type] |= square_bb(Square(sq));
      if (r.get(1)) black |= square_bb(Square(sq));
    }
  }
  unsigned rights = 0;
  for (int i = 0; i < 4; ++i) rights |= r.get(1) << i;  // K, Q, k, q: WHITE_OO ... BLACK_OOO
  const bool has_ep = r.get(1);
  const unsigned ep = has_ep ? r.get(6) : 0;
  unsigned rule50 = r.get(6);
  unsigned fullmove = r.get(8);
  fullmove |= r.get(8) << 8;
  rule50 |= r.get(1) << 6;
  if (king[0] == king[1]) throw RecordError("both kings on " + square_to_string(Square(king[0])));
  const Position pos = checked_position(by_type, black, side, CastlingRights(rights))
                           .with_clocks(int(rule50), std::max(1, int(fullmove)));
  if (has_ep) {
    std::string fen = pos.fen();
    const size_t dash = fen.rfind(" - ");
    fen.replace(dash + 1, 1, square_to_string(Square(ep)));
    return position_of_fen(fen, false);
  }
  return pos;
}

DecodedPosition read_bin_record(const uint8_t* bytes) {
  DecodedPosition d;
  d.pos = unpack_sfen(bytes);
  d.score = get_le<int16_t>(bytes + BinLayout::SCORE);
  d.move = move_of_stockfish(get_le<uint16_t>(bytes + BinLayout::MOVE));
  d.ply = get_le<uint16_t>(bytes + BinLayout::PLY);
  const int result = get_le<int8_t>(bytes + BinLayout::RESULT);
  if (result < -1 || result > 1) throw RecordError("game_result " + std::to_string(result) + " is not -1, 0 or 1");
  d.wdl = wdl_of_signed(result);
  return d;
}

DecodedPosition read_bullet_board(const uint8_t* bytes) {
  using namespace chess;
  const uint64_t occ = get_le<uint64_t>(bytes);
  if (std::popcount(occ) > 32) throw RecordError(std::to_string(std::popcount(occ)) + " pieces, more than 32");
  // The mover's pieces as White's, the opponent's (bit 3 of a nibble) as Black's.
  Bitboard by_type[PIECE_TYPE_NB] = {}, black = 0;
  int idx = 0;
  for (uint64_t left = occ; left; left &= left - 1, ++idx) {
    const unsigned nibble = bytes[BulletLayout::PIECES + size_t(idx / 2)] >> (4 * (idx & 1)) & 15;
    if ((nibble & 7) > 5) throw RecordError("piece code " + std::to_string(nibble) + " names no piece");
    const Bitboard bit = left & -left;
    by_type[nibble & 7] |= bit;
    if (nibble & 8) black |= bit;
  }
  DecodedPosition d;
  d.pos = checked_position(by_type, black, WHITE, NO_CASTLING);
  if (bytes[BulletLayout::OUR_KING] != d.pos.king_square(WHITE) ||
      (bytes[BulletLayout::THEIR_KING] ^ 56) != d.pos.king_square(BLACK))
    throw RecordError("the king squares " + std::to_string(bytes[BulletLayout::OUR_KING]) + " and " +
                      std::to_string(bytes[BulletLayout::THEIR_KING]) + " are not the kings' of the board");
  d.score = get_le<int16_t>(bytes + BulletLayout::SCORE);
  const int result = bytes[BulletLayout::RESULT];
  if (result > 2) throw RecordError("result " + std::to_string(result) + " is not 0, 1 or 2");
  d.wdl = wdl_of_signed(result - 1);
  return d;
}

DecodedPosition read_plain(std::string_view record) {
  std::string_view values[std::size(PLAIN_KEYS)];
  bool seen[std::size(PLAIN_KEYS)] = {};
  while (!record.empty()) {
    const size_t eol = record.find('\n');
    const std::string_view line = trim(record.substr(0, eol));
    record = eol == std::string_view::npos ? std::string_view() : record.substr(eol + 1);
    if (line.empty()) continue;
    const size_t space = line.find(' ');
    const int key = index_in(PLAIN_KEYS, line.substr(0, space));
    if (key < 0) throw RecordError("line '" + std::string(line.substr(0, 32)) + "' has no key of a .plain record");
    values[key] = space == std::string_view::npos ? std::string_view() : trim(line.substr(space + 1));
    seen[key] = true;
  }
  for (size_t k = 0; k < std::size(PLAIN_KEYS); ++k)
    if (!seen[k]) throw RecordError("the record has no '" + std::string(PLAIN_KEYS[k]) + "' line");
  DecodedPosition d;
  d.pos = position_of_fen(std::string(values[0]), true);
  d.move = read_uci_move(d.pos, values[1]);
  d.score = int(std::clamp(parse_long(values[2], "score"), -100000L, 100000L));
  d.ply = int(std::clamp(parse_long(values[3], "ply"), -1L, 100000L));
  const long result = parse_long(values[4], "result");
  if (result < -1 || result > 1) throw RecordError("result " + std::to_string(result) + " is not -1, 0 or 1");
  d.wdl = wdl_of_signed(int(result));
  return d;
}

DecodedPosition read_bullet_text(std::string_view line) {
  const size_t a = line.find('|'), b = a == std::string_view::npos ? a : line.find('|', a + 1);
  if (b == std::string_view::npos) throw RecordError("the line is not 'FEN | score | result'");
  DecodedPosition d;
  d.pos = position_of_fen(std::string(trim(line.substr(0, a))), true);
  const long white_score = parse_long(trim(line.substr(a + 1, b - a - 1)), "score");
  d.score = int(std::clamp(d.pos.side_to_move() == chess::WHITE ? white_score : -white_score, -100000L, 100000L));
  const int result = index_in(BULLET_RESULT_TEXT, trim(line.substr(b + 1)));
  if (result < 0)
    throw RecordError("result '" + std::string(trim(line.substr(b + 1)).substr(0, 16)) + "' is not 1.0, 0.5 or 0.0");
  d.wdl = mover_wdl(d.pos, result - 1);
  return d;
}

DecodedPosition read_epd(std::string_view line) {
  line = trim(line);
  size_t at = 0;
  for (int field = 0; field < 4; ++field) {
    at = line.find(' ', at + (field ? 1 : 0));
    if (at == std::string_view::npos) {
      if (field == 3)
        at = line.size();
      else
        throw RecordError("the line has fewer than the EPD's four fields");
    }
  }
  std::string_view ops = line.substr(at);
  std::string_view values[std::size(EPD_OPS)];
  bool seen[std::size(EPD_OPS)] = {};
  while (!(ops = trim(ops)).empty()) {
    const size_t semi = ops.find(';');
    const std::string_view op = trim(ops.substr(0, semi));
    ops = semi == std::string_view::npos ? std::string_view() : ops.substr(semi + 1);
    const size_t space = op.find(' ');
    const int k = index_in(EPD_OPS, op.substr(0, space));
    if (k < 0) continue;  // an operation these records do not carry (id, bm, ...)
    values[k] = space == std::string_view::npos ? std::string_view() : trim(op.substr(space + 1));
    seen[k] = true;
  }
  std::string fen(line.substr(0, at));  // appended piecewise: GCC 12 warns falsely (-Wrestrict) on chains of operator+
  fen.append(" ").append(seen[0] ? values[0] : "0").append(" ").append(seen[1] ? values[1] : "1");
  DecodedPosition d;
  d.pos = position_of_fen(fen, true);
  if (seen[2]) {
    const long ce = parse_long(values[2], "ce");
    d.score = int(ce > MAX_CP_SCORE + EPD_MATE_SHIFT    ? ce - EPD_MATE_SHIFT
                  : ce < -MAX_CP_SCORE - EPD_MATE_SHIFT ? ce + EPD_MATE_SHIFT
                                                        : std::clamp(ce, -100000L, 100000L));
  }
  if (seen[3]) {
    std::string_view text = values[3];
    if (text.size() >= 2 && text.front() == '"' && text.back() == '"') text = text.substr(1, text.size() - 2);
    const int result = index_in(RESULT_TEXT, text);
    if (result < 0) throw RecordError("c9 '" + std::string(text.substr(0, 16)) + "' is not 1-0, 0-1 or 1/2-1/2");
    d.wdl = mover_wdl(d.pos, result - 1);
  }
  return d;
}

}  // namespace chesshpc
