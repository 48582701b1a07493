// Seeded positions from random play, biased towards the moves where move generators
// fail. Position i of seed S depends on (S, i) only (core/random.h's streams), so a run
// is repeated by its --random N --seed S on any thread count.
//
// The mix: position i is drawn for trap TRAPS[i % TRAP_COUNT], so N positions hold each
// trap N / TRAP_COUNT times. The play: from the start position (a random Chess960 start
// with chess960), each move drawn with weight 1, more for the moves generators get wrong
// (MOVE_WEIGHTS); the game stops at a position with its trap after at least 4 plies, with
// probability 1/2 at each such position, else plays on (at most 200 plies, then a new game
// from the same stream). After 30 games without it, a position with any trap is taken
// (its trap, the first of TRAPS that applies, is recorded), so a rare trap cannot stall a
// run. The position is given to the engine as the one
// two plies earlier and the last two moves, so that an en-passant right the FEN cannot
// show (the capturing pawn pinned) still reaches the engine through its own move.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/position.h"

namespace chesshpc {

// The traps, by the order they are looked for.
constexpr const char* TRAPS[] = {
    "double-check",           // the side to move is checked by two pieces
    "ep-captures-checker",    // in check by a pawn that en passant may capture
    "ep-forbidden",           // a double push beside an enemy pawn whose capture is illegal (pin, rank discovery)
    "en-passant",             // an en-passant capture is legal
    "castling-out-of-check",  // in check with a castling right held
    "castling-attacked",      // a right held while a square the king passes or lands on is attacked
    "promotion-capture",      // a promotion with capture is legal (four pieces each)
    "promotion",              // a promotion is legal
    "discovered-check",       // a move checks by discovery
    "check",                  // in check
};
constexpr int TRAP_COUNT = int(sizeof TRAPS / sizeof TRAPS[0]);

// What the biased play multiplies a move's weight 1 by (largest that applies).
struct MoveWeights {
  int en_passant = 30, promotion = 20, castling = 12, double_push_beside_pawn = 8, check = 6, advanced_pawn = 4,
      capture = 2;
};
constexpr MoveWeights MOVE_WEIGHTS{};

struct SeededPosition {
  chess::Position root;            // two plies before the position drawn
  std::vector<chess::Move> moves;  // the last two moves
  int trap = 0;                    // index into TRAPS
};

SeededPosition seeded_position(uint64_t seed, uint64_t index, bool chess960);

// The traps of pos reached by last from before: bit t for TRAPS[t].
unsigned traps_of(const chess::Position& before, chess::Move last, const chess::Position& pos);

}  // namespace chesshpc
