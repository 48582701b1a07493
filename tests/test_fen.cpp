#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <string_view>

#include "core/movegen.h"
#include "core/position.h"
#include "tests/fen_rejection.h"

using namespace chess;

namespace {

// A 4-field FEN with its en-passant square, read and written back.
std::string ep_after_read(std::string_view fen) {
  std::string s = Position::from_fen(fen).fen();
  size_t end = s.rfind(' ', s.rfind(' ') - 1);
  size_t begin = s.rfind(' ', end - 1) + 1;
  return s.substr(begin, end - begin);
}

}  // namespace

// ---- Field count ----------------------------------------------------------------------

TEST(FenReject, FiveFields) {
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", 0, {"field count", "got 5"});
}

TEST(FenReject, ThreeFields) {
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", 0, {"field count", "got 3"});
}

TEST(FenReject, SevenFields) {
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", 0, {"field count", "got 7"});
}

TEST(FenReject, EmptyString) { expect_rejected("", 0, {"field count", "got 0"}); }

TEST(FenReject, OnlySpaces) { expect_rejected("   \t ", 0, {"field count", "got 0"}); }

// ---- Field 1: piece placement ---------------------------------------------------------

TEST(FenReject, UnknownPieceLetter) {
  expect_rejected("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1,
                  {"piece placement", "unknown piece letter 'x'"});
}

TEST(FenReject, UnknownPieceLetterLikeAnotherNotation) {
  // 'S' is the German knight: close to a real letter, still not one.
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RSBQKBNR w KQkq - 0 1", 1,
                  {"piece placement", "unknown piece letter 'S'"});
}

TEST(FenReject, RankWithTooFewSquares) {
  expect_rejected("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1,
                  {"piece placement", "rank 7 has 7 squares, not 8"});
}

TEST(FenReject, LastRankWithTooFewSquares) {
  // The last rank has no '/' after it, so it is checked on a separate path.
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w Qkq - 0 1", 1,
                  {"piece placement", "rank 1 has 7 squares, not 8"});
}

TEST(FenReject, EmptyRank) {
  expect_rejected("rnbqkbnr/pppppppp//8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1,
                  {"piece placement", "rank 6 has 0 squares, not 8"});
}

TEST(FenReject, RankWithTooManyPieces) {
  expect_rejected("rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1,
                  {"piece placement", "rank 8 has more than 8 squares"});
}

TEST(FenReject, RankDigitsAddingPastEight) {
  expect_rejected("rnbqkbnr/pppppppp/8/4k4/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1,
                  {"piece placement", "rank 5 has more than 8 squares"});
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/45/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1,
                  {"piece placement", "rank 3 has more than 8 squares"});
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR1 w KQkq - 0 1", 1,
                  {"piece placement", "rank 1 has more than 8 squares"});
}

TEST(FenReject, DigitNine) {
  expect_rejected("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1,
                  {"piece placement", "'9' is not a count of 1 to 8 empty squares"});
}

TEST(FenReject, DigitZero) {
  expect_rejected("rnbqkbnr/pppppppp/08/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1,
                  {"piece placement", "'0' is not a count of 1 to 8 empty squares"});
}

TEST(FenReject, TooManyRanks) {
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1,
                  {"piece placement", "more than 8 ranks"});
}

TEST(FenReject, TooFewRanks) {
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1,
                  {"piece placement", "only 7 ranks, not 8"});
}

TEST(FenReject, NoWhiteKing) {
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", 1,
                  {"piece placement", "white has 0 kings, not 1"});
}

TEST(FenReject, TwoWhiteKings) {
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq - 0 1", 1,
                  {"piece placement", "white has 2 kings, not 1"});
}

TEST(FenReject, NoBlackKing) {
  expect_rejected("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", 1,
                  {"piece placement", "black has 0 kings, not 1"});
}

TEST(FenReject, TwoBlackKings) {
  expect_rejected("rnbkkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", 1,
                  {"piece placement", "black has 2 kings, not 1"});
}

TEST(FenReject, NoKingsAtAll) {
  // White is reported first; either way the field and the fault must be named.
  expect_rejected("8/8/8/8/8/8/8/8 w - - 0 1", 1, {"piece placement", "white has 0 kings, not 1"});
}

TEST(FenReject, WhitePawnOnFirstRank) {
  expect_rejected("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", 1, {"piece placement", "pawn on a1", "rank 1"});
}

