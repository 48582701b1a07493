// chesshpc export: every binary format's bytes for one position worked out by hand from
// its published description, readers of our own that read an exported dataset back row
// by row against /positions, each filter's effect on the counts, and --out FILE.gz or
// FILE.zst written compressed.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "core/uci.h"
#include "jobs/export/binpack.h"
#include "jobs/export/codecs.h"
#include "jobs/export/pgn.h"
#include "jobs/export/run.h"
#include "jobs/io/h5.h"
#include "jobs/selfplay/file.h"
#include "jobs/selfplay/game.h"
#include "jobs/selfplay/search_player.h"
#include "tests/decompress.h"
#include "tests/selfplay_dataset.h"

using namespace chesshpc;

namespace {

PositionColumns read_positions(const std::string& path) { return read_selfplay_tables(h5::open_read(path)).positions; }

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// Exports path as format with filters into path.format; the exit code and stderr.
std::pair<int, std::string> export_to(const std::string& path, const char* format, ExportFilters filters = {},
                                      size_t batch_rows = size_t(1) << 18) {
  ExportRequest req{{path}, find_format(format), path + "." + format, filters, batch_rows};
  std::ostringstream out, err;
  int code = run_export(req, out, err);
  return {code, err.str()};
}

// /positions as version 0.10 wrote it: FENs and moves as variable-length strings, without
// the filter columns; `move` without its last `short_by` rows (a damaged file).
void write_earlier_version(const std::string& path, PositionColumns p, size_t short_by = 0) {
  p.move.resize(p.move.size() - short_by);
  h5::File f(path);
  h5::set_attr(f, std::string(h5::JOB.name), std::string(SELFPLAY_JOB));
  h5::Group g = h5::create_group(f, "positions");
  h5::write_column(g, "game", p.game, "");
  h5::write_column(g, "ply", p.ply, "");
  h5::write_column(g, "fen", p.fen, "");
  h5::write_byte_rows(g, "packed", p.packed, 32, "");
  h5::write_column(g, "move", p.move, "");
  h5::write_column(g, "best", p.best, "");
  h5::write_column(g, "score_cp", p.score_cp, "");
  h5::write_column(g, "mate_in", p.mate_in, "");
  h5::write_column(g, "depth", p.depth, "");
  h5::write_column(g, "nodes", p.nodes, "");
  h5::write_column(g, "in_check", p.in_check, "");
  h5::write_column(g, "book", p.book, "");
  h5::write_column(g, "halfmove_clock", p.halfmove, "");
  h5::write_column(g, "result", p.result, "");
  g = h5::Group();
  f.commit();
}

// The score every Stockfish format holds, from /positions, worked out here again: mate in
// N moves is 32000 - (2N - 1) plies, mated in N is -32000 + 2N, none 32002.
int expected_score(const PositionColumns& p, size_t i) {
  if (p.mate_in[i] > 0) return 32000 - (2 * p.mate_in[i] - 1);
  if (p.mate_in[i] < 0) return -32000 + 2 * -p.mate_in[i];
  return std::isnan(p.score_cp[i]) ? 32002 : int(std::lround(p.score_cp[i]));
}

// The rows every position format writes without filters: those of games with a result.
std::vector<size_t> rows_with_result(const PositionColumns& p) {
  std::vector<size_t> rows;
  for (size_t i = 0; i < p.size(); ++i)
    if (!std::isnan(p.result[i])) rows.push_back(i);
  return rows;
}

// --- A reader of Stockfish's .bin, from the tools branch's description -------------------

class BitReader {
 public:
  explicit BitReader(const uint8_t* data) : data_(data) {}
  unsigned get(int n) {
    unsigned v = 0;
    for (int i = 0; i < n; ++i, ++cursor_) v |= unsigned(data_[cursor_ / 8] >> (cursor_ % 8) & 1) << i;
    return v;
  }
  int cursor() const { return cursor_; }

