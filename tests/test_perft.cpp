#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/perft.h"
#include "core/perft_kernel.h"
#include "core/perft_table.h"
#include "core/uci.h"
#include "jobs/perft/epd.h"
#include "tests/sanitizers.h"

using namespace chess;

namespace {

// The positions of the chessprogramming wiki's "Perft Results" page.
constexpr const char* KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
constexpr const char* POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
constexpr const char* POSITION_4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
constexpr const char* POSITION_4_MIRRORED = "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1";
constexpr const char* POSITION_5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
constexpr const char* POSITION_6 = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

// gtest cannot print unsigned __int128; compare through its decimal text instead.
std::string str(u128 v) { return to_string(v); }

void expect_counts(const char* fen, const std::vector<uint64_t>& expected) {
  Position pos = Position::from_fen(fen);
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(perft::count(pos, int(i) + 1), expected[i]) << fen << " depth " << i + 1;
}

// One row of the wiki's detailed tables, in its column order.
struct Row {
  uint64_t nodes, captures, en_passant, castles, promotions, checks, discovered, double_checks, checkmates;
};

void expect_row(const perft::Counters& c, const Row& r, const std::string& where) {
  SCOPED_TRACE(where);
  EXPECT_EQ(str(c.nodes), str(r.nodes)) << "nodes";
  EXPECT_EQ(str(c.captures), str(r.captures)) << "captures";
  EXPECT_EQ(str(c.en_passant), str(r.en_passant)) << "en passant";
  EXPECT_EQ(str(c.castles), str(r.castles)) << "castles";
  EXPECT_EQ(str(c.promotions), str(r.promotions)) << "promotions";
  EXPECT_EQ(str(c.checks), str(r.checks)) << "checks";
  EXPECT_EQ(str(c.discovered), str(r.discovered)) << "discovered checks";
  EXPECT_EQ(str(c.double_checks), str(r.double_checks)) << "double checks";
  EXPECT_EQ(str(c.checkmates), str(r.checkmates)) << "checkmates";
}

// The wiki's tables, depth 1 first.
const Row START_ROWS[] = {
    {20, 0, 0, 0, 0, 0, 0, 0, 0},
    {400, 0, 0, 0, 0, 0, 0, 0, 0},
    {8902, 34, 0, 0, 0, 12, 0, 0, 0},
    {197281, 1576, 0, 0, 0, 469, 0, 0, 8},
    {4865609, 82719, 258, 0, 0, 27351, 6, 0, 347},
    {119060324, 2812008, 5248, 0, 0, 809099, 329, 46, 10828},
};

const Row KIWIPETE_ROWS[] = {
    {48, 8, 0, 2, 0, 0, 0, 0, 0},
    {2039, 351, 1, 91, 0, 3, 0, 0, 0},
    {97862, 17102, 45, 3162, 0, 993, 0, 0, 1},
    {4085603, 757163, 1929, 128013, 15172, 25523, 42, 6, 43},
    // DISPUTED: the wiki prints 2,637 double checks at depth 5; we hold 2,645, which other
    // sources report too. The independent slow counter (tests/reference, its own mailbox
    // board, checkers found by scanning out from the king, every leaf move played) gives
    // 2,645 with every other counter of this row equal to the wiki's:
    //   slow_perft "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1" 5 --detailed
    // The other dispute, start position depth 7 checkmates, it settles for the wiki's
    // 435,767 (not 435,765), as does the core; that run takes minutes and is not a test.
    {193690690, 35043416, 73365, 4993637, 8392, 3309887, 19883, 2645, 30171},
};

perft::Options opts(int threads, bool detailed = false) {
  perft::Options o;
  o.threads = threads;
  o.detailed = detailed;
  return o;
}

std::map<std::string, u128> by_move(const std::vector<perft::RootCount>& roots) {
  std::map<std::string, u128> m;
  for (const auto& r : roots) m[to_uci(r.move)] = r.nodes;
  return m;
}

}  // namespace

// ---- The bulk kernel against plain move lists --------------------------------------