TEST(FenReject, BlackPawnOnFirstRank) {
  expect_rejected("4k3/8/8/8/8/8/8/4K2p w - - 0 1", 1, {"piece placement", "pawn on h1", "rank 1"});
}

TEST(FenReject, WhitePawnOnEighthRank) {
  expect_rejected("3Pk3/8/8/8/8/8/8/4K3 w - - 0 1", 1, {"piece placement", "pawn on d8", "rank 8"});
}

TEST(FenReject, BlackPawnOnEighthRank) {
  expect_rejected("4k2p/8/8/8/8/8/8/4K3 b - - 0 1", 1, {"piece placement", "pawn on h8", "rank 8"});
}

// ---- Field 1: material no game can reach -----------------------------------------------

// Both crashed before: 24 queens gave more than 256 moves (a write past MoveList), and 24
// pawns a side more than the 32 pieces pack() has room for.
TEST(FenReject, TwentyFourQueensOverflowedTheMoveList) {
  expect_rejected("knQQQQQQ/pp5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/QQQQQQQK w - - 0 1", 1,
                  {"piece placement", "white has 25 pieces and pawns, more than 16"});
}

TEST(FenReject, TwentyFourPawnsASideOverflowedThePackedBytes) {
  expect_rejected("4k3/pppppppp/pppppppp/pppppppp/PPPPPPPP/PPPPPPPP/PPPPPPPP/4K3 w - - 0 1", 1,
                  {"piece placement", "white has 24 pawns, more than 8"});
}

TEST(FenReject, KiwipeteWithAQueenMoreHas33Pieces) {
  expect_rejected("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N1QQ1p/PPPBBPPP/R3K2R w KQkq - 0 1", 1,
                  {"piece placement", "white has 17 pieces and pawns, more than 16"});
}

TEST(FenReject, NinePawns) {
  expect_rejected("rnbqkbnr/pppppppp/p7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1,
                  {"piece placement", "black has 9 pawns, more than 8"});
}

// 16 men, but two queens more than the start with only the h-pawn gone.
TEST(FenReject, MorePromotedPiecesThanMissingPawns) {
  expect_rejected("rnbqkbnr/pppppppp/8/8/3Q4/3Q4/PPPPPPP1/RNBQKBN1 w Qkq - 0 1", 1,
                  {"piece placement",
                   "white has 2 promoted pieces (beyond 1 queen, 2 rooks, 2 bishops, 2 knights) "
                   "but with 7 pawns left at most 1 can have promoted"});
  // A third bishop and a third knight for the a-pawn, and the a8 rook gone.
  expect_rejected("1nbqkbnr/1ppppppp/8/8/3n4/3b4/PPPPPPPP/RNBQKBNR w KQk - 0 1", 1,
                  {"piece placement", "black has 2 promoted pieces", "with 7 pawns left at most 1 can have promoted"});
}

// ---- Field 2: side to move ------------------------------------------------------------

TEST(FenReject, SideToMoveUpperCase) {
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1", 2,
                  {"side to move", "'W' is neither 'w' nor 'b'"});
}

TEST(FenReject, SideToMoveWord) {
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR white KQkq - 0 1", 2,
                  {"side to move", "'white' is neither 'w' nor 'b'"});
}

TEST(FenReject, SideToMoveDash) {
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR - KQkq - 0 1", 2,
                  {"side to move", "'-' is neither 'w' nor 'b'"});
}

TEST(FenReject, BlackInCheckWithWhiteToMove) {
  expect_rejected("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", 2, {"side to move", "black is in check but white is to move"});
}

TEST(FenReject, WhiteInCheckWithBlackToMove) {
  expect_rejected("4k3/8/8/8/8/5n2/8/6K1 b - - 0 1", 2, {"side to move", "white is in check but black is to move"});
}

TEST(FenReject, KingsSideBySide) {
  // Each king attacks the other, so whoever is to move, the other side is in check.
  expect_rejected("8/8/8/3kK3/8/8/8/8 w - - 0 1", 2, {"side to move", "black is in check"});
  expect_rejected("8/8/8/3kK3/8/8/8/8 b - - 0 1", 2, {"side to move", "white is in check"});
}

// ---- Field 3: castling ----------------------------------------------------------------

