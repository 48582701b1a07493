// The .binpack codec (jobs/export/binpack): exact bytes of two chains worked out by hand
// from the format, round trips of every field over seeded games, chunks, what the format
// cannot hold, and malformed or damaged files (one FormatError, never a crash).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "core/uci.h"
#include "jobs/export/binpack.h"
#include "tests/binpack_games.h"

using namespace chess;
using binpack_games::Kind;
using chesshpc::binpack::Entry;
using chesshpc::binpack::FormatError;
using chesshpc::binpack::Writer;

namespace {

std::string write(const std::vector<Entry>& entries) {
  std::ostringstream out;
  Writer writer(out);
  for (const Entry& e : entries) writer.add(e);
  writer.finish();
  return out.str();
}

std::vector<Entry> read(const std::string& bytes) {
  std::istringstream in(bytes);
  return chesshpc::binpack::read_all(in);
}

std::vector<uint8_t> bytes_of(const std::string& s) { return std::vector<uint8_t>(s.begin(), s.end()); }

// Every field, the position with its clocks (Position's == compares them and the key).
void expect_same(const std::vector<Entry>& got, const std::vector<Entry>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    SCOPED_TRACE("entry " + std::to_string(i) + ": " + want[i].pos.fen());
    EXPECT_EQ(got[i].pos.fen(), want[i].pos.fen());
    EXPECT_TRUE(got[i].pos == want[i].pos);
    EXPECT_EQ(got[i].move, want[i].move) << to_uci(got[i].move) << " for " << to_uci(want[i].move);
    EXPECT_EQ(got[i].score, want[i].score);
    EXPECT_EQ(got[i].ply, want[i].ply);
    EXPECT_EQ(got[i].result, want[i].result);
    if (testing::Test::HasFailure()) return;
  }
}

// The FormatError's message for bytes, or what happened instead.
std::string error_of(const std::string& bytes) {
  try {
    read(bytes);
  } catch (const FormatError& e) {
    return e.what();
  }
  return "no error";
}

// Entry i continues entry i - 1's chain (the writer's rule).
bool continues(const std::vector<Entry>& entries, size_t i) {
  if (i == 0) return false;
  const Entry &a = entries[i - 1], &b = entries[i];
  return !a.move.is_none() && !b.move.is_none() && b.ply == a.ply + 1 && b.result == -a.result &&
         a.pos.after(a.move) == b.pos;
}

const Move E2E4(SQ_E2, SQ_E4), E7E5(SQ_E7, SQ_E5);

// 1. e4 e5 from the start, white won: two entries, one chain.
std::vector<Entry> e4_e5() {
  return {{Position::start(), E2E4, 20, 0, 1}, {Position::start().after(E2E4), E7E5, -15, 1, -1}};
}

}  // namespace

// The chunk: "BINP", size 36 (little-endian), then the chain.
// Stem position: occupancy big-endian (ranks 1, 2, 7, 8: FF FF 00 00 00 00 FF FF), then a
// nibble per piece in square order, the first of two in the low half: a1 rook with its
// right 13, b1 knight 2, c1 bishop 4, d1 queen 8, e1 king 10, f1 4, g1 2, h1 13 -> 2D 84 4A
// D2; white pawns 0 -> 00 x4; black pawns 1 -> 11 x4; a8 14, b8 3, c8 5, d8 9, e8 king 11
// (white to move), f8 5, g8 3, h8 14 -> 3E 95 5B E3.
// Stem move e2e4: normal (0) << 14 | e2 (12) << 8 | e4 (28) << 2 = 0C 70. Score 20 -> 40:
// 00 28. Ply 0 | result 1 -> 2 << 14: 80 00. Half-move clock 00 00. Plies that follow: 00 01.
// Then e7e5 with score -15, after 1. e4 (no en passant: no black pawn can take): e7 is
// black's piece 4 of 16 (a7 ... h7, a8 ... h8): 4 bits 0100; its targets are e5 and e6 (no
// captures), e5 the first: 1 bit 0; the delta is -15 - (-20) = 5 -> 10: one block 0 1010.
// 0100 0 01010 padded: 01000010 10000000 = 42 80.
TEST(Binpack, StartE4E5ChainBytesByHand) {
  const std::vector<uint8_t> want = {
      'B',  'I',  'N',  'P',  36,   0,    0,    0,                                                     // chunk header
      0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF,                                                  // occupancy
      0x2D, 0x84, 0x4A, 0xD2, 0x00, 0x00, 0x00, 0x00, 0x11, 0x11, 0x11, 0x11, 0x3E, 0x95, 0x5B, 0xE3,  // pieces
      0x0C, 0x70, 0x00, 0x28, 0x80, 0x00, 0x00, 0x00,  // move, score, ply and result, half-move clock
      0x00, 0x01, 0x42, 0x80};                         // one ply: e7e5, -15
  const std::string bytes = write(e4_e5());
  EXPECT_EQ(bytes_of(bytes), want);
  expect_same(read(bytes), e4_e5());
}

