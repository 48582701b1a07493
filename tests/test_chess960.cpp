// Chess960 and Double Fischer Random: both FEN conventions, start positions by
// number, FIDE's Chess960 castling case by case, 960 notation in UCI and SAN, and perft of
// the 960 start positions and of hand-made positions against Stockfish's counts.
#include <gtest/gtest.h>

#include <fstream>
#include <initializer_list>
#include <map>
#include <sstream>
#include <string>
#include <string_view>

#include "core/board_code.h"
#include "core/game.h"
#include "core/movegen.h"
#include "core/perft.h"
#include "core/perft_table.h"
#include "core/san.h"
#include "core/uci.h"
#include "jobs/perft/epd.h"
#include "tests/fen_rejection.h"

using namespace chess;

namespace {

Position c960(std::string_view fen) { return Position::from_fen(fen, true); }

void expect_rejected960(std::string_view fen, int field, std::initializer_list<std::string_view> parts) {
  expect_rejected(fen, field, parts, true);
}

// The castling moves of pos in 960 notation, space separated, in generation order.
std::string castles(const Position& pos) {
  std::string s;
  for (Move m : legal_moves(pos))
    if (m.kind() == CASTLING) s += (s.empty() ? "" : " ") + to_uci(m, true);
  return s;
}

// pos after its castling move written uci (960 notation), as a FEN; checks the key too.
std::string after_castling(const Position& pos, std::string_view uci) {
  std::optional<Move> m = parse_uci(pos, uci);
  EXPECT_TRUE(m && m->kind() == CASTLING) << uci;
  if (!m) return "";
  Position next = pos.after(*m);
  EXPECT_EQ(next.key(), next.compute_key()) << uci;
  EXPECT_EQ(pos.gives_check(*m), next.in_check()) << uci;
  return next.fen();
}

// The castling moves of fen are castling (960 notation), and the one written uci leads to after.
void expect_castling(std::string_view fen, std::string_view castling, std::string_view uci, std::string_view after) {
  SCOPED_TRACE(std::string(fen));
  const Position p = Position::from_fen(fen, true);
  EXPECT_EQ(castles(p), castling);
  EXPECT_EQ(after_castling(p, uci), after);
}

std::string after(const Position& pos, std::string_view uci) {
  std::optional<Move> m = parse_uci(pos, uci);
  EXPECT_TRUE(m) << uci;
  return m ? pos.after(*m).fen() : "";
}

chesshpc::EpdFile read_data(const std::string& name) {
  std::ifstream in(std::string(CHESSHPC_TEST_DATA) + "/" + name);
  EXPECT_TRUE(in) << "cannot open " << name;
  return chesshpc::read_epd(in);
}

}  // namespace

// ---- Start positions by number --------------------------------------------------------

TEST(Chess960Start, StandardNumbering) {
  EXPECT_EQ(Position::chess960_back_rank(0), "BBQNNRKR");
  EXPECT_EQ(Position::chess960_back_rank(518), "RNBQKBNR");
  EXPECT_EQ(Position::chess960_back_rank(959), "RKRNNQBB");
  EXPECT_EQ(Position::chess960_back_rank(-1), "");
  EXPECT_EQ(Position::chess960_back_rank(960), "");
  EXPECT_EQ(Position::from_fen("chess960:518").fen(), std::string(START_FEN));
  EXPECT_TRUE(Position::from_fen("chess960:518").is_chess960());
  EXPECT_FALSE(Position::start().is_chess960());
}

// Every line of the shipped suite names its number (";id chess960-N"): chess960:N is that FEN.
TEST(Chess960Start, NumbersAgreeWithTheSuite) {
  std::ifstream in(std::string(CHESSHPC_TEST_DATA) + "/chess960.epd");
  ASSERT_TRUE(in);
  std::string line;
  int seen = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    size_t id = line.find(";id chess960-");
    ASSERT_NE(id, std::string::npos) << line;
    const int n = std::stoi(line.substr(id + 13));
    EXPECT_EQ(n, seen) << line;
    std::string fen = line.substr(0, line.find(" ;"));
    EXPECT_EQ(Position::from_fen("chess960:" + std::to_string(n)).fen(), c960(fen).fen()) << line;
    ++seen;
  }
  EXPECT_EQ(seen, 960);
}

