#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/movegen.h"
#include "core/pgn.h"
#include "core/san.h"
#include "core/uci.h"

using namespace chess;

namespace {

constexpr const char* KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
constexpr const char* PROMOTIONS = "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1";

using Tags = std::vector<std::pair<std::string, std::string>>;

// The 1-based line of the first occurrence of needle in text.
int line_of(std::string_view text, std::string_view needle) {
  size_t at = text.find(needle);
  EXPECT_NE(at, std::string_view::npos) << needle;
  return 1 + int(std::count(text.begin(), text.begin() + std::min(at, text.size()), '\n'));
}

std::string ucis(const std::vector<Move>& moves) {
  std::string s;
  for (Move m : moves) {
    if (!s.empty()) s += ' ';
    s += to_uci(m);
  }
  return s;
}

// Moves from SAN, failing the test on any that does not read.
std::vector<Move> play(const Position& start, std::initializer_list<std::string_view> sans) {
  std::vector<Move> moves;
  Position pos = start;
  for (std::string_view s : sans) {
    std::optional<Move> m = parse_san(pos, s);
    EXPECT_TRUE(m) << s << " in " << pos.fen();
    if (!m) break;
    moves.push_back(*m);
    pos.do_move(*m);
  }
  return moves;
}

struct Read {
  std::vector<PgnGame> games;
  std::vector<PgnError> errors;
};

Read read_all(std::string_view text) {
  Read r;
  for (const PgnChunk& chunk : split_pgn(text)) {
    PgnGame game;
    PgnError error{};
    if (parse_pgn_game(chunk, game, error))
      r.games.push_back(std::move(game));
    else
      r.errors.push_back(error);
  }
  return r;
}

// A byte-order mark, comments of both kinds (one spanning lines, one holding ';', one in
// a variation holding ')'), NAGs, nested variations, escaped quotes and backslashes in
// tags, a CRLF game, a FEN game starting with black, a '%' escape line, games without
// tags (two on one line), every kind of result, and no newline at the end.
const std::string MIXED = std::string("\xEF\xBB\xBF") +
                          R"([Event "Casual \"blitz\" game"]
[Site "Berlin"]
[Date "2024.01.02"]
[Round "1"]
[White "Doe, John"]
[Black "Roe, \\Jane\\"]
[Result "1-0"]

1. e4 {King's pawn; a comment
spanning two lines} e5 2. Bc4 $1 Nc6 (2... Nf6 {a ) in a comment} 3. d3 (3. Nc3 Bc5)
3... Be7) 3. Qh5 ; threatens mate (and this is no variation
Nf6?? $4 4. Qxf7# 1-0

)" +
                          "[Event \"Fool's mate\"]\r\n[White \"A\"]\r\n[Black \"B\"]\r\n[Result \"0-1\"]\r\n\r\n1.f3 "
                          "e5 2.g4 Qh4# 0-1\r\n\r\n" +
                          R"([Event "Promotions"]
[SetUp "1"]
[FEN "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1"]
[Result "1/2-1/2"]

1... gxf1=Q+ 2. Kxf1 Nab6 3. b8=Q! 1/2-1/2

% an escape line, ignored
1. d4 d5 2. c4 e6 *
1. Nf3 Nf6 1-0 1. c4 c5 0-1 {a last comment})";

// Good games A to D around five bad ones, each bad one with its own fault.
const std::string MALFORMED = R"([Event "Good A"]
[Result "1-0"]

1. e4 e5 1-0

