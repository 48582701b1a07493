// The perft kernel (core/perft_kernel.h) and the slider tables (core/bitboard.cpp)
// compiled once more for x86-64-v3 (BMI2's PEXT slider lookups, POPCNT, TZCNT), for a
// portable build to run on a CPU that has them: core/perft.cpp calls count_no_table and
// count_with_table when __builtin_cpu_supports says so. In a GCC build for x86-64
// (core/CMakeLists.txt); a native build compiles it for the host, with the same profile,
// and takes it alike.
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

// In a native build (CHESSHPC_PERFT_COPY_NATIVE) this copy keeps the build host's
// instruction set: it is there for its profile (below), and a target pragma narrower than
// -march=native would leave the intrinsics, compiled for the host, uninlinable here.
#if !CHESSHPC_PERFT_COPY_NATIVE
#pragma GCC target("arch=x86-64-v3")
#define CHESSHPC_USE_PEXT 1
#endif
#define CHESSHPC_KERNEL_NO_CLONES

#define chess chess_x86_64_v3
// The one exception: the Zobrist keys a hashed count updates must be the process's own
// (chess::zobrist::keys, which Position::from_fen and zobrist::init use), or a key would
// depend on the path to its position. Declared first with that object's symbol, this
// namespace's zobrist::keys is that object (the same layout: one header).
#include "core/types.h"
namespace chess::zobrist {
struct Keys;
extern Keys keys __asm__("_ZN5chess7zobrist4keysE");
}  // namespace chess::zobrist
// And the one throwing function the kernel calls: the process's own.
namespace chess {
[[noreturn]] void move_list_overflow() __asm__("_ZN5chess18move_list_overflowEv");
}  // namespace chess
#define CHESSHPC_BITBOARD_INIT_ON_USE
#include "core/bitboard.cpp"
#include "core/perft_kernel.h"
#undef chess

namespace chess_x86_64_v3::perft {

// This copy's slider tables, set up on first use by either entry.
[[gnu::noinline]] static void init_tables() {
  static const bool tables = (bitboards::init(), true);
  (void)tables;
}

// pos is a chess::Position, whose layout this namespace's Position shares (one header).
uint64_t count_no_table(const void* pos, int depth) {
  init_tables();
  Position p;
  std::memcpy(static_cast<void*>(&p), pos, sizeof p);
  return kernel::count_as<false>(p, depth, nullptr);
}

// table is a chess::PerftTableView, whose layout this namespace's shares (its probe and
// store are inline, so compiled here too). Count is count_as<true> or count_once_as.
template <class Count>
static uint64_t with_table(const void* pos, int depth, const void* table, Count count) {
  init_tables();
  Position p;
  std::memcpy(static_cast<void*>(&p), pos, sizeof p);
  PerftTableView view;
  std::memcpy(static_cast<void*>(&view), table, sizeof view);
  return count(p, depth, &view);
}

uint64_t count_with_table(const void* pos, int depth, const void* table) {
  return with_table(pos, depth, table, kernel::count_as<true>);
}

// pos neither probed nor stored (chess::perft::count_once).
uint64_t count_once(const void* pos, int depth, const void* table) {
  return with_table(pos, depth, table, kernel::count_once_as);
}

}  // namespace chess_x86_64_v3::perft
