#include "jobs/rules/run.h"

#include <sstream>

#include "jobs/io/job_common.h"
#include "jobs/rules/print.h"

namespace chesshpc {

using chess::Game;

namespace {

// "12." and "12..." are move numbers, not moves.
bool is_move_number(const std::string& token) {
  size_t i = 0;
  while (i < token.size() && std::isdigit(static_cast<unsigned char>(token[i]))) ++i;
  return i > 0 && i < token.size() && token.find_first_not_of('.', i) == std::string::npos;
}

}  // namespace

int run_rules(const RulesRequest& req, std::ostream& out, std::ostream& err) {
  std::optional<chess::Position> start = read_position(req.fen, "rules", err);
  if (!start) return EXIT_INPUT;
  Game game(*start, req.ruleset, req.claims);
  std::istringstream tokens(req.moves);
  std::string token;
  int ignored = 0;
  while (tokens >> token) {
    if (is_move_number(token)) continue;
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