namespace {

// Perft by move lists alone: every move played with do_move, the last ply counted by
// the list's size. Shares the generator with the kernel but none of its sinks, its
// leaf counting or its instruction-set copy.
uint64_t list_perft(const Position& pos, int depth) {
  MoveList moves = legal_moves(pos);
  if (depth == 1) return moves.size();
  uint64_t n = 0;
  for (Move m : moves) n += list_perft(pos.after(m), depth - 1);
  return n;
}

// The king's steps (not castling) by playing each and looking for attackers: nothing of
// the generator's king-safety maps, which list_perft shares.
int king_steps_by_make_and_test(const Position& pos) {
  const Color us = pos.side_to_move();
  const Square ksq = pos.king_square(us);
  int n = 0;
  for (Bitboard b = KING_ATTACKS[ksq] & ~pos.pieces(us); b;) {
    const Square s = pop_lsb(b);
    const Position after = pos.after(Move(ksq, s));
    n += !(after.attackers_to(s, after.pieces()) & after.pieces(~us));
  }
  return n;
}

int king_steps(const MoveList& moves, Square ksq) {
  return int(
      std::count_if(moves.begin(), moves.end(), [ksq](Move m) { return m.from() == ksq && m.kind() == NORMAL; }));
}

// What the random games ran into, so that no rule goes untested by a change of seeds.
// open_king: the side to move's king has more than three squares to judge (the
// generator then maps the enemy's attacks at once).
struct KernelCoverage {
  int positions = 0, chess960 = 0, en_passant = 0, castling = 0, promotion = 0, in_check = 0;
  int open_king = 0;
  int unchanged_replies = 0;  // moves the leaf parents count without playing
  int changed_replies = 0;    // of which their sliders' moves change
  int known_king = 0;         // moves after which the leaf takes the opponent's king's moves as known
  int known_castles = 0;      // of which with a castling move among them
};

// The opponent's moves on this board, as a move list from the FEN with the other side to
// move and no en-passant square: nothing of the kernel's.
int replies_on_unchanged_board(const Position& pos) {
  std::string fen = pos.fen();
  const size_t side = fen.find(' '), ep = fen.find(' ', fen.find(' ', side + 1) + 1);
  fen[side + 1] = pos.side_to_move() == WHITE ? 'b' : 'w';
  fen.replace(ep + 1, fen.find(' ', ep + 1) - ep - 1, "-");
  return int(legal_moves(Position::from_fen(fen, pos.is_chess960())).size());
}

// The leaf parents' shortcut, move by move: every quiet move whose squares reply_shortcut
// clears (ok), played, leaves the opponent exactly the moves it has on the board before
// it, and every one it clears as near those moves changed by its delta. Returns how many
// moves it checked: ok ones, near ones.
std::pair<int, int> check_unchanged_replies(const Position& pos) {
  perft::kernel::ReplyShortcut r;
  if (pos.side_to_move() == WHITE)
    perft::kernel::reply_shortcut<WHITE>(pos, r);
  else
    perft::kernel::reply_shortcut<BLACK>(pos, r);
  int ok = 0, near = 0, replies = -1;
  for (Move m : legal_moves(pos)) {
    const PieceType pt = type_of(pos.piece_on(m.from()));
    if (m.kind() != NORMAL || (pos.pieces() & square_bb(m.to())) || !((r.near[pt] >> m.from()) & 1) ||
        !((r.near[pt] >> m.to()) & 1))
      continue;
    if (replies < 0) replies = replies_on_unchanged_board(pos);
    const int after = int(legal_moves(pos.after(m)).size());
    if (((r.ok[pt] >> m.from()) & 1) && ((r.ok[pt] >> m.to()) & 1)) {
      EXPECT_EQ(after, replies) << to_uci(m, pos.is_chess960());
      ++ok;
    } else {
      EXPECT_EQ(after, replies + r.delta(pos.pieces(), pos.pieces(~pos.side_to_move()), m.from(), m.to()))
          << to_uci(m, pos.is_chess960());
      ++near;
    }
  }
  return {ok, near};
}

// The leaf parents' other shortcut, move by move: after every normal move whose squares
// king_shortcut clears (the piece's type's bad squares), the opponent is not in check, its
// king moves to exactly k.king_to and it has k.castles castling moves, by the move list of
// the position after the move. Returns how many moves it checked, and of those how many
// left a castling move.
std::pair<int, int> check_known_king(const Position& pos) {
  perft::kernel::KingShortcut k;
  const bool white = pos.side_to_move() == WHITE;
  if (pos.is_chess960())
    white ? perft::kernel::king_shortcut<WHITE, true>(pos, k) : perft::kernel::king_shortcut<BLACK, true>(pos, k);
  else
    white ? perft::kernel::king_shortcut<WHITE, false>(pos, k) : perft::kernel::king_shortcut<BLACK, false>(pos, k);
  int checked = 0, castles = 0;
  for (Move m : legal_moves(pos)) {
    const PieceType pt = type_of(pos.piece_on(m.from()));
    if (m.kind() != NORMAL || ((k.bad[pt] >> m.from()) & 1) || ((k.bad[pt] >> m.to()) & 1)) continue;
    const Position after = pos.after(m);
    const Square king = after.king_square(after.side_to_move());
    Bitboard king_to = 0;
    int castlings = 0;
    for (Move r : legal_moves(after)) {
      if (r.kind() == CASTLING)
        ++castlings;
      else if (r.from() == king)
        king_to |= square_bb(r.to());
    }
    EXPECT_FALSE(after.in_check()) << to_uci(m, pos.is_chess960());
    EXPECT_EQ(king_to, k.king_to) << to_uci(m, pos.is_chess960());
    EXPECT_EQ(castlings, k.castles) << to_uci(m, pos.is_chess960());
    ++checked;
    castles += castlings > 0;
  }
  return {checked, castles};
}

// Plays a seeded random game from fen (a double push, where one exists, a third of the
// time, so that en-passant rights come up), comparing perft::count with list_perft at
// depth 2 in every position and at depth 3 (hashed as well) in every eighth.
void kernel_along_game(const std::string& fen, uint64_t seed, PerftTable& table, KernelCoverage& seen) {
  std::mt19937_64 rng(seed);
  Position pos = Position::from_fen(fen);
  for (int ply = 0; ply < 120; ++ply) {
    SCOPED_TRACE(pos.fen());
    ++seen.positions;
    seen.chess960 += pos.is_chess960();
    seen.en_passant += pos.ep_square() != SQ_NONE;
    seen.in_check += pos.in_check();
    const Color us = pos.side_to_move();
    seen.open_king +=
        popcount(KING_ATTACKS[pos.king_square(us)] & ~pos.pieces(us) & ~KING_ATTACKS[pos.king_square(~us)]) > 3;
    ASSERT_EQ(king_steps_by_make_and_test(pos), king_steps(legal_moves(pos), pos.king_square(us)));
    const auto [ok, near] = check_unchanged_replies(pos);
    seen.unchanged_replies += ok + near;
    seen.changed_replies += near;
    const auto [known, known_castles] = check_known_king(pos);
    seen.known_king += known;
    seen.known_castles += known_castles;
    if (::testing::Test::HasFailure()) return;
    ASSERT_EQ(perft::count(pos, 2), list_perft(pos, 2));
    if (ply % 8 == 0) {
      const uint64_t expected = list_perft(pos, 3);
      ASSERT_EQ(perft::count(pos, 3), expected);
      ASSERT_EQ(perft::count(pos, 3, &table), expected);
    }
    MoveList moves = legal_moves(pos);
    if (moves.empty()) return;
    std::vector<Move> pushes;
    for (Move m : moves) {
      seen.castling += m.kind() == CASTLING;
      seen.promotion += m.kind() == PROMOTION;
      if (type_of(pos.piece_on(m.from())) == PAWN && (m.from() ^ m.to()) == 16) pushes.push_back(m);
    }
    pos.do_move(!pushes.empty() && rng() % 3 == 0 ? pushes[rng() % pushes.size()] : moves[rng() % moves.size()]);
  }
}

}  // namespace

