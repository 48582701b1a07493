#include "jobs/selfplay/print.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>

#include "jobs/io/job_common.h"
#include "jobs/io/json.h"

namespace chesshpc {

namespace {

// A number of seconds as fastchess writes {}: the shortest text that reads back the same.
std::string shortest(double value) {
  char text[32];
  auto [end, ec] = std::to_chars(text, text + sizeof text, value);
  return ec == std::errc() ? std::string(text, end) : std::string();
}

// What a player was asked per move, as fastchess's summary names it: "10+0.1", "40/60",
// "0.1/move", "12 plies", "1000 nodes".
std::string limit_text(const SelfplayRequest& req, const PlayerSpec& p) {
  const TimeControl& clock = req.clock_of(p);
  const MoveLimits& limits = req.limits_of(p);
  if (clock.on()) {
    char inc[32] = "";
    if (clock.increment_ms > 0) std::snprintf(inc, sizeof inc, "+%.2g", double(clock.increment_ms) / 1000);
    return (clock.moves ? std::to_string(clock.moves) + "/" : "") + shortest(double(clock.base_ms) / 1000) + inc;
  }
  if (limits.movetime_ms) return shortest(double(limits.movetime_ms) / 1000) + "/move";
  if (limits.depth) return std::to_string(limits.depth) + " plies";
  if (limits.nodes) return std::to_string(limits.nodes) + " nodes";
  return "";
}

// A player's UCI option (Threads, Hash) with its unit, "NULL" when not set, as fastchess
// shows it; chesshpc's own search runs one thread on its --hash.
std::string option_text(const SelfplayRequest& req, const PlayerSpec& p, const std::string& name,
                        const std::string& unit) {
  if (p.command.empty()) return name == "Threads" ? "1t" : std::to_string(req.hash_bytes >> 20) + "MB";
  std::string value = "NULL";
  for (const auto& [option, v] : p.options)
    if (option == name) value = v + unit;
  return value;
}

// "a" when both sides have the same, else "a - b".
std::string both(const std::string& first, const std::string& second) {
  return first == second ? first : first + " - " + second;
}

// The players' names as the games give them (the first player has White in even games).
MatchHeader match_header(const BatchSummary& s) {
  const SelfplayRequest& req = s.req;
  MatchHeader h;
  h.first = req.first.name.empty() ? req.first.label() : req.first.name;
  h.second = req.second.name.empty() ? req.second.label() : req.second.name;
  if (s.tables.games.size()) std::tie(h.first, h.second) = player_names(s.tables.games);
  h.limits = both(limit_text(req, req.first), limit_text(req, req.second));
  h.threads = both(option_text(req, req.first, "Threads", "t"), option_text(req, req.second, "Threads", "t"));
  h.hash = both(option_text(req, req.first, "Hash", "MB"), option_text(req, req.second, "Hash", "MB"));
  h.book = req.book.substr(req.book.find_last_of('/') + 1);
  return h;
}

// The counts both forms of the summary show.
struct SummaryCounts {
  MatchStats match;
  Pentanomial penta;
  PairScore score;
  std::map<std::string, uint64_t> results, terminations;  // every "error: ..." as "error"
  size_t computed = 0;                                    // games this run played that the tables keep
};

SummaryCounts count_summary(const BatchSummary& s) {
  const GameColumns& g = s.tables.games;
  SummaryCounts c;
  c.match = match_stats(g.game, g.result);
  c.penta = c.match.penta;
  c.score = pair_score(c.penta);
  for (const std::string& r : g.result) ++c.results[r];
  for (const std::string& r : g.termination) ++c.terminations[r.rfind("error", 0) == 0 ? "error" : r];
  c.computed = g.size() - std::min(s.resumed, g.size());
  return c;
}

JsonObject pairs_json(const Pentanomial& penta, const PairScore& score) {
  JsonObject pairs;
  pairs.add("pairs", (unsigned long long)penta.pairs());
  for (size_t i = 0; i < PENTANOMIAL_NAMES.size(); ++i)
    pairs.add(PENTANOMIAL_NAMES[i], (unsigned long long)penta.counts[i]);
  pairs.add("score", score.score).add("score_low", score.score_low).add("score_high", score.score_high);
  pairs.add("elo", score.elo).add("elo_low", score.elo_low).add("elo_high", score.elo_high);
  return pairs;
}

JsonObject sprt_json(const PairSequence& sprt, uint64_t recorded) {
  JsonObject test;
  test.add("elo0", sprt.spec().elo0).add("elo1", sprt.spec().elo1);
  test.add("alpha", sprt.spec().alpha).add("beta", sprt.spec().beta);
  test.add("model", elo_model_name(sprt.spec().model));
  test.add("llr", sprt.llr()).add("lower", sprt.spec().lower()).add("upper", sprt.spec().upper());
  test.add("decision", sprt_decision_name(sprt.decision())).add("pairs", (unsigned long long)sprt.pairs());
  // Games this run played, those after the decision (which the file leaves out) too.
  test.add("games_recorded", (unsigned long long)recorded);
  return test;
}

// The match by the players' names, with fastchess's figures: the first player's results.
JsonObject match_json(const MatchHeader& h, const MatchStats& m) {
  const MatchElo e = match_elo(m.penta);
  JsonObject o;
  o.add("first", h.first).add("second", h.second).add("games", (unsigned long long)m.games());
  o.add("wins", (unsigned long long)m.wins).add("draws", (unsigned long long)m.draws);
  o.add("losses", (unsigned long long)m.losses).add("points", double(m.wins) + 0.5 * double(m.draws));
  const auto& c = m.penta.counts;
  o.add("LL", (unsigned long long)c[0]).add("LD", (unsigned long long)c[1]);
  o.add("WL", (unsigned long long)m.win_loss_pairs).add("DD", (unsigned long long)(c[2] - m.win_loss_pairs));
  o.add("WD", (unsigned long long)c[3]).add("WW", (unsigned long long)c[4]);
  o.add("elo", e.elo).add("elo_error", e.elo_error).add("nelo", e.nelo).add("nelo_error", e.nelo_error);
  o.add("los", e.los);
  return o;
}

// The summary as one JSON object on one line.
void print_json(const BatchSummary& s, const SummaryCounts& c, std::ostream& out) {
  const double secs = s.run.seconds;
  const size_t games = s.tables.games.size(), positions = s.tables.positions.size();
  JsonObject o, res, term;
  for (const auto& [k, v] : c.results) res.add(k, (unsigned long long)v);
  for (const auto& [k, v] : c.terminations) term.add(k, (unsigned long long)v);
  o.add("games", (unsigned long long)games).add("games_resumed", (unsigned long long)s.resumed);
  o.add("games_played", (unsigned long long)c.computed).add("positions", (unsigned long long)positions);
  o.add("duplicates_dropped", (unsigned long long)s.dropped).add("seconds", secs);
  o.add("games_per_second", secs > 0 ? double(c.computed) / secs : 0.0).add("threads", s.threads);
  o.add("ranks", s.run.ranks);
  o.add("results", res).add("terminations", term).add("seed", (unsigned long long)s.req.seed);
  o.add("positions_per_second", secs > 0 ? double(positions) / secs : 0.0);
  o.add("search_seconds", s.search_seconds);
  o.add("outside_search_share", secs > 0 ? 1 - s.search_seconds / (secs * s.threads * s.run.ranks) : 0.0);
  o.add("pairs", pairs_json(c.penta, c.score));
  if (s.sprt) o.add("sprt", sprt_json(*s.sprt, s.recorded));
  o.add("match", match_json(match_header(s), c.match));
  out << o.str() << "\n";
}

// The summary as lines: the games, results, terminations, pairs, and the SPRT's decision.
void print_text(const BatchSummary& s, const SummaryCounts& c, std::ostream& out) {
  const int threads = s.threads, ranks = s.run.ranks;
  out << "selfplay: " << plural(s.tables.games.size(), "game") << " (" << s.resumed << " resumed), "
      << plural(s.tables.positions.size(), "position") << " in " << s.run.seconds << " s, "
      << plural((unsigned long long)threads, "thread") << ", " << plural((unsigned long long)ranks, "rank")
      << "\nresults:";
  for (const auto& [k, v] : c.results) out << " " << k << " " << v;
  out << "\nterminations:";
  for (const auto& [k, v] : c.terminations) out << " " << k << " " << v;
  out << "\npairs: " << c.penta.pairs();
  for (size_t i = 0; i < PENTANOMIAL_NAMES.size(); ++i) out << " " << PENTANOMIAL_NAMES[i] << " " << c.penta.counts[i];
  if (c.penta.pairs()) {
    char line[96];
    std::snprintf(line, sizeof line, "; first player %.3f [%.3f, %.3f], ", c.score.score, c.score.score_low,
                  c.score.score_high);
    out << line << elo_text(c.score);
  }
  out << "\n";
  if (const PairSequence* sprt = s.sprt)
    out << "sprt: " << sprt->spec().text() << ": " << llr_text(sprt->llr(), sprt->spec()) << ", "
        << sprt_decision_name(sprt->decision()) << " after " << sprt->pairs()
        << (sprt->pairs() == 1 ? " pair\n" : " pairs\n");
  out << fastchess_summary(match_header(s), c.match, s.sprt);
}

}  // namespace

void print_summary(const BatchSummary& s, std::ostream& out) {
  const SummaryCounts c = count_summary(s);
  if (s.req.json)
    print_json(s, c, out);
  else
    print_text(s, c, out);
}

}  // namespace chesshpc
