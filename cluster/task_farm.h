// The MPI task farm under every job split into units. Every rank knows the units (each
// job plans them deterministically from what rank 0 read), so messages carry unit
// indices, results, and the input a unit needs that only rank 0 holds. Rank 0 hands units
// out on request, in the order it is given, and computes units itself in a second thread
// while its main thread serves the others. The farm does not know what a unit is: inputs
// and results travel as bytes.
//
// The protocol (cluster/task_farm.cpp's tags), worker r and rank 0:
//   r -> 0 REPORT {unit done or NONE, seconds, result bytes}: asks for a unit, with the
//                 last one's result if any; RESULT: those bytes, right after
//   0 -> r ASSIGN {unit or NONE, input bytes}: answers each report, NONE once no unit is
//                 left; INPUT: those bytes, right after (sent without blocking, as r may be
//                 sending a result at that moment)
//   r -> 0 REPORT {BYE}: every answer in and every unit done; then every rank gathers the load No rank spins while it
// waits (for a unit, a report, or the others at the end): a worker whose threads all have
// a unit sleeps until one is done, rank 0 polls for reports a quarter of a unit apart, and
// every other wait polls with cluster/mpi_session.h's PollBackoff, so that the waiting
// takes next to no CPU (and few wakes) from the threads and engines beside it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "jobs/io/rank_load.h"
#include "jobs/io/unit_job.h"  // Payload

namespace chesshpc {

struct FarmTask {
  // Computes one unit on this rank (with the rank's threads inside) from the input rank 0
  // gave it (empty without `input`); called on every rank.
  std::function<Payload(size_t unit, const Payload& input)> compute;
  // Optional, rank 0, from its two threads at once: the bytes a unit needs that only rank 0
  // holds, sent with the unit to the rank that computes it (rank 0's own threads take them
  // directly). Empty: a unit needs nothing but its index.
  std::function<Payload(size_t unit)> input;
  // Takes a finished unit on rank 0, whichever rank computed it. Called from rank 0's two
  // threads (the one serving the others and the one computing), so it must be thread-safe.
  std::function<void(size_t unit, Payload&& result, double seconds, int rank)> record;
  // Units a rank computes at once, each on its own thread: 1 when compute spreads one
  // unit over the rank's threads (perft), the thread count when a unit is sequential
  // work (selfplay games), so that no thread waits for another's unit to finish.
  int concurrency = 1;
  // Optional: a key for units that share work (perft units that transpose into each
  // other), so that they go to the same rank (key % ranks) while that rank has any left;
  // a rank with none left takes from the longest other queue. Empty: one shared queue.
  std::function<size_t(size_t unit)> affinity;
  // With an affinity: a unit runs on rank key % ranks only (no stealing), because what it
  // needs lives there.
  bool pinned = false;
  // Optional, rank 0: true once no more units are wanted (asked before each unit is handed
  // out, after the results before it were recorded). Rank 0 then hands out none: every
  // rank finishes the units it holds, reports them, and the farm ends early.
  std::function<bool()> enough;
};

// Collective over MPI_COMM_WORLD, or this process alone when MPI is not running. On rank
// 0, `pending` lists the units to compute, in the order to hand them out; the other ranks
// pass an empty list. Returns, on rank 0, every rank's busy and idle time (as rows of run
// 0: the farm knows nothing of a job's runs).
std::vector<RankLoad> run_farm(const FarmTask& task, const std::vector<size_t>& pending);

// Collective: on rank 0, every rank's host name in rank order; elsewhere nothing. Without
// MPI: this host.
std::vector<std::string> gather_hosts();

}  // namespace chesshpc