// The kernel perft::count runs (in a portable build on a CPU with x86-64-v3, the copy
// compiled for it) against move lists, along random games from the six standard
// positions, Chess960 and Double Fischer Random starts and en-passant corner cases.
TEST(PerftKernel, AgreesWithMoveListsAlongRandomGames) {
  const std::string starts[] = {
      START_FEN.data(), KIWIPETE, POSITION_3, POSITION_4, POSITION_5, POSITION_6, "chess960:0", "chess960:959",
      "chess960:333", "chess960:87", "dfrc:12,700", "dfrc:500,44",
      // Double pushes beside pawns pinned along the rank, the file and the diagonal.
      "8/2p5/8/KP5r/8/8/8/7k b - - 0 1", "3k4/8/8/8/3p4/8/4P3/3RK3 w - - 0 1", "7b/3p4/8/4P3/8/8/1K6/7k b - - 0 1",
      // Promotions on both sides, with captures and castling rooks to take.
      "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1"};
  PerftTable table(1 << 20);
  KernelCoverage seen;
  uint64_t seed = 0xC0DE;
  for (const std::string& fen : starts)
    for (int game = 0; game < 3; ++game) {
      kernel_along_game(fen, seed++, table, seen);
      if (::testing::Test::HasFailure()) return;
    }
  EXPECT_GE(seen.positions, 3000);
  EXPECT_GT(seen.chess960, 1000);
  EXPECT_GT(seen.en_passant, 0);
  EXPECT_GT(seen.castling, 0);
  EXPECT_GT(seen.promotion, 0);
  EXPECT_GT(seen.in_check, 0);
  EXPECT_GT(seen.open_king, 1000);
  EXPECT_GT(seen.unchanged_replies, 10000);
  EXPECT_GT(seen.changed_replies, 3000);
  EXPECT_GT(seen.known_king, 30000);
  EXPECT_GT(seen.known_castles, 2000);
  RecordProperty("known_king", seen.known_king);
  RecordProperty("known_castles", seen.known_castles);
  RecordProperty("unchanged_replies", seen.unchanged_replies);
  RecordProperty("changed_replies", seen.changed_replies);
}