[Event "Bad: illegal move"]
[Result "*"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6
5. Nf6 Nf6 *

[Event "Good B"]
[Result "0-1"]

1. d4 Nf6 0-1

[Event "Bad: unbalanced brace"]
[Result "*"]

1. e4 {an unclosed comment
e5 2. Nf3 *

[Event "Good C"]
[Result "1/2-1/2"]

1. c4 1/2-1/2

[Event "Bad: missing result"]

1. e4 e5
2. Nf3

[Event "Bad: unclosed variation"]

1. e4 (1. d4 d5 2. c4
e5 *

[Event "Bad: tag pair
[Result "*"]

1. e4 *

[Event "Good D"]
[Result "*"]

1. g3 *
)";

}  // namespace

// ---- Reading --------------------------------------------------------------------------

TEST(Pgn, ReadsMixedFile) {
  std::vector<PgnChunk> chunks = split_pgn(MIXED);
  ASSERT_EQ(chunks.size(), 6u);
  Read r = read_all(MIXED);
  for (const PgnError& e : r.errors) ADD_FAILURE() << e.what();
  ASSERT_EQ(r.games.size(), 6u);

  const PgnGame& g1 = r.games[0];
  EXPECT_EQ(g1.tags, (Tags{{"Event", "Casual \"blitz\" game"},
                           {"Site", "Berlin"},
                           {"Date", "2024.01.02"},
                           {"Round", "1"},
                           {"White", "Doe, John"},
                           {"Black", "Roe, \\Jane\\"},
                           {"Result", "1-0"}}));
  EXPECT_EQ(g1.tag("Black"), "Roe, \\Jane\\");
  EXPECT_EQ(g1.tag("Annotator"), "");
  EXPECT_EQ(ucis(g1.moves), "e2e4 e7e5 f1c4 b8c6 d1h5 g8f6 h5f7");
  EXPECT_EQ(g1.result, "1-0");
  EXPECT_EQ(g1.first_line, 1);
  EXPECT_EQ(g1.start, Position::start());

  const PgnGame& g2 = r.games[1];
  EXPECT_EQ(g2.tags, (Tags{{"Event", "Fool's mate"}, {"White", "A"}, {"Black", "B"}, {"Result", "0-1"}}));
  EXPECT_EQ(ucis(g2.moves), "f2f3 e7e5 g2g4 d8h4");
  EXPECT_EQ(g2.result, "0-1");
  EXPECT_EQ(g2.first_line, line_of(MIXED, "[Event \"Fool's mate\"]"));

  const PgnGame& g3 = r.games[2];
  EXPECT_EQ(g3.tag("FEN"), PROMOTIONS);
  EXPECT_EQ(g3.start, Position::from_fen(PROMOTIONS));
  EXPECT_EQ(ucis(g3.moves), "g2f1q e2f1 a8b6 b7b8q");
  EXPECT_EQ(g3.result, "1/2-1/2");

  const PgnGame& g4 = r.games[3];
  EXPECT_TRUE(g4.tags.empty());
  EXPECT_EQ(ucis(g4.moves), "d2d4 d7d5 c2c4 e7e6");
  EXPECT_EQ(g4.result, "*");
  EXPECT_EQ(g4.first_line, line_of(MIXED, "1. d4 d5"));

  EXPECT_EQ(ucis(r.games[4].moves), "g1f3 g8f6");
  EXPECT_EQ(r.games[4].result, "1-0");
  EXPECT_EQ(ucis(r.games[5].moves), "c2c4 c7c5");
  EXPECT_EQ(r.games[5].result, "0-1");
  EXPECT_EQ(r.games[4].first_line, r.games[5].first_line);
  EXPECT_EQ(chunks[5].text, "1. c4 c5 0-1 {a last comment}");
}

TEST(Pgn, SkipsMalformedGamesAndReadsTheRest) {
  Read r = read_all(MALFORMED);
  ASSERT_EQ(r.games.size(), 4u);
  EXPECT_EQ(r.games[0].tag("Event"), "Good A");
  EXPECT_EQ(r.games[1].tag("Event"), "Good B");
  EXPECT_EQ(r.games[2].tag("Event"), "Good C");
  EXPECT_EQ(r.games[3].tag("Event"), "Good D");
  EXPECT_EQ(ucis(r.games[1].moves), "d2d4 g8f6");
  EXPECT_EQ(ucis(r.games[3].moves), "g2g3");

  ASSERT_EQ(r.errors.size(), 5u);  // skipped
  EXPECT_EQ(r.errors[0].line, line_of(MALFORMED, "5. Nf6"));
  EXPECT_EQ(r.errors[0].message, "illegal move 'Nf6' at ply 9");
  EXPECT_EQ(r.errors[0].what(), "line " + std::to_string(r.errors[0].line) + ": illegal move 'Nf6' at ply 9");
  EXPECT_EQ(r.errors[1].line, line_of(MALFORMED, "1. e4 {an unclosed"));
  EXPECT_NE(r.errors[1].message.find("unbalanced brace"), std::string::npos) << r.errors[1].message;
  EXPECT_EQ(r.errors[2].line, line_of(MALFORMED, "2. Nf3\n"));
  EXPECT_NE(r.errors[2].message.find("missing termination marker"), std::string::npos) << r.errors[2].message;
  EXPECT_EQ(r.errors[3].line, line_of(MALFORMED, "1. e4 (1. d4"));
  EXPECT_NE(r.errors[3].message.find("unbalanced parenthesis"), std::string::npos) << r.errors[3].message;
  EXPECT_EQ(r.errors[4].line, line_of(MALFORMED, "[Event \"Bad: tag"));
  EXPECT_NE(r.errors[4].message.find("bad tag pair 'Event'"), std::string::npos) << r.errors[4].message;
}

TEST(Pgn, ReportsMoveFaults) {
  auto fault = [](std::string_view text) {
    PgnGame game;
    PgnError error{};
    EXPECT_FALSE(parse_pgn_game({text, 10}, game, error)) << text;
    return error.what();
  };
  EXPECT_EQ(fault("1. d4 d5 2. Nf3 Nf6 3. Nd2\n*"), "line 10: ambiguous move 'Nd2' at ply 5");
  EXPECT_EQ(fault("[Event \"x\"]\n\n1. e4 Zz9 *"), "line 12: unreadable move 'Zz9' at ply 2");
  EXPECT_EQ(fault("1. e4 e5 } *"), "line 10: unbalanced brace: '}' closes no comment");
  EXPECT_EQ(fault("1. e4 e5 ) *"), "line 10: unbalanced parenthesis: ')' closes no variation");
  EXPECT_EQ(fault("1. e4 e5 *\n2. Nf3"), "line 11: '2.' after the termination marker");
  EXPECT_EQ(fault("1. e4\n[Event \"x\"]\n*"), "line 11: tag pair after the movetext");
  EXPECT_EQ(fault("[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n*").substr(0, 21), "line 10: bad FEN tag:");
  EXPECT_EQ(fault("[Event x]\n*"), "line 10: bad tag pair 'Event': the value is not quoted");
  EXPECT_EQ(fault("[Event \"x\"\n*"), "line 10: bad tag pair 'Event': no closing ']'");
  EXPECT_EQ(fault("1. e4 e5 $ *"), "line 10: '$' without a NAG number");
  EXPECT_EQ(fault(""), "line 10: missing termination marker (1-0, 0-1, 1/2-1/2 or *)");
}

TEST(Pgn, ReadsAnnotationsAndNumbersInTheirForms) {
  PgnGame game;
  PgnError error{};
  std::string_view text = "1.e4!? e5 $2 2 Nf3 !! 2...Nc6 3. Bb5 +- { a } 3. ... a6 (3... Nf6 4. O-O) 4.O-O 1/2-1/2";
  ASSERT_TRUE(parse_pgn_game({text, 1}, game, error)) << error.what();
  EXPECT_EQ(ucis(game.moves), "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 e1g1");
  EXPECT_EQ(game.result, "1/2-1/2");
}

TEST(Pgn, ReusesTheGame) {
  PgnGame game;
  PgnError error{};
  ASSERT_TRUE(parse_pgn_game({"[FEN \"" + std::string(PROMOTIONS) + "\"]\n1... g1=Q 1-0", 1}, game, error));
  ASSERT_TRUE(parse_pgn_game({"1. e4 *", 5}, game, error));
  EXPECT_TRUE(game.tags.empty());
  EXPECT_EQ(game.start, Position::start());
  EXPECT_EQ(ucis(game.moves), "e2e4");
  EXPECT_EQ(game.result, "*");
  EXPECT_EQ(game.first_line, 5);
}

TEST(Pgn, SplitsEdgeCases) {
  EXPECT_TRUE(split_pgn("").empty());
  EXPECT_TRUE(split_pgn("\xEF\xBB\xBF").empty());
  EXPECT_TRUE(split_pgn(" \r\n\n\t").empty());
  EXPECT_TRUE(split_pgn("{ only a comment }\n; and another\n").empty());

  // Tags after movetext start a game even when the first lacks its marker.
  std::vector<PgnChunk> c = split_pgn("\n\n[A \"1\"]\n1. e4\n[B \"2\"]\n\n1. d4 *\n");
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].text, "[A \"1\"]\n1. e4");
  EXPECT_EQ(c[0].first_line, 3);
  EXPECT_EQ(c[1].text, "[B \"2\"]\n\n1. d4 *");
  EXPECT_EQ(c[1].first_line, 5);

  // A game with tags only runs into the next one's tags: the repeated name splits them.
  c = split_pgn("[Event \"A\"]\n[Result \"*\"]\n\n[Event \"B\"]\n[Result \"*\"]\n\n1. e4 $1 *\n");
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].text, "[Event \"A\"]\n[Result \"*\"]");
  EXPECT_EQ(c[1].text, "[Event \"B\"]\n[Result \"*\"]\n\n1. e4 $1 *");
  EXPECT_EQ(c[1].first_line, 4);

  // A tag value may hold braces, semicolons and brackets; a comment may hold a marker.
  c = split_pgn("[A \"{ ; ] 1-0\"]\n1. e4 { 0-1 } e5 1-0\n[B \"x\"] 1. d4 *");
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].text, "[A \"{ ; ] 1-0\"]\n1. e4 { 0-1 } e5 1-0");
  EXPECT_EQ(c[1].text, "[B \"x\"] 1. d4 *");
  EXPECT_EQ(c[1].first_line, 3);
}

