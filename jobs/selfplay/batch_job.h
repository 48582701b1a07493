// A selfplay batch as a unit job: the driver (cluster/unit_driver) spreads its units of
// consecutive games over ranks, each rank playing one unit per thread at once; rank 0
// keeps the finished games, checkpoints them as parts (jobs/selfplay/file.h) and writes
// the dataset at the end.
#pragma once

#include <tbb/enumerable_thread_specific.h>

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "jobs/io/unit_job.h"
#include "jobs/selfplay/file.h"
#include "jobs/selfplay/request.h"
#include "jobs/selfplay/sprt.h"

namespace chesshpc {

// Games in a unit unless --games-per-unit says otherwise. A rank plays one unit per thread
// at once, so small units cost only messages and keep the last ones spread over the
// ranks. Unit u holds games [u * size, (u + 1) * size): units depend on the batch alone,
// so every rank knows them without a list, and a resumed batch has the same units.
constexpr uint64_t GAMES_PER_UNIT = 2;

class SelfplayBatch : public UnitJob {
 public:
  explicit SelfplayBatch(SelfplayRequest req);

  int plan(const Ranks& ranks, std::ostream& err) override;
  size_t units() const override { return size_t((req_.games + per_unit_ - 1) / per_unit_); }
  int open(const std::string& started, std::ostream& err) override;
  bool done(size_t unit) const override;
  UnitJobInfo info() const override;

  int concurrency() const override { return threads_; }
  Payload compute(size_t unit) override;
  Recorded record(size_t unit, Payload&& result, double seconds, int rank) override;
  std::function<uint64_t()> checkpoint() override;
  // An SPRT decided, or a player could not be started again: no more units.
  bool enough() const override { return sprt_decided() || !lost_player_.empty(); }
  std::string progress_detail() const override;
  int finish(const UnitRun& run, std::ostream& out, std::ostream& err) override;
  // After finish on rank 0, with --pgn-out: the games the batch kept, in game order, and
  // when it started (what a PGN's Date tag reads). Empty otherwise.
  const SelfplayTables& kept_games() const { return kept_; }
  const std::string& started() const { return started_; }

 private:
  // Each thread keeps its own pair of players for every game it plays (external engines
  // start once per thread, not once per game, and again after a game they failed).
  struct Players {
    std::unique_ptr<Player> first, second;
  };
  // Starts this thread's players that are missing or failed; returns why one could not
  // start, empty when both are ready.
  std::string ready_players();
  bool sprt_decided() const { return sprt_ && sprt_->decision() != SprtDecision::NONE; }
  SelfplayTables take_unwritten();  // and leaves none
  // After a player could not be started again: the games so far saved as a part, and the
  // line that says so. Returns the ExitCode.
  int stop_for_lost_player(std::ostream& err);

  SelfplayRequest req_;
  uint64_t per_unit_ = GAMES_PER_UNIT;
  int threads_ = 1;
  std::vector<BookLine> book_;
  GameSpec spec_;
  tbb::enumerable_thread_specific<Players> players_;
  // Rank 0: the store, the games earlier runs and earlier parts hold, and what came since.
  SelfplayStore store_;
  std::set<uint64_t> done_;  // games of earlier runs (--resume)
  SelfplayTables unsaved_;   // recorded since the last checkpoint
  // Games of checkpoints that failed (a full disk), for the next part or the end. The
  // checkpoint's writer adds to them outside the driver's lock, hence the mutex.
  std::mutex unwritten_mutex_;
  SelfplayTables unwritten_;
  uint64_t recorded_ = 0;    // games recorded by this run
  std::string lost_player_;  // the first unit's word that a player could not start again
  std::map<std::string, uint64_t> results_;
  std::optional<PairSequence> sprt_;  // --sprt, over the games of earlier runs too
  double search_seconds_ = 0;
  SelfplayTables kept_;  // finish's games, for --pgn-out
  std::string started_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace chesshpc
