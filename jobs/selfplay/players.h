// The players of selfplay batches. The built-in search joins them with the search core.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "jobs/selfplay/game.h"
#include "jobs/uci/engine.h"

namespace chesshpc {

// Per-move limits of a player without a clock: one of them (nodes, depth, movetime).
struct MoveLimits {
  long nodes = 0;
  int depth = 0;
  long movetime_ms = 0;
};

// An external engine over UCI: `uci:/usr/games/stockfish` on the command line. With
// chess960 the engine gets `setoption name UCI_Chess960 value true` before any other
// option, and castling moves go both ways king-takes-rook (e1h1), as UCI_Chess960 asks.
// Deadlines, each from the command sent: `timeout` seconds for uciok and each readyok, and
// a bestmove within the move's time (movetime, or the longer clock; none for a node or
// depth limit) plus `timeout` of go.
class UciPlayer : public Player {
 public:
  UciPlayer(const std::string& command, const std::vector<std::pair<std::string, std::string>>& options,
            MoveLimits limits, bool chess960 = false, double timeout = UCI_HANDSHAKE_SECONDS,
            const std::string& dir = "");
  std::string name() const override { return name_; }
  void new_game() override { engine_.new_game(); }
  void new_game_with_next_move() override { engine_.queue_new_game(); }
  MoveChoice choose(const chess::Game& game, const std::optional<Clocks>& clocks, chess::Random& rng) override;
  bool failed() const override { return engine_.failed(); }

 private:
  UciEngine engine_;
  MoveLimits limits_;
  double timeout_;
  std::string name_;
};

struct PlayerSpec;
struct SelfplayRequest;
// The player a spec names, with the request's limits. Throws UciError (or another
// std::exception) when it cannot start.
std::unique_ptr<Player> make_player(const PlayerSpec& spec, const SelfplayRequest& req);

}  // namespace chesshpc
