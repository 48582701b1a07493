#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/movegen.h"
#include "core/san.h"
#include "core/uci.h"

using namespace chess;

namespace {

constexpr const char* KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
constexpr const char* PROMOTIONS = "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1";
constexpr const char* THREE_QUEENS = "8/8/8/7k/8/Q7/8/Q1Q4K w - - 0 1";
constexpr const char* TWO_KNIGHTS = "4k3/8/8/8/8/8/8/RN2KN1R w - - 0 1";

Move uci(const Position& pos, std::string_view text) {
  std::optional<Move> m = parse_uci(pos, text);
  EXPECT_TRUE(m) << text << " is not legal in " << pos.fen();
  return m.value_or(Move::none());
}

std::string san(std::string_view fen, std::string_view uci_text) {
  Position pos = Position::from_fen(fen);
  return to_san(pos, uci(pos, uci_text));
}

// The UCI of what parse_san reads, or "none", so that failures print both texts.
std::string parsed(std::string_view fen, std::string_view text) {
  std::optional<Move> m = parse_san(Position::from_fen(fen), text);
  return m ? to_uci(*m) : "none";
}

SanError refusal(std::string_view fen, std::string_view text) {
  SanError why = SanError::NONE;
  EXPECT_FALSE(parse_san(Position::from_fen(fen), text, why)) << text;
  return why;
}

// SAN by the textbook rule, worked out from the whole move list rather than from the
// generator's sink, as an independent check of to_san's disambiguation and suffixes.
std::string reference_san(const Position& pos, Move m, const MoveList& moves) {
  if (m.kind() == CASTLING) {
    std::string s = m.to() > m.from() ? "O-O" : "O-O-O";
    Position after = pos.after(m);
    if (after.in_check()) s += legal_moves(after).empty() ? '#' : '+';
    return s;
  }
  PieceType pt = type_of(pos.piece_on(m.from()));
  bool capture = m.kind() == EN_PASSANT || pos.piece_on(m.to()) != NO_PIECE;
  std::string s;
  if (pt == PAWN) {
    if (capture) s += square_to_string(m.from())[0];
  } else {
    s += "PNBRQK"[pt];
    bool clash = false, same_file = false, same_rank = false;
    for (Move o : moves)
      if (o.to() == m.to() && o.from() != m.from() && pos.piece_on(o.from()) == pos.piece_on(m.from())) {
        clash = true;
        same_file |= file_of(o.from()) == file_of(m.from());
        same_rank |= rank_of(o.from()) == rank_of(m.from());
      }
    std::string from = square_to_string(m.from());
    if (clash && !same_file)
      s += from[0];
    else if (clash && !same_rank)
      s += from[1];
    else if (clash)
      s += from;
  }
  if (capture) s += 'x';
  s += square_to_string(m.to());
  if (m.kind() == PROMOTION) {
    s += '=';
    s += "PNBRQK"[m.promotion()];
  }
  Position after = pos.after(m);
  if (after.in_check()) s += legal_moves(after).empty() ? '#' : '+';
  return s;
}

// The same move written with its full origin square: Ng1f3, e2e4, e5xd6, e7e8=Q.
std::string long_form(const Position& pos, Move m) {
  std::string s;
  PieceType pt = type_of(pos.piece_on(m.from()));
  if (pt != PAWN) s += "PNBRQK"[pt];
  s += square_to_string(m.from());
  if (pos.piece_on(m.to()) != NO_PIECE || m.kind() == EN_PASSANT) s += 'x';
  s += square_to_string(m.to());
  if (m.kind() == PROMOTION) {
    s += '=';
    s += "PNBRQK"[m.promotion()];
  }
  return s;
}

// Random play from start with a fixed seed: the positions before each move.
std::vector<Position> random_positions(const Position& start, uint64_t seed, int max_plies) {
  std::mt19937_64 rng(seed);
  std::vector<Position> out{start};
  Position pos = start;
  for (int ply = 0; ply < max_plies; ++ply) {
    MoveList moves = legal_moves(pos);
    if (moves.empty()) break;
    pos.do_move(moves[std::uniform_int_distribution<size_t>(0, moves.size() - 1)(rng)]);
    out.push_back(pos);
  }
  return out;
}

}  // namespace

