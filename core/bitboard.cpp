#include "core/bitboard.h"

#include <vector>

namespace chess {

SliderEntry ROOK_TABLE[64];
SliderEntry BISHOP_TABLE[64];
Bitboard BETWEEN[64][64];
Bitboard LINE[64][64];

namespace {

Bitboard rook_storage[102400];
Bitboard bishop_storage[5248];

// Magics found once by the search in init_sliders() with its fixed PRNG and kept here, so start-up
// only verifies them (a few milliseconds) instead of searching (about 0.3 s).
// clang-format off
constexpr Bitboard ROOK_MAGICS[64] = {
    0x1080004008801020ULL, 0x0840092002c03000ULL, 0x1900200010400900ULL, 0x0880100008000480ULL,
    0x4200100420080200ULL, 0x8100020100080400ULL, 0x0200040110886200ULL, 0x0200008040220411ULL,
    0x0404800084400220ULL, 0x0000401000402000ULL, 0x0086001081220440ULL, 0x0408800800100280ULL,
    0x000a001201040820ULL, 0x8848800200840080ULL, 0x4001000100040200ULL, 0x0442000102105084ULL,
    0x9080010020804100ULL, 0x0040404000201009ULL, 0x0000808010002009ULL, 0x2200090021d00100ULL,
    0x0008008008040080ULL, 0x0004004002010040ULL, 0x0011040008015042ULL, 0x00000a0001768104ULL,
    0x0000800080204009ULL, 0x2010004140002001ULL, 0x9800200280100080ULL, 0x1000100080080080ULL,
    0x0442000a00049020ULL, 0x2100040080020080ULL, 0x0800120400900148ULL, 0x0010040a00128541ULL,
    0x2800804000800030ULL, 0x1010002000400041ULL, 0x4000200011004100ULL, 0x0610008410800800ULL,
    0x0400802402800800ULL, 0xc100020080800400ULL, 0x0002000802000401ULL, 0x0182085882000401ULL,
    0x0220204000808000ULL, 0x2860100040024022ULL, 0x0001002004110040ULL, 0x99101042000a0020ULL,
    0x0004080004008080ULL, 0x0010040002008080ULL, 0x2012004881020004ULL, 0x8300842444820011ULL,
    0x0088403882010200ULL, 0x0820400080210100ULL, 0x0110910040a00300ULL, 0x0801100280080480ULL,
    0x0242009008200600ULL, 0x1002000489500200ULL, 0x0040800200010080ULL, 0x0091800041000080ULL,
    0x0000209300488001ULL, 0x04c1002414824001ULL, 0x020020000b001041ULL, 0x7000100004200901ULL,
    0x8002002004100802ULL, 0x30010002084c0007ULL, 0x0888221800813004ULL, 0x4000002840840112ULL,
};
constexpr Bitboard BISHOP_MAGICS[64] = {
    0x10102002004a1420ULL, 0x8020040400584008ULL, 0x10510800811201c8ULL, 0x5204042080000088ULL,
    0x2204106880000002ULL, 0x1401042004000000ULL, 0x0400880410042004ULL, 0x0028208200a02020ULL,
    0x1500241990010e00ULL, 0x8001200182020a40ULL, 0x40004101030b0000ULL, 0x8002041042000100ULL,
    0x4010011041020038ULL, 0x0000010421044000ULL, 0x1500210808020a00ULL, 0x8000088400880520ULL,
    0x0405004010040100ULL, 0x1005823210040108ULL, 0x2708008102040011ULL, 0x4048200404009100ULL,
    0x0018104101400024ULL, 0x0003000601190101ULL, 0x8004803108491000ULL, 0x8014241200820800ULL,
    0x0006e080100c3040ULL, 0x0501044a11041800ULL, 0x9020300008004045ULL, 0x0894080000220040ULL,
    0x1001010083104000ULL, 0x5004030040900080ULL, 0x000400422c012400ULL, 0x0002128698404812ULL,
    0x1010108404900440ULL, 0x0928021182084100ULL, 0x2006080409020024ULL, 0x1010202020180080ULL,
    0xa010008200202200ULL, 0x2098015100019004ULL, 0x0002041440810811ULL, 0x802a02020000b098ULL,
    0x0009015090004060ULL, 0x4000821082081001ULL, 0x0100210040420800ULL, 0x0800004010488a00ULL,
    0x2000081104004040ULL, 0x4c8e029015000082ULL, 0x0420340322224842ULL, 0x1298260043400210ULL,
    0x0000822802400008ULL, 0x00008a0101600000ULL, 0x3040003412080021ULL, 0x3040290220884800ULL,
    0x4a1500401041004aULL, 0x8010200282020781ULL, 0x0020203142209091ULL, 0x0070300600902110ULL,
    0x0040808800b62048ULL, 0x0000810400c44420ULL, 0x00080400440c0441ULL, 0x8340080020840411ULL,
    0x0000000104208200ULL, 0x0000800810d00080ULL, 0x0400530411080200ULL, 0x4040702400932244ULL,
};
// clang-format on

constexpr const auto& ROOK_DIRS = detail::ROOK_DIRECTIONS;
constexpr const auto& BISHOP_DIRS = detail::BISHOP_DIRECTIONS;

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
  Bitboard edges =
      ((RANK_1_BB | RANK_8_BB) & ~rank_bb(Rank(s / 8))) | ((FILE_A_BB | FILE_H_BB) & ~file_bb(File(s % 8)));
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

void init_sliders(SliderEntry* table, Bitboard* storage, const int (&dirs)[4][2], const Bitboard* known_magics) {
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
    // Fill the slots through a magic that maps every subset to a slot holding its
    // attack set (constructive collisions allowed). The stored magic comes first; the
    // search takes over only if it fails, so a bad table entry cannot go unnoticed.
    e.magic = known_magics[s];
    while (true) {
      ++attempt;
      int i = 0;
      for (; i < size; ++i) {
        unsigned idx = e.index(occupancy[i]);
        if (epoch[idx] < attempt) {
          epoch[idx] = attempt;
          e.attacks[idx] = reference[i];
        } else if (e.attacks[idx] != reference[i])
          break;
      }
      if (i == size) break;
      do e.magic = prng.sparse();
      while (popcount((e.mask * e.magic) >> 56) < 6);
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

// A copy of this file compiled for another instruction set (core/perft_x86_64_v3.cpp)
// fills its own tables when first used, on a CPU that has that set.
#ifndef CHESSHPC_BITBOARD_INIT_ON_USE
struct Initializer {
  Initializer() { bitboards::init(); }
} initializer;
#endif

}  // namespace

void bitboards::init() {
  static bool done = false;
  if (done) return;
  done = true;
  init_sliders(ROOK_TABLE, rook_storage, ROOK_DIRS, ROOK_MAGICS);
  init_sliders(BISHOP_TABLE, bishop_storage, BISHOP_DIRS, BISHOP_MAGICS);
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
