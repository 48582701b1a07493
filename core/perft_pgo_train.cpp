// The training run of the x86-64-v3 perft kernel's profile (core/CMakeLists.txt): counts
// the published positions at small depths, as standard chess and as Chess960, without a
// table and with one, through that kernel compiled with -fprofile-generate, and checks
// every count. Every path of the kernel runs here: the code the profile finds never run
// is compiled for size. Exits without writing a profile on a CPU without x86-64-v3, where
// the kernel cannot run.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "core/perft_table.h"
#include "core/position.h"
#include "core/published.h"

// core/perft_x86_64_v3.cpp: pos is a chess::Position.
namespace chess_x86_64_v3::perft {
uint64_t count_no_table(const void* pos, int depth);
uint64_t count_with_table(const void* pos, int depth, const void* table);
}  // namespace chess_x86_64_v3::perft

int main() {
  using namespace chess;
  if (!__builtin_cpu_supports("x86-64-v3")) {
    std::puts("perft_pgo_train: no x86-64-v3 here, no profile");
    std::_Exit(0);  // no exit handlers: the profile would say the kernel never ran
  }
  // About a fifth of a second of counting uninstrumented without a table, spread over
  // the positions as the depths spread it, and the same again with one. Chess960
  // (castling by the general rule: other instantiations of the kernel) as much as
  // standard chess: code the profile finds rarely run is optimised less, and with Chess960
  // trained at lower depths a Chess960 count cost 15 % more a node than standard chess's.
  constexpr int DEPTH[] = {5, 4, 6, 5, 4, 4};
  int i = 0;
  for (const PublishedPosition& p : published_positions()) {
    const int d = DEPTH[i++];
    for (bool chess960 : {false, true}) {
      const Position pos = Position::from_fen(p.fen, chess960);
      for (bool hashed : {false, true}) {
        PerftTable table(size_t(16) << 20);
        const uint64_t n = hashed ? chess_x86_64_v3::perft::count_with_table(&pos, d, &table.view())
                                  : chess_x86_64_v3::perft::count_no_table(&pos, d);
        if (n != p.counts[d - 1]) {
          std::fprintf(stderr, "perft_pgo_train: %s perft(%d) counted %llu\n", std::string(p.name).c_str(), d,
                       static_cast<unsigned long long>(n));
          return 1;
        }
      }
    }
  }
  return 0;
}
