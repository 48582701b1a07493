#include "cluster/selfplay_farm.h"

#include <tbb/enumerable_thread_specific.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <set>

#include "cluster/checkpointer.h"
#include "cluster/mpi_session.h"
#include "cluster/signals.h"
#include "cluster/task_farm.h"
#include "core/perft.h"
#include "core/threads.h"
#include "jobs/io/h5.h"
#include "jobs/io/job_common.h"
#include "jobs/io/json.h"
#include "jobs/io/progress.h"
#include "jobs/io/provenance.h"
#include "jobs/selfplay/file.h"
#include "jobs/selfplay/game_bytes.h"

namespace chesshpc {

namespace {

// Units of consecutive games still to play, two games each: a rank plays one unit per
// thread at once, so small units only cost messages and keep the last ones spread over
// the ranks. Units are formed on rank 0 from the games left to play (all of them, or
// those a resumed batch lacks) and sent to every rank, so they never need to match an
// earlier run's.
constexpr uint64_t GAMES_PER_UNIT = 2;

// Each thread keeps its own pair of players for every game it plays (external engines
// start once per thread, not once per game).
struct Players {
  std::unique_ptr<Player> first, second;
  std::string error;  // why they could not start
};

GameRecord failed_game(const SelfplayRequest& req, uint64_t index, const std::string& why) {
  GameRecord g;
  g.index = index;
  g.opening.start = chess::Position::start();
  g.white = (index % 2 ? req.second : req.first).label(), g.black = (index % 2 ? req.first : req.second).label();
  g.ending = Ending::ERROR, g.termination = "error: " + why;
  g.first_fire.fill(-1);
  return g;
}

struct Batch {
  const SelfplayRequest& req;
  GameSpec spec;
  uint64_t per_unit = 1;
  std::vector<BookLine> book;
  std::vector<uint64_t> todo;  // the games to play, ascending
  tbb::enumerable_thread_specific<Players> players;

  // The range of `todo` that unit `unit` plays.
  std::pair<size_t, size_t> games_of(size_t unit) const {
    size_t a = unit * per_unit;
    return {a, std::min(todo.size(), size_t(a + per_unit))};
  }
  size_t units() const { return (todo.size() + per_unit - 1) / per_unit; }

  Players& my_players() {
    Players& p = players.local();
    if (!p.first && p.error.empty()) {
      try {
        p.first = make_player(req.first, req), p.second = make_player(req.second, req);
      } catch (const std::exception& e) {
        p.error = e.what();
      }
    }
    return p;
  }

  // On the calling thread: a rank plays as many units at once as it has threads.
  std::vector<GameRecord> play(size_t unit) {
    auto [a, b] = games_of(unit);
    std::vector<GameRecord> games;
    Players& p = my_players();
    for (size_t k = a; k < b; ++k) {
      games.push_back(p.error.empty() ? play_game(spec, todo[k], *p.first, *p.second)
                                      : failed_game(req, todo[k], p.error));
      GameRecord& g = games.back();
      bool swapped = g.index % 2;  // the second player has White in odd games
      g.white_settings = player_settings(swapped ? req.second : req.first, req);
      g.black_settings = player_settings(swapped ? req.first : req.second, req);
      g.seed = req.seed;
    }
    return games;
  }
};

// Rank 0's record of finished games: what the last part holds and what came since.
class GameLedger {
 public:
  explicit GameLedger(Progress& progress) : progress_(progress) {}
  void record(std::vector<GameRecord>&& games) {
    std::lock_guard lock(mutex_);
    if (frozen_) return;
    size_t positions = 0;
    for (const GameRecord& g : games) {
      unsaved_.append(g);
      positions += g.plies.size();
      ++results_[std::string(chess::result_string(g.result))];
      search_seconds_ += g.search_seconds;
    }
    done_ += games.size();
    progress_.done(games.size(), positions);
  }
  // The games since the last take, and the count of all games recorded.
  std::pair<SelfplayTables, uint64_t> take() {
    std::lock_guard lock(mutex_);
    SelfplayTables t = std::move(unsaved_);
    unsaved_ = {};
    return {std::move(t), done_};
  }
  void freeze() {
    std::lock_guard lock(mutex_);
    frozen_ = true;
  }
  // Games per second of this run and the results so far, for the progress line.
  std::string results() const {
    std::lock_guard lock(mutex_);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    char rate[32];
    std::snprintf(rate, sizeof rate, ", %.1f games/s;", secs > 0 ? double(done_) / secs : 0.0);
    std::string s = rate;
    for (const auto& [result, n] : results_) s += " " + result + " " + std::to_string(n);
    return s;
  }
  double search_seconds() const {
    std::lock_guard lock(mutex_);
    return search_seconds_;
  }

