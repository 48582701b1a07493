// A job made of units: what a job gives the unit-job driver (cluster/unit_driver), which
// runs it in one process or over MPI ranks, with progress, checkpoints, stop signals and
// --resume. The job knows its units and its file; the driver knows ranks, threads of
// control, time and signals. Nothing here sees MPI.
//
// The driver's calls, in order (R0: rank 0 only):
//   1. plan(ranks)       every rank: check the request, plan the units, the same on every
//                        rank (messages then carry unit indices only); an input only rank
//                        0 reads, its counts sent over ranks.exchange
//   2. open(started)     R0: open the result file or resume from it, with a first write
//                        so that an unwritable file fails before any work
//      prepare(ranks)    every rank, together: collective work the units need
//   3. done(u), info()   R0: which units an earlier run finished; names and totals
//   4. unit_input(u)     R0: what the unit needs from rank 0's input, sent with it
//      compute_with(u, i) any rank, up to concurrency() units at once, each on its thread
//      record(u, bytes)  R0: a finished unit, whichever rank computed it
//      enough()          R0: whether the job needs no more units (an SPRT decided)
//      checkpoint()      R0: every few seconds and on a stop signal
//      stopped(load)     R0: on a stop signal, before the last checkpoint
//   5. finish(run)       R0: the last write and the summary
// record() and checkpoint() are called under one lock, never at the same time, and
// record() is no longer called once a stop signal has frozen the ledger: the job needs
// no locks of its own.
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "jobs/io/options.h"  // Reporting, ResultFile
#include "jobs/io/rank_load.h"

namespace chesshpc {

class Exchange;  // jobs/io/exchange.h

// A unit's result as it travels from the rank that computed it to rank 0.
using Payload = std::vector<char>;

// This process's place among the ranks running the job.
struct Ranks {
  int rank = 0, size = 1;
  // Collectives for plan() and prepare() (every rank's main thread, in the same order); the driver's,
  // valid until the run ends. Null: this process alone.
  Exchange* exchange = nullptr;
  // The signal that asked the run to stop, or 0; null: never. Long collective work
  // (prepare()) polls it, and agrees over the exchange to stop.
  int (*stop_signal)() = nullptr;
  bool root() const { return rank == 0; }
};

// What the driver says about the job in progress lines and in a stop notice, and how
// often it reports and saves.
struct UnitJobInfo {
  std::string command;          // "perft"
  std::string items = "units";  // what progress counts and a stop notice names: "units", "games"
  std::string rate = "Mnps";    // how the work per second is shown: "Mnps", "positions/s"
  uint64_t total_items = 0;
  uint64_t items_to_do = 0;  // this run: total_items less what an earlier run finished
  std::string kept_in;       // where checkpoints go; empty: the job keeps nothing
  std::string command_line;  // to resume with
  bool resumed = false;      // the command line already has --resume
  bool quiet = false;
  double progress_interval = 0;    // seconds; 0: 1 on a terminal, 10 otherwise
  double checkpoint_interval = 0;  // seconds; 0: 5, stretched so that saving stays under 2%
};

// What every job's request says the same way, through the shared option groups: where
// checkpoints go (--out), whether this is a --resume, progress and checkpoint intervals,
// and the command line to resume with. A job adds its names and totals.
inline UnitJobInfo unit_job_info(std::string command, const Reporting& reporting, const ResultFile& file,
                                 std::string command_line) {
  UnitJobInfo i;
  i.command = std::move(command);
  i.kept_in = file.out, i.resumed = file.resume, i.checkpoint_interval = file.checkpoint_interval;
  i.quiet = reporting.quiet, i.progress_interval = reporting.progress_interval;
  i.command_line = std::move(command_line);
  return i;
}

// What one record() adds to the progress line.
struct Recorded {
  uint64_t items = 0;  // units or games
  uint64_t work = 0;   // nodes or positions, for the rate
};

// What the driver measured, for the job's last write and summary.
struct UnitRun {
  std::string started;         // ISO 8601 UTC, as open() got it
  double seconds = 0;          // from the plan to the last unit
  int ranks = 1;               // ranks that ran the units
  std::vector<RankLoad> load;  // per rank: busy and idle seconds (run 0; a job numbers its runs)
  int checkpoints = 0;
  double checkpoint_seconds = 0;  // rank 0 writing checkpoints, beside its computing threads
};

class UnitJob {
 public:
  virtual ~UnitJob() = default;

