// Reproducible randomness: every random choice of a job derives from (job seed, item
// index, stream), never from the clock, the rank or the thread, so that a batch is the
// same on any number of ranks and threads.
#pragma once

#include <cstdint>

namespace chess {

// SplitMix64 (Steele, Lea, Flood 2014): a tiny generator whose outputs pass BigCrush and
// whose state can be seeded from any 64-bit value, including consecutive indices.
class Random {
 public:
  explicit constexpr Random(uint64_t seed) : state_(seed) {}
  constexpr uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) for n > 0, without modulo bias worth the name (Lemire's multiply).
  constexpr uint64_t below(uint64_t n) { return uint64_t((unsigned __int128)next() * n >> 64); }
  // Uniform in [0, 1).
  constexpr double uniform() { return double(next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t state_;
};

// The generator of one item (a game, a unit) of one job: independent streams for
// independent purposes (openings, move sampling) of the same item.
constexpr Random stream(uint64_t job_seed, uint64_t item, uint64_t purpose) {
  Random mix(job_seed ^ 0x6A09E667F3BCC909ULL);
  uint64_t a = mix.next() ^ item;
  Random mix2(a);
  uint64_t b = mix2.next() ^ (purpose * 0xD1B54A32D192ED03ULL);
  return Random(Random(b).next());
}

}  // namespace chess