// Drawstats streams a corpus through split_pgn_part, a piece at a time. Cut
// anywhere, the pieces give exactly the games of the whole: the same texts and lines, each
// once, whatever the cut falls in (a token, a tag, a comment over lines, an escape line,
// a CRLF, a tag name repeated, a brace never closed, no final newline).
TEST(Pgn, SplitInPiecesOfAnySizeIsTheWholeSplit) {
  const std::string text =
      "{ a comment before\nthe first game }\n% an escape line\n"
      "[Event \"a\"]\n[Site \"x\"]\n\n1. e4 {over\ntwo lines} e5 $1 (1... c5) 1-0 {after the marker}\n%x\n"
      "[Event \"b\"]\n[Event \"c\"]\n\n1. d4 ; to the end of the line\n d5 *\n"
      "1. c4 c5 1/2-1/2 %not-an-escape\n"
      "[Event \"d\"]\r\n\r\n1. Nf3 {never closed\n[Event \"e\"]\n1. e4 0-1\n"
      "1. g3 *";
  using Games = std::vector<std::pair<std::string, int>>;
  Games whole;
  for (const PgnChunk& c : split_pgn(text)) whole.emplace_back(c.text, c.first_line);
  ASSERT_EQ(whole.size(), 8u);

  for (size_t piece = 1; piece <= text.size() + 1; ++piece) {
    Games got;
    std::string rest;
    int line = 1;
    bool line_start = true;
    for (size_t at = 0;;) {
      std::string buf = rest + text.substr(at, piece);
      at = std::min(text.size(), at + piece);
      bool last = at == text.size();
      PgnPart part = split_pgn_part(buf, line, line_start, last);
      for (const PgnChunk& c : part.games) got.emplace_back(c.text, c.first_line);
      if (part.rest > 0) line_start = buf[part.rest - 1] == '\n';
      line = part.rest_line;
      rest = buf.substr(part.rest);
      if (last) break;
    }
    ASSERT_EQ(got, whole) << "pieces of " << piece << " bytes";
  }
}