  // Every rank. Returns an ExitCode, after saying why it is not EXIT_OK: the driver shows
  // what rank 0 says, and when only other ranks failed (an input file missing on their
  // node), the first line of the first of them, naming its rank and host.
  virtual int plan(const Ranks& ranks, std::ostream& err) = 0;
  virtual size_t units() const = 0;
  // Rank 0. Returns an ExitCode, after saying why it is not EXIT_OK.
  virtual int open(const std::string& started, std::ostream& err) = 0;
  virtual bool done(size_t unit) const = 0;
  // Every rank, together, after open() and before the units: work the units need that the
  // ranks do collectively (perft dedup's routing). Returns an ExitCode, the same on every
  // rank; EXIT_STOPPED when a stop signal ended it (the driver then says what the file
  // keeps). Rank 0 alone says why it is not EXIT_OK otherwise.
  virtual int prepare(const Ranks&, std::ostream&) { return 0; }
  virtual UnitJobInfo info() const = 0;

  // Units a rank computes at once: 1 when compute() spreads one unit over the rank's
  // threads (perft), the thread count when a unit is sequential work (selfplay games).
  virtual int concurrency() const = 0;
  // Optional: a key for units that share work, so that they go to the same rank (key %
  // ranks) while that rank has any left. Empty: one shared queue.
  virtual std::function<size_t(size_t unit)> affinity() const { return {}; }
  // With an affinity: whether a unit may run only on rank key % ranks, because what it
  // needs lives there (a rank whose queue is empty then waits, it never steals).
  virtual bool pinned() const { return false; }
  // Any rank, from several threads at once.
  virtual Payload compute(size_t unit) = 0;
  // Optional, rank 0, from several threads at once: the bytes a unit needs that only rank 0
  // holds (an input file read by rank 0 alone), handed with the unit to the rank that
  // computes it. Empty (the default): every rank planned all that its units need.
  virtual Payload unit_input(size_t) const { return {}; }
  // Any rank, from several threads at once: the unit computed from unit_input(unit), as
  // rank 0 gave it. By default compute(unit), which a job with an input may leave to rank 0.
  virtual Payload compute_with(size_t unit, const Payload&) { return compute(unit); }

  // Rank 0, under the driver's lock.
  virtual Recorded record(size_t unit, Payload&& result, double seconds, int rank) = 0;
  // Rank 0, under the driver's lock: a function that writes what was recorded so far and
  // returns the items the written file holds; the driver calls it outside the lock, and
  // it throws on failure (the previous checkpoint stays). Empty: the job keeps no file.
  virtual std::function<uint64_t()> checkpoint() = 0;
  // Rank 0, under the driver's lock, once a stop signal has frozen the ledger and before
  // the last checkpoint: each rank's time in this run until the stop (run 0; a job numbers
  // its runs), for the file to keep as finish() keeps a whole run's.
  virtual void stopped(const std::vector<RankLoad>&) {}
  // Rank 0, under the driver's lock, after a record(): true once the job needs no more
  // units (selfplay's --sprt decided). The farm then hands out none, every rank finishes
  // the units it holds (which are still recorded) and finish() follows as after the last unit.
  virtual bool enough() const { return false; }
  // Rank 0, under the driver's lock, while the run goes on: more for the progress line.
  virtual std::string progress_detail() const { return {}; }

  // Rank 0, after the last unit. Returns an ExitCode.
  virtual int finish(const UnitRun& run, std::ostream& out, std::ostream& err) = 0;
};

}  // namespace chesshpc