 private:
  const uint8_t* data_;
  int cursor_ = 0;
};

std::string square_name(unsigned sq) { return {char('a' + sq % 8), char('1' + sq / 8)}; }

// The FEN a PackedSfen holds.
std::string sfen_to_fen(const uint8_t* data) {
  BitReader r(data);
  const bool black = r.get(1);
  const unsigned wk = r.get(6), bk = r.get(6);
  char board[64];
  for (int rank = 7; rank >= 0; --rank)
    for (int file = 0; file < 8; ++file) {
      const unsigned sq = unsigned(8 * rank + file);
      if (sq == wk || sq == bk) {
        board[sq] = sq == wk ? 'K' : 'k';
        continue;
      }
      if (!r.get(1)) {
        board[sq] = 0;
        continue;
      }
      // After the leading 1: 000 pawn, 100 knight, 010 bishop, 110 rook, 001 queen.
      const unsigned rest = r.get(3);
      static const std::map<unsigned, char> PIECE = {
          {0b000, 'p'}, {0b001, 'n'}, {0b010, 'b'}, {0b011, 'r'}, {0b100, 'q'}};
      char c = PIECE.at(rest);
      board[sq] = r.get(1) ? c : char(std::toupper(c));
    }
  std::string fen;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      const char c = board[8 * rank + file];
      if (!c) {
        ++empty;
        continue;
      }
      if (empty) fen += char('0' + empty), empty = 0;
      fen += c;
    }
    if (empty) fen += char('0' + empty);
    if (rank) fen += '/';
  }
  fen += black ? " b " : " w ";
  std::string castling;
  for (char c : std::string("KQkq"))
    if (r.get(1)) castling += c;
  fen += castling.empty() ? "-" : castling;
  fen += ' ';
  fen += r.get(1) ? square_name(r.get(6)) : "-";
  unsigned rule50 = r.get(6);
  unsigned fullmove = r.get(8);
  fullmove |= r.get(8) << 8;
  rule50 |= r.get(1) << 6;
  EXPECT_LE(r.cursor(), 256);
  return fen + " " + std::to_string(rule50) + " " + std::to_string(fullmove);
}

// A Stockfish move as UCI, castling (the king taking its rook) as standard chess writes it.
std::string sf_move_to_uci(uint16_t m) {
  const unsigned to = m & 63, from = m >> 6 & 63, promo = m >> 12 & 3, kind = m >> 14;
  unsigned dest = to;
  if (kind == 3) dest = to > from ? from + 2 : from - 2;
  std::string s = square_name(from) + square_name(dest);
  if (kind == 1) s += "nbrq"[promo];
  return s;
}

template <class T>
T get_le(const uint8_t* at) {
  uint64_t v = 0;
  for (size_t i = 0; i < sizeof(T); ++i) v |= uint64_t(at[i]) << (8 * i);
  return T(v);
}

// --- A reader of bullet's ChessBoard, from the bulletformat crate's description -----------

// The board of a FEN as the mover sees it: 64 characters from a1, ranks flipped and case
// swapped when black is to move ('.' empty).
std::string mover_board(const std::string& fen) {
  std::string board(64, '.');
  int rank = 7, file = 0;
  for (char c : fen.substr(0, fen.find(' '))) {
    if (c == '/')
      --rank, file = 0;
    else if (std::isdigit(c))
      file += c - '0';
    else
      board[size_t(8 * rank + file++)] = c;
  }
  if (fen[fen.find(' ') + 1] == 'w') return board;
  std::string flipped(64, '.');
  for (size_t sq = 0; sq < 64; ++sq) {
    const char c = board[sq ^ 56];
    flipped[sq] = std::isupper(c) ? char(std::tolower(c)) : char(std::toupper(c));
  }
  return flipped;
}

struct BulletRead {
  std::string board;  // as mover_board writes it
  int score, result, ksq, opp_ksq;
  bool extra_zero;
};

BulletRead read_bullet(const uint8_t* r) {
  BulletRead b{std::string(64, '.'), get_le<int16_t>(r + 24), r[26], r[27], r[28], !r[29] && !r[30] && !r[31]};
  uint64_t occ = get_le<uint64_t>(r);
  for (int idx = 0; occ; occ &= occ - 1, ++idx) {
    const int sq = __builtin_ctzll(occ);
    const unsigned nibble = r[8 + idx / 2] >> (4 * (idx & 1)) & 15;
    const char c = "PNBRQK"[nibble & 7];
    b.board[size_t(sq)] = nibble & 8 ? char(std::tolower(c)) : c;
  }
  return b;
}

}  // namespace

// Stockfish's PackedSfenValue of the start position with e2e4, score 25 and a win, bit by
// bit from the tools branch's description (values least significant bit first, from bit 0
// of byte 0): side 0; white king e1 = 4: 001000; black king e8 = 60: 001111; rank 8 (the
// king left out) r 11101, n 11001, b 10101, q 10011, b 10101, n 11001, r 11101; rank 7
// eight 10001; ranks 6-3 thirty-two 0; rank 2 eight 10000; rank 1 R 11100, N 11000, B
// 10100, Q 10010, B 10100, N 11000, R 11100; castling 1111; no en passant 0; clock 000000;
// full move 1: 10000000 then 00000000; the clock's 7th bit 0 (223 bits, the rest 0). Then
// score 25 (19 00), move e2e4 = 12 << 6 | 28 = 0x031C (1C 03), gamePly 0, result 1, a 0.
TEST(ExportBytes, BinStartPositionE2e4Score25Win) {
  const std::string fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  const chess::Position pos = chess::Position::from_fen(fen);
  const ExportPosition p{pos, *chess::parse_uci(pos, "e2e4"), fen, "e2e4", 25, WDL_WIN};
  const BinRecord expected = {0x08, 0xFE, 0xCE, 0x9A, 0xEB, 0xBC, 0x31, 0xC6, 0x18, 0x63, 0x8C, 0x00, 0x00, 0x00,
                              0x00, 0x21, 0x84, 0x10, 0x42, 0x08, 0x67, 0x94, 0x54, 0xC6, 0x79, 0x40, 0x00, 0x00,
                              0x00, 0x00, 0x00, 0x00, 0x19, 0x00, 0x1C, 0x03, 0x00, 0x00, 0x01, 0x00};
  EXPECT_EQ(bin_record(p), expected);
}