// 300,000 tags in one section took 78 s (each name was looked for in a list of the names
// before it). Not timed here: the sections split and read right, past the hash set's
// threshold too, and a repeated name still splits a tags-only game from the next.
TEST(Pgn, LargeTagSectionsSplitAndReadRight) {
  constexpr int TAGS = 300'000;
  std::string text;
  for (int i = 0; i < TAGS; ++i) text += "[T" + std::to_string(i) + " \"" + std::to_string(i) + "\"]\n";
  const std::string first = text;
  text += "\n1. e4 e5 1-0\n";
  std::vector<PgnChunk> c = split_pgn(text);
  ASSERT_EQ(c.size(), 1u);
  PgnGame game;
  PgnError error{};
  ASSERT_TRUE(parse_pgn_game(c[0], game, error)) << error.what();
  ASSERT_EQ(game.tags.size(), size_t(TAGS));
  EXPECT_EQ(game.tags[0], (std::pair<std::string, std::string>{"T0", "0"}));
  EXPECT_EQ(game.tags[TAGS - 1], (std::pair<std::string, std::string>{"T299999", "299999"}));
  EXPECT_EQ(game.tag("T123456"), "123456");
  EXPECT_EQ(ucis(game.moves), "e2e4 e7e5");

  // Tags only, then a section that starts again with T0, and one more after a game with
  // as many tags as the list holds before the set takes over (33).
  std::string small;
  for (int i = 0; i < 33; ++i) small += "[S" + std::to_string(i) + " \"x\"]\n";
  const std::string file = first + first + "1. d4 *\n" + small + small + "1. c4 *\n";  // the chunks view it
  c = split_pgn(file);
  ASSERT_EQ(c.size(), 4u);
  EXPECT_EQ(c[0].first_line, 1);
  EXPECT_EQ(c[1].first_line, TAGS + 1);
  EXPECT_EQ(c[2].first_line, 2 * TAGS + 2);
  EXPECT_EQ(c[3].first_line, 2 * TAGS + 35);
  EXPECT_TRUE(c[3].text.starts_with("[S0 \"x\"]\n") && c[3].text.ends_with("[S32 \"x\"]\n1. c4 *")) << c[3].text;
}

