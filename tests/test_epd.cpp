#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "core/position.h"
#include "jobs/perft/epd.h"

using chesshpc::EpdFile;
using Expected = std::vector<std::pair<int, uint64_t>>;

namespace {

EpdFile read(const std::string& text) {
  std::istringstream in(text);
  return chesshpc::read_epd(in);
}

// The message FenError gives for fen, to check that read_epd passes it on unchanged.
std::string fen_message(const std::string& fen) {
  try {
    chess::Position::from_fen(fen);
  } catch (const chess::FenError& e) {
    return e.what();
  }
  return "(accepted)";
}

const std::string START4 = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
const std::string START6 = std::string(chess::START_FEN);

}  // namespace

TEST(Epd, GoodLine) {
  EpdFile f = read(START4 + " ;D1 20 ;D2 400 ;D3 8902\n");
  EXPECT_TRUE(f.errors.empty());
  ASSERT_EQ(f.lines.size(), 1u);
  EXPECT_EQ(f.lines[0].line_number, 1);
  EXPECT_EQ(f.lines[0].fen, START6);
  EXPECT_EQ(f.lines[0].expected, (Expected{{1, 20}, {2, 400}, {3, 8902}}));
}

TEST(Epd, DepthsKeptInFileOrder) {
  EpdFile f = read(START4 + " ;D3 8902 ;D1 20\n");
  ASSERT_EQ(f.lines.size(), 1u);
  EXPECT_EQ(f.lines[0].expected, (Expected{{3, 8902}, {1, 20}}));
}

TEST(Epd, LargeCountsAndLooseSpacing) {
  // Counts past 32 bits are routine at depth 7+; spacing around ';' varies between suites.
  EpdFile f = read(START4 + ";D1   20 ;  D9 2439530234167  ;D2 400   \n");
  EXPECT_TRUE(f.errors.empty());
  ASSERT_EQ(f.lines.size(), 1u);
  EXPECT_EQ(f.lines[0].expected, (Expected{{1, 20}, {9, 2439530234167ULL}, {2, 400}}));
}

TEST(Epd, LastLineWithoutNewline) {
  EpdFile f = read(START4 + " ;D1 20");
  EXPECT_TRUE(f.errors.empty());
  ASSERT_EQ(f.lines.size(), 1u);
  EXPECT_EQ(f.lines[0].expected, (Expected{{1, 20}}));
}

TEST(Epd, EmptyInput) {
  EpdFile f = read("");
  EXPECT_TRUE(f.lines.empty());
  EXPECT_TRUE(f.errors.empty());
}