// bullet's ChessBoard of the same: occupancy 0xFFFF00000000FFFF; pieces from a1 in square
// order, 4 bits each, the first in the low nibble: R N B Q K B N R = 3 1 2 4 5 2 1 3, eight
// pawns 0, eight opponent pawns 8, r n b q k b n r = 11 9 10 12 13 10 9 11; score 25 (19
// 00); result 2 (a win); our king e1 = 4; theirs e8 = 60, flipped: 60 ^ 56 = 4; three 0.
TEST(ExportBytes, BulletStartPositionE2e4Score25Win) {
  const std::string fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  const chess::Position pos = chess::Position::from_fen(fen);
  const ExportPosition p{pos, *chess::parse_uci(pos, "e2e4"), fen, "e2e4", 25, WDL_WIN};
  const BulletBoard expected = {0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0x13, 0x42, 0x25,
                                0x31, 0x00, 0x00, 0x00, 0x00, 0x88, 0x88, 0x88, 0x88, 0x9B, 0xCA,
                                0xAD, 0xB9, 0x19, 0x00, 0x02, 0x04, 0x04, 0x00, 0x00, 0x00};
  EXPECT_EQ(bullet_board(p), expected);
}

// A DFRC position with Black to move (kings on b1 and f8, castling rights that a ChessBoard
// does not hold), scored +80 for White, drawn: the text line and the 32 bytes bulletformat
// 1.8.0's own ChessBoard::from_str made of it (bench/bullet_check.sh). By hand: the board
// flipped with colours swapped, so the mover's rank 1 is Q B N R B K N R (4 2 1 3 2 5 1 3),
// its pawns a2 b2 c2 d2 f2 h2 e4 g4, then the opponent's pawns e5 g6, knight h6, pawns a7
// b7 c7 d7 f7 h7 and r k r b b q n (11 13 11 10 10 12 9); score -80 (B0 FF); result 1;
// our king f1 = 5; theirs b8 = 57, flipped: 1.
TEST(ExportBytes, BulletDfrcBlackToMoveAsBulletformatReadsIt) {
  const std::string fen = "qbnrbknr/pppp1p1p/8/4p1p1/4P3/6PN/PPPP1P1P/RKRBBQ1N b KQkq - 0 3";
  const chess::Position pos = chess::Position::from_fen(fen, true);
  const ExportPosition p{pos, *chess::parse_uci(pos, "d7d6"), fen, "d7d6", -80, WDL_DRAW};
  std::string text;
  append_bullet_text(p, text);
  EXPECT_EQ(text, fen + " | 80 | 0.5\n");
  const BulletBoard expected = {0xFF, 0xAF, 0x00, 0x50, 0x10, 0xC0, 0xAF, 0xBF, 0x24, 0x31, 0x52,
                                0x31, 0x00, 0x00, 0x00, 0x00, 0x88, 0x89, 0x88, 0x88, 0xB8, 0xBD,
                                0xAA, 0x9C, 0xB0, 0xFF, 0x01, 0x05, 0x01, 0x00, 0x00, 0x00};
  EXPECT_EQ(bullet_board(p), expected);
}

// The text formats of the same position, line for line.
TEST(ExportBytes, TextFormatsStartPositionE2e4Score25Win) {
  const std::string fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  const chess::Position pos = chess::Position::from_fen(fen);
  const ExportPosition p{pos, *chess::parse_uci(pos, "e2e4"), fen, "e2e4", 25, WDL_WIN};
  std::string plain, bullet, epd;
  append_plain(p, plain), append_bullet_text(p, bullet), append_epd(p, epd);
  EXPECT_EQ(plain, "fen " + fen + "\nmove e2e4\nscore 25\nply 0\nresult 1\ne\n");
  EXPECT_EQ(bullet, fen + " | 25 | 1.0\n");
  EXPECT_EQ(epd, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc 0; fmvn 1; ce 25; c9 \"1-0\";\n");
  // Black to move after e2e4, losing the game, mated in 2: bullet-text is White's view.
  const chess::Position after = pos.after(p.move);
  const std::string after_fen = after.fen();
  const ExportPosition q{after, *chess::parse_uci(after, "e7e5"), after_fen, "e7e5", -32000 + 4, WDL_LOSS};
  std::string bullet_black, epd_black;
  append_bullet_text(q, bullet_black), append_epd(q, epd_black);
  EXPECT_EQ(bullet_black, after_fen + " | 31996 | 1.0\n");
  EXPECT_EQ(epd_black,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 0; fmvn 1; ce -32763; c9 \"1-0\";\n");
}