// ---- Writing ---------------------------------------------------------------------------

TEST(Pgn, WritesKnownGameExactly) {
  // Morphy v the Duke of Brunswick and Count Isouard, Paris 1858: disambiguation (Nbd7),
  // O-O-O, checks and a mate, and a line that wraps.
  PgnGame game;
  game.tags = {{"Result", "1-0"},
               {"White", "Paul Morphy"},
               {"Opening", "Philidor \"Defence\""},
               {"Black", "Duke Karl / Count Isouard"},
               {"Event", "Paris"},
               {"Site", "Paris FRA"},
               {"Date", "1858.??.??"}};
  game.moves =
      play(Position::start(), {"e4",    "e5",  "Nf3",  "d6",   "d4",  "Bg4", "dxe5",  "Bxf3", "Qxf3", "dxe5",  "Bc4",
                               "Nf6",   "Qb3", "Qe7",  "Nc3",  "c6",  "Bg5", "b5",    "Nxb5", "cxb5", "Bxb5+", "Nbd7",
                               "O-O-O", "Rd8", "Rxd7", "Rxd7", "Rd1", "Qe6", "Bxd7+", "Nxd7", "Qb8+", "Nxb8",  "Rd8#"});
  game.result = "1-0";
  EXPECT_EQ(write_pgn(game),
            "[Event \"Paris\"]\n"
            "[Site \"Paris FRA\"]\n"
            "[Date \"1858.??.??\"]\n"
            "[Round \"?\"]\n"
            "[White \"Paul Morphy\"]\n"
            "[Black \"Duke Karl / Count Isouard\"]\n"
            "[Result \"1-0\"]\n"
            "[Opening \"Philidor \\\"Defence\\\"\"]\n"
            "\n"
            "1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7\n"
            "8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7\n"
            "14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0\n"
            "\n");
}

