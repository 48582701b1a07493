#include "jobs/perft/units.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "core/game.h"
#include "core/movegen.h"

namespace chesshpc {

using chess::Position;

uint64_t PerftUnit::multiplicity() const {
  uint64_t m = 0;
  for (const auto& p : paths) m += p.second;
  return m;
}

namespace {

struct Enumerator {
  PerftPlan& plan;
  std::unordered_multimap<chess::Key, size_t> index;  // key -> unit, confirmed by same_position

  void add(const Position& pos, uint16_t root) {
    auto [first, last] = index.equal_range(pos.key());
    for (auto it = first; it != last; ++it) {
      PerftUnit& u = plan.units[it->second];
      if (!chess::same_position(u.pos, pos)) continue;
      if (u.paths.back().first == root)
        ++u.paths.back().second;  // paths of one root move arrive together (depth-first)
      else
        u.paths.push_back({root, 1});
      return;
    }
    index.emplace(pos.key(), plan.units.size());
    plan.units.push_back({pos, {{root, 1}}, uint32_t(chess::count_legal(pos))});
  }

  void walk(const Position& pos, uint16_t root, int plies) {
    if (plies == 0) return add(pos, root);
    for (chess::Move m : chess::legal_moves(pos)) walk(pos.after(m), root, plies - 1);
  }
};

}  // namespace

PerftPlan plan_units(const Position& root, int depth, int split_depth) {
  PerftPlan plan;
  plan.root = root, plan.depth = depth, plan.split_depth = split_depth;
  for (chess::Move m : chess::legal_moves(root)) plan.root_moves.push_back(m);
  Enumerator e{plan, {}};
  for (size_t i = 0; i < plan.root_moves.size(); ++i)
    e.walk(root.after(plan.root_moves[i]), uint16_t(i), split_depth - 1);
  std::stable_sort(plan.units.begin(), plan.units.end(),
                   [](const PerftUnit& a, const PerftUnit& b) { return a.estimate > b.estimate; });
  return plan;
}

int default_split_depth(const Position& root, int depth, int workers, int per_worker) {
  const uint64_t wanted = uint64_t(std::max(workers, 1)) * uint64_t(per_worker);
  int split = 1;
  // perft(k) bounds the number of unique positions k plies down, so it is a cheap upper
  // estimate; stop as soon as it reaches the target.
  while (split + 1 < depth && chess::perft::count(root, split) < wanted) ++split;
  return split;
}

size_t UnitResults::count_done() const {
  return size_t(std::count_if(run.begin(), run.end(), [](int r) { return r >= 0; }));
}

chess::u128 sum(const std::vector<chess::u128>& counts) {
  chess::u128 s = 0;
  for (chess::u128 c : counts) s += c;
  return s;
}

std::vector<chess::u128> merge_divide(const PerftPlan& plan, const std::vector<uint64_t>& nodes) {
  std::vector<chess::u128> divide(plan.root_moves.size(), 0);
  for (size_t i = 0; i < plan.units.size(); ++i)
    for (const auto& [root, paths] : plan.units[i].paths) divide[root] += chess::u128(paths) * nodes[i];
  return divide;
}

}  // namespace chesshpc
