// Static evaluation: tapered middle-game/end-game terms (material, piece-square tables,
// mobility, pawn structure, king safety), from the side to move's point of view.
//
// Every weight lives in one EvalParams value, so a tuner can vary a copy and evaluate
// with it; the engine uses DEFAULT_EVAL_PARAMS (eval_params.cpp, written by the tuner).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "core/position.h"

namespace chess {

// A weight with its middle-game and end-game values; the evaluation blends the two by
// the material left on the board (the game phase).
struct Score {
  int mg = 0, eg = 0;
};

struct EvalParams {
  Score material[5];  // pawn .. queen
  Score psqt[6][32];  // by piece type; squares from White's side, files folded (a=h, b=g, ...)
  Score mobility[4];  // per reachable square not held by own pieces or enemy pawns: knight .. queen
  Score passed[8];    // passed pawn by relative rank
  Score isolated;     // per pawn with no own pawn on an adjacent file
  Score doubled;      // per pawn with an own pawn ahead of it on its file
  Score bishop_pair;
  Score rook_open;       // rook on a file without pawns
  Score rook_semi_open;  // rook on a file without own pawns
  Score king_shield;     // per own pawn on the three files around the king, one or two ranks ahead
  Score king_attack[4];  // attack units per square of the king zone hit by a knight .. queen
  Score tempo;           // for the side to move
};

// Visits every Score of p with a name, in a fixed order: the tuner's parameter vector
// and the layout of the values it writes out.
void for_each_param(EvalParams& p, const std::function<void(const std::string& name, Score& s)>& f);

extern const EvalParams DEFAULT_EVAL_PARAMS;

// The game phase: 24 with all pieces on the board, 0 with pawns and kings only.
constexpr int PHASE_MAX = 24;

// Material plus piece-square weight of each piece on each square, unfolded from a set
// of weights: what the evaluation adds per piece.
struct PieceSquareTable {
  Score value[COLOR_NB][PIECE_TYPE_NB][SQUARE_NB];
};
PieceSquareTable piece_square_table(const EvalParams& p);

// Centipawns for the side to move. Colour-symmetric: a position and its mirror (colours
// and ranks swapped, other side to move) evaluate the same. With weights other than
// DEFAULT_EVAL_PARAMS, this builds their table on every call: a tuner evaluating many
// positions with one set of weights passes the table itself.
int evaluate(const Position& pos, const EvalParams& p = DEFAULT_EVAL_PARAMS);
int evaluate(const Position& pos, const EvalParams& p, const PieceSquareTable& table);

// The pawn terms of recent pawn structures with DEFAULT_EVAL_PARAMS: a search meets few
// structures many times, and those terms are a fifth of an evaluation. Entries hold
// both pawn bitboards, so a hit is exact and evaluate(pos, cache) == evaluate(pos). A
// fresh entry (all zero) is already right for the board without pawns, whose terms are 0.
class PawnCache {
 public:
  struct Entry {
    Bitboard white, black;
    int16_t mg, eg;
  };
  PawnCache() : entries_(new Entry[SIZE]()) {}
  Entry& entry(Bitboard white, Bitboard black) {
    return entries_[((white * 0x9E3779B97F4A7C15ULL) ^ (black * 0xC2B2AE3D27D4EB4FULL)) >> (64 - BITS)];
  }

 private:
  static constexpr int BITS = 11;  // 2048 entries of 24 bytes: stays in the L2 cache
  static constexpr size_t SIZE = size_t(1) << BITS;
  std::unique_ptr<Entry[]> entries_;
};

int evaluate(const Position& pos, PawnCache& cache);

// The FEN of pos with colours and ranks swapped, for symmetry checks.
std::string mirrored_fen(const Position& pos);

}  // namespace chess