TEST(Pgn, WritesSetUpGameExactly) {
  PgnGame game;
  game.start = Position::from_fen(PROMOTIONS);
  game.moves = play(game.start, {"gxf1=Q+", "Kxf1", "Nab6", "b8=Q"});
  game.result = "1/2-1/2";
  EXPECT_EQ(write_pgn(game),
            "[Event \"?\"]\n"
            "[Site \"?\"]\n"
            "[Date \"????.??.??\"]\n"
            "[Round \"?\"]\n"
            "[White \"?\"]\n"
            "[Black \"?\"]\n"
            "[Result \"1/2-1/2\"]\n"
            "[SetUp \"1\"]\n"
            "[FEN \"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1\"]\n"
            "\n"
            "1... gxf1=Q+ 2. Kxf1 Nab6 3. b8=Q 1/2-1/2\n"
            "\n");
}

// A FEN tag naming a Chess960 start reads without a Variant tag; written, the game gets
// Variant "Chess960" (its FEN in X-FEN would not read as standard chess: the fuzzer's
// find), and a Variant tag saying otherwise is corrected.
TEST(Pgn, WritesChess960StartWithItsVariantTag) {
  for (const char* variant_tag : {"", "[Variant \"Standard\"]\n"}) {
    PgnGame game;
    PgnError error;
    const std::string text = std::string(variant_tag) + "[FEN \"chess960:4\"]\n\n1. e4 Nd6 *\n";
    ASSERT_TRUE(parse_pgn_game(split_pgn(text).at(0), game, error)) << error.what();
    const std::string written = write_pgn(game);
    EXPECT_NE(written.find("[FEN \"qbbnnrkr/pppppppp/8/8/8/8/PPPPPPPP/QBBNNRKR w KQkq - 0 1\"]\n"), std::string::npos)
        << written;
    EXPECT_NE(written.find("[Variant \"Chess960\"]\n"), std::string::npos) << written;
    EXPECT_NE(written.find("1. e4 Nd6 *"), std::string::npos) << written;
    PgnGame again;
    ASSERT_TRUE(parse_pgn_game(split_pgn(written).at(0), again, error)) << error.what();
    EXPECT_EQ(again.start, game.start);
    EXPECT_EQ(again.moves, game.moves);
  }
}

TEST(Pgn, WritesEmptyGame) {
  PgnGame game;
  EXPECT_EQ(write_pgn(game),
            "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n"
            "[Result \"*\"]\n\n*\n\n");
}

// 200 seeded random games (a third each from the start position, Kiwipete and a
// promotion-rich position with black to move) written into one file and read back: the
// same tags, start, moves and result, and no line past 80 columns.
TEST(Pgn, RoundTripOnRandomGames) {
  const char* results[] = {"1-0", "0-1", "1/2-1/2", "*"};
  const std::string starts[] = {std::string(START_FEN), KIWIPETE, PROMOTIONS};
  std::vector<PgnGame> written;
  std::string file;
  std::mt19937_64 rng(20240601);
  for (int i = 0; i < 200; ++i) {
    PgnGame g;
    g.start = Position::from_fen(starts[i % 3]);
    g.result = results[rng() % 4];
    g.tags = {{"Event", "Round trip " + std::to_string(i)},
              {"Site", "a \"quoted\" site \\ with a backslash"},
              {"Date", "2024.06.01"},
              {"Round", std::to_string(i + 1)},
              {"White", "Engine, A"},
              {"Black", "Engine, B"},
              {"Result", g.result}};
    if (i % 3) g.tags.insert(g.tags.end(), {{"SetUp", "1"}, {"FEN", starts[i % 3]}});
    g.tags.push_back({"Annotator", "{not a comment}; (nor a variation)"});
    Position pos = g.start;
    int plies = int(rng() % 160);
    for (int ply = 0; ply < plies; ++ply) {
      MoveList moves = legal_moves(pos);
      if (moves.empty()) break;
      Move m = moves[rng() % moves.size()];
      g.moves.push_back(m);
      pos.do_move(m);
    }
    file += write_pgn(g);
    written.push_back(std::move(g));
  }

  size_t at = 0;
  while (at < file.size()) {
    size_t nl = file.find('\n', at);
    ASSERT_LE(nl - at, 80u) << file.substr(at, nl - at);
    at = nl + 1;
  }

  Read r = read_all(file);
  for (const PgnError& e : r.errors) ADD_FAILURE() << e.what();
  ASSERT_EQ(r.games.size(), written.size());
  for (size_t i = 0; i < written.size(); ++i) {
    SCOPED_TRACE("game " + std::to_string(i));
    EXPECT_EQ(r.games[i].tags, written[i].tags);
    EXPECT_EQ(r.games[i].start, written[i].start);
    EXPECT_EQ(r.games[i].moves, written[i].moves);
    EXPECT_EQ(r.games[i].result, written[i].result);
  }
}