 private:
  Progress& progress_;
  mutable std::mutex mutex_;
  SelfplayTables unsaved_;
  uint64_t done_ = 0;
  std::map<std::string, uint64_t> results_;
  bool frozen_ = false;
  double search_seconds_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// Rank 0, before any game: the games an earlier run recorded (with --resume), and a first
// part, so that an unwritable --out fails now.
int open_store(const SelfplayRequest& req, SelfplayStore& store, std::set<uint64_t>& done, std::ostream& err) {
  if (req.resume) {
    if (!store.unfinished()) {
      err << "chesshpc selfplay: cannot resume: there is no '" << store.parts_dir()
          << "' (start the batch without --resume)\n";
      return EXIT_INPUT;
    }
    try {
      SelfplayTables t = store.load_parts();
      done.insert(t.games.game.begin(), t.games.game.end());
    } catch (const std::exception& e) {
      err << "chesshpc selfplay: " << e.what() << "\n";
      return EXIT_INPUT;
    }
  } else if (store.unfinished()) {
    err << "chesshpc selfplay: '" << store.parts_dir() << "' holds an unfinished batch: add --resume to continue it, "
        << "or remove it to start again\n";
    return EXIT_USAGE;
  }
  try {
    store.write_part({});
  } catch (const std::exception& e) {
    err << "chesshpc selfplay: " << e.what() << "\n";
    return EXIT_IO;
  }
  return EXIT_OK;
}

// search_seconds: time the players spent choosing moves in this run, over all ranks and
// threads; the rest of ranks x threads x secs went to game bookkeeping, MPI, HDF5 and waits.
void print_summary(const SelfplayRequest& req, const SelfplayTables& t, double secs, int threads, size_t resumed,
                   size_t dropped, double search_seconds, std::ostream& out) {
  std::map<std::string, uint64_t> results, terminations;
  for (const std::string& r : t.games.result) ++results[r];
  for (const std::string& r : t.games.termination) ++terminations[r.rfind("error", 0) == 0 ? "error" : r];
  size_t computed = t.games.size() - resumed;
  if (req.json) {
    JsonObject o, res, term;
    for (const auto& [k, v] : results) res.add(k, (unsigned long long)v);
    for (const auto& [k, v] : terminations) term.add(k, (unsigned long long)v);
    o.add("games", (unsigned long long)t.games.size()).add("games_resumed", (unsigned long long)resumed);
    o.add("games_played", (unsigned long long)computed).add("positions", (unsigned long long)t.positions.size());
    o.add("duplicates_dropped", (unsigned long long)dropped).add("seconds", secs);
    o.add("games_per_second", secs > 0 ? double(computed) / secs : 0.0).add("threads", threads).add("ranks", req.ranks);
    o.add("results", res).add("terminations", term).add("seed", (unsigned long long)req.seed);
    o.add("positions_per_second", secs > 0 ? double(t.positions.size()) / secs : 0.0);
    o.add("search_seconds", search_seconds);
    o.add("outside_search_share", secs > 0 ? 1 - search_seconds / (secs * threads * req.ranks) : 0.0);
    out << o.str() << "\n";
    return;
  }
  out << "selfplay: " << t.games.size() << " games (" << resumed << " resumed), " << t.positions.size()
      << " positions in " << secs << " s, " << threads << (threads == 1 ? " thread" : " threads") << ", " << req.ranks
      << (req.ranks == 1 ? " rank" : " ranks") << "\nresults:";
  for (const auto& [k, v] : results) out << " " << k << " " << v;
  out << "\nterminations:";
  for (const auto& [k, v] : terminations) out << " " << k << " " << v;
  out << "\n";
}

}  // namespace

int run_selfplay(SelfplayRequest req, std::ostream& out, std::ostream& err) {
  MpiSession mpi;
  const int rank = MpiSession::rank();
  req.ranks = MpiSession::size();
  Batch batch{req, {}, 1, {}, {}, {}};
  if (!req.book.empty()) {
    try {
      batch.book = read_book(req.book);
    } catch (const BookError& e) {
      if (rank == 0) err << "chesshpc selfplay: " << e.what() << "\n";
      return EXIT_INPUT;
    }
  }
  GameSpec& spec = batch.spec;
  spec.openings = {batch.book.empty() ? nullptr : &batch.book, req.book_order, req.random_plies, req.seed};
  spec.ruleset = req.ruleset, spec.claims = req.claims, spec.adjudication = req.adjudication;
  spec.clock = req.clock, spec.seed = req.seed;

  catch_stop_signals();
  std::string started = utc_now();
  auto t0 = std::chrono::steady_clock::now();
  SelfplayStore store(req.out, req);
  std::set<uint64_t> done;
  int status = EXIT_OK;
  if (rank == 0) {
    // Both players must start before any game: a missing engine is a usage error now,
    // not a batch of failed games.
    try {
      make_player(req.first, req), make_player(req.second, req);
    } catch (const std::exception& e) {
      err << "chesshpc selfplay: " << e.what() << "\n";
      status = EXIT_INPUT;
    }
    if (status == EXIT_OK && !req.out.empty()) status = open_store(req, store, done, err);
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (status != EXIT_OK) return status;

  int threads = chess::resolve_threads(req.threads);
  if (rank == 0) {
    for (uint64_t i = 0; i < req.games; ++i)
      if (!done.count(i)) batch.todo.push_back(i);
    batch.per_unit = req.games_per_unit ? uint64_t(req.games_per_unit) : GAMES_PER_UNIT;
  }
  uint64_t sizes[2] = {batch.per_unit, batch.todo.size()};
  MPI_Bcast(sizes, 2, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  batch.per_unit = sizes[0], batch.todo.resize(sizes[1]);
  MPI_Bcast(batch.todo.data(), int(batch.todo.size()), MPI_UINT64_T, 0, MPI_COMM_WORLD);
  std::vector<size_t> pending;
  for (size_t u = 0; rank == 0 && u < batch.units(); ++u) pending.push_back(u);
  Progress progress(err, "selfplay", !req.quiet && rank == 0, req.progress_interval, "positions/s");
  progress.set_unit_name("games");
  progress.add_total(req.games - done.size());
  GameLedger ledger(progress);
  progress.set_detail([&] { return ledger.results(); });

  FarmTask task;
  task.compute = [&](size_t unit) { return encode_games(batch.play(unit)); };
  task.concurrency = threads;
  task.record = [&](size_t, Payload&& bytes, double, int) { ledger.record(decode_games(bytes)); };
  std::optional<Checkpointer> checkpointer;
  if (rank == 0) {
    CheckpointHooks hooks;
    if (!req.out.empty())
      hooks.save = [&] {
        auto [tables, recorded] = ledger.take();
        store.write_part(tables);
        return size_t(done.size() + recorded);
      };
    hooks.freeze = [&] { ledger.freeze(); };
    checkpointer.emplace(
        std::move(hooks), req.checkpoint_interval,
        [notice = StopNotice{"selfplay", "games", req.games, req.out.empty() ? "" : store.parts_dir(), req.command_line,
                             req.resume}](int sig, size_t done) { stop_job(notice, sig, done); });
  }
  run_farm(task, pending, 0);
  checkpointer.reset();
  progress.finish();
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (rank != 0) return EXIT_OK;

  SelfplayTables all = ledger.take().first;
  size_t dropped = 0;
  if (!req.out.empty()) {
    try {
      SelfplayTables parts = store.load_parts();
      parts.append(all);
      all = std::move(parts);
      dropped = store.finish(all, started, threads);
    } catch (const std::exception& e) {
      err << "chesshpc selfplay: " << e.what() << "\n";
      return EXIT_IO;
    }
  }
  if (req.out.empty()) all.sort_by_game();
  print_summary(req, all, secs, threads, done.size(), dropped, ledger.search_seconds(), out);
  return EXIT_OK;
}

}  // namespace chesshpc
