#include "jobs/rules/print.h"

#include <cstdio>

#include "jobs/io/json.h"

namespace chesshpc {

using chess::Game;
using chess::Rule;

namespace {

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

void print_rules(const Game& g, int plies, bool json, std::ostream& out) {
  if (json)
    print_json(g, plies, out);
  else
    print_text(g, plies, out);
}

}  // namespace chesshpc
