#include "jobs/selfplay/search_player.h"

#include <chrono>
#include <cmath>

#include "core/movegen.h"

namespace chesshpc {

namespace {

void set_score(MoveChoice& c, int v) {
  if (chess::is_mate_score(v))
    c.mate_in = chess::mate_in_moves(v);
  else
    c.score_cp = v;
}

// A root score from a child's: the other side's view, one ply further from a mate.
int from_child(int v) {
  v = -v;
  if (chess::is_mate_score(v)) v += v > 0 ? -1 : 1;
  return v;
}

}  // namespace

SearchPlayer::SearchPlayer(MoveLimits limits, size_t hash_bytes, double temperature, int sample_plies)
    : search_(hash_bytes), limits_(limits), temperature_(temperature), sample_plies_(sample_plies) {}

MoveChoice SearchPlayer::choose(const chess::Game& game, const std::optional<Clocks>& clocks, chess::Random& rng) {
  std::vector<chess::Key> history;
  for (int ply = 0; ply < game.ply(); ++ply) history.push_back(game.position_at(ply).key());
  if (temperature_ > 0 && game.ply() < sample_plies_ && !clocks) return sample(game, std::move(history), rng);
  chess::SearchLimits limits;
  // A node or depth limit stands beside a clock: whichever comes first ends the search.
  limits.nodes = uint64_t(game_nodes(limits_.nodes)), limits.depth = limits_.depth;
  if (clocks) {
    limits.wtime = clocks->left_ms[chess::WHITE], limits.btime = clocks->left_ms[chess::BLACK];
    limits.winc = clocks->increment_ms[chess::WHITE], limits.binc = clocks->increment_ms[chess::BLACK];
    limits.movestogo = clocks->moves_to_go[game.position().side_to_move()];
  } else {
    limits.movetime = limits_.movetime_ms;
  }
  auto t0 = std::chrono::steady_clock::now();
  chess::SearchResult r = search_.run(game.position(), history, limits);
  MoveChoice c;
  c.move = c.best = r.best;
  set_score(c, r.score);
  c.depth = r.depth, c.nodes = r.nodes;
  c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return c;
}

// Every root move searched with a share of the limits, then one drawn with probability
// proportional to exp(score / (100 * temperature)): diverse openings whose moves still
// make sense, reproducible from the game's own stream.
MoveChoice SearchPlayer::sample(const chess::Game& game, std::vector<chess::Key> history, chess::Random& rng) {
  auto t0 = std::chrono::steady_clock::now();
  const chess::Position& pos = game.position();
  chess::MoveList moves = chess::legal_moves(pos);
  history.push_back(pos.key());
  chess::SearchLimits limits;
  const long nodes = game_nodes(limits_.nodes);
  limits.nodes = nodes ? uint64_t(std::max<long>(nodes / long(moves.size()), 1)) : 0;
  limits.depth = limits_.depth ? std::max(limits_.depth - 1, 1) : 0;
  limits.movetime = limits_.movetime_ms ? std::max<long>(limits_.movetime_ms / long(moves.size()), 1) : 0;
  std::vector<int> scores;
  MoveChoice c;
  for (chess::Move m : moves) {
    chess::SearchResult r = search_.run(pos.after(m), history, limits);
    scores.push_back(from_child(r.score));
    c.nodes += r.nodes, c.depth = std::max(c.depth, r.depth + 1);
  }
  size_t best = size_t(std::max_element(scores.begin(), scores.end()) - scores.begin());
  std::vector<double> weight;
  double sum = 0;
  for (int s : scores) {
    // Mate scores are clamped so that a won mate dominates without overflowing.
    double d = std::clamp(double(s - scores[best]), -3000.0, 0.0);
    weight.push_back(std::exp(d / (100 * temperature_)));
    sum += weight.back();
  }
  double x = rng.uniform() * sum;
  size_t pick = 0;
  while (pick + 1 < weight.size() && (x -= weight[pick]) > 0) ++pick;
  c.move = moves[pick], c.best = moves[best];
  set_score(c, scores[pick]);
  c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return c;
}

}  // namespace chesshpc
