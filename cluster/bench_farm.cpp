#include "cluster/bench_farm.h"

#include <chrono>
#include <iostream>
#include <optional>

#include "cluster/mpi_session.h"
#include "cluster/task_farm.h"
#include "cluster/unit_driver.h"
#include "core/threads.h"
#include "jobs/bench/suite.h"
#include "jobs/perft/split_job.h"

namespace chesshpc {

namespace {

constexpr int STOP = -1;

// Rank 0 tells every rank what comes next: the suite index of a cluster_perft measurement
// or STOP. The others wait for it while rank 0 measures on its own, so they poll
// rarely, to take as little as possible from its cores. Alone, there is no one to tell.
int announce(int command) {
  gentle_bcast(&command, 1, MPI_INT, std::chrono::milliseconds(2));
  return command;
}

// One cluster_perft measurement, on every rank: the perft job split into units, without a
// file. Each rank plans the units and clears its table before the clock starts; the clock
// runs on rank 0 from the common start to the last unit's count.
BenchResult farm_perft(const BenchSpec& spec, int threads) {
  PerftRequest req;
  req.fen = set_fen(spec.set), req.depth = spec.depth, req.split_depth = spec.split_depth;
  req.hash_bytes = size_t(spec.hash_mb) << 20, req.threads = threads;
  SplitPerft job(req);
  job.plan({MpiSession::rank(), MpiSession::size()}, std::cerr);  // the suite's own positions: always plans
  Ledger ledger(job, nullptr);
  gentle_barrier();
  auto t0 = std::chrono::steady_clock::now();
  run_units(job, ledger);
  return {uint64_t(job.total()), std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()};
}

// Ranks other than 0: take part in each cluster measurement rank 0 announces.
int serve(const BenchRequest& req) {
  const Suite& suite = *find_suite(req.suite);
  for (int index; (index = announce(0)) != STOP;)
    farm_perft(suite.specs[size_t(index)], chess::resolve_threads(req.threads));
  return EXIT_OK;
}

}  // namespace

int run_bench_farm(const BenchRequest& req, std::ostream& out, std::ostream& err) {
  std::optional<MpiSession> mpi;
  if (launched_with_ranks()) mpi.emplace();
  RankHooks hooks;
  hooks.ranks = MpiSession::size();
  hooks.hosts = gather_hosts();
  if (MpiSession::rank() != 0) return serve(req);
  hooks.cluster_perft = [](size_t index, const BenchSpec& spec, int threads) {
    announce(int(index));
    return farm_perft(spec, threads);
  };
  int status = EXIT_OK;
  try {
    status = run_bench(req, hooks, out, err);
  } catch (...) {
    announce(STOP);  // the other ranks end too, rather than wait for ever
    throw;
  }
  announce(STOP);
  return status;
}

}  // namespace chesshpc
