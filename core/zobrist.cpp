#include "core/zobrist.h"

namespace chess::zobrist {

Keys keys;

namespace {

uint64_t current_seed = 0;

// splitmix64: every output of a 64-bit counter is distinct, so no two keys coincide.
uint64_t splitmix(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

struct Initializer {
  Initializer() { init(DEFAULT_SEED); }
} initializer;

}  // namespace

void init(uint64_t seed) {
  current_seed = seed;
  uint64_t state = seed;
  for (auto& by_type : keys.psq)
    for (auto& by_square : by_type)
      for (Key& k : by_square) k = splitmix(state);
  // Castling keys combine one key per right, so removing a right is one XOR pair.
  Key right[4];
  for (Key& k : right) k = splitmix(state);
  for (int cr = 0; cr < CASTLING_RIGHT_NB; ++cr) {
    keys.castling[cr] = 0;
    for (int i = 0; i < 4; ++i)
      if (cr & (1 << i)) keys.castling[cr] ^= right[i];
  }
  for (Key& k : keys.en_passant) k = splitmix(state);
  keys.side = splitmix(state);
}

uint64_t seed() { return current_seed; }

}  // namespace chess::zobrist
