#include "tests/reference/slow_chess.h"

#include <initializer_list>
#include <sstream>
#include <stdexcept>

namespace reference {

namespace {

constexpr int KNIGHT_STEPS[8] = {-21, -19, -12, -8, 8, 12, 19, 21};
constexpr int KING_STEPS[8] = {-11, -10, -9, -1, 1, 9, 10, 11};
constexpr int DIAGONALS[4] = {-11, -9, 9, 11};
constexpr int LINES[4] = {-10, -1, 1, 10};

constexpr int E1 = mailbox(4, 0), A1 = mailbox(0, 0), H1 = mailbox(7, 0);
constexpr int E8 = mailbox(4, 7), A8 = mailbox(0, 7), H8 = mailbox(7, 7);

int file_of(int s) { return s % 10 - 1; }
int rank_of(int s) { return s / 10 - 2; }
int color_index(int side) { return side == WHITE ? 0 : 1; }
bool is_enemy(int cell, int side) { return cell != OFFBOARD && cell * side < 0; }

// Pseudo-legal moves can outnumber legal ones; nine queens, two rooks, bishops and
// knights and a king stay below this.
struct MoveBuffer {
  std::array<Move, 384> moves;
  int size = 0;

  void add(int from, int to, uint8_t flags, int promo = EMPTY) {
    moves[size++] = Move{uint8_t(from), uint8_t(to), int8_t(promo), flags};
  }
};

// Walks out from s and collects up to `limit` attackers of side `by`; `out`, when given,
// must hold `limit` squares. A limit of 1 answers "is s attacked" as early as possible.
int find_attackers(const Board& b, int s, int by, int* out, int limit) {
  int n = 0;
  auto found = [&](int at) {
    if (out) out[n] = at;
    return ++n >= limit;
  };
  // A pawn attacks diagonally forward, so an attacker stands diagonally behind s as
  // seen from its own side.
  for (int d : {9, 11})
    if (b.cell[s - d * by] == PAWN * by && found(s - d * by)) return n;
  for (int d : KNIGHT_STEPS)
    if (b.cell[s + d] == KNIGHT * by && found(s + d)) return n;
  for (int d : KING_STEPS)
    if (b.cell[s + d] == KING * by && found(s + d)) return n;
  for (int d : DIAGONALS) {
    int at = s + d;
    while (b.cell[at] == EMPTY) at += d;
    if ((b.cell[at] == BISHOP * by || b.cell[at] == QUEEN * by) && found(at)) return n;
  }
  for (int d : LINES) {
    int at = s + d;
    while (b.cell[at] == EMPTY) at += d;
    if ((b.cell[at] == ROOK * by || b.cell[at] == QUEEN * by) && found(at)) return n;
  }
  return n;
}

void add_pawn_move(MoveBuffer& out, int from, int to, uint8_t flags) {
  if (rank_of(to) != 0 && rank_of(to) != 7) {
    out.add(from, to, flags);
    return;
  }
  for (int k : {QUEEN, ROOK, BISHOP, KNIGHT}) out.add(from, to, flags, k);
}

void pawn_moves(const Board& b, int from, MoveBuffer& out) {
  const int us = b.side, up = 10 * us;
  const int start_rank = us == WHITE ? 1 : 6;
  if (b.cell[from + up] == EMPTY) {
    add_pawn_move(out, from, from + up, 0);
    if (rank_of(from) == start_rank && b.cell[from + 2 * up] == EMPTY) out.add(from, from + 2 * up, DOUBLE_PUSH);
  }
  for (int to : {from + up - 1, from + up + 1}) {
    if (is_enemy(b.cell[to], us))
      add_pawn_move(out, from, to, CAPTURE);
    else if (b.ep && to == b.ep && b.cell[to - up] == -PAWN * us)
      out.add(from, to, CAPTURE | EN_PASSANT);
  }
}

void leaper_moves(const Board& b, int from, const int (&steps)[8], MoveBuffer& out) {
  for (int d : steps) {
    int cell = b.cell[from + d];
    if (cell == EMPTY)
      out.add(from, from + d, 0);
    else if (is_enemy(cell, b.side))
      out.add(from, from + d, CAPTURE);
  }
}

void slider_moves(const Board& b, int from, const int (&dirs)[4], MoveBuffer& out) {
  for (int d : dirs) {
    int to = from + d;
    for (; b.cell[to] == EMPTY; to += d) out.add(from, to, 0);
    if (is_enemy(b.cell[to], b.side)) out.add(from, to, CAPTURE);
  }
}

// FIDE: king and rook unmoved (the rights say so, the pieces must still be there), the
// squares between them empty, and the king neither in check nor passing through or
// landing on an attacked square.
void castling_moves(const Board& b, MoveBuffer& out) {
  const int us = b.side, them = -us;
  const int e = us == WHITE ? E1 : E8, right = us == WHITE ? 0 : 2;
  if (b.cell[e] != KING * us) return;
  auto empty = [&](std::initializer_list<int> squares) {
    for (int s : squares)
      if (b.cell[s] != EMPTY) return false;
    return true;
  };
  auto safe = [&](std::initializer_list<int> squares) {
    for (int s : squares)
      if (attacked(b, s, them)) return false;
    return true;
  };
  if (b.castle[right] && b.cell[e + 3] == ROOK * us && empty({e + 1, e + 2}) && safe({e, e + 1, e + 2}))
    out.add(e, e + 2, CASTLE);
  if (b.castle[right + 1] && b.cell[e - 4] == ROOK * us && empty({e - 1, e - 2, e - 3}) && safe({e, e - 1, e - 2}))
    out.add(e, e - 2, CASTLE);
}

void generate(const Board& b, MoveBuffer& out) {
  for (int rank = 0; rank < 8; ++rank)
    for (int file = 0; file < 8; ++file) {
      int from = mailbox(file, rank);
      switch (b.cell[from] * b.side) {
        case PAWN: pawn_moves(b, from, out); break;
        case KNIGHT: leaper_moves(b, from, KNIGHT_STEPS, out); break;
        case BISHOP: slider_moves(b, from, DIAGONALS, out); break;
        case ROOK: slider_moves(b, from, LINES, out); break;
        case QUEEN:
          slider_moves(b, from, DIAGONALS, out);
          slider_moves(b, from, LINES, out);
          break;
        case KING:
          leaper_moves(b, from, KING_STEPS, out);
          castling_moves(b, out);
          break;
        default: break;
      }
    }
}

// Whether the side that just moved left its own king attacked.
bool mover_in_check(const Board& after) { return attacked(after, after.king_of(-after.side), after.side); }

// The last-ply classification: `child` is `b` after the legal move m.
void classify_into(const Move& m, const Board& child, Counters& c) {
  ++c.nodes;
  c.captures += (m.flags & CAPTURE) != 0;
  c.en_passant += (m.flags & EN_PASSANT) != 0;
  c.castles += (m.flags & CASTLE) != 0;
  c.promotions += m.promo != EMPTY;
  int checkers[2];
  int n = find_attackers(child, child.king_of(child.side), -child.side, checkers, 2);
  if (n == 0) return;
  ++c.checks;
  if (n == 2)
    ++c.double_checks;
  else {
    int moved = m.to;
    if (m.flags & CASTLE) moved = m.to > m.from ? m.from + 1 : m.from - 1;  // the rook's new square
    c.discovered += checkers[0] != moved;
  }
  c.checkmates += !has_legal_move(child);
}

void detailed_rec(const Board& b, int depth, Counters& c) {
  MoveBuffer moves;
  generate(b, moves);
  for (int i = 0; i < moves.size; ++i) {
    Board child = play(b, moves.moves[i]);
    if (mover_in_check(child)) continue;
    if (depth == 1)
      classify_into(moves.moves[i], child, c);
    else
      detailed_rec(child, depth - 1, c);
  }
}

int parse_square(const std::string& s) { return mailbox(s[0] - 'a', s[1] - '1'); }

}  // namespace

Board from_fen(const std::string& fen) {
  std::istringstream in(fen);
  std::string placement, side, castling, ep;
  in >> placement >> side >> castling >> ep;
  Board b;
  b.cell.fill(OFFBOARD);
  for (int rank = 0; rank < 8; ++rank)
    for (int file = 0; file < 8; ++file) b.cell[mailbox(file, rank)] = EMPTY;
  int file = 0, rank = 7;
  for (char ch : placement) {
    if (ch == '/') {
      --rank, file = 0;
    } else if (ch >= '1' && ch <= '8') {
      file += ch - '0';
    } else {
      static const std::string letters = "pnbrqk";
      int kind = int(letters.find(char(ch | 0x20))) + 1;
      int s = mailbox(file++, rank);
      b.cell[s] = int8_t(ch >= 'a' ? -kind : kind);
      if (kind == KING) b.king[ch >= 'a' ? 1 : 0] = s;
    }
  }
  b.side = side == "b" ? BLACK : WHITE;
  for (char ch : castling) {
    if (ch == 'K') b.castle[0] = true;
    if (ch == 'Q') b.castle[1] = true;
    if (ch == 'k') b.castle[2] = true;
    if (ch == 'q') b.castle[3] = true;
  }
  b.ep = ep == "-" ? 0 : parse_square(ep);
  if (!(in >> b.halfmove >> b.fullmove)) b.halfmove = 0, b.fullmove = 1;
  return b;
}

std::string to_fen(const Board& b) {
  static const std::string letters = " PNBRQK";
  std::string s;
  for (int rank = 7; rank >= 0; --rank) {
    int gap = 0;
    for (int file = 0; file < 8; ++file) {
      int cell = b.cell[mailbox(file, rank)];
      if (cell == EMPTY) {
        ++gap;
        continue;
      }
      if (gap) s += char('0' + gap), gap = 0;
      s += cell > 0 ? letters[cell] : char(letters[-cell] | 0x20);
    }
    if (gap) s += char('0' + gap);
    if (rank) s += '/';
  }
  s += b.side == WHITE ? " w " : " b ";
  std::string rights;
  for (int i = 0; i < 4; ++i)
    if (b.castle[i]) rights += "KQkq"[i];
  s += rights.empty() ? "-" : rights;
  s += ' ';
  s += b.ep ? square_name(b.ep) : "-";
  return s + ' ' + std::to_string(b.halfmove) + ' ' + std::to_string(b.fullmove);
}

std::string square_name(int s) { return {char('a' + file_of(s)), char('1' + rank_of(s))}; }

std::string to_uci(const Move& m) {
  std::string s = square_name(m.from) + square_name(m.to);
  if (m.promo != EMPTY) s += " pnbrqk"[m.promo];
  return s;
}

Board play(const Board& b, const Move& m) {
  Board c = b;
  const int us = b.side;
  const int piece = b.cell[m.from];
  c.cell[m.from] = EMPTY;
  c.cell[m.to] = int8_t(m.promo != EMPTY ? m.promo * us : piece);
  if (m.flags & EN_PASSANT) c.cell[m.to - 10 * us] = EMPTY;
  if (m.flags & CASTLE) {
    bool king_side = m.to > m.from;
    int rook_from = king_side ? m.from + 3 : m.from - 4, rook_to = king_side ? m.from + 1 : m.from - 1;
    c.cell[rook_to] = c.cell[rook_from];
    c.cell[rook_from] = EMPTY;
  }
  if (piece == KING * us) c.king[color_index(us)] = m.to;
  // A right dies when its king or rook leaves home, or when the rook is captured there.
  for (int s : {int(m.from), int(m.to)}) {
    if (s == E1 || s == H1) c.castle[0] = false;
    if (s == E1 || s == A1) c.castle[1] = false;
    if (s == E8 || s == H8) c.castle[2] = false;
    if (s == E8 || s == A8) c.castle[3] = false;
  }
  c.ep = (m.flags & DOUBLE_PUSH) ? m.from + 10 * us : 0;
  c.halfmove = (piece == PAWN * us || (m.flags & CAPTURE)) ? 0 : b.halfmove + 1;
  c.fullmove = b.fullmove + (us == BLACK);
  c.side = -us;
  return c;
}

bool is_legal(const Board& b, const Move& m) { return !mover_in_check(play(b, m)); }

std::vector<Move> legal_moves(const Board& b) {
  MoveBuffer moves;
  generate(b, moves);
  std::vector<Move> legal;
  for (int i = 0; i < moves.size; ++i)
    if (is_legal(b, moves.moves[i])) legal.push_back(moves.moves[i]);
  return legal;
}

std::vector<std::string> legal_moves_uci(const Board& b) {
  std::vector<std::string> out;
  for (const Move& m : legal_moves(b)) out.push_back(to_uci(m));
  return out;
}

bool has_legal_move(const Board& b) {
  MoveBuffer moves;
  generate(b, moves);
  for (int i = 0; i < moves.size; ++i)
    if (is_legal(b, moves.moves[i])) return true;
  return false;
}

Board play_uci(const Board& b, const std::string& uci) {
  for (const Move& m : legal_moves(b))
    if (to_uci(m) == uci) return play(b, m);
  throw std::invalid_argument("not a legal move: " + uci + " in " + to_fen(b));
}

std::vector<int> attackers(const Board& b, int s, int by) {
  int found[16];
  int n = find_attackers(b, s, by, found, 16);
  return {found, found + n};
}

bool attacked(const Board& b, int s, int by) { return find_attackers(b, s, by, nullptr, 1) > 0; }

bool in_check(const Board& b) { return attacked(b, b.king_of(b.side), -b.side); }

uint64_t perft(const Board& b, int depth) {
  if (depth <= 0) return 1;
  MoveBuffer moves;
  generate(b, moves);
  uint64_t n = 0;
  for (int i = 0; i < moves.size; ++i) {
    Board child = play(b, moves.moves[i]);
    if (mover_in_check(child)) continue;
    n += depth == 1 ? 1 : perft(child, depth - 1);
  }
  return n;
}

Counters& Counters::operator+=(const Counters& o) {
  nodes += o.nodes, captures += o.captures, en_passant += o.en_passant, castles += o.castles;
  promotions += o.promotions, checks += o.checks, discovered += o.discovered;
  double_checks += o.double_checks, checkmates += o.checkmates;
  return *this;
}

Counters detailed_perft(const Board& b, int depth) {
  Counters c;
  if (depth <= 0)
    c.nodes = 1;
  else
    detailed_rec(b, depth, c);
  return c;
}

Counters classify(const Board& b, const Move& m) {
  Counters c;
  classify_into(m, play(b, m), c);
  return c;
}

std::string to_string(const Counters& c) {
  std::ostringstream out;
  out << "nodes " << c.nodes << " captures " << c.captures << " en_passant " << c.en_passant << " castles " << c.castles
      << " promotions " << c.promotions << " checks " << c.checks << " discovered " << c.discovered << " double_checks "
      << c.double_checks << " checkmates " << c.checkmates;
  return out.str();
}

}  // namespace reference