// Every record of an exported .bin read back with the reader above: the FEN, score, move,
// game ply and result of its /positions row, row by row.
TEST(ExportRoundTrip, BinEveryFieldMatchesPositions) {
  const std::string path = make_dataset("roundtrip_bin.h5");
  const auto [code, err] = export_to(path, "bin");
  ASSERT_EQ(code, 0) << err;
  const PositionColumns p = read_positions(path);
  const std::vector<size_t> rows = rows_with_result(p);
  const std::string bytes = read_bytes(path + ".bin");
  ASSERT_EQ(bytes.size(), 40 * rows.size());
  std::set<int> kinds;
  for (size_t k = 0; k < rows.size(); ++k) {
    const size_t i = rows[k];
    const uint8_t* r = reinterpret_cast<const uint8_t*>(bytes.data()) + 40 * k;
    const std::string fen = sfen_to_fen(r);
    EXPECT_EQ(fen, p.fen[i]) << "row " << i;
    EXPECT_EQ(get_le<int16_t>(r + 32), expected_score(p, i)) << "row " << i;
    EXPECT_EQ(sf_move_to_uci(get_le<uint16_t>(r + 34)), p.move[i]) << "row " << i;
    kinds.insert(get_le<uint16_t>(r + 34) >> 14);
    const int fullmove = std::stoi(fen.substr(fen.rfind(' ') + 1));
    EXPECT_EQ(get_le<uint16_t>(r + 36), 2 * (fullmove - 1) + (fen.find(" b ") != std::string::npos)) << "row " << i;
    EXPECT_EQ(int8_t(r[38]), p.result[i] == 1 ? 1 : p.result[i] == 0 ? -1 : 0) << "row " << i;
    EXPECT_EQ(r[39], 0);
  }
  EXPECT_TRUE(kinds.count(0)) << "no normal move";
}

// An exported .binpack read back with the codec's reader: every position (FEN with its
// clocks: the move number comes back from the ply), move, score and result of its
// /positions row, in order; a game's positions chain, so it takes a few bytes a position.
TEST(ExportRoundTrip, BinpackEveryFieldMatchesPositions) {
  const std::string path = make_dataset("roundtrip_binpack.h5");
  const auto [code, err] = export_to(path, "binpack");
  ASSERT_EQ(code, 0) << err;
  const PositionColumns p = read_positions(path);
  const std::vector<size_t> rows = rows_with_result(p);
  std::ifstream in(path + ".binpack", std::ios::binary);
  const std::vector<binpack::Entry> entries = binpack::read_all(in);
  ASSERT_EQ(entries.size(), rows.size());
  for (size_t k = 0; k < rows.size(); ++k) {
    const size_t i = rows[k];
    const binpack::Entry& e = entries[k];
    EXPECT_EQ(e.pos.fen(), p.fen[i]) << "row " << i;
    EXPECT_EQ(chess::to_uci(e.move, false), p.move[i]) << "row " << i;
    EXPECT_EQ(e.score, expected_score(p, i)) << "row " << i;
    EXPECT_EQ(e.result, p.result[i] == 1 ? 1 : p.result[i] == 0 ? -1 : 0) << "row " << i;
  }
  const double bytes = double(read_bytes(path + ".binpack").size());
  EXPECT_LT(bytes / double(rows.size()), 6.0) << "positions do not chain";
  EXPECT_NE(err.find(" positions written as binpack ("), std::string::npos) << err;
}

// bin and binpack name no castling rook: a Chess960 dataset is refused with one line, exit
// 3, nothing written; bullet and plain write it.
TEST(ExportErrors, Chess960DatasetRefusedByStandardOnlyFormats) {
  const std::string path = make_dataset("chess960.h5", Variant::CHESS960);
  for (const char* format : {"bin", "binpack"}) {
    const auto [code, err] = export_to(path, format);
    EXPECT_EQ(code, 3) << format;
    EXPECT_EQ(err, std::string("chesshpc export: ") + format +
                       " holds standard chess only, and /positions row 0 is a Chess960 position (plain, bullet and "
                       "epd write Chess960)\n");
    EXPECT_FALSE(std::filesystem::exists(path + "." + format)) << format;
  }
  for (const char* format : {"plain", "bullet"}) EXPECT_EQ(export_to(path, format).first, 0) << format;
}