// Castling, the king taking its rook: O-O in the stem, then black's O-O-O in the movetext.
// Pieces a1 (13), e1 (10), h1 (13), a8 (14), e8 (11), h8 (14): occupancy 91 00 00 00 00 00
// 00 91, nibbles AD ED EB. Move castling (2) << 14 | e1 (4) << 8 | h1 (7) << 2 = 84 1C;
// score 0, ply 0, result 0, clock 0; one ply. Black then has 3 pieces (a8, e8, h8): e8 is
// 1 in 2 bits, 01; its king has 5 steps (d8 f8 d7 e7 f7) and 2 rights (k, q): 7 codes in 3
// bits, the queen side's first after the steps: 5, 101; score 7, delta 7 + 0 -> 14: 0 1110.
// 01 101 01110 padded: 01101011 10000000 = 6B 80.
TEST(Binpack, CastlingChainBytesByHand) {
  const Position pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  const Move oo(SQ_E1, SQ_H1, CASTLING), ooo(SQ_E8, SQ_A8, CASTLING);
  const std::vector<Entry> entries = {{pos, oo, 0, 0, 0}, {pos.after(oo), ooo, 7, 1, 0}};
  std::vector<uint8_t> want = {'B', 'I', 'N', 'P', 36, 0, 0, 0, 0x91, 0, 0, 0, 0, 0, 0, 0x91, 0xAD, 0xED, 0xEB};
  want.resize(8 + 24, 0);
  for (uint8_t b : {0x84, 0x1C, 0, 0, 0, 0, 0, 0, 0, 1, 0x6B, 0x80}) want.push_back(b);
  const std::string bytes = write(entries);
  EXPECT_EQ(bytes_of(bytes), want);
  expect_same(read(bytes), entries);
}

// The other special codes and the clocks, two stems. "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 40"
// (ply 79): e1 king 10, d4 black pawn 1, e4 the pawn that can be taken en passant 12, e8
// black king with black to move 15: occupancy bits 4, 27, 28, 60 = 10 00 00 00 18 00 00
// 10, nibbles 1A FC; move d4e3 en passant (3) << 14 | d4 (27) << 8 | e3 (20) << 2 = DB 50;
// score -5 -> 9; ply 79, result 0: 00 4F; clock 0; no plies. "4k3/8/8/8/8/8/8/R3K3 w Q -
// 300 151" (ply 300): a1 rook with its right 13, e1 10, e8 11: bits 0, 4, 60 = 10 00 00 00
// 00 00 00 11, nibbles AD 0B; move a1a8 56 << 2 = 00 E0; score 300 -> 600 = 02 58; ply 300
// | result 1 -> 2 << 14 = 81 2C; clock 300 = 01 2C.
TEST(Binpack, EnPassantBlackToMoveAndClocksBytesByHand) {
  const Position ep = Position::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 40");
  const Position rook = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 300 151");
  ASSERT_EQ(ep.ep_square(), SQ_E3);
  const std::vector<Entry> entries = {{ep, Move(SQ_D4, SQ_E3, EN_PASSANT), -5, 79, 0},
                                      {rook, Move(SQ_A1, SQ_A8), 300, 300, 1}};
  std::vector<uint8_t> want = {'B', 'I', 'N', 'P', 68, 0, 0, 0, 0x10, 0, 0, 0, 0x18, 0, 0, 0x10, 0x1A, 0xFC};
  want.resize(8 + 24, 0);
  for (uint8_t b : {0xDB, 0x50, 0, 9, 0, 0x4F, 0, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0x11, 0xAD, 0x0B}) want.push_back(b);
  want.resize(8 + 34 + 24, 0);
  for (uint8_t b : {0x00, 0xE0, 0x02, 0x58, 0x81, 0x2C, 0x01, 0x2C, 0, 0}) want.push_back(b);
  const std::string bytes = write(entries);
  EXPECT_EQ(bytes_of(bytes), want);
  expect_same(read(bytes), entries);
}