TEST(FenReject, WhiteKingSideWithoutKing) {
  expect_rejected("4k3/8/8/8/8/8/8/3K3R w K - 0 1", 3, {"castling", "'K' but no king on e1"});
}

TEST(FenReject, WhiteKingSideWithoutRook) {
  expect_rejected("4k3/8/8/8/8/8/8/R3K1R1 w K - 0 1", 3, {"castling", "'K' but no rook on h1"});
}

TEST(FenReject, WhiteQueenSideWithoutKing) {
  expect_rejected("4k3/8/8/8/8/8/8/R4K2 w Q - 0 1", 3, {"castling", "'Q' but no king on e1"});
}

TEST(FenReject, WhiteQueenSideWithoutRook) {
  expect_rejected("4k3/8/8/8/8/8/8/1R2K2R w Q - 0 1", 3, {"castling", "'Q' but no rook on a1"});
}

TEST(FenReject, BlackKingSideWithoutKing) {
  expect_rejected("5k1r/8/8/8/8/8/8/4K3 w k - 0 1", 3, {"castling", "'k' but no king on e8"});
}

TEST(FenReject, BlackKingSideWithoutRook) {
  expect_rejected("r3k3/8/8/8/8/8/8/4K3 b k - 0 1", 3, {"castling", "'k' but no rook on h8"});
}

TEST(FenReject, BlackQueenSideWithoutKing) {
  expect_rejected("r2k4/8/8/8/8/8/8/4K3 w q - 0 1", 3, {"castling", "'q' but no king on e8"});
}

TEST(FenReject, BlackQueenSideWithoutRook) {
  expect_rejected("1r2k2r/8/8/8/8/8/8/4K3 w q - 0 1", 3, {"castling", "'q' but no rook on a8"});
}

TEST(FenReject, CastlingPiecesOfTheWrongColor) {
  // A black rook on h1 or a white king on e8 does not make a castling right.
  expect_rejected("4k3/8/8/8/8/8/8/4K2r w K - 0 1", 3, {"castling", "'K' but no rook on h1"});
  expect_rejected("4K3/8/8/8/8/8/8/7k w k - 0 1", 3, {"castling", "'k' but no king on e8"});
}

TEST(FenReject, UnknownCastlingLetter) {
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1", 3,
                  {"castling", "unknown castling letter 'x'"});
}

TEST(FenReject, ShredderFileLetterIsUnknown) {
  // X-FEN/Shredder-FEN file letters name rooks by file; this reader supports classical only.
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAkq - 0 1", 3,
                  {"castling", "unknown castling letter 'H'"});
}

TEST(FenReject, DashMixedWithCastlingLetters) {
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w K- - 0 1", 3,
                  {"castling", "unknown castling letter '-'"});
}

TEST(FenReject, DuplicateCastlingLetter) {
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkk - 0 1", 3, {"castling", "'k' given twice"});
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1", 3, {"castling", "'K' given twice"});
}

// ---- Field 4: en passant --------------------------------------------------------------

TEST(FenReject, EnPassantOnWrongRankForWhiteToMove) {
  // With white to move, black made the last move: its double push passes rank 6, not 3.
  expect_rejected("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1", 4,
                  {"en passant", "e3 is not on the rank a double push by black passes"});
}

TEST(FenReject, EnPassantOnWrongRankForBlackToMove) {
  expect_rejected("rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR b KQkq e6 0 1", 4,
                  {"en passant", "e6 is not on the rank a double push by white passes"});
}

TEST(FenReject, EnPassantOnMiddleRank) {
  expect_rejected("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1", 4,
                  {"en passant", "e4 is not on the rank a double push by white passes"});
}

TEST(FenReject, EnPassantWithoutPawnInFront) {
  expect_rejected("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq d3 0 1", 4,
                  {"en passant", "d3 but no white pawn on d4"});
  expect_rejected("rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 1", 4,
                  {"en passant", "d6 but no black pawn on d5"});
}

TEST(FenReject, EnPassantWithEnemyPawnInFront) {
  // A black pawn on e4 cannot have reached it by a white double push.
  expect_rejected("rnbqkbnr/pppp1ppp/8/8/4p3/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1", 4,
                  {"en passant", "e3 but no white pawn on e4"});
}

TEST(FenReject, EnPassantSquareOccupied) {
  expect_rejected("rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/R1BQKBNR b KQkq e3 0 1", 4, {"en passant", "e3 is occupied"});
}