// The king's lines of the reply reuse, by hand: only the squares up to our first piece on
// a line, or up to their second one, may change the opponent's pins and checks.
TEST(PerftKernel, ReplyReuseExcludesTheKingsLinesUpToTheirSecondPiece) {
  struct Ok {
    Bitboard by_type[PIECE_TYPE_NB] = {};
    Bitboard operator[](PieceType pt) const { return by_type[pt]; }
  };
  const auto ok_of = [](const Position& pos) {
    perft::kernel::ReplyShortcut r;
    perft::kernel::reply_shortcut<WHITE>(pos, r);
    Ok ok;
    for (int pt = PAWN; pt <= KING; ++pt) ok.by_type[pt] = r.ok[pt];
    return ok;
  };
  // Re3 pins the knight on e6 (one black piece between): the x-ray through it excludes e3.
  const Position pin = Position::from_fen("4k3/8/4n3/8/8/R7/8/K7 w - - 0 1");
  EXPECT_FALSE((ok_of(pin)[ROOK] >> SQ_E3) & 1);
  // Behind a second black piece (e5) the rook pins nothing: e3 is free.
  const Position two = Position::from_fen("4k3/8/4n3/4p3/8/R7/8/K7 w - - 0 1");
  EXPECT_TRUE((ok_of(two)[ROOK] >> SQ_E3) & 1);
  // The knight on e4 shields the rook on e2 (a discovered check if it moves): e4 is
  // excluded, and the rook behind it moves along its rank freely.
  const Position shield = Position::from_fen("4k3/8/8/8/4N3/8/4R3/K7 w - - 0 1");
  EXPECT_FALSE((ok_of(shield)[KNIGHT] >> SQ_E4) & 1);
  EXPECT_TRUE((ok_of(shield)[ROOK] >> SQ_E2) & 1);
  EXPECT_TRUE((ok_of(shield)[ROOK] >> SQ_C2) & 1);
  for (const Position& pos : {pin, two, shield}) {
    SCOPED_TRACE(pos.fen());
    EXPECT_GT(check_unchanged_replies(pos).first, 0);
    EXPECT_EQ(perft::count(pos, 2), list_perft(pos, 2));
    EXPECT_EQ(perft::count(pos, 3), list_perft(pos, 3));
  }
}

// With an en-passant square of ours on the board the quiet moves' replies are still
// reused, counted on the board without it: black's pawns on c7 and e7 stand where the
// square, read as black's, would give them captures to d6.
TEST(PerftKernel, ReplyReuseBesideAnEnPassantSquareCountsTheBoardWithoutIt) {
  const Position pos = Position::from_fen("4k3/2p1p3/8/3pP3/8/8/8/4K3 w - d6 0 1");
  ASSERT_EQ(pos.ep_square(), SQ_D6);
  EXPECT_GT(check_unchanged_replies(pos).first, 0);
  EXPECT_EQ(perft::count(pos, 2), list_perft(pos, 2));
  EXPECT_EQ(perft::count(pos, 3), list_perft(pos, 3));
}

