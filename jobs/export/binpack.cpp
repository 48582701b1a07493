#include "jobs/export/binpack.h"

#include <bit>
#include <cstring>
#include <string>

#include "core/bitboard.h"
#include "core/movegen.h"
#include "core/uci.h"

namespace chesshpc::binpack {

using namespace chess;

namespace {

constexpr size_t STEM_BYTES = 32;
constexpr size_t COUNT_BYTES = 2;
constexpr int SCORE_BLOCK_BITS = 4;  // the score's variable-length blocks
constexpr int MAX_SCORE_BLOCKS = 4;  // 16 bits

// Signed to unsigned, interleaved (0, -1, 1, -2, 2 ... as 0, 1, 2, 3, 4 ...), as the
// reference's signedToUnsigned: small magnitudes of either sign stay small.
constexpr uint16_t to_unsigned(int16_t v) { return v < 0 ? uint16_t(-2 * int32_t(v) - 1) : uint16_t(2 * v); }
constexpr int16_t to_signed(uint16_t u) { return u & 1 ? int16_t(-int32_t((u + 1) / 2)) : int16_t(u / 2); }
static_assert(to_unsigned(-1) == 1 && to_unsigned(1) == 2 && to_unsigned(-32768) == 0xFFFF);
static_assert(to_signed(0xFFFF) == -32768 && to_signed(0xFFFE) == 32767);

// The bits a value below n takes: none when n is 0 or 1.
constexpr int index_bits(int n) { return n > 1 ? std::bit_width(unsigned(n - 1)) : 0; }

// The stem's move kinds: 0 normal, 1 promotion, 2 castling, 3 en passant.
constexpr uint16_t KIND_CODE[4] = {0, 1, 3, 2};  // by MoveKind: NORMAL, PROMOTION, EN_PASSANT, CASTLING
constexpr MoveKind KIND_OF_CODE[4] = {NORMAL, PROMOTION, CASTLING, EN_PASSANT};

// The stem's move: kind in bits 14-15, from in 8-13, to in 2-7, a promotion's piece minus
// knight in 0-1; 0 for no move. Castling is the king taking its rook, as in core/types.h.
uint16_t stem_move(Move m) {
  if (m.is_none()) return 0;
  const uint16_t promo = m.kind() == PROMOTION ? uint16_t(m.promotion() - KNIGHT) : 0;
  return uint16_t(KIND_CODE[m.kind()] << 14 | m.from() << 8 | m.to() << 2 | promo);
}

Move move_of_stem(uint16_t v) {
  if (v == 0) return Move::none();
  const MoveKind kind = KIND_OF_CODE[v >> 14];
  return Move(Square(v >> 8 & 63), Square(v >> 2 & 63), kind, kind == PROMOTION ? PieceType(KNIGHT + (v & 3)) : KNIGHT);
}

// Position nibbles: 2 x type + colour for a piece (0 white pawn, 1 black pawn ... 11 black
// king), and four special codes that carry the rest of the position.
constexpr uint8_t EP_PAWN = 12;      // the pawn that just stepped twice, capturable en passant
constexpr uint8_t WHITE_RIGHT = 13;  // a white rook on its corner with its castling right
constexpr uint8_t BLACK_RIGHT = 14;  // the same for black
constexpr uint8_t BLACK_KING_TO_MOVE = 15;

uint8_t nibble(const Position& pos, Square s) {
  const Piece p = pos.piece_on(s);
  const Color c = color_of(p);
  switch (type_of(p)) {
    case PAWN:
      if (pos.ep_square() != SQ_NONE && s == Square(pos.ep_square() ^ 8)) return EP_PAWN;
      break;
    case ROOK: {
      const CastlingRights corner = s == SQ_A1   ? WHITE_OOO
                                    : s == SQ_H1 ? WHITE_OO
                                    : s == SQ_A8 ? BLACK_OOO
                                    : s == SQ_H8 ? BLACK_OO
                                                 : NO_CASTLING;
      if (pos.castling() & corner & castling_rights(c)) return c == WHITE ? WHITE_RIGHT : BLACK_RIGHT;
      break;
    }
    case KING:
      if (c == BLACK && pos.side_to_move() == BLACK) return BLACK_KING_TO_MOVE;
      break;
    default: break;
  }
  return uint8_t(2 * type_of(p) + c);
}

void put16(std::vector<uint8_t>& out, uint16_t v) {
  out.push_back(uint8_t(v >> 8));
  out.push_back(uint8_t(v));
}

uint16_t get16(const uint8_t* p) { return uint16_t(p[0] << 8 | p[1]); }

// The stem: occupancy (big-endian), the pieces' nibbles in square order (the first in the
// low half of a byte), the move, the score, ply | result << 14 and the half-move clock.
void append_stem(std::vector<uint8_t>& out, const Entry& e) {
  const Bitboard occupied = e.pos.pieces();
  for (int i = 7; i >= 0; --i) out.push_back(uint8_t(occupied >> (8 * i)));
  uint8_t nibbles[16] = {};
  int n = 0;
  for (Bitboard b = occupied; b; ++n) nibbles[n / 2] |= uint8_t(nibble(e.pos, pop_lsb(b)) << (4 * (n % 2)));
  out.insert(out.end(), nibbles, nibbles + 16);
  put16(out, stem_move(e.move));
  put16(out, to_unsigned(e.score));
  put16(out, uint16_t(e.ply | to_unsigned(e.result) << 14));
  put16(out, uint16_t(e.pos.rule50()));
}

// The destinations a continuation move is numbered among, as the reference numbers them:
// pseudo-legal (pins and checks ignored). A pawn: its captures, the en-passant square
// included, and its pushes, four codes a square on the seventh rank (knight, bishop,
// rook, queen); the king: its steps, then one code per castling right of the mover,
// queen side first; any other piece: its attacks.
struct Targets {
  Bitboard squares;
  int codes;
};

Targets targets(const Position& pos, Square from, PieceType pt) {
  const Color us = pos.side_to_move();
  const Bitboard ours = pos.pieces(us), occupied = pos.pieces();
  if (pt == PAWN) {
    Bitboard capturable = pos.pieces(~us);
    if (pos.ep_square() != SQ_NONE) capturable |= square_bb(pos.ep_square());
    Bitboard to = PAWN_ATTACKS[us][from] & capturable;
    const Square one = from + pawn_push(us);
    if (!(occupied & square_bb(one))) {
      to |= square_bb(one);
      const Square two = one + pawn_push(us);
      if (relative_rank(us, from) == RANK_2 && !(occupied & square_bb(two))) to |= square_bb(two);
    }
    return {to, popcount(to) * (relative_rank(us, from) == RANK_7 ? 4 : 1)};
  }
  const Bitboard to = attacks_bb(pt, from, occupied) & ~ours;
  return {to, popcount(to) + (pt == KING ? popcount(pos.castling() & castling_rights(us)) : 0)};
}

CastlingRights queen_side(Color c) { return c == WHITE ? WHITE_OOO : BLACK_OOO; }

int move_code(const Position& pos, Move m, const Targets& t) {
  if (m.kind() == CASTLING) {
    const bool has_queen_side = pos.castling() & queen_side(pos.side_to_move());
    return popcount(t.squares) + (m.to() > m.from() && has_queen_side);
  }
  const int i = popcount(t.squares & (square_bb(m.to()) - 1));
  return m.kind() == PROMOTION ? 4 * i + (m.promotion() - KNIGHT) : i;
}

Square nth_square(Bitboard b, int n) {
  while (n--) b &= b - 1;
  return lsb(b);
}

Move move_of_code(const Position& pos, Square from, PieceType pt, const Targets& t, int code) {
  const Color us = pos.side_to_move();
  const int steps = popcount(t.squares);
  if (pt == KING && code >= steps) {
    const bool king_side = code > steps || !(pos.castling() & queen_side(us));
    return Move(from, make_square(king_side ? FILE_H : FILE_A, relative_rank(us, RANK_1)), CASTLING);
  }
  if (pt == PAWN && relative_rank(us, from) == RANK_7)
    return Move(from, nth_square(t.squares, code / 4), PROMOTION, PieceType(KNIGHT + code % 4));
  const Square to = nth_square(t.squares, code);
  return Move(from, to, pt == PAWN && to == pos.ep_square() ? EN_PASSANT : NORMAL);
}

std::string at_byte(uint64_t offset) { return "binpack: at byte " + std::to_string(offset) + ": "; }

[[noreturn]] void fail(uint64_t offset, const std::string& what) { throw FormatError(at_byte(offset) + what); }

// Reads a chain's movetext: bits from the highest of each byte down, as they were put.
class BitReader {
 public:
  BitReader(const uint8_t* data, size_t size, uint64_t offset) : data_(data), bits_(8 * size), offset_(offset) {}
  unsigned get(int count) {
    if (at_ + count > bits_) fail(offset_, "the chunk ends inside the chain's moves");
    unsigned v = 0;
    for (int i = 0; i < count; ++i, ++at_) v = v << 1 | (data_[at_ / 8] >> (7 - at_ % 8) & 1);
    return v;
  }
  size_t bytes_read() const { return (at_ + 7) / 8; }