TEST(FenReject, EnPassantOriginOccupied) {
  // The pawn on e4 cannot have come from e2 while another piece stands there.
  expect_rejected("rnbqkbnr/pppppppp/8/8/4P3/8/PPPPBPPP/RNBQK1NR b KQkq e3 0 1", 4,
                  {"en passant", "e3 but e2 is occupied"});
  expect_rejected("rnbqkb1r/ppppnppp/8/3Pp3/8/8/PPP1PPPP/RNBQKB1R w KQkq e6 0 1", 4,
                  {"en passant", "e6 but e7 is occupied"});
}

TEST(FenReject, EnPassantMalformedSquare) {
  const char* base = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq ";
  for (std::string_view bad : {"e9", "i3", "e", "e33", "E3", "3e", "e0", "--"}) {
    std::string fen = base + std::string(bad) + " 0 1";
    std::string fault = std::string(bad).insert(0, 1, '\'') + "' is not a square";
    expect_rejected(fen, 4, {"en passant", fault});
  }
}

// ---- Fields 5 and 6: clocks -----------------------------------------------------------

TEST(FenReject, NegativeHalfMoveClock) {
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", 5,
                  {"half-move clock", "'-1' is not a non-negative number"});
}

TEST(FenReject, NonNumericHalfMoveClock) {
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", 5,
                  {"half-move clock", "'x' is not a non-negative number"});
}

TEST(FenReject, FractionalHalfMoveClock) {
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1.5 1", 5,
                  {"half-move clock", "'1.5' is not a non-negative number"});
}

TEST(FenReject, HalfMoveClockWithTrailingJunk) {
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3a 1", 5,
                  {"half-move clock", "'3a' is not a non-negative number"});
}

TEST(FenReject, DashAsHalfMoveClock) {
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - - 1", 5,
                  {"half-move clock", "'-' is not a non-negative number"});
}

TEST(FenReject, PlusSignedHalfMoveClock) {
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - +3 1", 5,
                  {"half-move clock", "'+3' is not a non-negative number"});
}

TEST(FenReject, HalfMoveClockOutOfRange) {
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 65536 1", 5,
                  {"half-move clock", "'65536' is out of range (at most 65535)"});
}

TEST(FenReject, NegativeMoveNumber) {
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -1", 6,
                  {"move number", "'-1' is not a non-negative number"});
}

TEST(FenReject, NonNumericMoveNumber) {
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x", 6,
                  {"move number", "'x' is not a non-negative number"});
}

TEST(FenReject, FractionalMoveNumber) {
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1.5", 6,
                  {"move number", "'1.5' is not a non-negative number"});
}

TEST(FenReject, DashAsMoveNumber) {
  expect_rejected("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -", 6,
                  {"move number", "'-' is not a non-negative number"});
}

// ---- Acceptance -----------------------------------------------------------------------

TEST(FenAccept, StartposName) {
  Position p = Position::from_fen("startpos");
  EXPECT_EQ(p.fen(), START_FEN);
  EXPECT_EQ(p, Position::start());
  EXPECT_EQ(p.side_to_move(), WHITE);
  EXPECT_EQ(p.castling(), ALL_CASTLING);
  EXPECT_EQ(p.ep_square(), SQ_NONE);
  EXPECT_EQ(p.piece_on(SQ_E1), W_KING);
  EXPECT_EQ(p.piece_on(SQ_D8), B_QUEEN);
  EXPECT_EQ(p.piece_on(SQ_E4), NO_PIECE);
  EXPECT_EQ(p.key(), p.compute_key());
}

