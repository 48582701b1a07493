#include "perft_farm.h"

#include <mpi.h>

#include <chrono>
#include <cstdlib>

#include "h5.h"
#include "perft_file.h"
#include "progress.h"
#include "task_farm.h"

namespace chesshpc {

bool launched_with_ranks() {
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "SLURM_NTASKS"})
    if (const char* v = std::getenv(var); v && std::atoi(v) > 1) return true;
  return false;
}

namespace {

struct MpiSession {
  MpiSession() {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  }
  ~MpiSession() { MPI_Finalize(); }
};

}  // namespace

int run_perft_farm(PerftRequest req, std::ostream& out, std::ostream& err) {
  std::optional<chess::Position> root = read_position(req.fen, "perft", err);
  if (!root) return EXIT_INPUT;
  const chess::Position& pos = *root;
  MpiSession mpi;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &req.ranks);
  if (req.depth < 2) {
    if (rank == 0) err << "chesshpc perft: a run split into units needs --depth 2 or more\n";
    return EXIT_USAGE;
  }
  if (!req.split_depth) req.split_depth = default_split_depth(pos, req.depth, req.ranks);
  if (req.split_depth >= req.depth) {
    if (rank == 0) err << "chesshpc perft: --split-depth must be below --depth\n";
    return EXIT_USAGE;
  }
  std::string started = h5::utc_now();
  auto t0 = std::chrono::steady_clock::now();
  PerftPlan plan = plan_units(pos, req.depth, req.split_depth);
  req.units = long(plan.units.size());
  std::unique_ptr<chess::PerftTable> table = make_perft_table(req);
  int threads = req.threads > 0 ? req.threads : chess::perft::default_threads();
  Progress progress(err, "perft", !req.quiet && rank == 0, req.progress_interval);
  FarmResult r = run_farm(plan, threads, table.get(), &progress);
  progress.finish();
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (rank != 0) return EXIT_OK;

  std::vector<chess::u128> divide = merge_divide(plan, r.nodes);
  std::vector<chess::perft::RootCount> roots;
  for (size_t i = 0; i < divide.size(); ++i) roots.push_back({plan.root_moves[i], divide[i], {}});
  print_perft(req, pos, roots, secs, threads, out);
  if (!req.out.empty()) {
    try {
      write_perft_file(req.out, req, plan, r, started, req.command_line);
    } catch (const h5::Error& e) {
      err << "chesshpc perft: " << e.what() << "\n";
      return EXIT_IO;
    }
  }
  return EXIT_OK;
}

}  // namespace chesshpc
