#include "jobs/rules/job.h"

#include <cstdio>
#include <sstream>

#include "jobs/io/job_common.h"
#include "jobs/io/json.h"

namespace chesshpc {

using chess::Game;
using chess::Rule;

std::optional<chess::Ruleset> parse_ruleset(std::string_view s) {
  if (s == "fide") return chess::Ruleset::FIDE;
  if (s == "site") return chess::Ruleset::SITE;
  return std::nullopt;
}

std::optional<chess::ClaimPolicy> parse_claims(std::string_view s) {
  if (s == "first") return chess::ClaimPolicy::FIRST;
  if (s == "never") return chess::ClaimPolicy::NEVER;
  return std::nullopt;
}

std::string_view ruleset_name(chess::Ruleset r) { return r == chess::Ruleset::FIDE ? "fide" : "site"; }
std::string_view claims_name(chess::ClaimPolicy c) { return c == chess::ClaimPolicy::FIRST ? "first" : "never"; }

namespace {

// "12." and "12..." are move numbers, not moves.
bool is_move_number(const std::string& token) {
  size_t i = 0;
  while (i < token.size() && std::isdigit(static_cast<unsigned char>(token[i]))) ++i;
  return i > 0 && i < token.size() && token.find_first_not_of('.', i) == std::string::npos;
}

void print_text(const Game& g, int plies, std::ostream& out) {
  out << "termination      " << (g.termination() ? chess::rule_name(*g.termination()) : "none") << "\n"
      << "result           " << chess::result_string(g.result()) << "\n"
      << "plies            " << plies << "\n"
      << "perpetual_check  " << (g.perpetual_check() ? "true" : "false") << "\n"
      << "first fire (ply; - if never):\n";
  for (int r = 0; r < chess::RULE_NB; ++r) {
    char line[64];
    int ply = g.first_fire(Rule(r));
    std::snprintf(line, sizeof line, "  %-22s %s\n", std::string(chess::rule_name(Rule(r))).c_str(),
                  ply < 0 ? "-" : std::to_string(ply).c_str());
    out << line;
  }
}

void print_json(const Game& g, int plies, std::ostream& out) {
  JsonObject o, fire;
  if (g.termination())
    o.add("termination", chess::rule_name(*g.termination()));
  else
    o.null("termination");
  o.add("result", chess::result_string(g.result())).add("plies", plies).add("perpetual_check", g.perpetual_check());
  for (int r = 0; r < chess::RULE_NB; ++r) {
    int ply = g.first_fire(Rule(r));
    if (ply < 0)
      fire.null(chess::rule_name(Rule(r)));
    else
      fire.add(chess::rule_name(Rule(r)), ply);
  }
  o.add("first_fire", fire);
  out << o.str() << "\n";
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
  if (req.json)
    print_json(game, plies, out);
  else
    print_text(game, plies, out);
  return EXIT_OK;
}

}  // namespace chesshpc