// Near the opponent's pieces. Black: king a8, knight b6, rook h6 (off the king's lines).
// A knight's moves do not depend on what we move, so Bf1-c4, onto a square the knight
// sees, is ok. Bf1-h3 lands on the rook's file: near, and the rook has two moves fewer
// (h2 and h1, now behind the bishop). With the rook on h8, on the king's rank, its
// squares are excluded (it may pin or shield): h3 is not even near.
TEST(PerftKernel, ReplyReuseCountsTheMovesOfSlidersThatSeeTheMove) {
  perft::kernel::ReplyShortcut r;
  const Position pos = Position::from_fen("k7/8/1n5r/8/8/8/3R4/5BK1 w - - 0 1");
  perft::kernel::reply_shortcut<WHITE>(pos, r);
  EXPECT_TRUE((r.ok[BISHOP] >> SQ_C4) & 1);
  EXPECT_TRUE((r.near[BISHOP] >> SQ_H3) & 1);
  EXPECT_FALSE((r.ok[BISHOP] >> SQ_H3) & 1);
  EXPECT_EQ(r.delta(pos.pieces(), pos.pieces(BLACK), SQ_F1, SQ_H3), -2);
  const auto [ok, near] = check_unchanged_replies(pos);
  EXPECT_GT(ok, 0);
  EXPECT_EQ(near, 1);
  const Position line = Position::from_fen("k6r/8/1n6/8/8/8/3R4/5BK1 w - - 0 1");
  perft::kernel::reply_shortcut<WHITE>(line, r);
  EXPECT_TRUE((r.ok[BISHOP] >> SQ_C4) & 1);
  EXPECT_FALSE((r.near[BISHOP] >> SQ_H3) & 1);
  for (const Position& p : {pos, line}) {
    SCOPED_TRACE(p.fen());
    EXPECT_EQ(perft::count(p, 2), list_perft(p, 2));
    EXPECT_EQ(perft::count(p, 3), list_perft(p, 3));
  }
}

// The opponent's king's moves taken as known, by hand. Black: king e8, rooks a8 and h8;
// white: king e1, rook a1, pawn g2. With black's long castling right only and a bishop on
// h3, which sees d7 and c8 (no castling), the bishop's moves are excluded (h3 is on a line
// from the king's squares), as is g2-g4 (onto that diagonal); g2-g3 and Ra1-b1 keep off
// every line from the black king's squares and are cleared. Without the bishop and with
// both rights, g8 (short castling's landing square) sees down the g-file to g2: the pawn's
// moves are excluded, and black may castle twice after Ra1-b1; Ra1-a8, a capture on
// black's back rank (a right lost), is excluded.
TEST(PerftKernel, KnownKingExcludesTheLinesToTheKingsSquaresAndTheBackRank) {
  perft::kernel::KingShortcut k;
  const Position pos = Position::from_fen("r3k2r/8/8/8/8/7B/6P1/R3K3 w q - 0 1");
  perft::kernel::king_shortcut<WHITE, false>(pos, k);
  EXPECT_TRUE((k.bad[BISHOP] >> SQ_H3) & 1);
  EXPECT_FALSE((k.bad[PAWN] >> SQ_G2) & 1);
  EXPECT_FALSE((k.bad[PAWN] >> SQ_G3) & 1);
  EXPECT_TRUE((k.bad[PAWN] >> SQ_G4) & 1);
  EXPECT_EQ(k.castles, 0);
  EXPECT_EQ(check_known_king(pos), std::make_pair(2, 0));
  const Position open = Position::from_fen("r3k2r/8/8/8/8/8/6P1/R3K3 w kq - 0 1");
  perft::kernel::king_shortcut<WHITE, false>(open, k);
  EXPECT_TRUE((k.bad[ROOK] >> SQ_A8) & 1);
  EXPECT_TRUE((k.bad[PAWN] >> SQ_G2) & 1);
  EXPECT_EQ(k.castles, 2);
  EXPECT_EQ(check_known_king(open), std::make_pair(1, 1));
  // Chess960: black's king c8 castles with its rook on b8 (the king stays, the rook goes
  // to d8); pawns b7 to d7 close every line from c8 and d8 but the back rank, where the
  // rook ends it. Qa5-a8 is off those lines, yet behind the rook it would check the king
  // once the rook left: the back rank is excluded while black may castle.
  const Position shield = Position::from_fen("1rk5/1ppp4/8/Q7/8/8/8/6K1 w b - 0 1", true);
  perft::kernel::king_shortcut<WHITE, true>(shield, k);
  EXPECT_EQ(k.castles, 1);
  EXPECT_TRUE((k.bad[QUEEN] >> SQ_A8) & 1);
  EXPECT_FALSE((k.bad[QUEEN] >> SQ_A5) & 1);
  EXPECT_GT(check_known_king(shield).second, 5);
  for (const Position& p : {pos, open, shield}) {
    SCOPED_TRACE(p.fen());
    EXPECT_EQ(perft::count(p, 2), list_perft(p, 2));
    EXPECT_EQ(perft::count(p, 3), list_perft(p, 3));
  }
}

// ---- Bulk counts ----------------------------------------------------------------------

TEST(Perft, StartPosition) { expect_counts(START_FEN.data(), {20, 400, 8902, 197281, 4865609, 119060324}); }

