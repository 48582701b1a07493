// Openings of selfplay batches: books read as EPD or PGN, and the opening of game i drawn
// from (seed, i / 2) alone.
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "core/game.h"
#include "core/san.h"
#include "core/uci.h"
#include "jobs/selfplay/openings.h"

using namespace chesshpc;

namespace {

std::string write_file(const std::string& name, const std::string& text) {
  std::string path = testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

std::string line_of(const Opening& o) {
  std::string s = o.start.fen();
  for (chess::Move m : o.moves) {
    s += ' ';
    s += chess::to_uci(m);
  }
  return s;
}

}  // namespace

TEST(Openings, EpdBookKeepsPositionsAndIgnoresOpcodes) {
  std::string path = write_file("book.epd",
                                "# a comment\n"
                                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n"
                                "\n"
                                "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1 bm d5;\r\n"
                                "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\n");
  std::vector<BookLine> book = read_book(path);
  ASSERT_EQ(book.size(), 3u);
  EXPECT_EQ(book[0].start.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  EXPECT_EQ(book[2].start.fen(), "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
  EXPECT_TRUE(book[1].moves.empty());
}

TEST(Openings, BadBookLinesAreNamed) {
  std::string path = write_file("bad.epd", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nnot a fen\n");
  try {
    read_book(path);
    FAIL() << "read a bad book";
  } catch (const BookError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.epd:2: "), std::string::npos) << e.what();
  }
  EXPECT_THROW(read_book(write_file("empty.epd", "# nothing\n\n")), BookError);
  EXPECT_THROW(read_book(testing::TempDir() + "missing.epd"), BookError);
  EXPECT_THROW(read_book(write_file("bad.pgn", "[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n")), BookError);
}

TEST(Openings, PgnBookGivesMoves) {
  std::string path = write_file("book.pgn",
                                "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n"
                                "[Event \"b\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 *\n");
  std::vector<BookLine> book = read_book(path);
  ASSERT_EQ(book.size(), 2u);
  EXPECT_EQ(book[0].text, "e4 e5 Nf3 Nc6");
  EXPECT_EQ(book[0].moves.size(), 4u);
  EXPECT_EQ(book[1].start.fen(), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
  EXPECT_EQ(book[1].text, "e4");
}

// A PGN book's move numbers are skipped, as the PGN reader skips them everywhere
// (the moves make the line, and each is checked): wrong numbers give the line of right
// ones, and a move that is not legal where it stands is refused with its line, whatever
// its number says.
TEST(Openings, PgnBookSkipsMoveNumbersAndChecksTheMoves) {
  std::vector<BookLine> right = read_book(write_file("right.pgn", "1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n"));
  std::vector<BookLine> wrong = read_book(write_file("wrong.pgn", "7. e4 e5 1. Nf3 5... Nc6 3 Bb5 *\n"));
  ASSERT_EQ(right.size(), 1u);
  ASSERT_EQ(wrong.size(), 1u);
  EXPECT_EQ(wrong[0].text, "e4 e5 Nf3 Nc6 Bb5");
  EXPECT_EQ(wrong[0].moves, right[0].moves);
  EXPECT_EQ(wrong[0].start.fen(), right[0].start.fen());
  try {
    read_book(write_file("skipped.pgn", "[Event \"x\"]\n\n1. e4 e5\n2. Nf6 *\n"));
    FAIL() << "read a book whose third ply is not legal";
  } catch (const BookError& e) {
    EXPECT_NE(std::string(e.what()).find("skipped.pgn:4: "), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("Nf6"), std::string::npos) << e.what();
  }
}

TEST(Openings, UciMoveBookIsTheShippedOne) {
  std::vector<BookLine> book = read_book(std::string(CHESSHPC_TEST_DATA) + "/openings.txt");
  ASSERT_EQ(book.size(), 100u);
  EXPECT_EQ(book[0].text, "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6");
  EXPECT_EQ(book[0].moves.size(), 8u);
  EXPECT_EQ(book[99].text, "d2d4 g8f6 f2f3 d7d5 e2e4 d5e4 b1c3 e4f3");
  EXPECT_THROW(read_book(write_file("bad.txt", "e2e4 e7e5\ne2e4 e2e4\n")), BookError);
}

TEST(Openings, PairsShareTheirOpeningAndRandomOrderUsesEveryLine) {
  std::vector<BookLine> book;
  for (const char* san : {"e4", "d4", "c4", "Nf3", "g3"}) {
    chess::Position p = chess::Position::start();
    book.push_back({san, p, {*chess::parse_move(p, san)}});
  }
  OpeningSpec spec{&book, BookOrder::RANDOM, 0, 7};
  std::set<int64_t> seen;
  for (uint64_t pair = 0; pair < 5; ++pair) {
    Opening a = opening_for(spec, 2 * pair), b = opening_for(spec, 2 * pair + 1);
    EXPECT_EQ(line_of(a), line_of(b));
    seen.insert(a.id);
  }
  EXPECT_EQ(seen.size(), 5u);
  spec.order = BookOrder::SEQUENTIAL;
  EXPECT_EQ(opening_for(spec, 6).id, 3);
  EXPECT_EQ(opening_for(spec, 13).id, 1);  // pair 6 wraps to line 1
}

TEST(Openings, RandomPliesAreReproducibleAndNeverEndTheGame) {
  OpeningSpec spec{nullptr, BookOrder::SEQUENTIAL, 8, 12345};
  std::set<std::string> distinct;
  for (uint64_t g = 0; g < 200; ++g) {
    Opening o = opening_for(spec, g);
    ASSERT_EQ(o.moves.size(), 8u);
    EXPECT_EQ(line_of(o), line_of(opening_for(spec, g)));
    chess::Game game(o.start);
    for (chess::Move m : o.moves) game.play(m);
    EXPECT_FALSE(game.over()) << line_of(o);
    distinct.insert(line_of(o));
  }
  EXPECT_EQ(distinct.size(), 100u);  // 100 pairs, each its own line
  spec.seed = 54321;
  EXPECT_NE(line_of(opening_for(spec, 0)),
            line_of(opening_for(OpeningSpec{nullptr, BookOrder::SEQUENTIAL, 8, 12345}, 0)));
}