// Seeded random games that take castlings, en-passant captures and promotions whenever
// they can (half the time), with scores anywhere in int16, dropped entries, best moves
// other than the one played and finished games' last positions without a move: every
// field back, and every special move both in stems and in chains.
TEST(Binpack, RoundTripsEveryFieldOverSeededGames) {
  const std::vector<Entry> entries = binpack_games::games(Kind::VARIED, 300, 200, 17);
  std::ostringstream out;
  Writer writer(out);
  for (const Entry& e : entries) writer.add(e);
  writer.finish();
  expect_same(read(out.str()), entries);
  EXPECT_EQ(writer.entries(), entries.size());
  EXPECT_EQ(writer.bytes_written(), out.str().size());

  int chains = 0, no_move = 0, extremes = 0;
  int in_chain[4] = {}, in_stem[4] = {}, promotions[PIECE_TYPE_NB] = {};  // by MoveKind, by piece
  for (size_t i = 0; i < entries.size(); ++i) {
    const Move m = entries[i].move;
    chains += !continues(entries, i);
    no_move += m.is_none();
    extremes += entries[i].score == 32767 || entries[i].score == -32768;
    if (m.is_none()) continue;
    ++(continues(entries, i) ? in_chain : in_stem)[m.kind()];
    if (m.kind() == PROMOTION && continues(entries, i)) ++promotions[m.promotion()];
  }
  EXPECT_EQ(writer.chains(), uint64_t(chains));
  EXPECT_GT(entries.size(), 30000u);
  EXPECT_LT(chains * 5, int(entries.size()));  // most entries continue a chain
  EXPECT_GT(no_move, 10);
  EXPECT_GT(extremes, 1000);
  for (MoveKind k : {PROMOTION, EN_PASSANT, CASTLING}) {
    EXPECT_GT(in_chain[k], 100) << int(k);
    EXPECT_GT(in_stem[k], 5) << int(k);
  }
  for (PieceType pt : {KNIGHT, BISHOP, ROOK, QUEEN}) EXPECT_GT(promotions[pt], 50) << int(pt);
}

// Chunks close between chains once they hold a mebibyte: 31,000 stems of 34 bytes (a
// position that never continues) make one chunk of 30,841 (1,048,594 bytes, the first
// size at or above 1,048,576) and one of the 159 left (5,406 bytes).
TEST(Binpack, ChunksCloseAtAMebibyteBetweenChains) {
  std::vector<Entry> entries;
  for (int i = 0; i < 31000; ++i) entries.push_back({Position::start(), E2E4, int16_t(i), 0, 0});
  const std::string bytes = write(entries);
  ASSERT_EQ(bytes.size(), 16u + 31000 * 34);
  auto header_at = [&](size_t at) { return bytes.substr(at, 8); };
  EXPECT_EQ(header_at(0), std::string("BINP\x12\x00\x10\x00", 8));            // 1,048,594 = 0x100012
  EXPECT_EQ(header_at(8 + 1048594), std::string("BINP\x1E\x15\x00\x00", 8));  // 5,406 = 0x151E
  expect_same(read(bytes), entries);
}

// What the format cannot hold is refused before anything is written, and the writer goes on.
TEST(Binpack, RefusesWhatTheFormatCannotHold) {
  std::ostringstream out;
  Writer writer(out);
  auto refusal = [&](const Entry& e) -> std::string {
    try {
      writer.add(e);
    } catch (const std::invalid_argument& err) {
      return err.what();
    }
    return "accepted";
  };
  const Position chess960 = Position::from_fen("chess960:0");
  EXPECT_EQ(refusal({chess960, legal_moves(chess960)[0], 0, 0, 0}),
            "binpack holds standard chess only, not the Chess960 position '" + chess960.fen() + "'");
  EXPECT_EQ(refusal({Position::start(), E2E4, 0, 0, 2}), "binpack result must be -1, 0 or 1, not 2");
  EXPECT_EQ(refusal({Position::start(), E2E4, 0, 16384, 0}), "binpack ply 16384 is beyond the format's 16383");
  EXPECT_EQ(refusal({Position::start(), Move(SQ_E2, SQ_E5), 0, 0, 0}),
            "binpack move e2e5 is not legal in '" + std::string(START_FEN) + "'");
  writer.finish();
  EXPECT_EQ(out.str(), "");
  EXPECT_EQ(writer.entries(), 0u);
  for (const Entry& e : e4_e5()) writer.add(e);
  writer.finish();
  EXPECT_EQ(out.str(), write(e4_e5()));
}