// Every record of an exported bullet file read back: the mover's board, score, result and
// both king squares of its /positions row. Book moves have no score, and bullet no "none":
// they are left out.
TEST(ExportRoundTrip, BulletEveryFieldMatchesPositions) {
  const std::string path = make_dataset("roundtrip_bullet.h5");
  const auto [code, err] = export_to(path, "bullet");
  ASSERT_EQ(code, 0) << err;
  const PositionColumns p = read_positions(path);
  std::vector<size_t> rows;
  size_t unscored = 0;
  for (size_t i : rows_with_result(p)) {
    if (expected_score(p, i) == 32002)
      ++unscored;
    else
      rows.push_back(i);
  }
  ASSERT_GT(unscored, 0u);
  // Appended piece by piece: GCC 12 warns (-Wrestrict, falsely) of " " + std::string(...).
  std::string said = " ";
  said.append(std::to_string(unscored)).append(" without a score");
  EXPECT_NE(err.find(said), std::string::npos) << err;
  const std::string bytes = read_bytes(path + ".bullet");
  ASSERT_EQ(bytes.size(), 32 * rows.size());
  for (size_t k = 0; k < rows.size(); ++k) {
    const size_t i = rows[k];
    const BulletRead b = read_bullet(reinterpret_cast<const uint8_t*>(bytes.data()) + 32 * k);
    const std::string board = mover_board(p.fen[i]);
    EXPECT_EQ(b.board, board) << "row " << i;
    EXPECT_EQ(b.score, expected_score(p, i)) << "row " << i;
    EXPECT_EQ(b.result, int(2 * p.result[i])) << "row " << i;
    EXPECT_EQ(board[size_t(b.ksq)], 'K') << "row " << i;
    EXPECT_EQ(board[size_t(b.opp_ksq ^ 56)], 'k') << "row " << i;
    EXPECT_TRUE(b.extra_zero);
  }
}

// Each filter alone leaves out exactly the rows its column says, and says so; --dedup keeps
// the first of each position in game order.
TEST(ExportFilters, EachFilterLeavesOutItsRows) {
  const std::string path = make_dataset("filters.h5");
  const PositionColumns p = read_positions(path);
  const std::vector<size_t> all = rows_with_result(p);
  auto count = [&](auto skip) {
    size_t n = 0;
    for (size_t i : all) n += skip(i);
    return n;
  };
  struct Case {
    const char* name;
    ExportFilters filters;
    size_t dropped;
  };
  ExportFilters plies, book, check, capture, mate, max_score, dedup;
  plies.skip_plies = 10, book.skip_book = true, check.skip_in_check = true, capture.skip_capture = true;
  mate.skip_mate = true, max_score.max_score = 150, dedup.dedup = true;
  std::set<std::string> seen;
  const std::vector<Case> cases = {
      {"in the first plies", plies, count([&](size_t i) { return p.ply[i] < 10; })},
      {"book", book, count([&](size_t i) { return bool(p.book[i]); })},
      {"in check", check, count([&](size_t i) { return bool(p.in_check[i]); })},
      {"capture", capture, count([&](size_t i) { return bool(p.is_capture[i]); })},
      {"mate", mate, count([&](size_t i) { return p.mate_in[i] != 0; })},
      {"above --max-score", max_score, count([&](size_t i) {
         const int s = expected_score(p, i);
         return s != 32002 && std::abs(s) > 150;
       })},
      {"repeated", dedup, count([&](size_t i) {
         std::string fen = p.fen[i];
         fen = fen.substr(0, fen.rfind(' ', fen.rfind(' ') - 1));  // without the clocks
         return !seen.insert(fen).second;
       })},
  };
  for (const Case& c : cases) {
    ASSERT_GT(c.dropped, 0u) << c.name << ": the dataset has none to drop";
    const auto [code, err] = export_to(path, "plain", c.filters);
    ASSERT_EQ(code, 0) << err;
    const std::string text = read_bytes(path + ".plain");
    size_t records = 0;
    for (size_t at = 0; (at = text.find("\ne\n", at)) != std::string::npos; at += 3) ++records;
    EXPECT_EQ(records, all.size() - c.dropped) << c.name;
    EXPECT_NE(err.find(std::to_string(c.dropped) + " " + c.name), std::string::npos) << err;
  }
}

// The filter columns of a file written before they existed are derived from the others,
// the same as a new file holds them.
TEST(ExportFilters, OldFileWithoutFilterColumnsGetsThemDerived) {
  const std::string path = make_dataset("old_columns.h5");
  PositionColumns p = read_positions(path);
  const PositionColumns stored = p;
  p.is_capture.clear(), p.gives_check.clear(), p.wdl.clear();
  derive_filter_columns(p);
  EXPECT_EQ(p.is_capture, stored.is_capture);
  EXPECT_EQ(p.gives_check, stored.gives_check);
  EXPECT_EQ(p.wdl, stored.wdl);
  size_t captures = 0, checks = 0;
  for (size_t i = 0; i < p.size(); ++i) captures += p.is_capture[i], checks += p.gives_check[i];
  EXPECT_GT(captures, 0u);
  EXPECT_GT(checks, 0u);
}

