#include "cluster/bench_farm.h"

#include <chrono>

#include "cluster/ledger.h"
#include "cluster/mpi_session.h"
#include "cluster/perft_farm.h"
#include "cluster/task_farm.h"
#include "core/threads.h"
#include "jobs/bench/suite.h"

namespace chesshpc {

namespace {

constexpr int STOP = -1;

// Rank 0 tells every rank what comes next: the suite index of a cluster_perft measurement
// or STOP. The others wait for it while rank 0 measures on its own, so they poll
// rarely, to take as little as possible from its cores.
int announce(int command) {
  MPI_Request req;
  MPI_Ibcast(&command, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
  gentle_wait(&req, MPI_STATUS_IGNORE, std::chrono::milliseconds(2));
  return command;
}

void gentle_barrier() {
  MPI_Request req;
  MPI_Ibarrier(MPI_COMM_WORLD, &req);
  gentle_wait(&req);
}

// One cluster_perft measurement, on every rank. Each rank plans the units and clears its
// table before the clock starts; the clock runs on rank 0 from the common start to the
// last unit's count.
BenchResult farm_perft(const BenchSpec& spec, int threads) {
  PerftPlan plan = plan_units(chess::Position::from_fen(set_fen(spec.set)), spec.depth, spec.split_depth);
  chess::PerftTable table(size_t(spec.hash_mb) << 20);
  UnitResults r(plan.units.size());
  Ledger ledger(r, nullptr);
  std::vector<size_t> pending;
  for (size_t i = 0; MpiSession::rank() == 0 && i < plan.units.size(); ++i) pending.push_back(i);
  gentle_barrier();
  auto t0 = std::chrono::steady_clock::now();
  count_on_farm(plan, threads, &table, &ledger, pending, 0);
  BenchResult result{0, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()};
  for (chess::u128 n : merge_divide(plan, r.nodes)) result.nodes += uint64_t(n);
  return result;
}

int threads_of(const BenchRequest& req) { return chess::resolve_threads(req.threads); }

// Ranks other than 0: take part in each cluster measurement rank 0 announces.
int serve(const BenchRequest& req) {
  const Suite& suite = *find_suite(req.suite);
  for (int index; (index = announce(0)) != STOP;) farm_perft(suite.specs[size_t(index)], threads_of(req));
  return EXIT_OK;
}

}  // namespace

int run_bench_farm(const BenchRequest& req, std::ostream& out, std::ostream& err) {
  MpiSession mpi;
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
