#include "jobs/rules/drawstats.h"

#include <tbb/parallel_for.h>
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

#include "core/perft.h"
#include "core/pgn.h"
#include "core/threads.h"
#include "jobs/io/byte_size.h"
#include "jobs/io/byte_source.h"
#include "jobs/io/h5.h"
#include "jobs/io/h5_table.h"
#include "jobs/io/job_common.h"
#include "jobs/io/json.h"
#include "jobs/io/progress.h"
#include "jobs/io/provenance.h"
#include "jobs/rules/request.h"
#include "jobs/rules/rule_stats.h"

namespace chesshpc {

using chess::Rule;

namespace {

constexpr auto GAMES = h5::table(
    "games", "one row per game replayed, in file order (index counts the skipped games too)",
    {
        h5::column<&GameRow::index>("index", "0-based game number in the file"),
        h5::column<&GameRow::first_line>("first_line", "1-based line where the game starts"),
        h5::column<&GameRow::result>("result", "PGN Result tag"),
        h5::fixed_width(h5::computed<GameRow>("termination", "rule that ends the game under the ruleset; '' if none",
                                              [](const GameRow& g) {
                                                return g.termination < 0 ? std::string()
                                                                         : std::string(rule_key(size_t(g.termination)));
                                              }),
                        chess::RULE_NAME_MAX_BYTES),
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
    h5::attr<Root>("games", "games replayed: the rows of /games", [](const Root& s) { return s.r.replayed; }),
    h5::attr<Root>("skipped", "games not replayed (malformed or of another variant): the rows of /skipped",
                   [](const Root& s) { return s.r.skipped_games; }),
});

std::string readme() {
  return "chesshpc drawstats: a PGN corpus replayed under a ruleset. Plies count from the game's start (ply 0); a "
         "perpetual check is a threefold repetition reached by one side checking on every move.\n" +
         h5::readme(GAMES) + h5::readme(RULES) + h5::readme(SKIPPED) + h5::readme("Root attributes", ROOT) +
         "Read with h5py: f['games/plies'][:]; strings: f['games/result'].asstr()[:].\n";
}

// The result file, written as the games come: /games and /skipped in batches of
// req.rows_per_write rows, /rules and the root attributes at the end, then published
// (h5::File: a run that ends before leaves no file under the name). A write that fails (a
// full disk) ends the file, not the run: its line waits for after the statistics, and
// the partial file goes at once.
class StatsFile {
 public:
  explicit StatsFile(const DrawstatsRequest& req) {
    attempt([&] {
      file_.emplace(req.out);
      games_.emplace(*file_, GAMES, req.rows_per_write);
      skipped_.emplace(*file_, SKIPPED, req.rows_per_write);
    });
  }
  void game(GameRow&& row) {
    if (file_) attempt([&] { games_->add(std::move(row)); });
  }
  void skipped(const SkippedGame& game) {
    if (file_) attempt([&] { skipped_->add(SkippedGame(game)); });
  }
  // Writes the rest and publishes the file; "" or the line of the write that failed.
  std::string finish(const DrawstatsRequest& req, const DrawstatsResult& r, const std::string& started) {
    if (file_)
      attempt([&] {
        games_->finish();
        skipped_->finish();
        // Their groups close first: HDF5 keeps a file with open objects open past its
        // close, and commit() must find it closed before it syncs and renames it.
        games_.reset(), skipped_.reset();
        h5::write_table(*file_, RULES, r.rules);
        h5::write_provenance(
            *file_, finished_provenance(req.command_line, started, chess::resolve_threads(req.threads), 1, readme()));
        h5::write_attrs(*file_, ROOT, Root{req, r});
        file_->commit();
      });
    return error_;
  }

 private:
  void attempt(const std::function<void()>& write) {
    error_ = h5::write_error(write);
    if (error_.empty()) return;
    // The tables' groups close before the file, whose partial file then goes.
    skipped_.reset(), games_.reset(), file_.reset();
  }

