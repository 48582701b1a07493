#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.h"
#include "core/uci.h"

using namespace chess;

namespace {

constexpr ClaimPolicy FIRST = ClaimPolicy::FIRST;
constexpr ClaimPolicy NEVER = ClaimPolicy::NEVER;
constexpr Ruleset FIDE = Ruleset::FIDE;
constexpr Ruleset SITE = Ruleset::SITE;

// Knights out and back: the position of the ply before stands again after 4 plies.
constexpr std::string_view KNIGHTS = "g1f3 g8f6 f3g1 f6g8 ";

std::string repeat(std::string_view moves, int times) {
  std::string s;
  for (int i = 0; i < times; ++i) s += moves;
  return s;
}

// Plays space-separated UCI moves; the first one that is not legal fails the test and
// stops the game there.
void play_on(Game& g, std::string_view moves) {
  while (!moves.empty()) {
    size_t end = moves.find(' ');
    std::string_view text = moves.substr(0, end);
    moves = end == std::string_view::npos ? std::string_view() : moves.substr(end + 1);
    if (text.empty()) continue;
    std::optional<Move> m = parse_uci(g.position(), text);
    if (!m) {
      ADD_FAILURE() << "illegal move " << text << " at ply " << g.ply() << " in " << g.position().fen();
      return;
    }
    g.play(*m);
  }
}

Game play(std::string_view moves, std::string_view fen = START_FEN, Ruleset rules = FIDE, ClaimPolicy claims = FIRST) {
  Game g(Position::from_fen(fen), rules, claims);
  play_on(g, moves);
  return g;
}

// The game ended by rule at ply, and only then did that rule first hold.
void expect_ended(const Game& g, Rule rule, int ply) {
  ASSERT_TRUE(g.over()) << "expected " << rule_name(rule) << " at ply " << ply;
  EXPECT_EQ(rule_name(*g.termination()), rule_name(rule));
  EXPECT_EQ(g.termination_ply(), ply);
  EXPECT_EQ(g.first_fire(rule), ply);
}

void expect_ongoing(const Game& g) {
  EXPECT_FALSE(g.over()) << "ended by " << rule_name(*g.termination()) << " at ply " << g.termination_ply();
  EXPECT_EQ(g.termination_ply(), -1);
  EXPECT_EQ(g.result(), Result::ONGOING);
}

// Every rule but the given ones never held.
void expect_only_fired(const Game& g, std::vector<Rule> fired) {
  for (int r = 0; r < RULE_NB; ++r) {
    if (std::find(fired.begin(), fired.end(), Rule(r)) == fired.end()) {
      EXPECT_EQ(g.first_fire(Rule(r)), -1) << rule_name(Rule(r));
    }
  }
}

}  // namespace

// ---- Names ----------------------------------------------------------------------------

TEST(GameNames, RuleNamesRoundTrip) {
  const std::string_view names[RULE_NB] = {
      "checkmate",   "stalemate",          "insufficient_material", "threefold_repetition", "fivefold_repetition",
      "fifty_moves", "seventy_five_moves", "site_thirty_moves",     "site_ten_checks",      "site_thirty_checks"};
  for (int r = 0; r < RULE_NB; ++r) {
    EXPECT_EQ(rule_name(Rule(r)), names[r]);
    ASSERT_TRUE(rule_from_name(names[r]).has_value()) << names[r];
    EXPECT_EQ(int(*rule_from_name(names[r])), r);
  }
  EXPECT_FALSE(rule_from_name("").has_value());
  EXPECT_FALSE(rule_from_name("Checkmate").has_value());
  EXPECT_FALSE(rule_from_name("fifty").has_value());
}

TEST(GameNames, ResultStrings) {
  EXPECT_EQ(result_string(Result::WHITE_WINS), "1-0");
  EXPECT_EQ(result_string(Result::BLACK_WINS), "0-1");
  EXPECT_EQ(result_string(Result::DRAW), "1/2-1/2");
  EXPECT_EQ(result_string(Result::ONGOING), "*");
}

// ---- Checkmate and stalemate ----------------------------------------------------------

