#include "bitboard.h"

#include <vector>

namespace chess {

SliderEntry ROOK_TABLE[64];
SliderEntry BISHOP_TABLE[64];
Bitboard BETWEEN[64][64];
Bitboard LINE[64][64];

namespace {

Bitboard rook_storage[102400];
Bitboard bishop_storage[5248];

constexpr int ROOK_DIRS[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int BISHOP_DIRS[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

// Attacks found by walking each ray until a blocker: slow, obviously right, and the
// reference every lookup table entry is filled from.
Bitboard walk_attacks(const int (&dirs)[4][2], int s, Bitboard occupied) {
  Bitboard attacks = 0;
  for (const auto& d : dirs) {
    int f = s % 8, r = s / 8;
    while (true) {
      f += d[0], r += d[1];
      if (f < 0 || f > 7 || r < 0 || r > 7) break;
      Bitboard b = 1ULL << (r * 8 + f);
      attacks |= b;
      if (occupied & b) break;
    }
  }
  return attacks;
}

// Board edges do not affect a slider's attacks unless the slider stands on them.
Bitboard relevant_mask(const int (&dirs)[4][2], int s) {
  Bitboard edges = ((RANK_1_BB | RANK_8_BB) & ~rank_bb(Rank(s / 8))) |
                   ((FILE_A_BB | FILE_H_BB) & ~file_bb(File(s % 8)));
  return walk_attacks(dirs, s, 0) & ~edges;
}

// xorshift64*: a fixed sequence, so the magics (and thus the tables) are the same on
// every run and every machine.
struct Prng {
  uint64_t s;
  uint64_t next() {
    s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
    return s * 2685821657736338717ULL;
  }
  uint64_t sparse() { return next() & next() & next(); }
};

void init_sliders(SliderEntry* table, Bitboard* storage, const int (&dirs)[4][2]) {
  Prng prng{0x9E3779B97F4A7C15ULL};
  std::vector<Bitboard> occupancy(4096), reference(4096);
  std::vector<int> epoch(4096, 0);
  int attempt = 0;
  Bitboard* next_free = storage;

  for (int s = 0; s < 64; ++s) {
    SliderEntry& e = table[s];
    e.mask = relevant_mask(dirs, s);
    int bits = popcount(e.mask);
    e.shift = unsigned(64 - bits);
    e.attacks = next_free;
    next_free += size_t(1) << bits;

    // Carry-Rippler enumeration of every subset of the mask.
    int size = 0;
    Bitboard b = 0;
    do {
      occupancy[size] = b;
      reference[size++] = walk_attacks(dirs, s, b);
      b = (b - e.mask) & e.mask;
    } while (b);

    if (CHESSHPC_USE_PEXT) {
      for (int i = 0; i < size; ++i) e.attacks[e.index(occupancy[i])] = reference[i];
      continue;
    }
    // Search for a magic that maps every subset to a slot holding its attack set;
    // constructive collisions (same attacks) are allowed.
    for (int i = 0; i < size;) {
      do e.magic = prng.sparse();
      while (popcount((e.mask * e.magic) >> 56) < 6);
      ++attempt;
      for (i = 0; i < size; ++i) {
        unsigned idx = e.index(occupancy[i]);
        if (epoch[idx] < attempt) {
          epoch[idx] = attempt;
          e.attacks[idx] = reference[i];
        } else if (e.attacks[idx] != reference[i])
          break;
      }
    }
  }
}

void init_lines() {
  for (int a = 0; a < 64; ++a)
    for (int b = 0; b < 64; ++b) {
      BETWEEN[a][b] = LINE[a][b] = 0;
      if (a == b) continue;
      Bitboard sa = 1ULL << a, sb = 1ULL << b;
      for (const auto* dirs : {&ROOK_DIRS, &BISHOP_DIRS}) {
        if (!(walk_attacks(*dirs, a, 0) & sb)) continue;
        LINE[a][b] = (walk_attacks(*dirs, a, 0) & walk_attacks(*dirs, b, 0)) | sa | sb;
        BETWEEN[a][b] = walk_attacks(*dirs, a, sb) & walk_attacks(*dirs, b, sa);
      }
    }
}

struct Initializer {
  Initializer() { bitboards::init(); }
} initializer;

}  // namespace

void bitboards::init() {
  static bool done = false;
  if (done) return;
  done = true;
  init_sliders(ROOK_TABLE, rook_storage, ROOK_DIRS);
  init_sliders(BISHOP_TABLE, bishop_storage, BISHOP_DIRS);
  init_lines();
}

std::string bitboards::pretty(Bitboard b) {
  std::string s;
  for (int r = 7; r >= 0; --r) {
    for (int f = 0; f < 8; ++f) s += (b >> (r * 8 + f)) & 1 ? 'X' : '.';
    s += '\n';
  }
  return s;
}

}  // namespace chess