  std::optional<h5::File> file_;
  std::optional<h5::TableAppender<GameRow, GAMES.columns.size()>> games_;
  std::optional<h5::TableAppender<SkippedGame, SKIPPED.columns.size()>> skipped_;
  std::string error_;
};

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
  const int64_t variants = r.skipped_variants;
  out << req.pgn << ": " << plural((unsigned long long)r.replayed, "game") << " replayed, "
      << r.skipped_games - variants << " skipped as malformed, " << variants << " as of other variants; "
      << plural((unsigned long long)r.plies, "ply", "plies") << " in " << line << "; ruleset "
      << ruleset_name(req.ruleset) << ", claims " << claims_name(req.claims) << "\n";
  std::snprintf(line, sizeof line, "%-22s %10s %10s %8s %8s %8s\n", "rule", "fired", "ended", "q1", "median", "q3");
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
  o.add("games", (long)r.replayed).add("skipped", (long)r.skipped_games).add("plies", (long)r.plies);
  o.add("skipped_variants", (long)r.skipped_variants);
  o.add("seconds", r.seconds).add("plies_per_second", r.seconds > 0 ? double(r.plies) / r.seconds : 0.0);
  for (int rule = 0; rule < chess::RULE_NB; ++rule) {
    const RuleSummary& s = r.rules[rule];
    JsonObject j;
    // The file's column names: one name for each quantity in text, JSON and HDF5.
    j.add("fired", (long)s.fired).add("ended", (long)s.ended);
    j.add("q1", s.q1).add("median", s.median).add("q3", s.q3);
    rules.add(chess::rule_name(Rule(rule)), j);
  }
  o.add("rules", rules);
  if (!req.out.empty() && written) o.add("out", req.out);
  out << o.str() << "\n";
}

}  // namespace

namespace {

struct Outcome {
  bool ok = false;
  GameRow row;
  SkippedGame skipped{0, 0, {}, {}};
};

// Whole games of the stream and the text they lie in, numbered in stream order.
struct Batch {
  std::string text;
  std::vector<chess::PgnChunk> games;  // views of text
  int64_t first_index = 0;
};

// Cuts a stream into batches of whole games: each block read is appended to the game left
// open by the block before (split_pgn_part), so memory holds one block and one game.
class GameBatches {
 public:
  GameBatches(const ReadBytes& read, const PgnStreamLimits& limits) : read_(read), limits_(limits) {}

  // The next batch with at least one game, or null at the end of the stream.
  std::unique_ptr<Batch> next() {
    while (!ended_) {
      auto batch = std::make_unique<Batch>();
      std::string& text = batch->text;
      text = std::move(rest_);
      size_t kept = text.size();
      text.resize(kept + limits_.block_bytes);
      size_t got = read_(text.data() + kept, limits_.block_bytes);
      text.resize(kept + got);
      ended_ = got < limits_.block_bytes;
      if (first_) text.erase(0, chess::byte_order_mark_size(text));
      first_ = false;

      chess::PgnPart part = chess::split_pgn_part(text, line_, line_start_, ended_);
      if (part.rest > 0) line_start_ = text[part.rest - 1] == '\n';
      line_ = part.rest_line;
      rest_.assign(text, part.rest);
      // The game still open, and those whole: none may pass the bound.
      if (rest_.size() > limits_.game_bytes) throw GameTooLong{index_, line_, limits_.game_bytes};
      for (size_t i = 0; i < part.games.size(); ++i)
        if (part.games[i].text.size() > limits_.game_bytes)
          throw GameTooLong{index_ + int64_t(i), part.games[i].first_line, limits_.game_bytes};
      if (part.games.empty()) continue;
      batch->games = std::move(part.games);
      batch->first_index = index_;
      index_ += int64_t(batch->games.size());
      return batch;
    }
    return nullptr;
  }

