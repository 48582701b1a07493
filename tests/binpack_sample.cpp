// Seeded games as a .binpack, for readers other than the codec's, and the codec's size and
// speed (tests/binpack_games.h says what the games are).
//   binpack_sample write GAMES SEED OUT.binpack OUT.txt
//     varied games; OUT.txt holds each entry as "FEN;UCI move (0000 for none);score;ply;result"
//   binpack_sample measure GAMES SEED
//     realistic games of up to 80 plies: bytes a position, and entries a second written
//     and read on one thread (the best of 5 runs each)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "core/uci.h"
#include "jobs/export/binpack.h"
#include "tests/binpack_games.h"

namespace {

using chesshpc::binpack::Entry;

int write_sample(int games, uint64_t seed, const char* binpack_path, const char* text_path) {
  const std::vector<Entry> entries = binpack_games::games(binpack_games::Kind::VARIED, games, 200, seed);
  std::ofstream binpack(binpack_path, std::ios::binary), text(text_path);
  chesshpc::binpack::Writer writer(binpack);
  for (const Entry& e : entries) {
    writer.add(e);
    text << e.pos.fen() << ';' << (e.move.is_none() ? "0000" : chess::to_uci(e.move)) << ';' << e.score << ';' << e.ply
         << ';' << e.result << '\n';
  }
  writer.finish();
  text.flush();
  if (!binpack || !text) {
    std::fprintf(stderr, "binpack_sample: cannot write %s or %s\n", binpack_path, text_path);
    return 4;
  }
  std::printf("%zu entries, %llu chains, %llu bytes\n", entries.size(), (unsigned long long)writer.chains(),
              (unsigned long long)writer.bytes_written());
  return 0;
}

// The best of 5 runs of f, in seconds.
template <class F>
double best_seconds(F f) {
  double best = 1e30;
  for (int run = 0; run < 5; ++run) {
    const auto start = std::chrono::steady_clock::now();
    f();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

int measure(int games, uint64_t seed) {
  const std::vector<Entry> entries = binpack_games::games(binpack_games::Kind::REALISTIC, games, 80, seed);
  std::string bytes;
  uint64_t chains = 0;
  const double write_s = best_seconds([&] {
    std::ostringstream out;
    chesshpc::binpack::Writer writer(out);
    for (const Entry& e : entries) writer.add(e);
    writer.finish();
    bytes = out.str();
    chains = writer.chains();
  });
  size_t read_back = 0;
  const double read_s = best_seconds([&] {
    std::istringstream in(bytes);
    read_back = 0;
    chesshpc::binpack::read_each(in, [&](const Entry&) { ++read_back; });
  });
  if (read_back != entries.size()) {
    std::fprintf(stderr, "binpack_sample: read %zu entries of %zu\n", read_back, entries.size());
    return 1;
  }
  std::printf("%d games, %zu positions, %llu chains, %zu bytes: %.3f bytes a position\n", games, entries.size(),
              (unsigned long long)chains, bytes.size(), double(bytes.size()) / double(entries.size()));
  std::printf("write %.0f entries/s, read %.0f entries/s (one thread, best of 5)\n", double(entries.size()) / write_s,
              double(entries.size()) / read_s);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "write" && argc == 6) return write_sample(std::stoi(argv[2]), std::stoull(argv[3]), argv[4], argv[5]);
  if (mode == "measure" && argc == 4) return measure(std::stoi(argv[2]), std::stoull(argv[3]));
  std::fprintf(stderr, "usage: binpack_sample write GAMES SEED OUT.binpack OUT.txt | measure GAMES SEED\n");
  return 2;
}
