#include "jobs/selfplay/batch_job.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iterator>

#include "core/threads.h"
#include "jobs/io/h5.h"
#include "jobs/io/job_common.h"
#include "jobs/io/json.h"
#include "jobs/io/root_file.h"
#include "jobs/selfplay/game_bytes.h"
#include "jobs/selfplay/print.h"

namespace chesshpc {

namespace {

// A PGN line cut to its first plies, its text (its SAN moves, a space between) too.
void cut_line(BookLine& line, int plies) {
  line.moves.resize(size_t(plies));
  size_t end = 0;
  for (int i = 0; i < plies && end != std::string::npos; ++i) end = line.text.find(' ', end + (i > 0));
  line.text = line.text.substr(0, plies == 0 ? 0 : end);
}

}  // namespace

SelfplayBatch::SelfplayBatch(SelfplayRequest req) : req_(std::move(req)), store_(req_.out, req_) {}

int SelfplayBatch::plan(const Ranks& ranks, std::ostream& err) {
  if (!req_.book.empty()) {
    try {
      // Read by rank 0 and sent to every rank: the book need only be on rank 0's node.
      const RootFile file = read_on_root(ranks.exchange, req_.book);
      if (!file.why.empty()) throw BookError("cannot read book '" + req_.book + "': " + file.why);
      book_ = parse_book(req_.book, file.bytes, &req_.book_digest);
      if (size_t(req_.book_start) > book_.size())
        throw BookError("'" + req_.book + "' has " + std::to_string(book_.size()) + " lines: it cannot start at line " +
                        std::to_string(req_.book_start));
      book_.erase(book_.begin(), book_.begin() + (req_.book_start - 1));
      for (BookLine& line : book_)
        if (req_.book_plies >= 0 && line.moves.size() > size_t(req_.book_plies)) cut_line(line, req_.book_plies);
    } catch (const BookError& e) {
      err << "chesshpc selfplay: " << e.what() << "\n";
      return EXIT_INPUT;
    }
  }
  spec_.openings = {book_.empty() ? nullptr : &book_, req_.book_order, req_.random_plies, req_.seed, req_.variant};
  spec_.ruleset = req_.ruleset, spec_.claims = req_.claims, spec_.adjudication = req_.adjudication;
  spec_.clocks = {req_.clock_of(req_.first), req_.clock_of(req_.second)};
  spec_.seed = req_.seed, spec_.variation = req_.variation;
  if (req_.sprt) sprt_.emplace(*req_.sprt);
  per_unit_ = req_.games_per_unit ? uint64_t(req_.games_per_unit) : GAMES_PER_UNIT;
  threads_ = chess::resolve_threads(req_.threads);
  return EXIT_OK;
}

// Both players must start before any game: a missing engine is bad input now, not a batch
// of failed games. Then the games an earlier run recorded (with --resume), and a first
// part, so that an unwritable --out fails now.
int SelfplayBatch::open(const std::string&, std::ostream& err) {
  try {
    make_player(req_.first, req_), make_player(req_.second, req_);
  } catch (const std::exception& e) {
    err << "chesshpc selfplay: " << e.what() << "\n";
    return EXIT_INPUT;
  }
  if (req_.out.empty()) return EXIT_OK;
  if (req_.resume) {
    if (!store_.unfinished()) {
      err << "chesshpc selfplay: cannot resume: there is no '" << store_.parts_dir()
          << "' (start the batch without --resume)\n";
      return EXIT_INPUT;
    }
    try {
      SelfplayTables t = store_.load_parts(&err);
      done_.insert(t.games.game.begin(), t.games.game.end());
      for (size_t i = 0; sprt_ && i < t.games.size(); ++i)
        sprt_->add(t.games.game[i], first_player_points(t.games.game[i], t.games.result[i]));
    } catch (const std::exception& e) {
      err << "chesshpc selfplay: " << e.what() << "\n";
      return EXIT_INPUT;
    }
  } else if (store_.unfinished() && !req_.force) {
    err << "chesshpc selfplay: '" << store_.parts_dir() << "' holds an unfinished batch: add --resume to continue it, "
        << "or --force to start again\n";
    return EXIT_USAGE;
  } else if (req_.force) {
    store_.remove_parts();  // an earlier batch's games must not be merged into this one
  }
  try {
    store_.write_part({});
  } catch (const std::exception& e) {
    err << "chesshpc selfplay: " << e.what() << "\n";
    // The parts directory made just now holds nothing: left, it would pass for an
    // unfinished batch. (remove() takes an empty directory only.)
    std::error_code ec;
    if (!req_.resume) std::filesystem::remove(store_.parts_dir(), ec);
    return EXIT_IO;
  }
  return EXIT_OK;
}

bool SelfplayBatch::done(size_t unit) const {
  for (uint64_t g = unit * per_unit_; g < std::min(req_.games, (unit + 1) * per_unit_); ++g)
    if (!done_.count(g)) return false;
  return true;
}

UnitJobInfo SelfplayBatch::info() const {
  UnitJobInfo i = unit_job_info("selfplay", req_, req_, req_.command_line);
  i.items = "games", i.rate = "positions/s";
  i.total_items = req_.games, i.items_to_do = req_.games - done_.size();
  i.kept_in = req_.out.empty() ? "" : store_.parts_dir();  // checkpoints go to the parts
  return i;
}

std::string SelfplayBatch::ready_players() {
  Players& p = players_.local();
  for (auto [player, spec] : {std::pair{&p.first, &req_.first}, std::pair{&p.second, &req_.second}}) {
    if (*player && !(*player)->failed()) continue;
    player->reset();  // a failed engine is killed before its successor starts
    try {
      *player = make_player(*spec, req_);
    } catch (const std::exception& e) {
      return "player '" + spec->label() + "' could not be started again: " + e.what();
    }
  }
  return "";
}

// On the calling thread: a rank plays as many units at once as it has threads. A player
// that failed a game (an engine that hung or exited) is started again for the next one;
// when it cannot be, the unit ends there and says why.
Payload SelfplayBatch::compute(size_t unit) {
  std::vector<GameRecord> games;
  std::string lost;
  for (uint64_t i = unit * per_unit_; i < std::min(req_.games, (unit + 1) * per_unit_); ++i) {
    if (lost = ready_players(); !lost.empty()) break;
    Players& p = players_.local();
    games.push_back(play_game(spec_, i, *p.first, *p.second));
    GameRecord& g = games.back();
    const bool swapped = g.index % 2;  // the second player has White in odd games
    const PlayerSpec &white = swapped ? req_.second : req_.first, &black = swapped ? req_.first : req_.second;
    if (!white.name.empty()) g.white = white.name;
    if (!black.name.empty()) g.black = black.name;
    g.white_settings = player_settings(white, req_), g.black_settings = player_settings(black, req_);
    g.seed = req_.seed;
  }
  return encode_games(games, lost);
}

// A unit that an earlier run half finished (with another --games-per-unit, or stopped
// short by a player that could not start again) is played whole again; the games the
// file already holds are dropped here.
Recorded SelfplayBatch::record(size_t, Payload&& result, double, int) {
  Recorded r;
  std::string lost;
  std::vector<GameRecord> games = decode_games(result, &lost);
  if (lost_player_.empty()) lost_player_ = lost;
  for (const GameRecord& g : games) {
    if (done_.count(g.index)) continue;
    unsaved_.append(g);
    ++r.items, r.work += g.plies.size();
    const std::string result(chess::result_string(g.result));
    ++results_[result];
    if (sprt_) sprt_->add(g.index, first_player_points(g.index, result));
    search_seconds_ += g.search_seconds;
  }
  recorded_ += r.items;
  return r;
}

// The games since the last checkpoint go into a new part, with those of parts that could
// not be written: a full disk must not lose them from the dataset.
std::function<uint64_t()> SelfplayBatch::checkpoint() {
  if (req_.out.empty()) return {};
  SelfplayTables games = take_unwritten();
  games.append(std::exchange(unsaved_, {}));
  const uint64_t in_file = done_.size() + recorded_;
  if (games.games.size() == 0) return [in_file] { return in_file; };  // no new games: no empty part
  return [this, games = std::move(games), in_file] {
    try {
      store_.write_part(games);
    } catch (...) {
      std::lock_guard lock(unwritten_mutex_);
      unwritten_.append(games);
      throw;
    }
    return in_file;
  };
}

SelfplayTables SelfplayBatch::take_unwritten() {
  std::lock_guard lock(unwritten_mutex_);
  return std::exchange(unwritten_, {});
}

// Games per second of this run and the results so far.
std::string SelfplayBatch::progress_detail() const {
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  char rate[32];
  std::snprintf(rate, sizeof rate, ", %.1f games/s", secs > 0 ? double(recorded_) / secs : 0.0);
  std::string s = rate;
  if (!results_.empty()) s += ";";  // before the first game: "0.0 games/s; LLR 0.00 [...]", not ";;"
  for (const auto& [result, n] : results_) s += " " + result + " " + std::to_string(n);
  if (sprt_) {
    s += "; " + llr_text(sprt_->llr(), sprt_->spec());
    if (sprt_->decision() != SprtDecision::NONE) s += std::string(" ") + sprt_decision_name(sprt_->decision());
  }
  return s;
}

// A dataset that cannot be written still has its summary printed; its games stay in the
// parts (those written), and --resume plays the others again and writes the file.
int SelfplayBatch::finish(const UnitRun& run, std::ostream& out, std::ostream& err) {
  if (!lost_player_.empty()) return stop_for_lost_player(err);
  SelfplayTables all = take_unwritten();
  all.append(std::exchange(unsaved_, {}));
  const PairSequence* sprt = sprt_ ? &*sprt_ : nullptr;
  size_t dropped = 0;
  std::string unwritten;
  if (!req_.out.empty()) {
    try {
      SelfplayTables parts = store_.load_parts();
      parts.append(all);
      all = std::move(parts);
    } catch (const std::exception& e) {
      err << "chesshpc selfplay: " << e.what() << "\n";
      return EXIT_IO;
    }
  }
  // A decided SPRT keeps the pairs up to its decision: the same games on any number of
  // ranks, whichever units were still out when it came.
  const uint64_t kept = sprt_decided() ? 2 * sprt_->pairs() : req_.games;
  if (sprt_decided()) all.keep_games_before(kept);
  // Games of earlier runs the file keeps: a resumed batch's parts may hold games past the
  // decision, which the file leaves out as it leaves out this run's.
  const size_t resumed = size_t(std::distance(done_.begin(), done_.lower_bound(kept)));
  if (!req_.out.empty())
    unwritten = h5::write_error([&] { dropped = store_.finish(all, run.started, threads_, run.ranks, sprt); });
  if (req_.out.empty()) all.sort_by_game();
  print_summary({req_, all, run, threads_, resumed, dropped, search_seconds_, sprt, recorded_}, out);
  if (!req_.pgn_out.empty()) {
    all.sort_by_game();
    kept_ = std::move(all), started_ = run.started;
  }
  return say_unwritten(
      "selfplay", unwritten,
      "the games written so far stay in '" + store_.parts_dir() + "' (--resume plays the others and writes the file)",
      err);
}

// The batch cannot go on, but what it played stands: the games since the last checkpoint
// become a part, and --resume plays the others once the engine starts again.
int SelfplayBatch::stop_for_lost_player(std::ostream& err) {
  SelfplayTables games = take_unwritten();
  games.append(std::exchange(unsaved_, {}));
  const uint64_t finished = done_.size() + recorded_;
  err << "chesshpc selfplay: " << lost_player_ << "; the batch stops";
  if (req_.out.empty()) {
    err << " after " << finished << " of " << req_.games << " games (without --out nothing is kept)\n";
    return EXIT_INPUT;
  }
  const std::string unwritten = h5::write_error([&] {
    if (games.games.size()) store_.write_part(games);
  });
  if (!unwritten.empty()) {
    err << ", and the games since the last checkpoint could not be saved: " << unwritten << "\n";
    return EXIT_IO;
  }
  err << ": its " << finished << " finished games of " << req_.games << " are kept in '" << store_.parts_dir()
      << "', and --resume continues it: " << req_.command_line << (req_.resume ? "" : " --resume") << "\n";
  return EXIT_INPUT;
}

}  // namespace chesshpc