 private:
  const ReadBytes& read_;
  PgnStreamLimits limits_;
  std::string rest_;  // the stream from where the next split starts
  int line_ = 1;
  bool line_start_ = true;
  bool first_ = true;
  bool ended_ = false;
  int64_t index_ = 0;
};

Outcome replay(const chess::PgnChunk& chunk, int64_t index, chess::Ruleset ruleset, chess::ClaimPolicy claims) {
  chess::PgnGame pgn;
  chess::PgnError error;
  Outcome o;
  if (!chess::parse_pgn_game(chunk, pgn, error)) {
    o.skipped = {index, error.line, error.message, error.variant};
    return o;
  }
  chess::Game game(pgn.start, ruleset, claims);
  for (chess::Move m : pgn.moves) game.play(m);
  GameRow& row = o.row;
  row.index = index;
  row.first_line = pgn.first_line;
  std::string tag = pgn.tag("Result");
  row.result = tag.empty() ? pgn.result : tag;
  row.termination = game.termination() ? int32_t(*game.termination()) : -1;
  row.termination_ply = game.termination_ply();
  row.plies = int32_t(pgn.moves.size());
  row.perpetual_check = game.perpetual_check();
  for (int r = 0; r < chess::RULE_NB; ++r) row.first_fire[r] = game.first_fire(Rule(r));
  o.ok = true;
  return o;
}

}  // namespace

void read_pgn_games(const ReadBytes& read, const PgnStreamLimits& limits, int threads, Progress* progress,
                    const std::function<std::unique_ptr<PgnBatchWork>(size_t games)>& make) {
  struct Item {
    std::unique_ptr<Batch> batch;
    std::unique_ptr<PgnBatchWork> work;
  };
  GameBatches batches(read, limits);
  // The items in flight are owned here, not by the pipeline's tokens: a stage that throws
  // cancels the pipeline, and what the other tokens held is freed with this map.
  std::mutex live_mutex;
  std::unordered_map<Item*, std::unique_ptr<Item>> live;
  const int n = chess::resolve_threads(threads);
  // Reading and splitting (in order, one batch at a time) overlap the work on the batches
  // before; two batches a thread keep every thread busy and bound the memory.
  tbb::task_arena arena(n);
  arena.execute([&] {
    tbb::parallel_pipeline(
        size_t(2 * n + 1),
        tbb::make_filter<void, Item*>(tbb::filter_mode::serial_in_order, [&](tbb::flow_control& fc) -> Item* {
          std::unique_ptr<Batch> b = batches.next();
          if (!b) {
            fc.stop();
            return nullptr;
          }
          if (progress) progress->add_total(b->games.size());
          auto work = make(b->games.size());
          auto item = std::make_unique<Item>(Item{std::move(b), std::move(work)});
          Item* raw = item.get();
          std::lock_guard lock(live_mutex);
          live.emplace(raw, std::move(item));
          return raw;
        }) & tbb::make_filter<Item*, Item*>(tbb::filter_mode::parallel, [&](Item* item) {
          const Batch& b = *item->batch;
          tbb::parallel_for(tbb::blocked_range<size_t>(0, b.games.size(), 64),
                            [&](const tbb::blocked_range<size_t>& r) {
                              for (size_t i = r.begin(); i != r.end(); ++i)
                                item->work->game(i, b.games[i], b.first_index + int64_t(i));
                            });
          return item;
        }) & tbb::make_filter<Item*, Item*>(tbb::filter_mode::serial_in_order, [&](Item* item) {
          item->work->deliver();
          return item;
        }) & tbb::make_filter<Item*, Item*>(tbb::filter_mode::parallel, [&](Item* item) {
          item->work->encode();
          return item;
        }) & tbb::make_filter<Item*, void>(tbb::filter_mode::serial_in_order, [&](Item* item) {
          item->work->written();
          std::lock_guard lock(live_mutex);
          live.erase(item);
        }));
  });
}