TEST(GameMate, FoolsMate) {
  Game g = play("f2f3 e7e5 g2g4 d8h4");
  expect_ended(g, Rule::CHECKMATE, 4);
  EXPECT_EQ(g.ply(), 4);
  EXPECT_EQ(g.moves().size(), 4u);
  EXPECT_EQ(result_string(g.result()), "0-1");
  expect_only_fired(g, {Rule::CHECKMATE});
}

TEST(GameMate, ScholarsMate) {
  Game g = play("e2e4 e7e5 f1c4 b8c6 d1h5 g8f6 h5f7");
  expect_ended(g, Rule::CHECKMATE, 7);
  EXPECT_EQ(result_string(g.result()), "1-0");
}

TEST(GameMate, StartPositionMated) {
  Game g = play("", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
  expect_ended(g, Rule::CHECKMATE, 0);
  EXPECT_EQ(g.result(), Result::BLACK_WINS);
}

TEST(GameMate, QueenStalemateFromFen) {
  Game g = play("f1f7", "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1");
  expect_ended(g, Rule::STALEMATE, 1);
  EXPECT_EQ(result_string(g.result()), "1/2-1/2");
  expect_only_fired(g, {Rule::STALEMATE});
}

// Sam Loyd's stalemate in ten moves from the start position.
TEST(GameMate, LoydTenMoveStalemate) {
  Game g = play("e2e3 a7a5 d1h5 a8a6 h5a5 h7h5 h2h4 a6h6 a5c7 f7f6 c7d7 e8f7 d7b7 d8d3 b7b8 d3h7 b8c8 f7g6 c8e6");
  expect_ended(g, Rule::STALEMATE, 19);
  EXPECT_EQ(g.result(), Result::DRAW);
}

// The knight is pinned to its king (the full generator decides); Loyd's stalemate above
// has blocked pieces off the king's lines (the quick free-piece test decides).
TEST(GameMate, PinnedKnightStalemate) {
  Game g = play("", "k1K5/1n6/1B6/3B4/8/8/8/8 b - - 0 1");
  expect_ended(g, Rule::STALEMATE, 0);
}

TEST(GameMate, StartPositionStalemate) {
  Game g = play("", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
  expect_ended(g, Rule::STALEMATE, 0);
}

// ---- Repetition -----------------------------------------------------------------------

TEST(GameRepetition, KnightShuffleThreefoldClaimedFirst) {
  Game g(Position::start(), FIDE, FIRST);
  EXPECT_EQ(g.repetitions(), 1);
  play_on(g, repeat(KNIGHTS, 1));
  EXPECT_EQ(g.repetitions(), 2);
  play_on(g, "g1f3 g8f6 f3g1");
  expect_ongoing(g);
  play_on(g, "f6g8");
  EXPECT_EQ(g.repetitions(), 3);
  expect_ended(g, Rule::THREEFOLD_REPETITION, 8);
  EXPECT_EQ(g.result(), Result::DRAW);
  EXPECT_FALSE(g.perpetual_check());
  expect_only_fired(g, {Rule::THREEFOLD_REPETITION});
}

TEST(GameRepetition, FollowingAfterTheEndKeepsFirstFires) {
  Game g = play(repeat(KNIGHTS, 4), START_FEN, FIDE, FIRST);
  expect_ended(g, Rule::THREEFOLD_REPETITION, 8);
  EXPECT_EQ(g.ply(), 16);
  EXPECT_EQ(g.repetitions(), 5);
  EXPECT_EQ(g.first_fire(Rule::FIVEFOLD_REPETITION), 16);
}

TEST(GameRepetition, NeverClaimPlaysOnToFivefold) {
  Game g = play(repeat(KNIGHTS, 2), START_FEN, FIDE, NEVER);
  expect_ongoing(g);
  EXPECT_EQ(g.first_fire(Rule::THREEFOLD_REPETITION), 8);
  play_on(g, repeat(KNIGHTS, 1) + "g1f3 g8f6 f3g1");
  expect_ongoing(g);
  EXPECT_EQ(g.repetitions(), 4);  // the position after the first f3g1: plies 3, 7, 11, 15
  play_on(g, "f6g8");
  expect_ended(g, Rule::FIVEFOLD_REPETITION, 16);
  EXPECT_EQ(g.first_fire(Rule::THREEFOLD_REPETITION), 8);
  EXPECT_EQ(g.result(), Result::DRAW);
}

TEST(GameRepetition, SiteIgnoresRepetition) {
  Game g = play(repeat(KNIGHTS, 5), START_FEN, SITE, FIRST);
  expect_ongoing(g);
  EXPECT_EQ(g.repetitions(), 6);
  EXPECT_EQ(g.first_fire(Rule::THREEFOLD_REPETITION), 8);
  EXPECT_EQ(g.first_fire(Rule::FIVEFOLD_REPETITION), 16);
}

// With rights kept, the position after 1.e4 e5 stands again after each knight trip.
TEST(GameRepetition, CastlingRightsKeptRepeat) {
  Game g = play("e2e4 e7e5 " + repeat(KNIGHTS, 2));
  expect_ended(g, Rule::THREEFOLD_REPETITION, 10);
}

// The kings step out and back: the same pieces stand as after 1.e4 e5, but without the
// castling rights, so the count starts again at ply 6.
TEST(GameRepetition, CastlingRightsLostIsNotARepetition) {
  Game g = play("e2e4 e7e5 e1e2 e8e7 e2e1 e7e8");
  EXPECT_EQ(g.repetitions(), 1);
  EXPECT_EQ(g.position().castling(), NO_CASTLING);
  play_on(g, repeat(KNIGHTS, 1));
  EXPECT_EQ(g.repetitions(), 2);
  expect_ongoing(g);
  play_on(g, repeat(KNIGHTS, 1));
  expect_ended(g, Rule::THREEFOLD_REPETITION, 14);
}

// One side's rights lost are enough to make the positions differ.
TEST(GameRepetition, OneSideLosesCastlingRights) {
  Game g = play("e2e4 e7e5 e1e2 b8c6 e2e1 c6b8");
  EXPECT_EQ(g.repetitions(), 1);
  EXPECT_EQ(g.position().castling(), BLACK_CASTLING);
  play_on(g, repeat(KNIGHTS, 2));
  expect_ended(g, Rule::THREEFOLD_REPETITION, 14);
}

// After c7c5 the capture b5xc6 would expose the king on a5 to the rook on h5: there is no
// en-passant right, so the position after c7c5 is the one the king walk returns to.
TEST(GameRepetition, PinnedEnPassantDoesNotMakeADifferentPosition) {
  Game g = play("c7c5", "7k/2p5/8/KP5r/8/8/8/8 b - - 0 1");
  EXPECT_EQ(g.position().ep_square(), SQ_NONE);
  Key after_push = g.position().key();
  play_on(g, "a5a6 h8g8 a6a5 g8h8");
  EXPECT_EQ(g.position().key(), after_push);
  EXPECT_EQ(g.repetitions(), 2);
  play_on(g, "a5a6 h8g8 a6a5 g8h8");
  expect_ended(g, Rule::THREEFOLD_REPETITION, 9);
}

// The same walk with the king on a4: b5xc6 is legal right after c7c5, so that position
// differs from the ones the walk returns to. At ply 9 the position stands for the second
// time only (plies 5, 9); the first threefold is the one after a4a3 (plies 2, 6, 10).
TEST(GameRepetition, LegalEnPassantMakesADifferentPosition) {
  Game g = play("c7c5", "7k/2p5/8/1P5r/K7/8/8/8 b - - 0 1");
  EXPECT_EQ(g.position().ep_square(), SQ_C6);
  Key after_push = g.position().key();
  play_on(g, "a4a3 h8g8 a3a4 g8h8");
  EXPECT_NE(g.position().key(), after_push);
  EXPECT_EQ(g.repetitions(), 1);
  play_on(g, "a4a3 h8g8 a3a4 g8h8");
  EXPECT_EQ(g.repetitions(), 2);
  expect_ongoing(g);
  play_on(g, "a4a3");
  expect_ended(g, Rule::THREEFOLD_REPETITION, 10);
}

// 1.e4 leaves no black pawn beside e4: no en-passant right, so the knight trips return to
// the position right after the double push.
TEST(GameRepetition, DoublePushWithoutCapturerRepeats) {
  Game g = play("e2e4");
  EXPECT_EQ(g.position().ep_square(), SQ_NONE);
  play_on(g, "g8f6 g1f3 f6g8 f3g1");
  EXPECT_EQ(g.repetitions(), 2);
  play_on(g, "g8f6 g1f3 f6g8 f3g1");
  expect_ended(g, Rule::THREEFOLD_REPETITION, 9);
}

TEST(GameRepetition, SamePositionIgnoresClocksOnly) {
  Position a = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  EXPECT_TRUE(same_position(a, Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 37 60")));
  EXPECT_FALSE(same_position(a, Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1")));
  EXPECT_FALSE(same_position(a, Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1")));
  EXPECT_FALSE(same_position(a, Position::from_fen("r3k2r/8/8/8/8/8/8/R3K1R1 w Qkq - 0 1")));
  // A white knight and a white bishop swapped: same occupancy, different pieces.
  EXPECT_FALSE(same_position(Position::from_fen("4k3/8/8/8/8/8/8/1NB1K3 w - - 0 1"),
                             Position::from_fen("4k3/8/8/8/8/8/8/1BN1K3 w - - 0 1")));
}

// ---- Perpetual check ------------------------------------------------------------------

TEST(GamePerpetual, QueenPerpetual) {
  Game g = play("f1f8 h8h7 f8f5 h7h8 f5f8 h8h7 f8f5 h7h8 f5f8", "7k/6p1/7p/8/8/8/8/5QK1 w - - 0 1");
  expect_ended(g, Rule::THREEFOLD_REPETITION, 9);
  EXPECT_TRUE(g.perpetual_check());
}

TEST(GamePerpetual, KnightShuffleIsNotPerpetual) {
  Game g = play(repeat(KNIGHTS, 3), START_FEN, FIDE, NEVER);
  EXPECT_EQ(g.first_fire(Rule::THREEFOLD_REPETITION), 8);
  EXPECT_FALSE(g.perpetual_check());
}

// Checks on most moves but one quiet move between the first and third occurrence.
TEST(GamePerpetual, OneQuietMoveBetweenIsNotPerpetual) {
  // Rook a8, king h7, White to move stands at plies 2, 6 and 10; White's moves between
  // are a8a7+, a7a8+, d1e1 and e1d1: the quiet king moves break the perpetual.
  Game g = play("a1a8 h8h7 a8a7 h7h8 a7a8 h8h7 d1e1 h7g7 e1d1 g7h7", "7k/8/8/8/8/8/8/R2K4 w - - 0 1", FIDE, NEVER);
  EXPECT_EQ(g.repetitions(), 3);
  EXPECT_EQ(g.first_fire(Rule::THREEFOLD_REPETITION), 10);
  EXPECT_FALSE(g.perpetual_check());
}

// ---- Clock rules ----------------------------------------------------------------------

constexpr std::string_view ROOK_ENDING = "8/8/8/4k3/8/8/8/R3K3 w - - ";

TEST(GameClock, FiftyMovesClaimedFirst) {
  Game g = play("a1a2", std::string(ROOK_ENDING) + "99 80");
  expect_ended(g, Rule::FIFTY_MOVES, 1);
  EXPECT_EQ(g.result(), Result::DRAW);
  expect_only_fired(g, {Rule::FIFTY_MOVES, Rule::SITE_THIRTY_MOVES});
  EXPECT_EQ(g.first_fire(Rule::SITE_THIRTY_MOVES), 0);
}

TEST(GameClock, FiftyMovesNeverClaimed) {
  Game g = play("a1a2", std::string(ROOK_ENDING) + "99 80", FIDE, NEVER);
  expect_ongoing(g);
  EXPECT_EQ(g.first_fire(Rule::FIFTY_MOVES), 1);
}

TEST(GameClock, FiftyMovesAtTheStart) {
  Game g = play("", std::string(ROOK_ENDING) + "100 80");
  expect_ended(g, Rule::FIFTY_MOVES, 0);
}

TEST(GameClock, SeventyFiveMovesEndsWithoutClaim) {
  Game g = play("a1a2", std::string(ROOK_ENDING) + "149 80", FIDE, NEVER);
  expect_ended(g, Rule::SEVENTY_FIVE_MOVES, 1);
  EXPECT_EQ(g.first_fire(Rule::FIFTY_MOVES), 0);  // the start position's clock already says so
  EXPECT_EQ(g.result(), Result::DRAW);
}

TEST(GameClock, FiftyMovesClaimComesBeforeSeventyFive) {
  Game g = play("a1a2", std::string(ROOK_ENDING) + "149 80", FIDE, FIRST);
  expect_ended(g, Rule::FIFTY_MOVES, 0);
  EXPECT_EQ(g.first_fire(Rule::SEVENTY_FIVE_MOVES), 1);
}

TEST(GameClock, PawnMoveAndCaptureResetTheClock) {
  Game g = play("h2h3", "4k3/8/8/8/8/8/7P/R3K3 w - - 99 80");
  expect_ongoing(g);
  EXPECT_EQ(g.position().rule50(), 0);
  g = play("a1a7", "4k3/r7/8/8/8/8/8/R3K3 w - - 99 80");
  expect_ongoing(g);
  EXPECT_EQ(g.first_fire(Rule::FIFTY_MOVES), -1);
}

// A back-rank mate on the move that brings the clock to 100 (and 150, 60): mate stands.
constexpr std::string_view BACK_RANK = "6k1/5ppp/8/8/8/8/8/R5K1 w - - ";

TEST(GameClock, MateOnTheHundredthPlyStands) {
  Game g = play("a1a8", std::string(BACK_RANK) + "99 80");
  expect_ended(g, Rule::CHECKMATE, 1);
  EXPECT_EQ(g.result(), Result::WHITE_WINS);
  EXPECT_EQ(g.first_fire(Rule::FIFTY_MOVES), -1);
}

TEST(GameClock, MateOnTheHundredFiftiethPlyStands) {
  Game g = play("a1a8", std::string(BACK_RANK) + "149 80", FIDE, NEVER);
  expect_ended(g, Rule::CHECKMATE, 1);
  EXPECT_EQ(g.first_fire(Rule::SEVENTY_FIVE_MOVES), -1);
  EXPECT_EQ(g.first_fire(Rule::FIFTY_MOVES), 0);
}

TEST(GameClock, SiteMateOnTheSixtiethPlyStands) {
  Game g = play("a1a8", std::string(BACK_RANK) + "59 80", SITE);
  expect_ended(g, Rule::CHECKMATE, 1);
  EXPECT_EQ(g.first_fire(Rule::SITE_THIRTY_MOVES), -1);
}

// Threefold and the 50-move claim at one ply: the repetition is named.
TEST(GameClock, ThreefoldBeforeFiftyAtOnePly) {
  Game g = play(repeat(KNIGHTS, 2), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 92 50");
  expect_ended(g, Rule::THREEFOLD_REPETITION, 8);
  EXPECT_EQ(g.first_fire(Rule::FIFTY_MOVES), 8);
}

// Fivefold and 75 moves at one ply: the repetition is named.
TEST(GameClock, FivefoldBeforeSeventyFiveAtOnePly) {
  Game g = play(repeat(KNIGHTS, 4), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 134 80", FIDE, NEVER);
  expect_ended(g, Rule::FIVEFOLD_REPETITION, 16);
  EXPECT_EQ(g.first_fire(Rule::SEVENTY_FIVE_MOVES), 16);
}

// ---- Site rules -----------------------------------------------------------------------

constexpr std::string_view ROOK_SHUFFLE = "a1a2 e8d8 a2a1 d8e8 ";
constexpr std::string_view SHUFFLE_FEN = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";

TEST(GameSite, ThirtyMovesAtSixtyPlies) {
  Game g = play(repeat(ROOK_SHUFFLE, 14) + "a1a2 e8d8 a2a1", SHUFFLE_FEN, SITE);
  EXPECT_EQ(g.ply(), 59);
  expect_ongoing(g);
  EXPECT_EQ(g.first_fire(Rule::SITE_THIRTY_MOVES), -1);
  play_on(g, "d8e8");
  expect_ended(g, Rule::SITE_THIRTY_MOVES, 60);
  EXPECT_EQ(g.result(), Result::DRAW);
}

TEST(GameSite, ThirtyMovesTrackedUnderFide) {
  Game g = play(repeat(ROOK_SHUFFLE, 15), SHUFFLE_FEN, FIDE, FIRST);
  expect_ended(g, Rule::THREEFOLD_REPETITION, 8);
  EXPECT_EQ(g.first_fire(Rule::SITE_THIRTY_MOVES), 60);
}

TEST(GameSite, ThirtyMovesFromFenClock) {
  Game g = play("a1a2", "4k3/8/8/8/8/8/8/R3K3 w - - 59 40", SITE);
  expect_ended(g, Rule::SITE_THIRTY_MOVES, 1);
}

// The rook checks from a8 and a7 in turn; the king steps between h8 and h7.
constexpr std::string_view CHECK_FEN = "7k/8/8/8/8/8/8/R2K4 w - - 0 1";
constexpr std::string_view CHECKS = "a8a7 h7h8 a7a8 h8h7 ";  // rook on a8, king on h7, before and after

TEST(GameSite, TenConsecutiveChecks) {
  Game g = play("a1a8 h8h7 " + repeat(CHECKS, 4), CHECK_FEN, SITE);
  EXPECT_EQ(g.ply(), 18);  // nine checks
  expect_ongoing(g);
  EXPECT_EQ(g.first_fire(Rule::SITE_TEN_CHECKS), -1);
  play_on(g, "a8a7");
  expect_ended(g, Rule::SITE_TEN_CHECKS, 19);
  EXPECT_EQ(g.result(), Result::DRAW);
}

TEST(GameSite, QuietMoveResetsConsecutiveChecks) {
  // Five checks, a quiet king move, then the count starts again: the tenth at ply 31.
  Game g = play("a1a8 h8h7 " + repeat(CHECKS, 2) + "d1e1 h7g7 a8a7 g7h8 a7a8 h8h7 " + repeat(CHECKS, 3) + "a8a7 h7h8",
                CHECK_FEN, SITE);
  EXPECT_EQ(g.ply(), 30);
  expect_ongoing(g);
  play_on(g, "a7a8");
  expect_ended(g, Rule::SITE_TEN_CHECKS, 31);
}

TEST(GameSite, TenthCheckThatMatesIsCheckmate) {
  // Four checks back and forth, then a ladder of six ending in mate.
  Game g = play("a2a3 h3h2 a3a2 h2h3 a2a3 h3h2 a3a2 h2h3 b1b3 h3h4 a2a4 h4h5 b3b5 h5h6 a4a6 h6h7 b5b7 h7h8 a6a8",
                "8/8/8/8/8/7k/R7/KR6 w - - 0 1", SITE);
  expect_ended(g, Rule::CHECKMATE, 19);
  EXPECT_EQ(g.first_fire(Rule::SITE_TEN_CHECKS), -1);
  EXPECT_EQ(g.result(), Result::WHITE_WINS);
}

TEST(GameSite, TenChecksTrackedUnderFideAsPerpetual) {
  Game g = play("a1a8 h8h7 " + repeat(CHECKS, 4) + "a8a7", CHECK_FEN, FIDE, NEVER);
  EXPECT_EQ(g.first_fire(Rule::THREEFOLD_REPETITION), 9);
  EXPECT_EQ(g.first_fire(Rule::SITE_TEN_CHECKS), 19);
  EXPECT_TRUE(g.perpetual_check());
  expect_ended(g, Rule::FIVEFOLD_REPETITION, 17);  // rook a8, king h8: plies 1, 5, 9, 13, 17
}

// Blocks of nine checks split by pawn moves, which also keep the 30-move rule away: the
// black king is checked for the 30th time at ply 65.
TEST(GameSite, ThirtyChecksInTotal) {
  std::string moves = "a1a8 h8h7 " + repeat(CHECKS, 4);                 // checks 1-9, plies 1-18
  moves += "c2c3 h7g7 a8a7 g7h8 " + repeat("a7a8 h8h7 a8a7 h7h8 ", 4);  // checks 10-18, plies 19-38
  moves += "c3c4 h8g8 a7a8 g8h7 " + repeat(CHECKS, 4);                  // checks 19-27, plies 39-58
  moves += "c4c5 h7g7 a8a7 g7h8 a7a8 h8h7";                             // checks 28-29, plies 59-64
  Game g = play(moves, "7k/8/8/8/8/8/2P5/R2K4 w - - 0 1", SITE);
  EXPECT_EQ(g.ply(), 64);
  expect_ongoing(g);
  EXPECT_EQ(g.first_fire(Rule::SITE_TEN_CHECKS), -1);
  EXPECT_EQ(g.first_fire(Rule::SITE_THIRTY_MOVES), -1);
  play_on(g, "a8a7");
  expect_ended(g, Rule::SITE_THIRTY_CHECKS, 65);
  EXPECT_EQ(g.first_fire(Rule::SITE_TEN_CHECKS), -1);
  EXPECT_EQ(g.result(), Result::DRAW);
}

TEST(GameSite, MayResignAfterMoveFifteen) {
  Game g(Position::start(), SITE);
  EXPECT_FALSE(g.may_resign());
  play_on(g, repeat(KNIGHTS, 7));
  EXPECT_EQ(g.position().fullmove(), 15);
  EXPECT_FALSE(g.may_resign());  // White's 15th move
  play_on(g, "g1f3");
  EXPECT_FALSE(g.may_resign());  // Black's 15th move
  play_on(g, "g8f6");
  EXPECT_EQ(g.position().fullmove(), 16);
  EXPECT_TRUE(g.may_resign());  // White's 16th move
  play_on(g, "f3g1");
  EXPECT_TRUE(g.may_resign());  // Black's 16th move
  expect_ongoing(g);
}

TEST(GameSite, MayResignByFenMoveNumber) {
  EXPECT_FALSE(Game(Position::from_fen("4k3/8/8/8/8/8/8/R3K3 b - - 0 15"), SITE).may_resign());
  EXPECT_TRUE(Game(Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 16"), SITE).may_resign());
  EXPECT_TRUE(Game(Position::start(), FIDE).may_resign());
}

// ---- Insufficient material ------------------------------------------------------------

TEST(GameMaterial, DeadAndNotDead) {
  struct Case {
    const char* what;
    const char* fen;
    bool dead;
  };
  const Case cases[] = {
      {"K v K", "8/8/4k3/8/8/3K4/8/8 w - - 0 1", true},
      {"KN v K", "8/8/4k3/8/8/3K4/8/6N1 w - - 0 1", true},
      {"K v KN", "8/8/4k3/8/8/3K4/8/6n1 w - - 0 1", true},
      {"KB v K", "8/8/4k3/8/8/3K4/8/2B5 w - - 0 1", true},
      {"K v KB", "8/8/4k3/8/8/3K4/8/2b5 w - - 0 1", true},
      {"KB v KB same colour", "5b2/8/4k3/8/8/3K4/8/2B5 w - - 0 1", true},
      {"KB v KB opposite colours", "2b5/8/4k3/8/8/3K4/8/2B5 w - - 0 1", false},
      {"KBB same colour v K", "8/8/4k3/8/8/3KB3/8/2B5 w - - 0 1", true},
      {"KBB v KBB all one colour", "5b2/6b1/4k3/8/8/3KB3/8/2B5 w - - 0 1", true},
      {"KBB opposite colours v K", "8/8/4k3/8/8/3K4/8/2B2B2 w - - 0 1", false},
      {"KNN v K", "8/8/4k3/8/8/3K4/8/1N4N1 w - - 0 1", false},
      {"KN v KN", "1n6/8/4k3/8/8/3K4/8/6N1 w - - 0 1", false},
      {"KN v KB", "2b5/8/4k3/8/8/3K4/8/6N1 w - - 0 1", false},
      {"KBN v K", "8/8/4k3/8/8/3K4/8/2B3N1 w - - 0 1", false},
      {"KP v K", "8/8/4k3/8/8/3K4/7P/8 w - - 0 1", false},
      {"KR v K", "8/8/4k3/8/8/3K4/8/7R w - - 0 1", false},
      {"KQ v K", "8/8/4k3/8/8/3K4/8/7Q w - - 0 1", false},
  };
  for (const Case& c : cases) {
    Position pos = Position::from_fen(c.fen);
    EXPECT_EQ(insufficient_material(pos), c.dead) << c.what;
    Game g(pos);
    if (c.dead)
      expect_ended(g, Rule::INSUFFICIENT_MATERIAL, 0);
    else
      EXPECT_EQ(g.first_fire(Rule::INSUFFICIENT_MATERIAL), -1) << c.what;
  }
}

TEST(GameMaterial, CaptureLeavesKnightAgainstKing) {
  Game g = play("e3e4", "8/8/4k3/8/4p3/4K3/8/6N1 w - - 0 1");
  expect_ended(g, Rule::INSUFFICIENT_MATERIAL, 1);
  EXPECT_EQ(g.result(), Result::DRAW);
  expect_only_fired(g, {Rule::INSUFFICIENT_MATERIAL});
}

TEST(GameMaterial, CaptureLeavesBishopsOfOneColour) {
  Game g = play("e1d2", "5b2/8/4k3/8/8/8/3n4/2B1K3 w - - 0 1");
  expect_ended(g, Rule::INSUFFICIENT_MATERIAL, 1);
}

TEST(GameMaterial, CaptureLeavesBishopsOfBothColours) {
  Game g = play("e1d2", "4b3/8/4k3/8/8/8/3n4/2B1K3 w - - 0 1");
  expect_ongoing(g);
  EXPECT_EQ(g.first_fire(Rule::INSUFFICIENT_MATERIAL), -1);
}

TEST(GameMaterial, CaptureLeavesTwoKnights) {
  Game g = play("e1d2", "8/8/4k3/8/8/8/3n4/1N2K1N1 w - - 0 1");
  expect_ongoing(g);
  EXPECT_EQ(g.first_fire(Rule::INSUFFICIENT_MATERIAL), -1);
}

// FIDE 6.9: after a flag fall, can the opponent still mate by some series of legal moves?
TEST(Game, CanCheckmateAfterAFlagFall) {
  auto can = [](const char* fen, chess::Color side) {
    return chess::can_checkmate(chess::Position::from_fen(fen), side);
  };
  EXPECT_FALSE(can("4k3/8/8/8/8/8/8/4K3 w - - 0 1", chess::WHITE));     // bare kings
  EXPECT_FALSE(can("4k3/8/8/8/8/8/8/2N1K3 w - - 0 1", chess::WHITE));   // K+N v K
  EXPECT_FALSE(can("4k3/8/8/8/8/8/8/2B1K3 b - - 0 1", chess::WHITE));   // K+B v K
  EXPECT_FALSE(can("4k3/4p3/8/8/8/8/8/4K3 w - - 0 1", chess::WHITE));   // White has only its king
  EXPECT_TRUE(can("4k3/4p3/8/8/8/8/8/4K3 w - - 0 1", chess::BLACK));    // the pawn may promote
  EXPECT_TRUE(can("4k3/4p3/8/8/8/8/8/2N1K3 w - - 0 1", chess::WHITE));  // K+N v K+P: a helpmate exists
  EXPECT_TRUE(can("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", chess::WHITE));     // K+R v K
  EXPECT_FALSE(can("4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1", chess::BLACK));  // Black has only its king
  EXPECT_TRUE(can("4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1", chess::WHITE));   // K+N+N v K: a helpmate exists
}