TEST(Chess960Start, DoubleFischerRandom) {
  EXPECT_EQ(Position::from_fen("dfrc:0,959").fen(), "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
  EXPECT_EQ(Position::from_fen("dfrc:518,518").fen(), std::string(START_FEN));
  const Position p = Position::from_fen("dfrc:300,301");
  EXPECT_EQ(p.fen(FenStyle::SHREDDER), "qnrbkrbn/pppppppp/8/8/8/8/PPPPPPPP/QBNRKRBN w FDfc - 0 1");
}

TEST(Chess960Start, BadNumbersAreBadFens) {
  for (const char* name : {"chess960:960", "chess960:-1", "chess960:", "chess960:5x"})
    EXPECT_THROW(Position::from_fen(name), FenError) << name;
  for (const char* name : {"dfrc:1", "dfrc:1,960", "dfrc:,3", "dfrc:1,2,3"})
    EXPECT_THROW(Position::from_fen(name), FenError) << name;
  try {
    Position::from_fen("chess960:960");
  } catch (const FenError& e) {
    EXPECT_EQ(std::string(e.what()),
              "bad FEN: piece placement: 'chess960:960': a Chess960 start position is a number from 0 to 959");
  }
}

// ---- FEN conventions ------------------------------------------------------------------

TEST(Chess960Fen, XfenAndShredderReadTheSamePosition) {
  const Position x = c960("r3k1r1/8/8/8/8/8/8/5KR1 w Kkq - 0 1");
  const Position s = c960("r3k1r1/8/8/8/8/8/8/5KR1 w Gga - 0 1");
  EXPECT_TRUE(x == s);
  EXPECT_EQ(x.castling_rook_square(WHITE_OO), SQ_G1);
  EXPECT_EQ(x.castling_rook_square(BLACK_OO), SQ_G8);
  EXPECT_EQ(x.castling_rook_square(BLACK_OOO), SQ_A8);
  EXPECT_EQ(x.fen(), "r3k1r1/8/8/8/8/8/8/5KR1 w Kkq - 0 1");
  EXPECT_EQ(x.fen(FenStyle::SHREDDER), "r3k1r1/8/8/8/8/8/8/5KR1 w Gga - 0 1");
}

// X-FEN names a castling rook that is not the outermost on its side by its file.
TEST(Chess960Fen, InnerRookByFile) {
  const Position p = c960("rr2k3/8/8/8/8/8/8/4K1RR w Gb - 0 1");
  EXPECT_EQ(p.castling_rook_square(WHITE_OO), SQ_G1);
  EXPECT_EQ(p.castling_rook_square(BLACK_OOO), SQ_B8);
  EXPECT_EQ(p.fen(), "rr2k3/8/8/8/8/8/8/4K1RR w Gb - 0 1");
  EXPECT_EQ(p.fen(FenStyle::SHREDDER), "rr2k3/8/8/8/8/8/8/4K1RR w Gb - 0 1");
  // K is the outermost rook, h1: another right.
  EXPECT_EQ(c960("rr2k3/8/8/8/8/8/8/4K1RR w Kb - 0 1").castling_rook_square(WHITE_OO), SQ_H1);
}

TEST(Chess960Fen, ClassicalPositionInBothStyles) {
  EXPECT_EQ(Position::start().fen(FenStyle::SHREDDER), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
  const Position p = c960("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
  EXPECT_EQ(p.fen(), std::string(START_FEN));
  EXPECT_EQ(p.key(), Position::start().key());
  EXPECT_EQ(fen_style_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"), FenStyle::SHREDDER);
  EXPECT_EQ(fen_style_of(START_FEN), FenStyle::XFEN);
  EXPECT_EQ(fen_style_of("chess960:3"), FenStyle::XFEN);
}

// Input that does not say its variant is standard chess unless its castling field is not.
TEST(Chess960Fen, AnyFenPicksTheVariant) {
  EXPECT_FALSE(Position::from_any_fen(START_FEN).is_chess960());
  EXPECT_TRUE(Position::from_any_fen("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1").is_chess960());
  EXPECT_TRUE(Position::from_any_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1").is_chess960());
  EXPECT_FALSE(Position::from_any_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").is_chess960());
}

TEST(Chess960Fen, BadCastlingFields) {
  expect_rejected960("4k3/8/8/8/8/8/8/4K2R w B - 0 1", 3, {"castling", "'B' but no white rook on b1"});
  expect_rejected960("4k3/8/8/8/8/8/8/4K2R w E - 0 1", 3, {"castling", "'E' but no white rook on e1"});
  expect_rejected960("4k3/8/8/8/8/8/8/4K2r w H - 0 1", 3, {"castling", "'H' but no white rook on h1"});
  expect_rejected960(
      "4k3/8/8/8/8/8/8/4K1RR w HG - 0 1", 3,
      {"castling", "'H' and 'G' both name a rook on the h side of the white king on e1", "one rook on each side"});
  expect_rejected960("r1r1k3/8/8/8/8/8/8/4K3 w ca - 0 1", 3,
                     {"castling", "'c' and 'a' both name a rook on the a side of the black king on e8"});
  expect_rejected960("4k3/8/8/8/8/8/4K3/R6R w K - 0 1", 3,
                     {"castling", "'K' but the white king is on e2, not on its back rank 1"});
  expect_rejected960("8/4k3/8/8/8/8/8/r3K3 w a - 0 1", 3,
                     {"castling", "'a' but the black king is on e7, not on its back rank 8"});
  expect_rejected960("4k3/8/8/8/8/8/8/R3K3 w K - 0 1", 3,
                     {"castling", "'K' but no white rook on rank 1 on the h side of the king on e1"});
  expect_rejected960("4k3/8/8/8/8/8/8/R3K2R w KH - 0 1", 3, {"castling", "'H' given twice ('K' names the same rook)"});
  expect_rejected960("4k3/8/8/8/8/8/8/R3K2R w KX - 0 1", 3, {"castling", "unknown castling letter 'X'"});
}

// ---- Castling, case by case -----------------------------------------------------------

TEST(Chess960Castling, KingAndRookSwapSquares) {
  expect_castling("r3k2r/8/8/8/8/8/8/5KR1 w Gha - 0 1", "f1g1", "f1g1", "r3k2r/8/8/8/8/8/8/5RK1 b kq - 1 1");
  // Not when black's g8 rook attacks g1, the king's destination (the white rook on it
  // does not shield the square it stands on).
  EXPECT_EQ(castles(c960("r3k1r1/8/8/8/8/8/8/5KR1 w Gga - 0 1")), "");
}

TEST(Chess960Castling, KingAlreadyOnItsDestination) {
  expect_castling("4k3/8/8/8/8/8/8/6KR w K - 0 1", "g1h1", "g1h1", "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
  expect_castling("4k3/8/8/8/8/8/8/R1K5 w Q - 0 1", "c1a1", "c1a1", "4k3/8/8/8/8/8/8/2KR4 b - - 1 1");
}

TEST(Chess960Castling, RookOnTheKingsDestination) {
  expect_castling("4k3/8/8/8/8/8/8/4K1R1 w K - 0 1", "e1g1", "e1g1", "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
}

TEST(Chess960Castling, RookAlreadyOnItsDestination) {
  expect_castling("4k3/8/8/8/8/8/8/3RKR2 w KQ - 0 1", "e1f1 e1d1", "e1f1", "4k3/8/8/8/8/8/8/3R1RK1 b - - 1 1");
  expect_castling("4k3/8/8/8/8/8/8/3RKR2 w KQ - 0 1", "e1f1 e1d1", "e1d1", "4k3/8/8/8/8/8/8/2KR1R2 b - - 1 1");
  // With black's rooks on d8 and f8 both squares next to the king are attacked.
  EXPECT_EQ(castles(c960("3rkr2/8/8/8/8/8/8/3RKR2 w KQkq - 0 1")), "");
}

// The rook may stand on either side of a square the king crosses (here the king passes
// the rook's own square), and the rook's path may be attacked.
TEST(Chess960Castling, KingCrossesTheRooksSquare) {
  expect_castling("4k3/8/8/8/8/8/8/1KR5 w K - 0 1", "b1c1", "b1c1", "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
  expect_castling("1r2k3/8/8/8/8/8/8/R5K1 w Q - 0 1", "g1a1", "g1a1", "1r2k3/8/8/8/8/8/8/2KR4 b - - 1 1");
  // but not the king's: c8 attacks c1, its destination, f8 one square it crosses.
  EXPECT_EQ(castles(c960("2r1k3/8/8/8/8/8/8/R5K1 w Q - 0 1")), "");
  EXPECT_EQ(castles(c960("4kr2/8/8/8/8/8/8/R5K1 w Q - 0 1")), "");
}

// Each square the king crosses away from its own, not only its destination, is tested
// for attacks: from g1 to c1 the king crosses e1 and d1, from b1 to g1 d1 to f1.
TEST(Chess960Castling, EverySquareTheKingCrossesIsTested) {
  EXPECT_EQ(castles(c960("6k1/8/8/8/8/8/8/R5K1 w Q - 0 1")), "g1a1");
  EXPECT_EQ(castles(c960("k7/8/8/8/8/8/8/1K5R w K - 0 1")), "b1h1");
  // The same with a black rook on the file of one square crossed (none castles).
  for (const char* fen :
       {"4r1k1/8/8/8/8/8/8/R5K1 w Q - 0 1", "3r2k1/8/8/8/8/8/8/R5K1 w Q - 0 1", "k3r3/8/8/8/8/8/8/1K5R w K - 0 1",
        "k2r4/8/8/8/8/8/8/1K5R w K - 0 1", "k4r2/8/8/8/8/8/8/1K5R w K - 0 1"})
    EXPECT_EQ(castles(c960(fen)), "") << fen;
}

// The squares between must be empty but for the king and the castling rook.
TEST(Chess960Castling, PathBlocked) {
  EXPECT_EQ(castles(c960("4k3/8/8/8/8/8/8/1KRN4 w K - 0 1")), "");  // d1, the king's path
  EXPECT_EQ(castles(c960("4k3/8/8/8/8/8/8/RNK5 w Q - 0 1")), "");   // b1, the rook's path
  EXPECT_EQ(castles(c960("4k3/8/8/8/8/8/8/R1K5 w Q - 0 1")), "c1a1");
}

// A castling rook between its king and a slider on the back rank shields the king's
// destination: castling would leave the king in check, whether the king moves or not.
TEST(Chess960Castling, ShieldingRookCannotCastle) {
  EXPECT_EQ(castles(c960("4k3/8/8/8/8/8/8/1R2K3 w Q - 0 1")), "e1b1");
  EXPECT_EQ(castles(c960("4k3/8/8/8/8/8/8/qR2K3 w Q - 0 1")), "");
  EXPECT_EQ(castles(c960("4k3/8/8/8/8/8/8/rR2K3 w Q - 0 1")), "");
  // The same for black. (On the h side a rook beyond the king's destination g stands in
  // the corner: nothing can stand beyond it.)
  EXPECT_EQ(castles(c960("Qr2k3/8/8/8/8/8/8/4K3 b q - 0 1")), "");
  EXPECT_EQ(castles(c960("1r2k3/8/8/8/8/8/8/4K3 b q - 0 1")), "e8b8");
}

// The castling rook pinned to its king, with the king already on its destination.
TEST(Chess960Castling, PinnedCastlingRook) {
  const Position p = c960("4k3/8/8/8/8/8/8/qRK5 w Q - 0 1");
  EXPECT_EQ(castles(p), "");
  // Without the pinner the same castling is legal.
  EXPECT_EQ(castles(c960("4k3/8/8/8/8/8/8/1RK5 w Q - 0 1")), "c1b1");
}

TEST(Chess960Castling, RightsLostWhenTheKingMoves) {
  const Position p = c960("r3k1r1/8/8/8/8/8/8/R4KR1 w GAga - 0 1");
  EXPECT_EQ(p.fen(), "r3k1r1/8/8/8/8/8/8/R4KR1 w KQkq - 0 1");
  EXPECT_EQ(after(p, "f1f2"), "r3k1r1/8/8/8/8/8/5K2/R5R1 b kq - 1 1");
  EXPECT_EQ(after(c960("r3k1r1/8/8/8/8/8/8/R4KR1 b GAga - 0 1"), "e8d8"), "r2k2r1/8/8/8/8/8/8/R4KR1 w KQ - 1 2");
}

TEST(Chess960Castling, RightLostWhenItsRookMoves) {
  const Position p = c960("r3k1r1/8/8/8/8/8/8/R4KR1 w GAga - 0 1");
  EXPECT_EQ(after(p, "g1g2"), "r3k1r1/8/8/8/8/8/6R1/R4K2 b Qkq - 1 1");
  EXPECT_EQ(after(p, "a1a2"), "r3k1r1/8/8/8/8/8/R7/5KR1 b Kkq - 1 1");
  // Another rook moving keeps the right; the castling rook then becomes the outermost.
  EXPECT_EQ(after(c960("rr2k3/8/8/8/8/8/8/4K1RR w Gb - 0 1"), "h1h2"), "rr2k3/8/8/8/8/8/7R/4K1R1 b Kb - 1 1");
}

TEST(Chess960Castling, RightLostWhenItsRookIsCaptured) {
  const Position p = c960("r3k1r1/8/8/8/8/8/4n3/R4KR1 b GAga - 0 1");
  const Position q = p.after(*parse_uci(p, "e2g1"));
  EXPECT_EQ(q.fen(), "r3k1r1/8/8/8/8/8/8/R4Kn1 w Qkq - 0 2");
  EXPECT_EQ(q.key(), q.compute_key());
  EXPECT_EQ(castles(q), "f1a1");
}

TEST(Chess960Castling, CastlingLosesBothRightsOfTheSide) {
  const char* fen = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1";
  expect_castling(fen, "e1g1 e1b1", "e1b1", "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/2KR2R1 b kq - 1 1");
  expect_castling(fen, "e1g1 e1b1", "e1g1", "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R3RK1 b kq - 1 1");
}

// A castling that checks by its rook, seen by gives_check and SAN.
TEST(Chess960Castling, CheckByTheCastledRook) {
  const Position p = c960("3k4/8/8/8/8/8/8/1R2K3 w Q - 0 1");
  const Move m = *parse_uci(p, "e1b1");
  EXPECT_TRUE(p.gives_check(m));
  EXPECT_EQ(to_san(p, m), "O-O-O+");
}

// ---- Notation ------------------------------------------------------------------------

TEST(Chess960Notation, UciKingTakesRookOnlyInChess960) {
  const std::string kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
  const Position standard = Position::from_fen(kiwipete), chess960 = c960(kiwipete);
  ASSERT_TRUE(parse_uci(standard, "e1g1"));
  EXPECT_EQ(parse_uci(standard, "e1g1")->kind(), CASTLING);
  EXPECT_EQ(to_uci(*parse_uci(standard, "e1g1")), "e1g1");
  EXPECT_FALSE(parse_uci(standard, "e1h1"));
  ASSERT_TRUE(parse_uci(chess960, "e1h1"));
  EXPECT_EQ(parse_uci(chess960, "e1h1")->kind(), CASTLING);
  EXPECT_EQ(to_uci(*parse_uci(chess960, "e1a1"), true), "e1a1");
  EXPECT_FALSE(parse_uci(chess960, "e1g1"));
  EXPECT_EQ(*parse_uci(chess960, "e1h1"), *parse_uci(standard, "e1g1"));  // one encoding inside
}

TEST(Chess960Notation, San) {
  const Position p = c960("1r4kr/8/8/8/8/8/8/2K1R3 w Eb - 0 1");
  ASSERT_TRUE(parse_san(p, "O-O"));
  EXPECT_EQ(to_uci(*parse_san(p, "O-O"), true), "c1e1");
  EXPECT_EQ(to_san(p, *parse_san(p, "O-O")), "O-O");
  EXPECT_FALSE(parse_san(p, "O-O-O"));
  const Position b = p.after(*parse_san(p, "Rh1"));
  ASSERT_TRUE(parse_san(b, "O-O-O"));
  EXPECT_EQ(to_uci(*parse_san(b, "O-O-O"), true), "g8b8");
  EXPECT_EQ(b.after(*parse_san(b, "O-O-O")).fen(), "2kr3r/8/8/8/8/8/8/2K4R w - - 2 2");
}

// ---- Board codes ----------------------------------------------------------------------

// The code keeps four rights bits; the root's setup names their rooks again.
TEST(Chess960BoardCode, DecodeWithTheRootsSetup) {
  const Position p = c960("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1");
  const Position back = decode(encode(p), true, p.castling_setup());
  EXPECT_TRUE(back == p);
  EXPECT_TRUE(same_position(back, p));
  EXPECT_EQ(back.fen(FenStyle::SHREDDER), p.fen(FenStyle::SHREDDER));
  EXPECT_EQ(perft::count(back, 3), 15131u);
  // The default setup (classical corners) is not this position.
  EXPECT_FALSE(same_position(decode(encode(p)), p));
}

// ---- Perft against Stockfish ----------------------------------------------------------

// All 960 start positions to depth 4 (Stockfish 15.1's counts, data/chess960.epd).
TEST(Chess960Perft, EveryStartPositionToDepth4) {
  const chesshpc::EpdFile suite = read_data("chess960.epd");
  EXPECT_TRUE(suite.errors.empty());
  ASSERT_EQ(suite.lines.size(), 960u);
  for (const auto& line : suite.lines) {
    const Position pos = c960(line.fen);
    for (auto [depth, n] : line.expected) {
      if (depth <= 4) {
        EXPECT_EQ(perft::count(pos, depth), n) << "line " << line.line_number << " depth " << depth;
      }
    }
  }
}

// Hand-made Chess960 and DFRC positions (data/chess960_positions.epd, Stockfish's counts)
// to depth 4, each also by the detailed counter at depth 3.
TEST(Chess960Perft, HandMadePositionsToDepth4) {
  const chesshpc::EpdFile suite = read_data("chess960_positions.epd");
  EXPECT_TRUE(suite.errors.empty());
  ASSERT_EQ(suite.lines.size(), 22u);
  for (const auto& line : suite.lines) {
    const Position pos = Position::from_any_fen(line.fen);
    EXPECT_TRUE(pos.is_chess960()) << line.fen;
    for (auto [depth, n] : line.expected) {
      if (depth <= 4) {
        EXPECT_EQ(perft::count(pos, depth), n) << line.fen << " depth " << depth;
      }
      if (depth == 3) {
        EXPECT_EQ(perft::detailed(pos, 3).nodes, n) << line.fen;
      }
    }
  }
}

// A sample of the starts at depth 5 (every 12th, 80 positions, about 400 million nodes),
// over two threads: the slower test.
TEST(Chess960Perft, SampleOfStartPositionsAtDepth5) {
  const chesshpc::EpdFile suite = read_data("chess960.epd");
  ASSERT_EQ(suite.lines.size(), 960u);
  perft::Options opt;
  opt.threads = 2;
  for (size_t i = 0; i < suite.lines.size(); i += 12) {
    const auto& line = suite.lines[i];
    for (auto [depth, n] : line.expected) {
      if (depth == 5) {
        EXPECT_EQ(perft::total(perft::divide(c960(line.fen), 5, opt)), u128(n)) << line.fen;
      }
    }
  }
}

// Divide (Stockfish's, castling written king-takes-rook), the hashed count, and the
// detailed counter's castles, on a position whose rooks stand on b1 and g1 (the king's
// destination).
TEST(Chess960Perft, DivideHashAndDetailed) {
  const Position p = c960("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1");
  perft::Options opt;
  opt.threads = 2;
  std::map<std::string, u128> divide;
  for (const auto& r : perft::divide(p, 4, opt)) divide[to_uci(r.move, true)] = r.nodes;
  EXPECT_EQ(divide.size(), 25u);
  EXPECT_EQ(divide["e1g1"], u128(14526));  // O-O
  EXPECT_EQ(divide["e1b1"], u128(13316));  // O-O-O
  EXPECT_EQ(divide["e1f1"], u128(13316));
  EXPECT_EQ(divide["e1d1"], u128(13921));
  PerftTable table(size_t(4) << 20);
  EXPECT_EQ(perft::count(p, 5, &table), 8672978u);
  EXPECT_EQ(perft::count(p, 5, &table), 8672978u);  // again, now from the table
  EXPECT_EQ(perft::detailed(p, 1).castles, 2u);
  // Black castles both ways after each of white's 23 moves that are not castling and do
  // not touch a path (none does at ply 1), and after white's castling as well.
  EXPECT_EQ(perft::detailed(p, 2).castles, 25u * 2u);
}