// ---- to_san -----------------------------------------------------------------------------

TEST(San, PiecesAndPawns) {
  EXPECT_EQ(san(START_FEN, "e2e4"), "e4");
  EXPECT_EQ(san(START_FEN, "g1f3"), "Nf3");
  EXPECT_EQ(san(START_FEN, "b1c3"), "Nc3");
  EXPECT_EQ(san(TWO_KNIGHTS, "e1d2"), "Kd2");
  EXPECT_EQ(san(TWO_KNIGHTS, "a1a8"), "Ra8+");
}

TEST(San, DisambiguationByFile) {
  EXPECT_EQ(san(TWO_KNIGHTS, "b1d2"), "Nbd2");
  EXPECT_EQ(san(TWO_KNIGHTS, "f1d2"), "Nfd2");
  EXPECT_EQ(san(TWO_KNIGHTS, "f1e3"), "Ne3");  // the other knight cannot reach e3
  EXPECT_EQ(san(THREE_QUEENS, "c1b2"), "Qcb2");
  EXPECT_EQ(san(THREE_QUEENS, "a1b1"), "Qab1");
}

TEST(San, DisambiguationByRank) {
  EXPECT_EQ(san(THREE_QUEENS, "a3b2"), "Q3b2");
  EXPECT_EQ(san(THREE_QUEENS, "a1a2"), "Q1a2");
  EXPECT_EQ(san(THREE_QUEENS, "a3a2"), "Q3a2");
  EXPECT_EQ(san("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1", "a5a3"), "R5a3");
}

TEST(San, DisambiguationByFileAndRank) {
  // Queens on a1, a3 and c1 all reach b2 and c3: a1 shares its file with a3 and its rank with c1.
  EXPECT_EQ(san(THREE_QUEENS, "a1b2"), "Qa1b2");
  EXPECT_EQ(san(THREE_QUEENS, "a1c3"), "Qa1c3");
}

TEST(San, PinnedPieceNeedsNoDisambiguation) {
  // The knight on d2 is pinned by the bishop on a5: only the one on g1 can go to f3.
  EXPECT_EQ(san("4k3/8/8/b7/8/8/3N4/4K1N1 w - - 0 1", "g1f3"), "Nf3");
}

TEST(San, Castling) {
  const char* both = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
  EXPECT_EQ(san(both, "e1g1"), "O-O");
  EXPECT_EQ(san(both, "e1c1"), "O-O-O");
  EXPECT_EQ(san("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8g8"), "O-O");
  EXPECT_EQ(san("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8"), "O-O-O");
  EXPECT_EQ(san("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"), "O-O+");  // the rook checks from f1
  EXPECT_EQ(san("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1"), "O-O-O+");
}

TEST(San, Promotions) {
  EXPECT_EQ(san(PROMOTIONS, "g2g1q"), "g1=Q");
  EXPECT_EQ(san(PROMOTIONS, "g2g1n"), "g1=N+");
  EXPECT_EQ(san(PROMOTIONS, "g2f1q"), "gxf1=Q+");
  EXPECT_EQ(san(PROMOTIONS, "g2f1b"), "gxf1=B+");
  EXPECT_EQ(san(PROMOTIONS, "g2f1r"), "gxf1=R");
  EXPECT_EQ(san(PROMOTIONS, "g2h1n"), "gxh1=N");
  EXPECT_EQ(san("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1", "b7c8q"), "bxc8=Q+");
  EXPECT_EQ(san("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1", "b7b8n"), "b8=N+");
  EXPECT_EQ(san("7k/P7/8/8/8/8/8/K7 w - - 0 1", "a7a8q"), "a8=Q+");
  EXPECT_EQ(san("6k1/P4ppp/8/8/8/8/8/K7 w - - 0 1", "a7a8r"), "a8=R#");
}

