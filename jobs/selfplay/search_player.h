// The built-in search as a selfplay player: one Search (with its own tables) per player,
// cleared at every new game, so a game depends on its position and limits only.
#pragma once

#include "core/search.h"
#include "jobs/selfplay/game.h"
#include "jobs/selfplay/players.h"

namespace chesshpc {

class SearchPlayer : public Player {
 public:
  // temperature (pawns) > 0 samples the first sample_plies plies of the game from a
  // softmax over every root move's score; 0 plays the search's best move.
  SearchPlayer(MoveLimits limits, size_t hash_bytes, double temperature, int sample_plies);
  std::string name() const override { return "chesshpc"; }
  void new_game() override { search_.clear(); }
  MoveChoice choose(const chess::Game& game, const std::optional<Clocks>& clocks, chess::Random& rng) override;

 private:
  MoveChoice sample(const chess::Game& game, std::vector<chess::Key> history, chess::Random& rng);

  chess::Search search_;
  MoveLimits limits_;
  double temperature_;
  int sample_plies_;
};

}  // namespace chesshpc