TEST(Perft, Kiwipete) { expect_counts(KIWIPETE, {48, 2039, 97862, 4085603, 193690690}); }

TEST(Perft, Position3) { expect_counts(POSITION_3, {14, 191, 2812, 43238, 674624, 11030083, 178633661}); }

TEST(Perft, Position4) { expect_counts(POSITION_4, {6, 264, 9467, 422333, 15833292, 706045033}); }

TEST(Perft, Position4Mirrored) { expect_counts(POSITION_4_MIRRORED, {6, 264, 9467, 422333, 15833292, 706045033}); }

TEST(Perft, Position5) { expect_counts(POSITION_5, {44, 1486, 62379, 2103487, 89941194}); }

TEST(Perft, Position6) { expect_counts(POSITION_6, {46, 2079, 89890, 3894594, 164075551}); }

// The list never writes past its slots, even if a position had more moves than any
// reachable one (from_fen refuses the material that could).
TEST(MoveListBound, PushPastCapacityThrowsAndWritesNothing) {
  MoveList list;
  for (size_t i = 0; i < MoveList::CAPACITY; ++i) list.push(Move(SQ_A1, Square(i % 64)));
  EXPECT_THROW(list.push(Move(SQ_B1, SQ_C1)), std::length_error);
  EXPECT_EQ(list.size(), MoveList::CAPACITY);
  EXPECT_EQ(list[MoveList::CAPACITY - 1], Move(SQ_A1, Square((MoveList::CAPACITY - 1) % 64)));
}

TEST(Perft, DepthZeroIsOneNode) {
  EXPECT_EQ(perft::count(Position::start(), 0), 1u);
  EXPECT_EQ(str(perft::detailed(Position::start(), 0).nodes), "1");
}

TEST(Perft, MatedAndStalematedPositionsHaveNoMoves) {
  // Fool's mate: white is mated.
  Position mated = Position::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
  EXPECT_EQ(perft::count(mated, 1), 0u);
  EXPECT_EQ(perft::count(mated, 3), 0u);
  Position stalemate = Position::from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
  EXPECT_EQ(perft::count(stalemate, 1), 0u);
}

// A table gets 32 bytes for each node with two plies or more left, the published counts
// summed (start position, plies 0-4: 1 + 20 + 400 + 8902 + 197281 = 206604 nodes, 6.3 MB,
// so 6 MB in whole 2 MB); a tree that fills what was asked, or is estimated to from its
// last branching factor, keeps it; one page at least.
TEST(Perft, TableBytesForATreeThatCannotFillIt) {
  constexpr size_t MB = size_t(1) << 20, GB = MB << 10;
  const Position start = Position::start();
  EXPECT_EQ(perft::table_bytes_for(start, 6, 10 * GB), 6 * MB);
  EXPECT_EQ(perft::table_bytes_for(start, 6, 4 * MB), 4 * MB);
  EXPECT_EQ(perft::table_bytes_for(start, 3, GB), 2 * MB);  // 21 nodes: one page
  EXPECT_EQ(perft::table_bytes_for(start, 3, MB), MB);      // never more than asked
  // Plies 0-5 sum to 5,072,213 nodes (154.8 MB) and ply 6 alone is 119 M: perft(8) fills
  // 1 GB once ply 6 is estimated (4865609 * 4865609 / 197281 nodes), not counted.
  EXPECT_EQ(perft::table_bytes_for(start, 8, GB), GB);
  EXPECT_EQ(perft::table_bytes_for(start, 10, 8 * GB), 8 * GB);
  EXPECT_EQ(perft::table_bytes_for(start, 7, GB), 154 * MB);  // 5,072,213 * 32 bytes, in whole 2 MB
  Position mated = Position::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
  EXPECT_EQ(perft::table_bytes_for(mated, 9, GB), 2 * MB);
}

// ---- Detailed counters ----------------------------------------------------------------

// The deepest rows (startpos 6, Kiwipete 5) take most of a minute each under
// AddressSanitizer (scripts/sanitize.sh); one ply less runs the same code there (every
// kind of move and counter appears by Kiwipete's depth 4), and the normal build checks
// every row.
#ifdef CHESSHPC_TESTS_UNDER_ASAN
constexpr int DETAILED_PLIES_LESS = 1;
#else
constexpr int DETAILED_PLIES_LESS = 0;
#endif

TEST(PerftDetailed, StartPositionSerial) {
  Position pos = Position::start();
  for (int d = 1; d <= 6 - DETAILED_PLIES_LESS; ++d)
    expect_row(perft::detailed(pos, d), START_ROWS[d - 1], "depth " + std::to_string(d));
}