// A file of an earlier version: FENs and moves as variable-length strings (fixed-length
// since 0.11), without the filter columns. Every position format exports it byte for byte
// as the file of this version with the same positions (read 64 rows at a time).
TEST(ExportFile, FileOfAnEarlierVersionExportsTheSame) {
  const std::string path = make_dataset("current.h5"), old = testing::TempDir() + "earlier.h5";
  const PositionColumns p = read_positions(path);
  write_earlier_version(old, p);
  const PositionColumns back = read_selfplay_positions(h5::open_read(old), {});
  EXPECT_EQ(back.move, p.move);
  EXPECT_EQ(back.best, p.best);
  EXPECT_TRUE(back.is_capture.empty());
  for (const char* format : {"plain", "bin", "binpack", "bullet", "bullet-text", "epd"}) {
    const auto [code, err] = export_to(path, format);
    const auto [old_code, old_err] = export_to(old, format, {}, 64);
    ASSERT_EQ(code, 0) << err;
    ASSERT_EQ(old_code, 0) << old_err;
    EXPECT_EQ(old_err, err);
    EXPECT_EQ(read_bytes(old + "." + format), read_bytes(path + "." + format)) << format;
  }
}

// Export reads /positions a batch of rows at a time: batches of 64 and of 1000 rows write
// the bytes and the summary of one batch, in every position format, deduplicated or not, from
// a file of this version and of an earlier one (variable-length text, filter columns
// derived batch by batch).
TEST(ExportFile, BatchesOfRowsWriteTheBytesOfOneBatch) {
  const std::string path = make_dataset("batches.h5");
  for (const char* format : {"plain", "bin", "binpack", "bullet", "bullet-text", "epd"})
    for (bool dedup : {false, true}) {
      std::string bytes[3], said[3];
      const size_t batches[3] = {size_t(1) << 18, 64, 1000};
      for (int k = 0; k < 3; ++k) {
        ExportRequest req{{path}, find_format(format), path + ".out", {}};
        req.filters.dedup = dedup, req.batch_rows = batches[k];
        std::ostringstream out, err;
        ASSERT_EQ(run_export(req, out, err), 0) << err.str();
        bytes[k] = read_bytes(req.out), said[k] = err.str();
      }
      EXPECT_FALSE(bytes[0].empty());
      for (int k = 1; k < 3; ++k) {
        EXPECT_EQ(bytes[k], bytes[0]) << format << " dedup " << dedup << " batch " << batches[k];
        EXPECT_EQ(said[k], said[0]) << format;
      }
    }
}

// --out FILE.gz (FILE.zst): gzip's (zstd's) bytes, which decompress (zlib, libzstd) to the
// uncompressed FILE's exactly, for the position formats and PGN alike.
TEST(ExportFile, CompressedOutDecompressesToTheUncompressedBytes) {
  const std::string path = make_dataset("compressed.h5");
  for (const char* format : {"plain", "binpack", "epd", "pgn"}) {
    ExportRequest req{{path}, find_format(format), path + "." + format, {}};
    std::ostringstream out, err;
    ASSERT_EQ(run_export(req, out, err), 0) << err.str();
    const std::string plain = read_bytes(req.out);
    ASSERT_FALSE(plain.empty()) << format;
    for (const std::string ext : {".gz", ".zst"}) {
      ExportRequest packed = req;
      packed.out = req.out + ext;
      ASSERT_EQ(run_export(packed, out, err), 0) << err.str();
      const std::string bytes = read_bytes(packed.out);
      if (ext == ".gz") {
        EXPECT_TRUE(testing_support::is_gzip(bytes)) << packed.out;
        EXPECT_EQ(testing_support::gunzip(bytes), plain) << packed.out;
      } else {
        EXPECT_TRUE(testing_support::is_zstd(bytes)) << packed.out;
        EXPECT_EQ(testing_support::unzstd(bytes), plain) << packed.out;
      }
      EXPECT_FALSE(std::filesystem::exists(packed.out + ".partial"));
    }
  }
}

// A file whose columns disagree in length (move one row short) is bad input, named in one
// line, whatever the batch: no row is read past a column's end, and nothing is written.
TEST(ExportErrors, ColumnShorterThanTheTableIsExit3) {
  const std::string path = make_dataset("short.h5"), damaged = testing::TempDir() + "short_move.h5";
  const PositionColumns p = read_positions(path);
  write_earlier_version(damaged, p, 1);
  for (size_t batch : {size_t(1) << 18, size_t(1000)}) {
    const auto [code, err] = export_to(damaged, "bin", {}, batch);
    EXPECT_EQ(code, 3) << batch;
    const size_t last = (p.size() - 1) / batch * batch, rows = p.size() - last;
    EXPECT_EQ(err, "chesshpc export: HDF5: column move has " + std::to_string(rows - 1) + " rows, the table's first " +
                       std::to_string(rows) + "\n")
        << batch;
    EXPECT_FALSE(std::filesystem::exists(damaged + ".bin")) << batch;
    EXPECT_FALSE(std::filesystem::exists(damaged + ".bin.partial")) << batch;
  }
}

