#include "core/eval.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

#include "core/uci.h"

namespace chess {

namespace {

// Squares ahead of a square on its own file, from the point of view of colour c.
constexpr std::array<std::array<Bitboard, 64>, 2> FORWARD_FILE = [] {
  std::array<std::array<Bitboard, 64>, 2> t{};
  for (int s = 0; s < 64; ++s) {
    for (int r = s / 8 + 1; r < 8; ++r) t[WHITE][s] |= 1ULL << (r * 8 + s % 8);
    for (int r = s / 8 - 1; r >= 0; --r) t[BLACK][s] |= 1ULL << (r * 8 + s % 8);
  }
  return t;
}();

constexpr std::array<Bitboard, 8> ADJACENT_FILES = [] {
  std::array<Bitboard, 8> t{};
  for (int f = 0; f < 8; ++f) t[f] = (f > 0 ? FILE_A_BB << (f - 1) : 0) | (f < 7 ? FILE_A_BB << (f + 1) : 0);
  return t;
}();

// Squares where an enemy pawn could stop or capture a pawn on its way to promotion.
constexpr std::array<std::array<Bitboard, 64>, 2> PASSED_SPAN = [] {
  std::array<std::array<Bitboard, 64>, 2> t{};
  for (int c = 0; c < 2; ++c)
    for (int s = 0; s < 64; ++s) {
      Bitboard front = FORWARD_FILE[c][s];
      t[c][s] = front | ((front << 1) & ~FILE_A_BB) | ((front >> 1) & ~FILE_H_BB);
    }
  return t;
}();

// The pawn shield: the king's file and its neighbours, one and two ranks ahead.
constexpr std::array<std::array<Bitboard, 64>, 2> SHIELD = [] {
  std::array<std::array<Bitboard, 64>, 2> t{};
  for (int c = 0; c < 2; ++c)
    for (int s = 0; s < 64; ++s) {
      int f = s % 8, r = s / 8, dir = c == WHITE ? 1 : -1;
      for (int df = -1; df <= 1; ++df)
        for (int dr = 1; dr <= 2; ++dr) {
          int ff = f + df, rr = r + dir * dr;
          if (ff >= 0 && ff < 8 && rr >= 0 && rr < 8) t[c][s] |= 1ULL << (rr * 8 + ff);
        }
    }
  return t;
}();

// A build for any x86-64 still counts mobility with the host's POPCNT instruction: the
// evaluation is compiled twice and the loader picks the one the CPU can run (GCC
// function multiversioning); without it every popcount is a library call.
#if defined(__POPCNT__)
#define EVAL_CLONES
#else
#define EVAL_CLONES [[gnu::target_clones("popcnt", "default")]]
#endif

constexpr int PHASE_WEIGHT[PIECE_TYPE_NB] = {0, 1, 1, 2, 4, 0};

// King danger grows faster than the attack units when several pieces join in: one
// attacker alone is seldom dangerous (percent of the summed units that counts).
constexpr int ATTACKER_SCALE[8] = {0, 0, 50, 75, 90, 100, 100, 100};

constexpr int folded(Square s) {
  int f = file_of(s);
  return rank_of(s) * 4 + (f < 4 ? f : 7 - f);
}

struct Acc {
  int mg = 0, eg = 0;
  void add(const Score& s) { mg += s.mg, eg += s.eg; }
  void add(const Score& s, int n) { mg += s.mg * n, eg += s.eg * n; }
};

// Everything that depends on the pawns alone: their material and squares, passed,
// isolated and doubled pawns.
template <Color Us>
Acc pawn_side(const Position& pos, const EvalParams& p, const PieceSquareTable& table) {
  const auto& psq = table.value[Us];
  const Bitboard our_pawns = pos.pieces(Us, PAWN), their_pawns = pos.pieces(~Us, PAWN);
  Acc a;
  for (Bitboard b = our_pawns; b;) {
    Square s = pop_lsb(b);
    Square rel = Us == WHITE ? s : flip_rank(s);
    a.add(psq[PAWN][s]);
    if (!(PASSED_SPAN[Us][s] & their_pawns)) a.add(p.passed[rank_of(rel)]);
    if (!(ADJACENT_FILES[file_of(s)] & our_pawns)) a.add(p.isolated);
    if (FORWARD_FILE[Us][s] & our_pawns) a.add(p.doubled);
  }
  return a;
}

Score pawn_score(const Position& pos, const EvalParams& p, const PieceSquareTable& table) {
  Acc w = pawn_side<WHITE>(pos, p, table), b = pawn_side<BLACK>(pos, p, table);
  return {w.mg - b.mg, w.eg - b.eg};
}

template <Color Us>
Acc evaluate_side(const Position& pos, const EvalParams& p, const PieceSquareTable& table, int& phase) {
  const auto& psq = table.value[Us];
  constexpr Color Them = ~Us;
  Acc a;
  const Bitboard occupied = pos.pieces(), own = pos.pieces(Us);
  const Bitboard our_pawns = pos.pieces(Us, PAWN), their_pawns = pos.pieces(Them, PAWN);
  const Bitboard mobility_area = ~own & ~pawn_attacks_bb<Them>(their_pawns);
  const Square their_king = pos.king_square(Them);
  const Bitboard king_zone = KING_ATTACKS[their_king] | square_bb(their_king);
  int attackers = 0;
  Acc attack;

  // One loop per piece type, each compiled for its type.
  auto pieces = [&]<PieceType Pt>() {
    for (Bitboard b = pos.pieces(Us, Pt); b;) {
      Square s = pop_lsb(b);
      a.add(psq[Pt][s]);
      phase += PHASE_WEIGHT[Pt];
      Bitboard att = Pt == KNIGHT   ? KNIGHT_ATTACKS[s]
                     : Pt == BISHOP ? bishop_attacks(s, occupied)
                     : Pt == ROOK   ? rook_attacks(s, occupied)
                                    : queen_attacks(s, occupied);
      a.add(p.mobility[Pt - KNIGHT], popcount(att & mobility_area));
      if (Bitboard hits = att & king_zone) {
        ++attackers;
        attack.add(p.king_attack[Pt - KNIGHT], popcount(hits));
      }
      if constexpr (Pt == ROOK) {
        Bitboard file = file_bb(file_of(s));
        if (!(file & (our_pawns | their_pawns)))
          a.add(p.rook_open);
        else if (!(file & our_pawns))
          a.add(p.rook_semi_open);
      }
    }
  };
  pieces.template operator()<KNIGHT>();
  pieces.template operator()<BISHOP>();
  pieces.template operator()<ROOK>();
  pieces.template operator()<QUEEN>();
  if (more_than_one(pos.pieces(Us, BISHOP))) a.add(p.bishop_pair);

  Square king = pos.king_square(Us);
  a.add(psq[KING][king]);
  a.add(p.king_shield, popcount(SHIELD[Us][king] & our_pawns));

  int scale = ATTACKER_SCALE[std::min(attackers, 7)];
  a.mg += attack.mg * scale / 100;
  a.eg += attack.eg * scale / 100;
  return a;
}

}  // namespace

void for_each_param(EvalParams& p, const std::function<void(const std::string& name, Score& s)>& f) {
  static const char* const PIECE_NAMES[] = {"pawn", "knight", "bishop", "rook", "queen", "king"};
  for (int pt = PAWN; pt <= QUEEN; ++pt) f(std::string("material_") + PIECE_NAMES[pt], p.material[pt]);
  for (int pt = PAWN; pt <= KING; ++pt)
    for (int i = 0; i < 32; ++i) f(std::string("psqt_") + PIECE_NAMES[pt] + "_" + std::to_string(i), p.psqt[pt][i]);
  for (int i = 0; i < 4; ++i) f(std::string("mobility_") + PIECE_NAMES[i + KNIGHT], p.mobility[i]);
  for (int r = 0; r < 8; ++r) f("passed_" + std::to_string(r), p.passed[r]);
  f("isolated", p.isolated);
  f("doubled", p.doubled);
  f("bishop_pair", p.bishop_pair);
  f("rook_open", p.rook_open);
  f("rook_semi_open", p.rook_semi_open);
  f("king_shield", p.king_shield);
  for (int i = 0; i < 4; ++i) f(std::string("king_attack_") + PIECE_NAMES[i + KNIGHT], p.king_attack[i]);
  f("tempo", p.tempo);
}

PieceSquareTable piece_square_table(const EvalParams& p) {
  PieceSquareTable t{};
  for (int c = WHITE; c <= BLACK; ++c)
    for (int pt = PAWN; pt <= KING; ++pt)
      for (int s = 0; s < 64; ++s) {
        // Black's squares are White's seen from the other side of the board.
        Square rel = c == WHITE ? Square(s) : flip_rank(Square(s));
        Score v = p.psqt[pt][folded(rel)];
        if (pt != KING) v.mg += p.material[pt].mg, v.eg += p.material[pt].eg;
        t.value[c][pt][s] = v;
      }
  return t;
}

namespace {
const PieceSquareTable DEFAULT_TABLE = piece_square_table(DEFAULT_EVAL_PARAMS);
}  // namespace

int evaluate(const Position& pos, const EvalParams& p) {
  if (&p == &DEFAULT_EVAL_PARAMS) return evaluate(pos, p, DEFAULT_TABLE);
  return evaluate(pos, p, piece_square_table(p));
}

namespace {

[[gnu::flatten]] EVAL_CLONES int evaluate_with(const Position& pos, const EvalParams& p, const PieceSquareTable& table,
                                               Score pawns) {
  int phase = 0;
  Acc w = evaluate_side<WHITE>(pos, p, table, phase);
  Acc b = evaluate_side<BLACK>(pos, p, table, phase);
  int mg = w.mg - b.mg + pawns.mg, eg = w.eg - b.eg + pawns.eg;
  phase = std::min(phase, PHASE_MAX);
  // Truncation toward zero keeps the blend colour-symmetric.
  int score = (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX;
  // A side without pawns needs more than a minor piece's edge to win: damp such scores.
  Color strong = score > 0 ? WHITE : BLACK;
  if (!pos.pieces(strong, PAWN)) {
    int diff = 0;
    for (int pt = KNIGHT; pt <= QUEEN; ++pt)
      diff += (popcount(pos.pieces(strong, PieceType(pt))) - popcount(pos.pieces(~strong, PieceType(pt)))) *
              PHASE_WEIGHT[pt];
    if (diff <= 1) score /= 8;
  }
  int tempo = (p.tempo.mg * phase + p.tempo.eg * (PHASE_MAX - phase)) / PHASE_MAX;
  return (pos.side_to_move() == WHITE ? score : -score) + tempo;
}

}  // namespace

int evaluate(const Position& pos, const EvalParams& p, const PieceSquareTable& table) {
  return evaluate_with(pos, p, table, pawn_score(pos, p, table));
}

int evaluate(const Position& pos, PawnCache& cache) {
  const Bitboard white = pos.pieces(WHITE, PAWN), black = pos.pieces(BLACK, PAWN);
  PawnCache::Entry& e = cache.entry(white, black);
  if (e.white != white || e.black != black) {
    Score s = pawn_score(pos, DEFAULT_EVAL_PARAMS, DEFAULT_TABLE);
    e = {white, black, int16_t(s.mg), int16_t(s.eg)};
  }
  return evaluate_with(pos, DEFAULT_EVAL_PARAMS, DEFAULT_TABLE, {e.mg, e.eg});
}

std::string mirrored_fen(const Position& pos) {
  constexpr std::string_view PIECE_CHARS = "PNBRQK";
  std::string fen;
  for (int r = 7; r >= 0; --r) {
    int empty = 0;
    for (int f = 0; f < 8; ++f) {
      Piece p = pos.piece_on(flip_rank(make_square(File(f), Rank(r))));
      if (p == NO_PIECE) {
        ++empty;
        continue;
      }
      if (empty) fen += char('0' + empty), empty = 0;
      // The mirror's White is the original's Black.
      char c = PIECE_CHARS[type_of(p)];
      fen += color_of(p) == WHITE ? char(std::tolower(c)) : c;
    }
    if (empty) fen += char('0' + empty);
    if (r) fen += '/';
  }
  fen += pos.side_to_move() == WHITE ? " b " : " w ";
  std::string castling;
  if (pos.castling() & BLACK_OO) castling += 'K';
  if (pos.castling() & BLACK_OOO) castling += 'Q';
  if (pos.castling() & WHITE_OO) castling += 'k';
  if (pos.castling() & WHITE_OOO) castling += 'q';
  fen += castling.empty() ? "-" : castling;
  fen += ' ';
  fen += pos.ep_square() == SQ_NONE ? "-" : square_to_string(flip_rank(pos.ep_square()));
  // Appended piecewise: GCC 12 warns falsely (-Wrestrict) on " " + std::to_string(...).
  fen += ' ';
  fen += std::to_string(pos.rule50());
  fen += ' ';
  fen += std::to_string(pos.fullmove());
  return fen;
}

}  // namespace chess