DrawstatsResult compute_drawstats(const ReadBytes& read, const PgnStreamLimits& limits, chess::Ruleset ruleset,
                                  chess::ClaimPolicy claims, int threads, Progress* progress, DrawstatsSink* sink) {
  auto t0 = std::chrono::steady_clock::now();
  DrawstatsResult result;
  RuleTally tally;
  // A batch's outcomes, replayed in parallel, then counted and handed on in stream order.
  struct Work : PgnBatchWork {
    std::vector<Outcome> outcomes;
    chess::Ruleset ruleset;
    chess::ClaimPolicy claims;
    Progress* progress;
    DrawstatsResult& result;
    RuleTally& tally;
    DrawstatsSink* sink;
    Work(size_t games, chess::Ruleset r, chess::ClaimPolicy c, Progress* p, DrawstatsResult& res, RuleTally& t,
         DrawstatsSink* s)
        : outcomes(games), ruleset(r), claims(c), progress(p), result(res), tally(t), sink(s) {}
    void game(size_t i, const chess::PgnChunk& chunk, int64_t index) override {
      Outcome& o = outcomes[i];
      o = replay(chunk, index, ruleset, claims);
      if (progress) progress->done(1, o.ok ? o.row.plies : 0);
    }
    void deliver() override {
      for (Outcome& o : outcomes) {
        if (o.ok) {
          tally.add(o.row.first_fire, o.row.termination);
          ++result.replayed, result.plies += o.row.plies;
          if (sink)
            sink->game(std::move(o.row));
          else
            result.games.push_back(std::move(o.row));
        } else {
          ++result.skipped_games, result.skipped_variants += !o.skipped.variant.empty();
          if (sink)
            sink->skipped(std::move(o.skipped));
          else
            result.skipped.push_back(std::move(o.skipped));
        }
      }
    }
  };
  read_pgn_games(read, limits, threads, progress, [&](size_t games) {
    return std::make_unique<Work>(games, ruleset, claims, progress, result, tally, sink);
  });
  result.rules = tally.summaries();
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

DrawstatsResult compute_drawstats(const std::string& text, chess::Ruleset ruleset, chess::ClaimPolicy claims,
                                  int threads, Progress* progress) {
  size_t at = 0;
  ReadBytes read = [&](char* buf, size_t n) {
    size_t got = text.copy(buf, n, at);
    at += got;
    return got;
  };
  return compute_drawstats(read, PgnStreamLimits{}, ruleset, claims, threads, progress);
}

int run_drawstats(const DrawstatsRequest& req, std::ostream& out, std::ostream& err) {
  std::string started = utc_now();
  // Each game's row goes to the file as it comes, and a skipped game's line to stderr.
  struct Sink : DrawstatsSink {
    const DrawstatsRequest& req;
    Progress& progress;
    std::optional<StatsFile>& file;
    Sink(const DrawstatsRequest& q, Progress& p, std::optional<StatsFile>& f) : req(q), progress(p), file(f) {}
    void game(GameRow&& row) override {
      if (file) file->game(std::move(row));
    }
    void skipped(SkippedGame&& s) override {
      progress.say("chesshpc drawstats: " + req.pgn + ":" + std::to_string(s.line) + ": game " +
                   std::to_string(s.index) + " skipped: " + s.message + "\n");
      if (file) file->skipped(s);
    }
  };
  std::optional<StatsFile> file;
  DrawstatsResult r;
  try {
    ByteSource source(req.pgn, "PGN file");
    if (!req.out.empty()) file.emplace(req);
    Progress progress(err, "drawstats", !req.quiet, req.progress_interval, "Mplies/s");
    Sink sink(req, progress, file);
    r = compute_drawstats([&](char* buf, size_t n) { return source.read(buf, n); }, PgnStreamLimits{}, req.ruleset,
                          req.claims, req.threads, &progress, &sink);
    progress.finish();
  } catch (const ReadError& e) {
    err << "chesshpc drawstats: " << e.what() << "\n";
    return e.exit_code();
  } catch (const GameTooLong& e) {
    err << "chesshpc drawstats: " << req.pgn << ":" << e.line << ": game " << e.index << " is longer than "
        << format_size(e.bound) << ", the most one game may take\n";
    return EXIT_INPUT;
  }

  // The statistics are printed whether or not the file could be written.
  std::string unwritten = file ? file->finish(req, r, started) : "";
  if (req.json)
    print_json(req, r, unwritten.empty(), out);
  else
    print_summary(req, r, out);
  return say_unwritten("drawstats", unwritten, "", err);
}

}  // namespace chesshpc
