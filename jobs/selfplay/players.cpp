#include "jobs/selfplay/players.h"

#include "core/uci.h"
#include "jobs/selfplay/request.h"
#include "jobs/selfplay/search_player.h"

namespace chesshpc {

namespace {

std::vector<std::pair<std::string, std::string>> with_chess960(
    const std::vector<std::pair<std::string, std::string>>& options, bool chess960) {
  std::vector<std::pair<std::string, std::string>> all;
  if (chess960) all.push_back({"UCI_Chess960", "true"});
  all.insert(all.end(), options.begin(), options.end());
  return all;
}

}  // namespace

UciPlayer::UciPlayer(const std::string& command, const std::vector<std::pair<std::string, std::string>>& options,
                     MoveLimits limits, bool chess960, double timeout, const std::string& dir)
    : engine_(command, with_chess960(options, chess960), timeout, dir),
      limits_(limits),
      timeout_(timeout),
      name_(engine_.name().empty() ? command : engine_.name()) {}

MoveChoice UciPlayer::choose(const chess::Game& game, const std::optional<Clocks>& clocks, chess::Random&) {
  std::vector<std::string> moves;
  for (chess::Move m : game.moves()) moves.push_back(chess::to_uci(m, game.start().is_chess960()));
  UciLimits limits;
  // A node or depth limit stands beside a clock (both are sent, as fastchess sends them).
  limits.nodes = game_nodes(limits_.nodes), limits.depth = limits_.depth;
  if (clocks) {
    limits.wtime_ms = clocks->left_ms[chess::WHITE], limits.btime_ms = clocks->left_ms[chess::BLACK];
    limits.winc_ms = clocks->increment_ms[chess::WHITE], limits.binc_ms = clocks->increment_ms[chess::BLACK];
    limits.movestogo = clocks->moves_to_go[game.position().side_to_move()];
  } else {
    limits.movetime_ms = limits_.movetime_ms;
  }
  // From the game's start with every move, so that the engine sees repetitions.
  UciAnswer a = engine_.go(game.start().fen(), moves, limits, timeout_);
  MoveChoice c;
  std::optional<chess::Move> m = chess::parse_uci(game.position(), a.bestmove);
  if (!m) throw UciError("engine '" + name_ + "' answered '" + a.bestmove + "', not a legal move");
  c.move = c.best = *m;
  c.score_cp = a.score_cp, c.mate_in = a.mate_in;
  c.depth = a.depth, c.nodes = uint64_t(a.nodes), c.seconds = a.seconds;
  return c;
}

std::unique_ptr<Player> make_player(const PlayerSpec& spec, const SelfplayRequest& req) {
  if (spec.command.empty())
    return std::make_unique<SearchPlayer>(req.limits_of(spec), req.hash_bytes, req.temperature, req.sample_plies);
  return std::make_unique<UciPlayer>(spec.command, spec.options, req.limits_of(spec), req.variant != Variant::STANDARD,
                                     req.engine_timeout, spec.dir);
}

}  // namespace chesshpc
