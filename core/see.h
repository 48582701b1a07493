// Static exchange evaluation: the material a capture sequence on one square wins or
// loses when both sides recapture with their least valuable attacker and may stop at
// any time. Pins are ignored, x-rays through the capturing sliders are not.
#pragma once

#include "core/position.h"

namespace chess {

// Piece values for exchanges only (the evaluation has its own, tuned ones).
constexpr int SEE_VALUE[PIECE_TYPE_NB + 2] = {100, 320, 330, 500, 950, 20000, 0, 0};

// The exchange value of the legal move m for the side making it, in centipawns. A
// quiet move scores what it loses when the piece is taken (0 or less); promotions
// count the piece gained.
int see(const Position& pos, Move m);

// Whether see(pos, m) >= threshold.
bool see_ge(const Position& pos, Move m, int threshold);

}  // namespace chess
