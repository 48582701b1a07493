// The perft kernel (core/perft_kernel.h) and the slider tables (core/bitboard.cpp)
// compiled once more for x86-64-v3 (BMI2's PEXT slider lookups, POPCNT, TZCNT), for a
// portable build to run on a CPU that has them: core/perft.cpp calls count_no_table
// when __builtin_cpu_supports says so. Only in a portable GCC build for x86-64
// (core/CMakeLists.txt); a native build's own kernel is already this.
//
// Every name of the project's headers moves to namespace chess_x86_64_v3, so that no
// inline function compiled here for x86-64-v3 (a slider lookup with PEXT, say) can stand
// in for the portable build's own under the one-definition rule. The standard headers
// come first, before the target is switched: their templates stay portable code too.
#include <immintrin.h>
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#pragma GCC target("arch=x86-64-v3")
#define CHESSHPC_USE_PEXT 1
#define CHESSHPC_KERNEL_NO_CLONES

#define chess chess_x86_64_v3
#define CHESSHPC_BITBOARD_INIT_ON_USE
#include "core/bitboard.cpp"
#include "core/perft_kernel.h"
#undef chess

namespace chess_x86_64_v3::perft {

// pos is a chess::Position, whose layout this namespace's Position shares (one header).
uint64_t count_no_table(const void* pos, int depth) {
  static const bool tables = (bitboards::init(), true);
  (void)tables;
  Position p;
  std::memcpy(static_cast<void*>(&p), pos, sizeof p);
  return kernel::count_as<false>(p, depth, nullptr);
}

}  // namespace chess_x86_64_v3::perft
