// slow_perft FEN DEPTH [--detailed] [--threads N] [--divide]
//
// Perft with the independent reference implementation, to settle a count without
// trusting the core. Root moves are shared out to threads, biggest subtrees first, and
// every leaf move is played.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "tests/reference/slow_chess.h"

namespace {

constexpr const char* START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

[[noreturn]] void usage() {
  std::fprintf(stderr, "usage: slow_perft FEN DEPTH [--detailed] [--threads N] [--divide]\n");
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) usage();
  std::string fen = argv[1];
  if (fen == "startpos") fen = START_FEN;
  int depth = std::atoi(argv[2]);
  bool detailed = false, divide = false;
  int threads = int(std::max(1u, std::thread::hardware_concurrency()));
  for (int i = 3; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--detailed")
      detailed = true;
    else if (arg == "--divide")
      divide = true;
    else if (arg == "--threads" && i + 1 < argc)
      threads = std::max(1, std::atoi(argv[++i]));
    else
      usage();
  }
  if (depth < 1) usage();

  auto start = std::chrono::steady_clock::now();
  const reference::Board root = reference::from_fen(fen);
  const std::vector<reference::Move> moves = reference::legal_moves(root);
  std::vector<reference::Board> children;
  for (const auto& m : moves) children.push_back(reference::play(root, m));

  // Longest subtrees first so that no thread is left alone with a big one at the end;
  // a shallow perft of each child is a good enough estimate and costs little.
  std::vector<size_t> order(moves.size());
  std::vector<uint64_t> estimate(moves.size());
  for (size_t i = 0; i < moves.size(); ++i)
    order[i] = i, estimate[i] = reference::perft(children[i], std::min(depth - 1, 3));
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return estimate[a] > estimate[b]; });

  std::vector<reference::Counters> results(moves.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t k = next++; k < order.size(); k = next++) {
      size_t i = order[k];
      if (detailed && depth == 1)
        results[i] = reference::classify(root, moves[i]);
      else if (detailed)
        results[i] = reference::detailed_perft(children[i], depth - 1);
      else
        results[i].nodes = reference::perft(children[i], depth - 1);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();

  reference::Counters total;
  for (size_t i = 0; i < moves.size(); ++i) {
    total += results[i];
    if (divide) std::printf("%s: %llu\n", reference::to_uci(moves[i]).c_str(), (unsigned long long)results[i].nodes);
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::printf("fen %s\ndepth %d\n", fen.c_str(), depth);
  if (detailed) {
    const std::pair<const char*, uint64_t> rows[] = {
        {"nodes", total.nodes},           {"captures", total.captures},           {"en_passant", total.en_passant},
        {"castles", total.castles},       {"promotions", total.promotions},       {"checks", total.checks},
        {"discovered", total.discovered}, {"double_checks", total.double_checks}, {"checkmates", total.checkmates}};
    for (const auto& [name, value] : rows) std::printf("%s %llu\n", name, (unsigned long long)value);
  } else {
    std::printf("nodes %llu\n", (unsigned long long)total.nodes);
  }
  std::printf("threads %d\nseconds %.2f\nleaves_per_second %.0f\n", threads, seconds,
              seconds > 0 ? double(total.nodes) / seconds : 0.0);
  return 0;
}