// Fixed-length text: up to its width, empty included, read back as written; a longer
// string is refused rather than cut.
TEST(ExportFile, FixedLengthTextRoundTripsAndRefusesLongerText) {
  const std::string path = testing::TempDir() + "fixed_text.h5";
  const std::vector<std::string> moves = {"e2e4", "", "e7e8q", "e1h1"};
  {
    h5::File f(path);
    h5::write_fixed_text(f, "move", moves, 5, "a move");
    EXPECT_THROW(h5::write_fixed_text(f, "long", {"e7e8qq"}, 5, ""), h5::Error);
    f.commit();
  }
  std::vector<std::string> back;
  h5::read_column(h5::open_read(path), "move", back);
  EXPECT_EQ(back, moves);
}

// An --out that cannot be written: exit 4, one line, and no file left behind.
TEST(ExportErrors, UnwritableOutIsExit4AndLeavesNothing) {
  const std::string path = make_dataset("unwritable.h5");
  ExportRequest req{{path}, find_format("bin"), testing::TempDir() + "no_such_dir/x.bin", {}};
  std::ostringstream out, err;
  EXPECT_EQ(run_export(req, out, err), 4);
  EXPECT_EQ(err.str(), "chesshpc export: cannot write '" + req.out + "': No such file or directory\n");
  EXPECT_FALSE(std::filesystem::exists(req.out + ".partial"));
}

// --- Rows a damaged file holds ---------------------------------------------------------------

namespace {

constexpr const char* EVERY_FORMAT[] = {"plain", "bin", "binpack", "bullet", "bullet-text", "epd", "pgn"};

// A copy of the dataset at path, written as selfplay writes its file (so that pgn reads it
// too), with damage done to its /positions first.
std::string damaged_copy(const std::string& path, const std::string& name,
                         const std::function<void(PositionColumns&)>& damage) {
  SelfplayTables t = read_selfplay_tables(h5::open_read(path));
  damage(t.positions);
  const std::string copy = testing::TempDir() + name;
  std::filesystem::remove(copy);
  SelfplayRequest req;
  SelfplayStore(copy, req).finish(t, "2026-01-01T00:00:00Z", 1, 1);
  return copy;
}

// Row i's packed bytes: these squares occupied, each by the piece of code `piece` (core/pack.h:
// 3 a white rook, 9 a black one), white to move, no rights, no en passant, clocks 0 and 1.
void set_packed(PositionColumns& p, size_t i, uint64_t occupied, uint8_t piece) {
  uint8_t* b = p.packed.data() + 32 * i;
  std::fill_n(b, 32, 0);
  for (int k = 0; k < 8; ++k) b[k] = uint8_t(occupied >> (8 * k));
  std::fill_n(b + 8, 16, uint8_t(piece | piece << 4));
  b[25] = 255, b[28] = 1;
}

// The first row that every format writes with its centipawn score: searched, no mate, of a
// game with a result.
size_t first_scored_row(const PositionColumns& p) {
  for (size_t i = 0; i < p.size(); ++i)
    if (!p.book[i] && !p.mate_in[i] && !std::isnan(p.score_cp[i]) && !std::isnan(p.result[i])) return i;
  return p.size();
}

}  // namespace