// One line each, naming the byte; an empty stream is an empty file, no error.
TEST(Binpack, MalformedFilesGiveOneClearError) {
  EXPECT_TRUE(read("").empty());
  const std::string good = write(e4_e5());
  auto with = [&](size_t at, uint8_t byte) {
    std::string b = good;
    b[at] = char(byte);
    return b;
  };
  EXPECT_EQ(error_of("PK\x03\x04 a zip file"), "binpack: at byte 0: no chunk starts here (\"BINP\" expected)");
  EXPECT_EQ(error_of(good + "BIN"), "binpack: at byte 44: the file ends inside a chunk header");
  EXPECT_EQ(error_of(good.substr(0, 43)), "binpack: at byte 0: the file ends inside a chunk of 36 bytes (35 present)");
  EXPECT_EQ(error_of(std::string("BINP\xFF\xFF\xFF\xFF", 8)),
            "binpack: at byte 0: a chunk of 4294967295 bytes, more than 100 MiB");
  // e1's nibble (byte 8 + 10, low half) a white pawn: no white king.
  EXPECT_EQ(error_of(with(18, 0x40)),
            "binpack: at byte 8: position 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQPBNR w KQkq - 0 1': "
            "bad FEN: piece placement: white has 0 kings, not 1");
  EXPECT_EQ(error_of(with(8 + 8, 0x2C)), "binpack: at byte 8: en-passant pawn code on a1");
  EXPECT_EQ(error_of(with(8 + 8 + 1, 0x8D)), "binpack: at byte 8: castling rook code on c1");
  EXPECT_EQ(error_of(with(8 + 28, 0xC0)), "binpack: at byte 8: result code 3");
  EXPECT_EQ(error_of(with(8 + 25, 0x90)),  // e2e5
            "binpack: at byte 32: move e2e5 is not legal in '" + std::string(START_FEN) + "'");
  // The chunk one byte shorter: the movetext's second byte is gone.
  std::string cut = good.substr(0, 43);
  cut[4] = 35;
  EXPECT_EQ(error_of(cut), "binpack: at byte 42: the chunk ends inside the chain's moves");
  std::string extra = good + "12345";
  extra[4] = 41;
  EXPECT_EQ(error_of(extra), "binpack: at byte 44: 5 bytes after the chunk's last chain, fewer than a chain");
  // Piece index 15 of black's 16 (h8's rook), which has no move: 0 codes.
  EXPECT_EQ(error_of(with(42, 0xF2)), "binpack: at byte 42: move 0 of 0 from h8");
}

// A damaged file is read or refused with a FormatError, never anything else: every cut of
// a one-chunk file (each a FormatError) and three values XORed into every byte. Under
// the sanitizers (scripts/sanitize.sh) this is also where a read out of bounds would show.
TEST(Binpack, EveryCutAndDamagedByteIsReadOrRefused) {
  const std::string good = write(binpack_games::games(Kind::VARIED, 2, 120, 5));
  ASSERT_GT(good.size(), 500u);
  for (size_t n = 1; n < good.size(); ++n) EXPECT_NE(error_of(good.substr(0, n)), "no error") << n;
  int refused = 0, read_anyway = 0;
  for (size_t i = 0; i < good.size(); ++i)
    for (uint8_t mask : {0x01, 0x30, 0xFF}) {
      std::string bad = good;
      bad[i] = char(bad[i] ^ mask);
      (error_of(bad) == "no error" ? read_anyway : refused) += 1;
    }
  EXPECT_GT(refused, 100);
  EXPECT_GT(read_anyway, 100);  // a score, the padding, another legal move
}

// 300 games of up to 80 plies, best moves by the static evaluation with a random one a
// fifth of the time, each position scored: the format's published figure is about 2.5
// bytes a position on real data.
TEST(Binpack, RealisticGamesTakeUnderThreeBytesAPosition) {
  const std::vector<Entry> entries = binpack_games::games(Kind::REALISTIC, 300, 80, 2026);
  const std::string bytes = write(entries);
  const double per_position = double(bytes.size()) / double(entries.size());
  RecordProperty("bytes_per_position", std::to_string(per_position));
  EXPECT_GT(entries.size(), 20000u);
  EXPECT_LT(per_position, 3.0);
  EXPECT_GT(per_position, 1.5);
  expect_same(read(bytes), entries);
}