TEST(San, EnPassant) {
  EXPECT_EQ(san("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), "exd6");
  EXPECT_EQ(san("4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1", "e4d3"), "exd3");
  // Capturing en passant opens the rank to the king: a discovered check.
  EXPECT_EQ(san("8/8/8/R2pP2k/8/8/8/K7 w - d6 0 1", "e5d6"), "exd6+");
}

TEST(San, CheckAndMate) {
  EXPECT_EQ(san("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "d8h4"), "Qh4#");
  EXPECT_EQ(san("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "h5f7"), "Qxf7#");
  EXPECT_EQ(san("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR w KQkq - 2 3", "c4f7"), "Bxf7+");
  // A check that the king escapes is '+', even when most of its squares are covered.
  EXPECT_EQ(san("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8"), "Ra8#");
  EXPECT_EQ(san("6k1/5pp1/8/8/8/8/8/R5K1 w - - 0 1", "a1a8"), "Ra8+");
}

// ---- parse_san --------------------------------------------------------------------------

TEST(San, ParsesPlainMoves) {
  EXPECT_EQ(parsed(START_FEN, "e4"), "e2e4");
  EXPECT_EQ(parsed(START_FEN, "e3"), "e2e3");
  EXPECT_EQ(parsed(START_FEN, "Nf3"), "g1f3");
  EXPECT_EQ(parsed(TWO_KNIGHTS, "Nbd2"), "b1d2");
  EXPECT_EQ(parsed(THREE_QUEENS, "Qa1b2"), "a1b2");
  EXPECT_EQ(parsed(THREE_QUEENS, "Q3b2"), "a3b2");
  EXPECT_EQ(parsed(THREE_QUEENS, "Qcb2"), "c1b2");
  EXPECT_EQ(parsed("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6"), "e5d6");
  EXPECT_EQ(parsed(PROMOTIONS, "gxf1=Q+"), "g2f1q");
}

TEST(San, ParsesTolerantForms) {
  for (const char* s : {"e4!", "e4?", "e4!!", "e4??", "e4!?", "e4?!"}) EXPECT_EQ(parsed(START_FEN, s), "e2e4") << s;
  EXPECT_EQ(parsed(START_FEN, "Ng1f3"), "g1f3");  // over-disambiguated
  EXPECT_EQ(parsed(START_FEN, "Ngf3"), "g1f3");
  EXPECT_EQ(parsed(START_FEN, "N1f3"), "g1f3");
  EXPECT_EQ(parsed(START_FEN, "Ng1-f3"), "g1f3");
  EXPECT_EQ(parsed(START_FEN, "Pe4"), "e2e4");
  EXPECT_EQ(parsed(START_FEN, "e2e4"), "e2e4");
  EXPECT_EQ(parsed("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "ed5"), "e4d5");  // marks left out are not held against it

  const char* both = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
  for (const char* s : {"O-O", "0-0", "0-0!", "o-o"}) EXPECT_EQ(parsed(both, s), "e1g1") << s;
  for (const char* s : {"O-O-O", "0-0-0"}) EXPECT_EQ(parsed(both, s), "e1c1") << s;

  for (const char* s : {"g1=Q", "g1Q", "g1=q", "g1q"}) EXPECT_EQ(parsed(PROMOTIONS, s), "g2g1q") << s;
  for (const char* s : {"gxf1=N", "gxf1N", "gf1n", "g2xf1=N"}) EXPECT_EQ(parsed(PROMOTIONS, s), "g2f1n") << s;
  EXPECT_EQ(parsed(PROMOTIONS, "gxh1=B"), "g2h1b");
  EXPECT_EQ(parsed(PROMOTIONS, "gxh1b"), "g2h1b");  // a final 'b' is a bishop, not a file
}

// A mark that says what the move does not do is refused; true marks stand, and
// a mate marked '+' is a check.
TEST(San, RefusesMarksTheMoveBelies) {
  const std::string_view both = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
  const std::string_view rook_check = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
  struct Belied {
    std::string_view fen;
    const char* text;
    SanError why;
  };
  for (const Belied& b : {Belied{START_FEN, "Nxf3", SanError::NO_CAPTURE},
                          {START_FEN, "N:f3", SanError::NO_CAPTURE},
                          {START_FEN, "e4#", SanError::NO_MATE},
                          {START_FEN, "Nf3+", SanError::NO_CHECK},
                          {START_FEN, "e4+!", SanError::NO_CHECK},
                          {both, "O-O+", SanError::NO_CHECK},
                          {both, "O-O-O#", SanError::NO_MATE},
                          {rook_check, "Ra8#", SanError::NO_MATE}})
    EXPECT_EQ(refusal(b.fen, b.text), b.why) << b.text;  // Ra8#: the king walks away
  EXPECT_EQ(parsed(rook_check, "Ra8+"), "a1a8");
  const char* back_rank = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
  EXPECT_EQ(parsed(back_rank, "Ra8#"), "a1a8");
  EXPECT_EQ(parsed(back_rank, "Ra8+"), "a1a8");
  EXPECT_EQ(parsed("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6"), "e5d6");  // en passant captures
  EXPECT_EQ(chess::san_refusal(SanError::NO_CAPTURE, "Nxf3"), "move 'Nxf3' marks a capture ('x') but captures nothing");
  EXPECT_EQ(chess::san_refusal(SanError::NO_MATE, "e4#"), "move 'e4#' marks a mate ('#') but does not mate");
  EXPECT_EQ(chess::san_refusal(SanError::NO_CHECK, "Nf3+"), "move 'Nf3+' marks a check ('+') but gives no check");
  EXPECT_EQ(chess::san_refusal(SanError::ILLEGAL, "Nf6"), "illegal move 'Nf6'");
}

TEST(San, RefusesAmbiguousMoves) {
  EXPECT_EQ(refusal(TWO_KNIGHTS, "Nd2"), SanError::AMBIGUOUS);
  EXPECT_EQ(refusal(THREE_QUEENS, "Qb2"), SanError::AMBIGUOUS);
  EXPECT_EQ(refusal(THREE_QUEENS, "Qab2"), SanError::AMBIGUOUS);  // a1 and a3
  EXPECT_EQ(refusal(THREE_QUEENS, "Q1b2"), SanError::AMBIGUOUS);  // a1 and c1
  EXPECT_EQ(refusal(PROMOTIONS, "Nb6"), SanError::AMBIGUOUS);
}

TEST(San, RefusesIllegalMoves) {
  EXPECT_EQ(refusal(START_FEN, "Nf6"), SanError::ILLEGAL);
  EXPECT_EQ(refusal(START_FEN, "e5"), SanError::ILLEGAL);
  EXPECT_EQ(refusal(START_FEN, "exd3"), SanError::ILLEGAL);
  EXPECT_EQ(refusal(START_FEN, "O-O"), SanError::ILLEGAL);
  EXPECT_EQ(refusal(START_FEN, "Ke2"), SanError::ILLEGAL);
  EXPECT_EQ(refusal(START_FEN, "Nh1f3"), SanError::ILLEGAL);  // no knight on h1
  EXPECT_EQ(refusal(START_FEN, "Bc4"), SanError::ILLEGAL);
  EXPECT_EQ(refusal(PROMOTIONS, "g1"), SanError::ILLEGAL);  // a promotion must name its piece
  EXPECT_EQ(refusal(PROMOTIONS, "gxf1"), SanError::ILLEGAL);
  EXPECT_EQ(refusal(PROMOTIONS, "g1=K"), SanError::SYNTAX);
  EXPECT_EQ(refusal(PROMOTIONS, "Kd8=Q"), SanError::SYNTAX);
  EXPECT_EQ(refusal("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1", "exd6"), SanError::ILLEGAL);  // no en-passant right
  // The knight on d2 is pinned; Kf1 would step into the bishop's ray; both are refused.
  EXPECT_EQ(refusal("4k3/8/8/b7/8/8/3N4/4K1N1 w - - 0 1", "Ndf3"), SanError::ILLEGAL);
  EXPECT_EQ(refusal("4k3/8/8/8/2b5/8/8/4K3 w - - 0 1", "Kf1"), SanError::ILLEGAL);
}

TEST(San, RefusesText) {
  for (const char* s : {"", "+", "!?", "N", "Nf", "f9", "i4", "nf3", "Zf3", "Nf3x", "e4e", "O-O-O-O", "O-", "--",
                        "Nabc3", "e8=", "Ng1f3f3"})
    EXPECT_EQ(refusal(START_FEN, s), SanError::SYNTAX) << "'" << s << "'";
}

TEST(San, ParseMoveTakesUciThenSan) {
  Position pos = Position::start();
  EXPECT_EQ(parse_move(pos, "e2e4"), uci(pos, "e2e4"));
  EXPECT_EQ(parse_move(pos, "g1f3"), uci(pos, "g1f3"));
  EXPECT_EQ(parse_move(pos, "Nf3"), uci(pos, "g1f3"));
  EXPECT_EQ(parse_move(pos, "e4"), uci(pos, "e2e4"));
  EXPECT_FALSE(parse_move(pos, "e2e5"));
  EXPECT_FALSE(parse_move(pos, "Nf6"));
  EXPECT_FALSE(parse_move(pos, ""));

  Position castle = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  EXPECT_EQ(parse_move(castle, "e1g1"), parse_move(castle, "O-O"));
  EXPECT_EQ(parse_move(castle, "e1c1")->kind(), CASTLING);

  Position promo = Position::from_fen(PROMOTIONS);
  EXPECT_EQ(parse_move(promo, "g2f1q"), parse_move(promo, "gxf1=Q"));
  EXPECT_EQ(parse_move(promo, "g2g1n"), uci(promo, "g2g1n"));
}

// ---- Round trip over random games ------------------------------------------------------

// In every position of seeded random games from three starts, every legal move's SAN is
// the textbook SAN, unique in its position, and reads back as that move, as do its long
// form (full origin square) and its form without '=' and check marks.
TEST(San, RoundTripOnRandomGames) {
  size_t positions = 0, moves_checked = 0;
  for (const char* fen : {START_FEN.data(), KIWIPETE, PROMOTIONS}) {
    for (uint64_t seed = 1; seed <= 40; ++seed) {
      for (const Position& pos : random_positions(Position::from_fen(fen), seed * 7919 + 17, 200)) {
        ++positions;
        MoveList moves = legal_moves(pos);
        std::vector<std::string> sans;
        for (Move m : moves) {
          std::string s = to_san(pos, m);
          ASSERT_EQ(s, reference_san(pos, m, moves)) << pos.fen() << " " << to_uci(m);
          ASSERT_EQ(parse_san(pos, s), m) << pos.fen() << " " << s;
          std::string lf = long_form(pos, m);
          if (m.kind() != CASTLING) {
            ASSERT_EQ(parse_san(pos, lf), m) << pos.fen() << " " << lf;
          }
          std::string bare = s;
          std::erase(bare, '=');
          while (bare.back() == '+' || bare.back() == '#') bare.pop_back();
          ASSERT_EQ(parse_san(pos, bare), m) << pos.fen() << " " << bare;
          sans.push_back(std::move(s));
        }
        moves_checked += moves.size();
        std::sort(sans.begin(), sans.end());
        ASSERT_EQ(std::adjacent_find(sans.begin(), sans.end()), sans.end()) << "duplicate SAN in " << pos.fen();
      }
    }
  }
  EXPECT_GE(positions, 20000u);
  RecordProperty("positions", int(positions));
  RecordProperty("moves", int(moves_checked));
}
