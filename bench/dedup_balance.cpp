// How evenly the dedup ply's buckets (jobs/perft/dedup.h: by the waiting side's pieces)
// spread over ranks, ply by ply from the start position: unique positions, distinct
// waiting sides ("groups": the positions a bucket never splits), their size spread, the
// largest group's share, and the slowest rank's positions over the mean when bucket b
// goes to rank b % P. bench/perft_model.py --dedup takes the groups and their spread.
//
//   build/bench/dedup_balance [MAX_PLY]     (default 6; ply 6 takes a minute and 2 GB)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/movegen.h"
#include "jobs/perft/dedup.h"

using chess::BoardCode;

namespace {

struct CodeHash {
  size_t operator()(const BoardCode& c) const { return c.hash(); }
};

std::vector<BoardCode> next_level(const std::vector<BoardCode>& level) {
  std::unordered_set<BoardCode, CodeHash> next;
  next.reserve(level.size() * 14);
  for (const BoardCode& c : level) {
    const chess::Position pos = chess::decode(c);
    for (const chess::Move m : chess::legal_moves(pos)) next.insert(chess::encode(pos.after(m)));
  }
  return {next.begin(), next.end()};
}

void report(int ply, const std::vector<BoardCode>& level) {
  std::unordered_map<BoardCode, uint64_t, CodeHash> groups;
  for (const BoardCode& c : level) ++groups[chesshpc::waiting_side(c)];
  double mean = double(level.size()) / double(groups.size()), var = 0, largest = 0;
  for (const auto& [side, n] : groups)
    var += (double(n) - mean) * (double(n) - mean), largest = std::max(largest, double(n));
  std::printf("ply %d: %zu unique positions, %zu groups, group size cv %.2f, largest group %.5f of all\n", ply,
              level.size(), groups.size(), std::sqrt(var / double(groups.size())) / mean,
              largest / double(level.size()));
  for (const size_t ranks : {2, 8, 64, 1024}) {
    std::vector<double> load(ranks);
    for (const BoardCode& c : level) load[chesshpc::dedup_bucket(c, chesshpc::Bucketing::WaitingSide) % ranks] += 1;
    const double slowest = *std::max_element(load.begin(), load.end()) * double(ranks) / double(level.size());
    std::printf("  %4zu ranks: slowest rank %.3f x the mean\n", ranks, slowest);
  }
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const int max_ply = argc > 1 ? std::atoi(argv[1]) : 6;
  std::vector<BoardCode> level{chess::encode(chess::Position::start())};
  for (int ply = 1; ply <= max_ply; ++ply) {
    level = next_level(level);
    if (ply >= 3) report(ply, level);
  }
}
