// Zobrist keys. The key set is drawn from a seed, so a second, independent set can
// re-run a hashed computation and expose any collision of the first.
#pragma once

#include "core/types.h"

namespace chess::zobrist {

struct Keys {
  Key psq[COLOR_NB][PIECE_TYPE_NB][SQUARE_NB];
  Key castling[CASTLING_RIGHT_NB];
  Key en_passant[8];  // by file
  Key side;           // toggled when black is to move
};

extern Keys keys;

constexpr uint64_t DEFAULT_SEED = 0x1F2E3D4C5B6A7988ULL;
constexpr uint64_t VERIFY_SEED = 0x6C8E9CF570932BD5ULL;

// Replaces the process-wide key set. Call before any Position exists: keys stored in
// positions are not recomputed.
void init(uint64_t seed = DEFAULT_SEED);
uint64_t seed();

}  // namespace chess::zobrist
