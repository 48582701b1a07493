#include "cluster/perft_farm.h"

#include <mpi.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "cluster/checkpointer.h"
#include "cluster/ledger.h"
#include "cluster/mpi_session.h"
#include "cluster/signals.h"
#include "cluster/task_farm.h"
#include "core/movegen.h"
#include "core/threads.h"
#include "jobs/io/h5.h"
#include "jobs/io/progress.h"
#include "jobs/io/provenance.h"
#include "jobs/perft/file.h"

namespace chesshpc {

bool launched_with_ranks() {
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "SLURM_NTASKS"})
    if (const char* v = std::getenv(var); v && std::atoi(v) > 1) return true;
  return false;
}

namespace {

// One unit, its subtrees spread over the rank's threads. The arena lives for the whole
// run: creating one per unit cost about a millisecond, more than a small unit takes.
uint64_t count_unit(const PerftPlan& plan, size_t i, tbb::task_arena& arena, chess::PerftTable* table) {
  const chess::Position& pos = plan.units[i].pos;
  int depth = plan.depth - plan.split_depth;
  chess::MoveList moves = chess::legal_moves(pos);
  if (depth == 1) return moves.size();
  std::vector<uint64_t> counts(moves.size());
  arena.execute([&] {
    tbb::parallel_for(size_t(0), moves.size(),
                      [&](size_t m) { counts[m] = chess::perft::count(pos.after(moves[m]), depth - 1, table); });
  });
  uint64_t n = 0;
  for (uint64_t c : counts) n += c;
  return n;
}

// Units as the farm sees them: a count travels as its 8 bytes.
FarmTask perft_task(const PerftPlan& plan, tbb::task_arena& arena, chess::PerftTable* table, Ledger* ledger) {
  FarmTask task;
  task.compute = [&plan, &arena, table](size_t unit) {
    uint64_t nodes = count_unit(plan, unit, arena, table);
    Payload bytes(sizeof nodes);
    std::memcpy(bytes.data(), &nodes, sizeof nodes);
    return bytes;
  };
  // Units with one pawn structure transpose into each other far more often than others
  // (pawns never move back), so they share one rank's table: at 4 ranks this cut the
  // extra work of per-rank tables from 2.6 to about 2.0 times the work of one rank.
  task.affinity = [&plan](size_t unit) {
    const chess::Position& p = plan.units[unit].pos;
    return size_t((p.pieces(chess::WHITE, chess::PAWN) * 0x9E3779B97F4A7C15ULL) ^
                  (p.pieces(chess::BLACK, chess::PAWN) * 0xC2B2AE3D27D4EB4FULL)) >>
           20;
  };
  task.record = [ledger](size_t unit, Payload&& bytes, double secs, int rank) {
    uint64_t nodes = 0;
    std::memcpy(&nodes, bytes.data(), std::min(bytes.size(), sizeof nodes));
    ledger->record(unit, nodes, secs, rank);
  };
  return task;
}

}  // namespace

std::vector<RankLoad> count_on_farm(const PerftPlan& plan, int threads, chess::PerftTable* table, Ledger* ledger,
                                    const std::vector<size_t>& pending, int run) {
  tbb::task_arena arena(threads);
  return run_farm(perft_task(plan, arena, table, ledger), pending, run);
}

namespace {

// Rank 0, before any counting: the units an earlier run recorded (with --resume), and a
// first write of the file, so that an unwritable --out fails now and not after hours.
int open_result_file(const PerftRequest& req, const PerftPlan& plan, UnitResults& r, std::optional<PerftFile>& file,
                     const std::string& started, std::ostream& err) {
  if (req.out.empty()) return EXIT_OK;
  if (req.resume) {
    if (std::error_code ec; !std::filesystem::exists(req.out, ec)) {
      err << "chesshpc perft: cannot resume: there is no '" << req.out << "' (start the job without --resume)\n";
      return EXIT_INPUT;
    }
    try {
      r = read_perft_file(req.out, plan);
    } catch (const std::exception& e) {  // ResumeError or h5::Error
      err << "chesshpc perft: " << e.what() << "\n";
      return EXIT_INPUT;
    }
  } else if (holds_unfinished_perft(req.out)) {
    err << "chesshpc perft: '" << req.out << "' holds an unfinished run: add --resume to continue it, "
        << "or remove the file to start again\n";
    return EXIT_USAGE;
  }
  file.emplace(req.out, req, plan, started);
  try {
    file->write(r);
  } catch (const h5::Error& e) {
    err << "chesshpc perft: " << e.what() << "\n";
    return EXIT_IO;
  }
  return EXIT_OK;
}

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
  catch_stop_signals();
  std::string started = utc_now();
  auto t0 = std::chrono::steady_clock::now();
  PerftPlan plan = plan_units(pos, req.depth, req.split_depth);
  req.units = long(plan.units.size());

  UnitResults r(plan.units.size());
  std::optional<PerftFile> file;
  int status = rank == 0 ? open_result_file(req, plan, r, file, started, err) : EXIT_OK;
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (status != EXIT_OK) return status;

  std::vector<size_t> pending;
  for (size_t i = 0; rank == 0 && i < plan.units.size(); ++i)
    if (!r.done(i)) pending.push_back(i);
  UnitRunReport report;
  report.units_resumed = long(plan.units.size() - pending.size());
  std::unique_ptr<chess::PerftTable> table = make_perft_table(req);
  int threads = chess::resolve_threads(req.threads);
  Progress progress(err, "perft", !req.quiet && rank == 0, req.progress_interval);
  progress.add_total(pending.size());
  Ledger ledger(r, &progress);
  std::optional<Checkpointer> checkpointer;
  if (rank == 0) {
    CheckpointHooks hooks;
    if (file)
      hooks.save = [&] {
        UnitResults snapshot = ledger.snapshot();
        file->write(snapshot);
        return snapshot.count_done();
      };
    hooks.freeze = [&] { ledger.freeze(); };
    checkpointer.emplace(std::move(hooks), req.checkpoint_interval,
                         [notice = StopNotice{"perft", "units", plan.units.size(), req.out, req.command_line,
                                              req.resume}](int sig, size_t done) { stop_job(notice, sig, done); });
  }
  std::vector<RankLoad> load = count_on_farm(plan, threads, table.get(), &ledger, pending, r.this_run);
  if (checkpointer)
    report.checkpoints = checkpointer->writes(), report.checkpoint_seconds = checkpointer->seconds_writing();
  checkpointer.reset();
  progress.finish();
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (rank != 0) return EXIT_OK;

  for (const RankLoad& l : load) report.busy.push_back(l.busy), report.idle.push_back(l.idle);
  for (size_t i = 0; i < plan.units.size(); ++i)
    if (r.run[i] == r.this_run) report.nodes_counted += chess::u128(plan.units[i].multiplicity()) * r.nodes[i];
  r.load.insert(r.load.end(), load.begin(), load.end());
  if (file) {
    try {
      file->write(r);
    } catch (const h5::Error& e) {
      err << "chesshpc perft: " << e.what() << "\n";
      return EXIT_IO;
    }
  }
  std::vector<chess::u128> divide = merge_divide(plan, r.nodes);
  std::vector<chess::perft::RootCount> roots;
  for (size_t i = 0; i < divide.size(); ++i) roots.push_back({plan.root_moves[i], divide[i], {}});
  print_perft(req, pos, roots, secs, threads, out, &report);
  return EXIT_OK;
}

}  // namespace chesshpc