// A score outside /positions/score_cp's range (1e300, one past either end, half a
// centipawn), a board without kings, one of 64 rooks (more pieces than 32 bytes hold): in
// every format one line naming the row, exit 3, nothing written. Row 5 is a book move that
// bullet leaves out: every row is checked, written or not.
TEST(ExportErrors, DamagedRowIsExit3InEveryFormat) {
  const std::string path = make_dataset("damage.h5");
  const std::string range = " is out of its range: NaN (no score) or a whole number from -2147483648 to 2147483647\n";
  const std::string illegal = "chesshpc export: /positions row 5: packed is no legal position: bad FEN: ";
  const struct {
    const char* name;
    std::function<void(PositionColumns&)> damage;
    std::string said;
  } cases[] = {
      {"huge", [](PositionColumns& p) { p.score_cp[5] = 1e300; },
       "chesshpc export: /positions row 5: score_cp 1e+300" + range},
      {"above", [](PositionColumns& p) { p.score_cp[5] = 2147483648.0; },
       "chesshpc export: /positions row 5: score_cp 2147483648" + range},
      {"below", [](PositionColumns& p) { p.score_cp[5] = -2147483649.0; },
       "chesshpc export: /positions row 5: score_cp -2147483649" + range},
      {"half", [](PositionColumns& p) { p.score_cp[5] = 12.5; },
       "chesshpc export: /positions row 5: score_cp 12.5" + range},
      {"kingless", [](PositionColumns& p) { set_packed(p, 5, 0x8000000000000001ULL, 3); },
       illegal + "piece placement: white has 0 kings, not 1\n"},
      {"rooks64", [](PositionColumns& p) { set_packed(p, 5, ~uint64_t(0), 9); },
       illegal + "piece placement: 64 pieces, more than 32\n"},
  };
  for (const auto& c : cases) {
    const std::string damaged = damaged_copy(path, std::string("damage_") + c.name + ".h5", c.damage);
    for (const char* format : EVERY_FORMAT) {
      std::filesystem::remove(damaged + "." + format), std::filesystem::remove(damaged + "." + format + ".partial");
      const auto [code, err] = export_to(damaged, format);
      EXPECT_EQ(code, 3) << c.name << " " << format;
      EXPECT_EQ(err, c.said) << format;
      EXPECT_FALSE(std::filesystem::exists(damaged + "." + format)) << c.name << " " << format;
      EXPECT_FALSE(std::filesystem::exists(damaged + "." + format + ".partial")) << c.name << " " << format;
    }
  }
}

// The ends of score_cp's range export in every format, as Stockfish's 31000 at most where
// the format clamps, as they are in pgn's comment.
TEST(ExportErrors, ScoresAtTheEndsOfTheRangeExport) {
  const std::string path = make_dataset("edge.h5");
  const size_t row = first_scored_row(read_positions(path));
  for (double score : {2147483647.0, -2147483648.0}) {
    const std::string edge = damaged_copy(path, "edge_score.h5", [&](PositionColumns& p) { p.score_cp[row] = score; });
    for (const char* format : EVERY_FORMAT) {
      const auto [code, err] = export_to(edge, format);
      EXPECT_EQ(code, 0) << score << " " << format << ": " << err;
    }
    const std::string plain = read_bytes(edge + ".plain"), pgn = read_bytes(edge + ".pgn");
    EXPECT_NE(plain.find(score > 0 ? "\nscore 31000\n" : "\nscore -31000\n"), std::string::npos) << score;
    EXPECT_NE(pgn.find(score > 0 ? "{+21474836.47/" : "{-21474836.48/"), std::string::npos) << score;
  }
}

// write_pgn's comment holds a score of any length whole: 2^330 pawns, 100 digits, once ran
// past a 96-byte buffer.
TEST(ExportFile, PgnCommentOfAHugeScoreIsWrittenWhole) {
  const std::string path = make_dataset("pgn_huge.h5");
  SelfplayFileData data;
  data.tables = read_selfplay_tables(h5::open_read(path));
  const size_t row = first_scored_row(data.tables.positions);
  data.tables.positions.score_cp[row] = std::ldexp(100.0, 330);
  std::ostringstream out, err;
  ASSERT_EQ(write_pgn(data, out, err), 0) << err.str();
  const std::string comment =
      "{+" + std::string("2187250724783011924372502227117621365353169430893212436425770606409952") +
      "999199375923223513177023053824.00/" + std::to_string(data.tables.positions.depth[row]) + " ";
  EXPECT_NE(out.str().find(comment), std::string::npos);
}

// Export names selfplay's columns through their declarations (h5::name_of), so a column
// renamed there is renamed for export too: each kind of column (plain, fixed width, added
// later, bytes) is found by its member, with the name the file holds.
TEST(ExportColumns, NamedThroughSelfplaysDeclarations) {
  using P = PositionColumns;
  const auto& positions = SELFPLAY_POSITIONS;
  EXPECT_EQ(positions.group, "positions");
  EXPECT_EQ(h5::name_of<&P::halfmove>(positions), "halfmove_clock");
  EXPECT_EQ(h5::name_of<&P::fen>(positions), "fen");
  EXPECT_EQ(h5::name_of<&P::time_ms>(positions), "time_ms");
  EXPECT_EQ(h5::name_of<&P::packed>(positions), "packed");
  EXPECT_EQ(h5::name_of<&GameColumns::start_fen>(SELFPLAY_GAMES), "start_fen");
  // Each name is the one dataset of its column in a file selfplay wrote.
  const h5::Group file = h5::open_read(make_dataset("named_columns.h5"));
  const h5::Group group = h5::open_group(file, positions.group);
  for (const std::string_view name : {h5::name_of<&P::halfmove>(positions), h5::name_of<&P::is_capture>(positions),
                                      h5::name_of<&P::wdl>(positions), h5::name_of<&P::best>(positions)})
    EXPECT_TRUE(h5::has_dataset(group, std::string(name))) << name;
}
