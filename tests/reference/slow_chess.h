// An independent, deliberately plain implementation of the rules of chess, used to
// cross-check the fast core. It shares no code, tables or encodings with core/: a 10x12
// mailbox board, pseudo-legal generation and make-and-test legality (play the move, then
// ask whether the mover's king is attacked). Anything the two implementations agree on
// was worked out twice in unrelated ways.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace reference {

// Mailbox indices: a1 = 21, h1 = 28, a8 = 91, h8 = 98. A frame of OFFBOARD cells (two
// ranks above and below, one file each side) catches every knight jump or slide that
// leaves the board.
constexpr int mailbox(int file, int rank) { return 21 + file + 10 * rank; }

// Cell contents: +kind for a white piece, -kind for a black one. OFFBOARD is neither
// color, so always compare against it before reading a sign.
enum Kind : int8_t { EMPTY = 0, PAWN = 1, KNIGHT, BISHOP, ROOK, QUEEN, KING, OFFBOARD = 99 };

constexpr int WHITE = 1, BLACK = -1;  // a side is the sign of its pieces

struct Board {
  std::array<int8_t, 120> cell{};
  int side = WHITE;
  // Castling rights in FEN order: K, Q, k, q.
  std::array<bool, 4> castle{};
  // The square a pawn capturing en passant lands on, or 0. Set after every double push,
  // whether or not a capture is possible; the capture itself is still make-and-test.
  int ep = 0;
  int halfmove = 0, fullmove = 1;
  std::array<int, 2> king{};  // [0] white, [1] black

  int king_of(int s) const { return king[s == WHITE ? 0 : 1]; }
};

enum MoveFlag : uint8_t { CAPTURE = 1, EN_PASSANT = 2, CASTLE = 4, DOUBLE_PUSH = 8 };

struct Move {
  uint8_t from = 0, to = 0;
  int8_t promo = EMPTY;  // the kind a pawn becomes, else EMPTY
  uint8_t flags = 0;
};

// The FEN must be well formed (6 fields, or 4 with the clocks left out); nothing is
// validated.
Board from_fen(const std::string& fen);
// The en-passant field is the stored one, so it may name a square no pawn can capture
// on, unlike a FEN written by the core.
std::string to_fen(const Board& b);

std::string square_name(int s);
std::string to_uci(const Move& m);

// Plays a pseudo-legal move without asking whether it is legal.
Board play(const Board& b, const Move& m);
bool is_legal(const Board& b, const Move& m);

std::vector<Move> legal_moves(const Board& b);
std::vector<std::string> legal_moves_uci(const Board& b);
bool has_legal_move(const Board& b);
// Plays the legal move written as UCI text (castling as the king's move, e1g1); throws
// std::invalid_argument when the text names no legal move.
Board play_uci(const Board& b, const std::string& uci);

// Squares holding pieces of side `by` that attack s, found by walking out from s.
std::vector<int> attackers(const Board& b, int s, int by);
bool attacked(const Board& b, int s, int by);
bool in_check(const Board& b);

// Plays every move down to the leaves, no bulk counting at the last ply.
uint64_t perft(const Board& b, int depth);

// Last-ply move classes, defined as in core/perft.h (a move may count in several):
// captures include en passant; promotions count each piece once; checks include mates;
// discovered are checks by one piece that is not the moved one (the castling rook
// counts as moved), double checks excluded; checkmates are checks with no reply.
struct Counters {
  uint64_t nodes = 0, captures = 0, en_passant = 0, castles = 0, promotions = 0;
  uint64_t checks = 0, discovered = 0, double_checks = 0, checkmates = 0;
  Counters& operator+=(const Counters& o);
  bool operator==(const Counters&) const = default;
};

Counters detailed_perft(const Board& b, int depth);
// The counters of the legal move m played as the last ply (nodes is 1).
Counters classify(const Board& b, const Move& m);
std::string to_string(const Counters& c);

}  // namespace reference