TEST(PerftDetailed, KiwipeteSerial) {
  Position pos = Position::from_fen(KIWIPETE);
  for (int d = 1; d <= 5 - DETAILED_PLIES_LESS; ++d)
    expect_row(perft::detailed(pos, d), KIWIPETE_ROWS[d - 1], "depth " + std::to_string(d));
}

TEST(PerftDetailed, StartPositionDivide) {
  Position pos = Position::start();
  for (int d = 1; d <= 6 - DETAILED_PLIES_LESS; ++d) {
    auto roots = perft::divide(pos, d, opts(2, true));
    expect_row(perft::total_counters(roots), START_ROWS[d - 1], "depth " + std::to_string(d));
    EXPECT_EQ(str(perft::total(roots)), str(START_ROWS[d - 1].nodes)) << "depth " << d;
  }
}

TEST(PerftDetailed, KiwipeteDivide) {
  Position pos = Position::from_fen(KIWIPETE);
  for (int d = 1; d <= 5 - DETAILED_PLIES_LESS; ++d) {
    auto roots = perft::divide(pos, d, opts(2, true));
    expect_row(perft::total_counters(roots), KIWIPETE_ROWS[d - 1], "depth " + std::to_string(d));
    EXPECT_EQ(str(perft::total(roots)), str(KIWIPETE_ROWS[d - 1].nodes)) << "depth " << d;
  }
}

TEST(PerftDetailed, PerRootMoveAgreesWithSerial) {
  // Each root move's counters must be those of its own subtree, not just sum right.
  Position pos = Position::from_fen(KIWIPETE);
  auto roots = perft::divide(pos, 3, opts(2, true));
  ASSERT_EQ(roots.size(), 48u);
  for (const auto& r : roots) {
    perft::Counters serial = perft::detailed(pos.after(r.move), 2);
    EXPECT_TRUE(r.counters == serial) << to_uci(r.move);
    EXPECT_EQ(str(r.nodes), str(serial.nodes)) << to_uci(r.move);
  }
}

// ---- Divide ---------------------------------------------------------------------------

TEST(PerftDivide, StartPositionDepth3) {
  // Every root move's subtree at depth 3, as any correct generator prints it.
  const std::map<std::string, u128> known = {
      {"a2a3", 380}, {"b2b3", 420}, {"c2c3", 420}, {"d2d3", 539}, {"e2e3", 599}, {"f2f3", 380}, {"g2g3", 420},
      {"h2h3", 380}, {"a2a4", 420}, {"b2b4", 421}, {"c2c4", 441}, {"d2d4", 560}, {"e2e4", 600}, {"f2f4", 401},
      {"g2g4", 421}, {"h2h4", 420}, {"b1a3", 400}, {"b1c3", 440}, {"g1f3", 440}, {"g1h3", 400},
  };
  auto roots = perft::divide(Position::start(), 3, opts(2));
  auto got = by_move(roots);
  ASSERT_EQ(got.size(), 20u);
  for (const auto& [move, n] : known) {
    ASSERT_TRUE(got.count(move)) << move;
    EXPECT_EQ(str(got[move]), str(n)) << move;
  }
  EXPECT_EQ(str(perft::total(roots)), "8902");
}

TEST(PerftDivide, StartPositionDepths1And2) {
  for (int d = 1; d <= 2; ++d) {
    auto roots = perft::divide(Position::start(), d, opts(2));
    ASSERT_EQ(roots.size(), 20u);
    for (const auto& r : roots) EXPECT_EQ(str(r.nodes), d == 1 ? "1" : "20") << to_uci(r.move);
  }
}

TEST(PerftDivide, SameResultForEveryThreadCount) {
  Position pos = Position::from_fen(KIWIPETE);
  const uint64_t serial = perft::count(pos, 4);
  ASSERT_EQ(serial, 4085603u);
  auto reference = perft::divide(pos, 4, opts(1));
  ASSERT_EQ(reference.size(), 48u);
  EXPECT_EQ(str(perft::total(reference)), str(serial));
  for (const auto& r : reference) EXPECT_EQ(str(r.nodes), str(perft::count(pos.after(r.move), 3))) << to_uci(r.move);

  for (int threads : {2, 3, 4}) {
    SCOPED_TRACE("threads " + std::to_string(threads));
    auto roots = perft::divide(pos, 4, opts(threads));
    ASSERT_EQ(roots.size(), reference.size());
    for (size_t i = 0; i < roots.size(); ++i) {
      EXPECT_EQ(roots[i].move, reference[i].move);
      EXPECT_EQ(str(roots[i].nodes), str(reference[i].nodes)) << to_uci(roots[i].move);
    }
    EXPECT_EQ(str(perft::total(roots)), str(serial));
  }
}

