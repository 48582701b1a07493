#include "jobs/rules/run.h"

#include "core/pgn.h"
#include "jobs/io/job_common.h"
#include "jobs/rules/print.h"

namespace chesshpc {

using chess::Game;

int run_rules(const RulesRequest& req, std::ostream& out, std::ostream& err) {
  std::optional<chess::Position> start = read_position(req.fen, "rules", err);
  if (!start) return EXIT_INPUT;
  Game game(*start, req.ruleset, req.claims);
  int ignored = 0;
  for (const std::string& token : chess::move_list(req.moves)) {
    if (game.over()) {
      ++ignored;
      continue;
    }
    const std::optional<chess::Move> m = read_move(game.position(), token, game.ply() + 1, "rules", err);
    if (!m) return EXIT_INPUT;
    game.play(*m);
  }
  if (ignored)
    err << "chesshpc rules: the game ended at ply " << game.termination_ply() << " by "
        << chess::rule_name(*game.termination()) << "; " << ignored << " further move(s) not played\n";
  int plies = game.over() ? game.termination_ply() : game.ply();
  print_rules(game, plies, req.json, out);
  return EXIT_OK;
}

}  // namespace chesshpc
