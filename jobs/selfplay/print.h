// selfplay's summary on stdout, as text or one JSON object: the games, results,
// terminations, the pairs' pentanomial counts with their score and Elo, and the SPRT.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>

#include "jobs/io/unit_job.h"
#include "jobs/selfplay/request.h"
#include "jobs/selfplay/sprt.h"
#include "jobs/selfplay/tables.h"

namespace chesshpc {

// What a batch's summary reports, as finish() gathers it.
struct BatchSummary {
  const SelfplayRequest& req;    // --json, the seed
  const SelfplayTables& tables;  // the games the dataset keeps, in game order
  const UnitRun& run;            // its seconds and ranks
  int threads = 1;               // games played at once by each rank
  size_t resumed = 0;            // games of earlier runs among the tables'
  size_t dropped = 0;            // positions --dedup left out
  // Time the players spent choosing moves in this run, over all ranks and threads; the
  // rest of ranks x threads x seconds went to game bookkeeping, MPI, HDF5 and waits.
  double search_seconds = 0;
  const PairSequence* sprt = nullptr;  // --sprt's test, or none
  uint64_t recorded = 0;               // games this run played, those after the decision too
};

// Prints s as JSON when s.req.json, else as lines.
void print_summary(const BatchSummary& s, std::ostream& out);

}  // namespace chesshpc