TEST(FenAccept, FourFieldsDefaultClocks) {
  Position p = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -");
  EXPECT_EQ(p.rule50(), 0);
  EXPECT_EQ(p.fullmove(), 1);
  EXPECT_EQ(p.fen(), "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
  EXPECT_EQ(p, Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"));
}

TEST(FenAccept, SixFieldsKeepClocks) {
  Position p = Position::from_fen("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8");
  EXPECT_EQ(p.rule50(), 1);
  EXPECT_EQ(p.fullmove(), 8);
}

TEST(FenAccept, ExtraWhitespaceBetweenFields) {
  Position p = Position::from_fen("  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR \t w  KQkq   -  0 1  ");
  EXPECT_EQ(p.fen(), START_FEN);
}

TEST(FenAccept, CastlingLettersInAnyOrder) {
  EXPECT_EQ(Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1").fen(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
}

TEST(FenAccept, RoundTrips) {
  const char* fens[] = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
      "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
      "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
      "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
      "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
      "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
      "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 2",
      "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 12 40",
      "r3k2r/8/8/8/8/8/8/R3K2R b Qk - 7 33",
      "8/8/8/4k3/8/8/8/4K3 b - - 99 150",
      "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
      "8/8/8/8/8/8/6k1/4K2R w K - 0 1",
      "7k/8/8/8/8/8/8/K7 w - - 65535 65535",
  };
  for (const char* fen : fens) {
    Position p = Position::from_fen(fen);
    EXPECT_EQ(p.fen(), fen);
    EXPECT_EQ(Position::from_fen(p.fen()), p) << fen;
    EXPECT_EQ(p.key(), p.compute_key()) << fen;
  }
}

// The most material a game can reach, and the most moves: 218 in a reachable position
// (all 8 pawns promoted), which the move list holds.
TEST(FenAccept, EveryPawnPromoted) {
  Position p = Position::from_fen("R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1");
  EXPECT_EQ(legal_moves(p).size(), 218u);
  // A promoted bishop for the one missing pawn is still possible material.
  EXPECT_NO_THROW(Position::from_fen("rnbqkbnr/pppppppp/8/8/8/2B5/PPPPPPP1/RNBQKBNR w KQkq - 0 1"));
}

TEST(FenAccept, MoveNumberZeroReadsAsOne) {
  // Some tools write move number 0; the first move of a game is move 1.
  EXPECT_EQ(Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 0").fullmove(), 1);
}

// ---- En-passant normalization ---------------------------------------------------------

TEST(FenEnPassant, DroppedWhenNoPawnCanCapture) {
  // After 1.e4 no black pawn stands next to e4.
  Position p = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
  EXPECT_EQ(p.ep_square(), SQ_NONE);
  EXPECT_EQ(p.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  // Same position, same key: the dropped square must not leak into repetition detection.
  EXPECT_EQ(p, Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"));
}

TEST(FenEnPassant, DroppedWhenCapturerIsPinnedAlongTheRank) {
  // exd6 would take both pawns off rank 5 and open the rook's line to the king on a5.
  EXPECT_EQ(ep_after_read("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1"), "-");
  EXPECT_EQ(ep_after_read("8/8/8/8/k2pP2R/8/8/7K b - e3 0 1"), "-");
}

TEST(FenEnPassant, DroppedWhenCapturerIsPinnedDiagonally) {
  // The bishop on h8 pins e5 against the king on b2; d6 is off that diagonal.
  EXPECT_EQ(ep_after_read("7b/8/8/3pP3/8/8/1K6/7k w - d6 0 1"), "-");
}

TEST(FenEnPassant, DroppedWhenItLeavesTheKingInCheck) {
  // White is in check from the knight; taking en passant does not answer it.
  EXPECT_EQ(ep_after_read("8/8/8/3pP3/8/5n2/8/4K2k w - d6 0 1"), "-");
}

TEST(FenEnPassant, KeptWhenCaptureIsLegal) {
  EXPECT_EQ(ep_after_read("8/8/8/K2pP3/8/8/8/7k w - d6 0 1"), "d6");
  EXPECT_EQ(ep_after_read("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"), "f6");
  EXPECT_EQ(ep_after_read("rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 2"), "d3");
  Position p = Position::from_fen("8/8/8/K2pP3/8/8/8/7k w - d6 0 1");
  EXPECT_EQ(p.ep_square(), SQ_D6);
  EXPECT_NE(p.key(), Position::from_fen("8/8/8/K2pP3/8/8/8/7k w - - 0 1").key());
}

TEST(FenEnPassant, KeptWhenOneOfTwoCapturersMayTake) {
  // e5 is pinned along the rank but c5 still shields the king after cxd6.
  EXPECT_EQ(ep_after_read("8/8/8/K1PpP2r/8/8/8/7k w - d6 0 1"), "d6");
}

TEST(FenEnPassant, KeptWhenCaptureRemovesTheCheckingPawn) {
  // The pawn that just moved gives check; taking it en passant is the answer.
  EXPECT_EQ(ep_after_read("8/8/8/3pP3/4K3/8/8/7k w - d6 0 1"), "d6");
}
