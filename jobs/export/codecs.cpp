#include "jobs/export/codecs.h"

#include <algorithm>
#include <bit>
#include <cmath>
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
  put_le(out.data() + 32, int16_t(p.score));
  put_le(out.data() + 34, stockfish_move(p.move));
  put_le(out.data() + 36, uint16_t(game_ply(p.pos)));
  put_le(out.data() + 38, int8_t(signed_result(p.wdl)));
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
    out[size_t(8 + idx / 2)] |= uint8_t(nibble << (4 * (idx & 1)));
  }
  put_le(out.data() + 24, int16_t(p.score));
  out[26] = uint8_t(signed_result(p.wdl) + 1);
  out[27] = uint8_t(std::countr_zero(ours & by_type[chess::KING]));
  out[28] = uint8_t(std::countr_zero(theirs & by_type[chess::KING]) ^ 56);
  return out;
}

void append_plain(const ExportPosition& p, std::string& out) {
  out.append("fen ").append(p.fen);
  out.append("\nmove ").append(p.move_uci);
  out.append("\nscore ");
  append_int(out, p.score);
  out.append("\nply ");
  append_int(out, game_ply(p.pos));
  out.append("\nresult ");
  append_int(out, signed_result(p.wdl));
  out.append("\ne\n");
}

void append_bullet_text(const ExportPosition& p, std::string& out) {
  out.append(p.fen).append(" | ");
  append_int(out, p.pos.side_to_move() == chess::WHITE ? p.score : -p.score);
  const int r = white_result(p);
  out.append(" | ").append(r > 0 ? "1.0" : r < 0 ? "0.0" : "0.5").append("\n");
}

void append_epd(const ExportPosition& p, std::string& out) {
  out.append(fen_fields(p.fen, 4)).append(" hmvc ");
  append_int(out, p.pos.rule50());
  out.append("; fmvn ");
  append_int(out, p.pos.fullmove());
  if (p.score != VALUE_NONE) {
    // The EPD standard's mate scale: 32767 minus the plies.
    const int epd_mate = 32767 - VALUE_MATE;
    const int ce = p.score > MAX_CP_SCORE ? p.score + epd_mate : p.score < -MAX_CP_SCORE ? p.score - epd_mate : p.score;
    out.append("; ce ");
    append_int(out, ce);
  }
  const int r = white_result(p);
  out.append("; c9 \"").append(r > 0 ? "1-0" : r < 0 ? "0-1" : "1/2-1/2").append("\";\n");
}

}  // namespace chesshpc
