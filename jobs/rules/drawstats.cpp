#include "jobs/rules/drawstats.h"

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/perft.h"
#include "core/pgn.h"
#include "core/threads.h"
#include "jobs/io/h5.h"
#include "jobs/io/h5_table.h"
#include "jobs/io/job_common.h"
#include "jobs/io/json.h"
#include "jobs/io/progress.h"
#include "jobs/io/provenance.h"
#include "jobs/rules/job.h"
#include "jobs/rules/rule_stats.h"

namespace chesshpc {

using chess::Rule;

namespace {

void summarise(DrawstatsResult& r) {
  std::vector<std::array<int32_t, chess::RULE_NB>> first_fire;
  std::vector<int32_t> ended_by;
  for (const GameRow& g : r.games) first_fire.push_back(g.first_fire), ended_by.push_back(g.termination);
  r.rules = summarise_rules(first_fire, ended_by);
  for (const GameRow& g : r.games) r.plies += g.plies;
}

constexpr auto GAMES = h5::table(
    "games", "one row per game replayed, in file order (index counts the skipped games too)",
    {
        h5::column<&GameRow::index>("index", "0-based game number in the file"),
        h5::column<&GameRow::first_line>("first_line", "1-based line where the game starts"),
        h5::column<&GameRow::result>("result", "PGN Result tag"),
        h5::computed<GameRow>("termination", "rule that ends the game under the ruleset; '' if none",
                              [](const GameRow& g) {
                                return g.termination < 0 ? std::string() : std::string(rule_key(size_t(g.termination)));
                              }),
        h5::column<&GameRow::termination_ply>("termination_ply", "ply of the termination; -1 if none"),
        h5::column<&GameRow::plies>("plies", "moves recorded in the file"),
        h5::column<&GameRow::perpetual_check>("perpetual_check", "repetition reached by perpetual check"),
        first_fire_column<&GameRow::first_fire>(),
    });

constexpr auto RULES = rule_summary_table("rules", "one row per rule, over the games replayed");

constexpr auto SKIPPED = h5::table(
    "skipped", "one row per game not replayed: malformed, or of a variant other than standard chess and Chess960",
    {
        h5::column<&SkippedGame::index>("index", "0-based game number in the file"),
        h5::column<&SkippedGame::line>("line", "1-based line of the fault (the Variant tag's for a variant)"),
        h5::column<&SkippedGame::message>("message", "what is wrong"),
        h5::column<&SkippedGame::variant>("variant",
                                          "the Variant tag of a game of a variant not read; '' if malformed"),
    });

struct Root {
  const DrawstatsRequest& req;
  const DrawstatsResult& r;
};

constexpr auto ROOT = std::to_array({
    h5::attr<Root>(h5::JOB, [](const Root&) { return "drawstats"; }),
    h5::attr<Root>("pgn_file", "the PGN file, as given", [](const Root& s) { return s.req.pgn; }),
    h5::attr<Root>("ruleset", "fide or site: the rules the games were replayed under",
                   [](const Root& s) { return ruleset_name(s.req.ruleset); }),
    h5::attr<Root>("claim_policy", "when draws that must be claimed are claimed (--claims)",
                   [](const Root& s) { return claims_name(s.req.claims); }),
    h5::attr<Root>("games", "games replayed: the rows of /games",
                   [](const Root& s) { return int64_t(s.r.games.size()); }),
    h5::attr<Root>("skipped", "games not replayed (malformed or of another variant): the rows of /skipped",
                   [](const Root& s) { return int64_t(s.r.skipped.size()); }),
});

std::string readme() {
  return "chesshpc drawstats: a PGN corpus replayed under a ruleset. Plies count from the game's start (ply 0); a "
         "perpetual check is a threefold repetition reached by one side checking on every move.\n" +
         h5::readme(GAMES) + h5::readme(RULES) + h5::readme(SKIPPED) + h5::readme("Root attributes", ROOT) +
         "Read with h5py: f['games/plies'][:]; strings: f['games/result'].asstr()[:].\n";
}

void write_file(const DrawstatsRequest& req, const DrawstatsResult& r, const std::string& started) {
  h5::File file(req.out);
  h5::write_table(file, GAMES, r.games);
  h5::write_table(file, RULES, r.rules);
  h5::write_table(file, SKIPPED, r.skipped);
  Provenance p;
  p.command_line = req.command_line;
  p.started = started;
  p.finished = utc_now();
  p.threads = chess::resolve_threads(req.threads);
  p.readme = readme();
  h5::write_provenance(file, p);
  h5::write_attrs(file, ROOT, Root{req, r});
  file.commit();
}

std::string format_quantile(double v) {
  if (std::isnan(v)) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

void print_summary(const DrawstatsRequest& req, const DrawstatsResult& r, std::ostream& out) {
  char line[160];
  std::snprintf(line, sizeof line, "%.3f s (%.2f M plies/s)", r.seconds,
                r.seconds > 0 ? double(r.plies) / r.seconds / 1e6 : 0.0);
  const int64_t variants = r.skipped_variants();
  out << req.pgn << ": " << r.games.size() << " games replayed, " << int64_t(r.skipped.size()) - variants
      << " skipped as malformed, " << variants << " as of other variants; " << r.plies << " plies in " << line
      << "; ruleset " << ruleset_name(req.ruleset) << ", claims " << claims_name(req.claims) << "\n";
  std::snprintf(line, sizeof line, "%-22s %10s %10s %8s %8s %8s\n", "rule", "held in", "ended", "q1", "median", "q3");
  out << line;
  for (int rule = 0; rule < chess::RULE_NB; ++rule) {
    const RuleSummary& s = r.rules[rule];
    std::snprintf(line, sizeof line, "%-22s %10lld %10lld %8s %8s %8s\n",
                  std::string(chess::rule_name(Rule(rule))).c_str(), (long long)s.fired, (long long)s.ended,
                  format_quantile(s.q1).c_str(), format_quantile(s.median).c_str(), format_quantile(s.q3).c_str());
    out << line;
  }
}

// written: whether req.out was written ("out" names it only then).
void print_json(const DrawstatsRequest& req, const DrawstatsResult& r, bool written, std::ostream& out) {
  JsonObject o, rules;
  o.add("pgn", req.pgn).add("ruleset", ruleset_name(req.ruleset)).add("claims", claims_name(req.claims));
  o.add("games", (long)r.games.size()).add("skipped", (long)r.skipped.size()).add("plies", (long)r.plies);
  o.add("skipped_variants", (long)r.skipped_variants());
  o.add("seconds", r.seconds).add("plies_per_second", r.seconds > 0 ? double(r.plies) / r.seconds : 0.0);
  for (int rule = 0; rule < chess::RULE_NB; ++rule) {
    const RuleSummary& s = r.rules[rule];
    JsonObject j;
    j.add("held_in", (long)s.fired).add("ended", (long)s.ended);
    j.add("q1", s.q1).add("median", s.median).add("q3", s.q3);
    rules.add(chess::rule_name(Rule(rule)), j);
  }
  o.add("rules", rules);
  if (!req.out.empty() && written) o.add("out", req.out);
  out << o.str() << "\n";
}

}  // namespace

int64_t DrawstatsResult::skipped_variants() const {
  return std::count_if(skipped.begin(), skipped.end(), [](const SkippedGame& s) { return !s.variant.empty(); });
}

DrawstatsResult compute_drawstats(const std::string& text, chess::Ruleset ruleset, chess::ClaimPolicy claims,
                                  int threads, Progress* progress) {
  auto t0 = std::chrono::steady_clock::now();
  std::vector<chess::PgnChunk> chunks = chess::split_pgn(text);
  if (progress) progress->add_total(chunks.size());

  struct Outcome {
    bool ok = false;
    GameRow row;
    SkippedGame skipped{0, 0, {}, {}};
  };
  std::vector<Outcome> outcomes(chunks.size());
  auto replay = [&](size_t i) {
    chess::PgnGame pgn;
    chess::PgnError error;
    Outcome& o = outcomes[i];
    if (!chess::parse_pgn_game(chunks[i], pgn, error)) {
      o.skipped = {int64_t(i), error.line, error.message, error.variant};
      if (progress) progress->done(1, 0);
      return;
    }
    chess::Game game(pgn.start, ruleset, claims);
    for (chess::Move m : pgn.moves) game.play(m);
    GameRow& row = o.row;
    row.index = int64_t(i);
    row.first_line = pgn.first_line;
    std::string tag = pgn.tag("Result");
    row.result = tag.empty() ? pgn.result : tag;
    row.termination = game.termination() ? int32_t(*game.termination()) : -1;
    row.termination_ply = game.termination_ply();
    row.plies = int32_t(pgn.moves.size());
    row.perpetual_check = game.perpetual_check();
    for (int r = 0; r < chess::RULE_NB; ++r) row.first_fire[r] = game.first_fire(Rule(r));
    o.ok = true;
    if (progress) progress->done(1, pgn.moves.size());
  };
  tbb::task_arena arena(chess::resolve_threads(threads));
  arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<size_t>(0, chunks.size(), 64), [&](const tbb::blocked_range<size_t>& r) {
      for (size_t i = r.begin(); i != r.end(); ++i) replay(i);
    });
  });

  DrawstatsResult result;
  for (Outcome& o : outcomes) {
    if (o.ok)
      result.games.push_back(std::move(o.row));
    else
      result.skipped.push_back(std::move(o.skipped));
  }
  summarise(result);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

int run_drawstats(const DrawstatsRequest& req, std::ostream& out, std::ostream& err) {
  std::string started = utc_now();
  std::ifstream in(req.pgn, std::ios::binary);
  if (!in) {
    err << "chesshpc drawstats: cannot read PGN file '" << req.pgn << "'\n";
    return EXIT_IO;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();

  Progress progress(err, "drawstats", !req.quiet, req.progress_interval, "Mplies/s");
  DrawstatsResult r = compute_drawstats(text, req.ruleset, req.claims, req.threads, &progress);
  progress.finish();
  for (const SkippedGame& s : r.skipped)
    err << "chesshpc drawstats: " << req.pgn << ":" << s.line << ": game " << s.index << " skipped: " << s.message
        << "\n";

  // The statistics are printed whether or not the file could be written.
  std::string unwritten = req.out.empty() ? "" : h5::write_error([&] { write_file(req, r, started); });
  if (req.json)
    print_json(req, r, unwritten.empty(), out);
  else
    print_summary(req, r, out);
  return say_unwritten("drawstats", unwritten, "", err);
}

}  // namespace chesshpc