TEST(Epd, CrlfLineEnds) {
  EpdFile f = read(START4 + " ;D1 20 ;D2 400\r\n\r\n4k3/8/8/8/8/8/8/4K2R w K - ;D1 15 ;D2 66\r\n");
  EXPECT_TRUE(f.errors.empty()) << f.errors.front().message;
  ASSERT_EQ(f.lines.size(), 2u);
  EXPECT_EQ(f.lines[0].line_number, 1);
  EXPECT_EQ(f.lines[0].expected, (Expected{{1, 20}, {2, 400}}));
  EXPECT_EQ(f.lines[1].line_number, 3);
  EXPECT_EQ(f.lines[1].fen, "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
  // The '\r' must not stick to the last count or to the castling field.
  EXPECT_EQ(f.lines[1].expected, (Expected{{1, 15}, {2, 66}}));
}

TEST(Epd, BlankAndCommentLinesSkippedButCounted) {
  EpdFile f = read("# perft suite\n\n   \t\n  # indented comment\n" + START4 + " ;D1 20\n#" + START4 + " ;D1 20\n");
  EXPECT_TRUE(f.errors.empty());
  ASSERT_EQ(f.lines.size(), 1u);
  EXPECT_EQ(f.lines[0].line_number, 5);
}

TEST(Epd, UnreadableLinesListedGoodLinesStillRead) {
  const std::string bad_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq -";
  const std::string text = "# header\n"            // 1
                           + START4 + " ;D1 20\n"  // 2
                           + bad_fen +
                           " ;D1 20\n"                                                                  // 3
                           "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - ;D1 48\n"  // 4
                           + START4 + " ;D0 5\n"                                                        // 5
                           + START4 +
                           " ;D1 x\n"             // 6
                           "\n"                   // 7
                           + START4 + " ;X1 5\n"  // 8
                           + START4 +
                           "\n"                                                       // 9
                           "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - ;D1 14 ;D2 191\n";  // 10
  EpdFile f = read(text);

  ASSERT_EQ(f.lines.size(), 3u);
  EXPECT_EQ(f.lines[0].line_number, 2);
  EXPECT_EQ(f.lines[0].expected, (Expected{{1, 20}}));
  EXPECT_EQ(f.lines[1].line_number, 4);
  EXPECT_EQ(f.lines[1].expected, (Expected{{1, 48}}));
  EXPECT_EQ(f.lines[2].line_number, 10);
  EXPECT_EQ(f.lines[2].fen, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1");
  EXPECT_EQ(f.lines[2].expected, (Expected{{1, 14}, {2, 191}}));

  ASSERT_EQ(f.errors.size(), 5u);
  EXPECT_EQ(f.errors[0].line_number, 3);
  EXPECT_EQ(f.errors[0].text, bad_fen + " ;D1 20");
  EXPECT_EQ(f.errors[0].message, fen_message(bad_fen + " 0 1"));
  EXPECT_NE(f.errors[0].message.find("piece placement"), std::string::npos) << f.errors[0].message;
  EXPECT_NE(f.errors[0].message.find("unknown piece letter 'X'"), std::string::npos) << f.errors[0].message;

  EXPECT_EQ(f.errors[1].line_number, 5);
  EXPECT_EQ(f.errors[1].message, "'D0 5' is not a ';Dn count' field");
  EXPECT_EQ(f.errors[2].line_number, 6);
  EXPECT_EQ(f.errors[2].message, "'D1 x' does not end in one non-negative count");
  EXPECT_EQ(f.errors[3].line_number, 8);
  EXPECT_EQ(f.errors[3].message, "'X1 5' is not a ';Dn count' field");
  EXPECT_EQ(f.errors[4].line_number, 9);
  EXPECT_EQ(f.errors[4].text, START4);
  EXPECT_EQ(f.errors[4].message, "no ';Dn count' field");
}

TEST(Epd, MalformedCountFields) {
  // Each of these lines is unreadable as a whole, even where an earlier field was fine.
  const std::vector<std::pair<std::string, std::string>> cases = {
      {" ;D1 -5", "does not end in one non-negative count"},
      {" ;D1 20 30", "does not end in one non-negative count"},
      {" ;D1", "does not end in one non-negative count"},
      {" ;D1 20 ;D2 400x", "does not end in one non-negative count"},
      {" ;D-1 20", "is not a ';Dn count' field"},
      {" ;D 20", "is not a ';Dn count' field"},
      {" ;d1 20", "is not a ';Dn count' field"},
      {" ;", "no ';Dn count' field"},
      {" ;D1 20 ; ;D2 400", "is not a ';Dn count' field"},
  };
  std::string text;
  for (const auto& c : cases) text += START4 + c.first + "\n";
  EpdFile f = read(text);
  EXPECT_TRUE(f.lines.empty());
  ASSERT_EQ(f.errors.size(), cases.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    EXPECT_EQ(f.errors[i].line_number, int(i) + 1);
    EXPECT_NE(f.errors[i].message.find(cases[i].second), std::string::npos)
        << "line '" << cases[i].first << "': " << f.errors[i].message;
  }
}

// Strict EPD writers end every operation with ';'.
TEST(Epd, TrailingSemicolonAccepted) {
  EpdFile f = read(START4 + " ;D1 20 ;D2 400;\n" + START4 + " ;D1 20;\n");
  EXPECT_TRUE(f.errors.empty());
  ASSERT_EQ(f.lines.size(), 2u);
  EXPECT_EQ(f.lines[0].expected, (Expected{{1, 20}, {2, 400}}));
  EXPECT_EQ(f.lines[1].expected, (Expected{{1, 20}}));
}

TEST(Epd, WrongFieldCountIsAFenError) {
  EpdFile f = read("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 ;D1 20\n" + START4 + " ;D1 20\n");
  ASSERT_EQ(f.errors.size(), 1u);
  EXPECT_EQ(f.errors[0].line_number, 1);
  EXPECT_NE(f.errors[0].message.find("field count"), std::string::npos) << f.errors[0].message;
  EXPECT_NE(f.errors[0].message.find("got 5"), std::string::npos) << f.errors[0].message;
  ASSERT_EQ(f.lines.size(), 1u);
  EXPECT_EQ(f.lines[0].line_number, 2);
}

TEST(Epd, FourFieldPositionGetsDefaultClocks) {
  EpdFile f = read("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - ;D1 26\n");
  ASSERT_EQ(f.lines.size(), 1u);
  EXPECT_EQ(f.lines[0].fen, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
}

TEST(Epd, SixFieldPositionKeepsItsClocks) {
  // Note: epd.h describes fen as "first four fields plus 0 1"; read_epd keeps the
  // clocks of a 6-field line, which is what this asserts.
  EpdFile f =
      read("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8 ;D1 44 ;D2 1486\n" + START6 + " ;D1 20\n");
  EXPECT_TRUE(f.errors.empty());
  ASSERT_EQ(f.lines.size(), 2u);
  EXPECT_EQ(f.lines[0].fen, "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8");
  EXPECT_EQ(f.lines[0].expected, (Expected{{1, 44}, {2, 1486}}));
  EXPECT_EQ(f.lines[1].fen, START6);
}

TEST(Epd, FenIsNormalized) {
  // Castling letters in canonical order and an en-passant square nobody can use dropped,
  // so that equal positions give equal strings.
  EpdFile f = read("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b qkQK e3 ;D1 20\n");
  ASSERT_EQ(f.lines.size(), 1u);
  EXPECT_EQ(f.lines[0].fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
}