// ---- Variants -----------------------------------------------------------------------------

TEST(Pgn, VariantTagsByName) {
  for (std::string_view v :
       {"Chess960", "chess960", "CHESS 960", "Chess-960", "960", "Fischerandom", "Fischer Random", "fischer_random"})
    EXPECT_EQ(pgn_variant(v), PgnVariant::CHESS960) << v;
  for (std::string_view v : {"", "Standard", "standard", "From Position", "Normal"})
    EXPECT_EQ(pgn_variant(v), PgnVariant::STANDARD) << v;
  for (std::string_view v : {"Crazyhouse", "Atomic", "Three-check", "King of the Hill", "Antichess", "Horde"})
    EXPECT_EQ(pgn_variant(v), PgnVariant::UNSUPPORTED) << v;
}

// A Chess960 game reads its FEN in either convention, whichever tag comes first, and its
// O-O is the king taking its rook (the move written f1h1 in UCI_Chess960's notation).
TEST(Pgn, Chess960GameWithFenInEitherConventionAndOrder) {
  const std::string moves = "\n1. Nf3 Nf6 2. O-O O-O *\n";
  for (const std::string& tags :
       {std::string("[Variant \"Chess960\"]\n[FEN \"bbqnrknr/pppppppp/8/8/8/8/PPPPPPPP/BBQNRKNR w KQkq - 0 1\"]\n"),
        std::string("[FEN \"bbqnrknr/pppppppp/8/8/8/8/PPPPPPPP/BBQNRKNR w HEhe - 0 1\"]\n[Variant \"chess 960\"]\n")}) {
    Read r = read_all(tags + moves);
    ASSERT_EQ(r.games.size(), 1u) << (r.errors.empty() ? "" : r.errors[0].what());
    const PgnGame& g = r.games[0];
    EXPECT_TRUE(g.start.is_chess960());
    ASSERT_EQ(g.moves.size(), 4u);
    EXPECT_EQ(to_uci(g.moves[2], true), "f1h1");
    EXPECT_EQ(to_uci(g.moves[3], true), "f8h8");
    EXPECT_EQ(g.start.after(g.moves[0]).after(g.moves[1]).after(g.moves[2]).after(g.moves[3]).fen(),
              "bbqnrrk1/pppppppp/5n2/8/8/5N2/PPPPPPPP/BBQNRRK1 w - - 4 3");
  }
  // The same FEN without a Variant tag is standard chess's, where HEhe is no castling field.
  Read standard = read_all("[FEN \"bbqnrknr/pppppppp/8/8/8/8/PPPPPPPP/BBQNRKNR w HEhe - 0 1\"]\n" + moves);
  ASSERT_EQ(standard.errors.size(), 1u);
  EXPECT_EQ(standard.errors[0].line, 1);
  EXPECT_EQ(standard.errors[0].message.rfind("bad FEN tag: ", 0), 0u) << standard.errors[0].message;
  EXPECT_EQ(standard.errors[0].variant, "");
}