 private:
  const uint8_t* data_;
  size_t bits_, at_ = 0;
  uint64_t offset_;  // of the movetext in the file, for messages
};

// Through FEN, so that the stem gets every check a FEN gets.
Entry read_stem(const uint8_t* p, uint64_t offset) {
  Bitboard occupied = 0;
  for (int i = 0; i < 8; ++i) occupied = occupied << 8 | p[i];
  if (popcount(occupied) > 32) fail(offset, std::to_string(popcount(occupied)) + " pieces, more than 32");
  Bitboard by_type[PIECE_TYPE_NB] = {}, black = 0;
  Color side = WHITE;
  uint8_t rights = NO_CASTLING;
  std::string ep = "-";
  int n = 0;
  for (Bitboard b = occupied; b; ++n) {
    const Square s = pop_lsb(b);
    const uint8_t c = p[8 + n / 2] >> (4 * (n % 2)) & 15;
    PieceType pt = PieceType(c / 2);
    bool is_black = c & 1;
    if (c == EP_PAWN) {
      if (ep != "-" || (rank_of(s) != RANK_4 && rank_of(s) != RANK_5))
        fail(offset, "en-passant pawn code on " + square_to_string(s));
      is_black = rank_of(s) == RANK_5, pt = PAWN;
      ep = square_to_string(is_black ? s + NORTH : s + SOUTH);
    } else if (c == WHITE_RIGHT || c == BLACK_RIGHT) {
      is_black = c == BLACK_RIGHT, pt = ROOK;
      if (s != make_square(FILE_A, rank_of(s)) && s != make_square(FILE_H, rank_of(s)))
        fail(offset, "castling rook code on " + square_to_string(s));
      rights |= (file_of(s) == FILE_H ? WHITE_OO : WHITE_OOO) << (2 * is_black);  // black's are white's << 2
    } else if (c == BLACK_KING_TO_MOVE) {
      is_black = true, pt = KING, side = BLACK;
    }
    by_type[pt] |= square_bb(s);
    if (is_black) black |= square_bb(s);
  }
  Entry e;
  e.score = to_signed(get16(p + 26));
  const uint16_t ply_result = get16(p + 28);
  e.ply = ply_result & MAX_PLY;
  e.result = to_signed(ply_result >> 14);
  if (e.result < -1) fail(offset, "result code 3");
  // The placement and side as from_bitboards writes them, the rest from the stem.
  std::string fen = Position::from_bitboards(by_type, black, side, NO_CASTLING, SQ_NONE, false).fen();
  fen.resize(fen.find(' ', fen.find(' ') + 1));
  std::string letters;
  for (int i = 0; i < 4; ++i)
    if (rights >> i & 1) letters += "KQkq"[i];  // by bit: WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO
  fen += ' ' + (letters.empty() ? "-" : letters) + ' ' + ep + ' ' + std::to_string(get16(p + 30)) + ' ' +
         std::to_string(e.ply / 2 + 1);
  try {
    e.pos = Position::from_fen(fen);
  } catch (const FenError& err) {
    fail(offset, "position '" + fen + "': " + err.what());
  }
  e.move = move_of_stem(get16(p + 24));
  if (!e.move.is_none() && !legal_moves(e.pos).contains(e.move))
    fail(offset + 24, "move " + to_uci(e.move) + " is not legal in '" + fen + "'");
  return e;
}

// Plays e's move and reads the next entry of its chain from bits.
void read_continuation(Entry& e, int16_t& last_score, BitReader& bits, uint64_t offset) {
  if (e.move.is_none()) fail(offset, "a chain goes on after an entry without a move");
  if (const std::string overflow = e.pos.clock_overflow(); !overflow.empty()) fail(offset, overflow);
  if (e.ply == 0xFFFF) fail(offset, "the chain's ply passes 65535");
  e.pos = e.pos.after(e.move);
  ++e.ply;
  e.result = int16_t(-e.result);
  const Position& pos = e.pos;
  const Bitboard ours = pos.pieces(pos.side_to_move());
  const int index = int(bits.get(index_bits(popcount(ours))));
  if (index >= popcount(ours)) fail(offset, "piece " + std::to_string(index) + " of " + std::to_string(popcount(ours)));
  const Square from = nth_square(ours, index);
  const PieceType pt = type_of(pos.piece_on(from));
  const Targets t = targets(pos, from, pt);
  const int code = int(bits.get(index_bits(t.codes)));
  if (code >= t.codes)
    fail(offset, "move " + std::to_string(code) + " of " + std::to_string(t.codes) + " from " + square_to_string(from));
  e.move = move_of_code(pos, from, pt, t, code);
  if (!legal_moves(pos).contains(e.move))
    fail(offset, "move " + to_uci(e.move) + " is not legal in '" + pos.fen() + "'");
  uint16_t delta = 0;
  for (int block = 0;; ++block) {
    if (block == MAX_SCORE_BLOCKS) fail(offset, "a score delta longer than 16 bits");
    const unsigned b = bits.get(SCORE_BLOCK_BITS + 1);
    delta |= uint16_t((b & ((1 << SCORE_BLOCK_BITS) - 1)) << (SCORE_BLOCK_BITS * block));
    if (!(b >> SCORE_BLOCK_BITS)) break;
  }
  e.score = int16_t(last_score + to_signed(delta));
  last_score = int16_t(-e.score);
}

void read_chunk(const std::vector<uint8_t>& chunk, uint64_t offset, const std::function<void(const Entry&)>& f) {
  size_t at = 0;
  while (at < chunk.size()) {
    if (chunk.size() - at < STEM_BYTES + COUNT_BYTES)
      fail(offset + at, std::to_string(chunk.size() - at) + " bytes after the chunk's last chain, fewer than a chain");
    Entry e = read_stem(chunk.data() + at, offset + at);
    const uint16_t plies = get16(chunk.data() + at + STEM_BYTES);
    at += STEM_BYTES + COUNT_BYTES;
    f(e);
    BitReader bits(chunk.data() + at, chunk.size() - at, offset + at);
    int16_t last_score = int16_t(-e.score);
    for (int i = 0; i < plies; ++i) {
      read_continuation(e, last_score, bits, offset + at);
      f(e);
    }
    at += bits.bytes_read();
  }
}

}  // namespace

Writer::Writer(std::ostream& out) : out_(out) { chunk_.reserve(CHUNK_TARGET + (CHUNK_TARGET >> 4)); }

Writer::~Writer() {
  try {
    finish();
  } catch (...) {
    // A destructor must not throw: finish() reports the failure to whoever calls it.
  }
}

void Writer::add(const Entry& e) {
  if (e.pos.is_chess960())
    throw std::invalid_argument("binpack holds standard chess only, not the Chess960 position '" + e.pos.fen() + "'");
  if (e.result < -1 || e.result > 1)
    throw std::invalid_argument("binpack result must be -1, 0 or 1, not " + std::to_string(e.result));
  if (e.ply > MAX_PLY)
    throw std::invalid_argument("binpack ply " + std::to_string(e.ply) + " is beyond the format's " +
                                std::to_string(MAX_PLY));
  if (popcount(e.pos.pieces()) > 32)
    throw std::invalid_argument("binpack holds 32 pieces at most, not " + std::to_string(popcount(e.pos.pieces())));
  if (!e.move.is_none() && !legal_moves(e.pos).contains(e.move))
    throw std::invalid_argument("binpack move " + to_uci(e.move) + " is not legal in '" + e.pos.fen() + "'");

  // A chain's plies are consecutive and at most MAX_PLY, so its count always fits.
  static_assert(MAX_PLY < 0xFFFF);
  const bool continues = open_ && !last_.move.is_none() && !e.move.is_none() && e.ply == last_.ply + 1 &&
                         e.result == -last_.result && last_.pos.clock_overflow().empty() &&
                         last_.pos.after(last_.move) == e.pos;
  if (continues) {
    put_move_and_score(e);
  } else {
    if (open_) close_chain();
    if (chunk_.size() >= CHUNK_TARGET) write_chunk();
    append_stem(chunk_, e);
    count_at_ = chunk_.size();
    chunk_.resize(chunk_.size() + COUNT_BYTES);
    plies_ = 0;
    last_score_ = int16_t(-e.score);
    open_ = true;
    ++chains_;
  }
  last_ = e;
  ++entries_;
}

void Writer::finish() {
  if (open_) close_chain();
  write_chunk();
  out_.flush();
  if (!out_) throw std::runtime_error("binpack: writing the output failed");
}

void Writer::close_chain() {
  if (nbits_ > 0) chunk_.push_back(uint8_t(bits_ << (8 - nbits_)));
  bits_ = 0, nbits_ = 0;
  chunk_[count_at_] = uint8_t(plies_ >> 8);
  chunk_[count_at_ + 1] = uint8_t(plies_);
  open_ = false;
}

void Writer::write_chunk() {
  if (chunk_.empty()) return;
  const uint32_t size = uint32_t(chunk_.size());
  const char header[8] = {'B', 'I', 'N', 'P', char(size), char(size >> 8), char(size >> 16), char(size >> 24)};
  out_.write(header, sizeof header);
  out_.write(reinterpret_cast<const char*>(chunk_.data()), std::streamsize(chunk_.size()));
  bytes_written_ += sizeof header + chunk_.size();
  chunk_.clear();
  if (!out_) throw std::runtime_error("binpack: writing the output failed");
}

// Bits go into the movetext from the highest of each byte down; the last byte of a chain
// is padded with zeros (close_chain).
void Writer::put_bits(uint32_t value, int count) {
  bits_ = bits_ << count | value;
  nbits_ += count;
  while (nbits_ >= 8) {
    nbits_ -= 8;
    chunk_.push_back(uint8_t(bits_ >> nbits_));
  }
  bits_ &= (uint64_t(1) << nbits_) - 1;
}

// A continuation ply: the moving piece's index among the mover's pieces in square order,
// the move's code among its targets (each in as few bits as the count needs, none for
// one choice), and the score as a delta in blocks of 4 bits, each with a bit that says
// another follows, lowest first. The delta is the score plus the previous entry's score
// (the scores alternate in sign with the side to move, so the sum is small); Stockfish's
// docs/binpack.md writes it -prev_score - current_score, the sign the reference code does
// not use: nnue-pytorch decodes current = delta - previous.
void Writer::put_move_and_score(const Entry& e) {
  const Position& pos = e.pos;
  const Bitboard ours = pos.pieces(pos.side_to_move());
  const Square from = e.move.from();
  put_bits(popcount(ours & (square_bb(from) - 1)), index_bits(popcount(ours)));
  const Targets t = targets(pos, from, type_of(pos.piece_on(from)));
  put_bits(move_code(pos, e.move, t), index_bits(t.codes));
  uint16_t delta = to_unsigned(int16_t(e.score - last_score_));
  do {
    const uint32_t block = delta & ((1 << SCORE_BLOCK_BITS) - 1);
    delta >>= SCORE_BLOCK_BITS;
    put_bits(block | uint32_t(delta != 0) << SCORE_BLOCK_BITS, SCORE_BLOCK_BITS + 1);
  } while (delta);
  last_score_ = int16_t(-e.score);
  ++plies_;
}

bool ChunkReader::next(const std::function<void(const Entry&)>& f) {
  uint8_t header[8];
  in_.read(reinterpret_cast<char*>(header), sizeof header);
  const size_t got = size_t(in_.gcount());
  if (in_.bad()) throw std::runtime_error("binpack: reading the input failed");
  if (got == 0) return false;
  if (got < sizeof header) fail(offset_, "the file ends inside a chunk header");
  if (std::memcmp(header, "BINP", 4) != 0) fail(offset_, "no chunk starts here (\"BINP\" expected)");
  const uint32_t size = uint32_t(header[4] | header[5] << 8 | header[6] << 16 | uint32_t(header[7]) << 24);
  if (size > MAX_CHUNK) fail(offset_, "a chunk of " + std::to_string(size) + " bytes, more than 100 MiB");
  chunk_.resize(size);
  in_.read(reinterpret_cast<char*>(chunk_.data()), size);
  if (in_.bad()) throw std::runtime_error("binpack: reading the input failed");
  if (size_t(in_.gcount()) < size)
    fail(offset_, "the file ends inside a chunk of " + std::to_string(size) + " bytes (" +
                      std::to_string(in_.gcount()) + " present)");
  read_chunk(chunk_, offset_ + sizeof header, f);
  offset_ += sizeof header + size;
  return true;
}

void read_each(std::istream& in, const std::function<void(const Entry&)>& f) {
  ChunkReader reader(in);
  while (reader.next(f)) {
  }
}

std::vector<Entry> read_all(std::istream& in) {
  std::vector<Entry> entries;
  read_each(in, [&](const Entry& e) { entries.push_back(e); });
  return entries;
}

}  // namespace chesshpc::binpack