TEST(PerftDivide, DetailedSameResultForEveryThreadCount) {
  Position pos = Position::from_fen(POSITION_4);
  auto reference = perft::divide(pos, 4, opts(1, true));
  EXPECT_EQ(str(perft::total(reference)), "422333");
  for (int threads : {2, 3, 4}) {
    auto roots = perft::divide(pos, 4, opts(threads, true));
    ASSERT_EQ(roots.size(), reference.size());
    for (size_t i = 0; i < roots.size(); ++i)
      EXPECT_TRUE(roots[i].counters == reference[i].counters) << to_uci(roots[i].move) << " threads " << threads;
  }
}

TEST(PerftDivide, RootMoveWithNoPathsCountsZero) {
  // Below the split depth some subtrees end in mate; those root moves still appear.
  Position pos = Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1");
  auto roots = perft::divide(pos, 3, opts(2));
  auto got = by_move(roots);
  ASSERT_TRUE(got.count("a1a8"));
  EXPECT_EQ(str(got["a1a8"]), "0");  // back-rank mate: no reply, so no 3-move path
  EXPECT_EQ(str(perft::total(roots)), str(perft::count(pos, 3)));
}

// ---- perftsuite.epd -------------------------------------------------------------------

namespace {

chesshpc::EpdFile read_suite() {
  std::ifstream in(std::string(CHESSHPC_TEST_DATA) + "/perftsuite.epd");
  EXPECT_TRUE(in) << "cannot open " << CHESSHPC_TEST_DATA << "/perftsuite.epd";
  return chesshpc::read_epd(in);
}

}  // namespace

TEST(PerftSuite, ReadsEveryLine) {
  auto suite = read_suite();
  EXPECT_TRUE(suite.errors.empty()) << suite.errors.front().line_number << ": " << suite.errors.front().message;
  EXPECT_EQ(suite.lines.size(), 126u);
  // Kiwipete's line stops at depth 5; every other line goes to depth 6.
  for (const auto& line : suite.lines) {
    EXPECT_GE(line.expected.size(), 5u) << "line " << line.line_number;
    EXPECT_LE(line.expected.size(), 6u) << "line " << line.line_number;
    for (size_t i = 0; i < line.expected.size(); ++i)
      EXPECT_EQ(line.expected[i].first, int(i) + 1) << "line " << line.line_number;
  }
}

TEST(PerftSuite, EveryLineToDepth4) {
  auto suite = read_suite();
  ASSERT_FALSE(suite.lines.empty());
  for (const auto& line : suite.lines) {
    Position pos = Position::from_fen(line.fen);
    for (auto [depth, n] : line.expected) {
      if (depth > 4) continue;
      EXPECT_EQ(perft::count(pos, depth), n) << "line " << line.line_number << " depth " << depth;
    }
  }
}

TEST(PerftSuite, EveryLineAtDepth5) {
  auto suite = read_suite();
  ASSERT_FALSE(suite.lines.empty());
  for (const auto& line : suite.lines)
    for (auto [depth, n] : line.expected) {
      if (depth != 5) continue;
      EXPECT_EQ(str(perft::total(perft::divide(Position::from_fen(line.fen), 5, opts(2)))), str(n))
          << "line " << line.line_number << ": " << line.fen;
    }
}

TEST(PerftSuite, CastlingAndPromotionLinesAtDepth6) {
  // The deepest counts of the lines that stress castling rights and promotions.
  auto suite = read_suite();
  const std::vector<std::string> picked = {
      "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "r3k2r/8/8/8/8/8/8/1R2K2R b Kkq - 0 1",
      "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",     "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
      "8/PPPk4/8/8/8/8/4Kppp/8 w - - 0 1",    "n1n5/1Pk5/8/8/8/8/5Kp1/5N1N w - - 0 1",
  };
  size_t found = 0;
  for (const auto& line : suite.lines) {
    if (std::find(picked.begin(), picked.end(), line.fen) == picked.end()) continue;
    ++found;
    for (auto [depth, n] : line.expected) {
      if (depth != 6) continue;
      EXPECT_EQ(str(perft::total(perft::divide(Position::from_fen(line.fen), 6, opts(2)))), str(n))
          << "line " << line.line_number << ": " << line.fen;
    }
  }
  EXPECT_EQ(found, picked.size());
}
