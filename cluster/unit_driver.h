// The unit-job driver: runs any job made of units (jobs/io/unit_job.h) from the command
// line to its result file, in one process or over MPI ranks. It owns what every such job
// needs and none should write again: MPI (started only with more than one rank), stop
// signals, open-or-resume on rank 0 and its verdict on every rank, the units left to do,
// progress, the ledger and checkpoints, the stop notice, the task farm, and the last
// write and summary on rank 0.
#pragma once

#include <ostream>
#include <vector>

#include "cluster/ledger.h"
#include "jobs/io/unit_job.h"

namespace chesshpc {

// The whole run. Returns an ExitCode: on rank 0 the job's, elsewhere EXIT_OK once the
// units are done, or the job's refusal from plan(), open() or prepare() on every rank.
int run_unit_job(UnitJob& job, std::ostream& out, std::ostream& err);

// Collective, inside a running MPI session or alone: computes the units rank 0's job
// lacks (!done) over every rank and records each in ledger on rank 0. Returns, on rank
// 0, every rank's load. For measurements that run a planned job without a file (the
// bench's cluster_perft).
std::vector<RankLoad> run_units(UnitJob& job, Ledger& ledger);

}  // namespace chesshpc
