#include "cluster/unit_driver.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <optional>
#include <sstream>

#include "cluster/checkpointer.h"
#include "cluster/mpi_exchange.h"
#include "cluster/mpi_session.h"
#include "cluster/peer_watch.h"
#include "cluster/signals.h"
#include "cluster/task_farm.h"
#include "jobs/io/job_common.h"
#include "jobs/io/progress.h"
#include "jobs/io/provenance.h"

namespace chesshpc {

namespace {

// Rank 0's verdict, on every rank (which wait for it while rank 0 opens the file: gently).
int broadcast(int status) {
  gentle_bcast(&status, 1, MPI_INT);
  return status;
}

// The plan's verdict, the same on every rank. On separate machines a rank can fail where
// rank 0 did not (an input file that is not on its node): rank 0 then says that rank's
// first line, naming the rank and its host, and every rank returns its code; without this
// the ranks that failed would wait in MPI_Finalize and rank 0 in the next collective.
// why: what the job wrote to err on this rank (rank 0's went out as it was written).
int agree_on_plan(int status, const std::string& why, std::ostream& err) {
  if (!MpiSession::running()) return status;
  std::vector<int> all(MpiSession::rank() == 0 ? size_t(MpiSession::size()) : 0);
  gentle_gather(&status, 1, MPI_INT, all.data());
  int failed = -1;  // the first other rank that failed while rank 0 did not
  for (size_t r = 1; status == EXIT_OK && r < all.size() && failed < 0; ++r)
    if (all[r] != EXIT_OK) failed = int(r);
  gentle_bcast(&failed, 1, MPI_INT);
  if (failed < 0) return broadcast(status);
  const std::vector<std::string> hosts = gather_hosts();
  if (MpiSession::rank() == failed) {
    std::string line = why.substr(0, why.find('\n'));
    MPI_Send(line.data(), int(line.size()), MPI_CHAR, 0, 0, MPI_COMM_WORLD);
  } else if (MpiSession::rank() == 0) {
    MPI_Status probe;
    MPI_Probe(failed, 0, MPI_COMM_WORLD, &probe);
    int size = 0;
    MPI_Get_count(&probe, MPI_CHAR, &size);
    std::string line(size_t(size), '\0');
    MPI_Recv(line.data(), size, MPI_CHAR, failed, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    const std::string where = "rank " + std::to_string(failed) + " on " + hosts[size_t(failed)];
    if (line.empty())
      err << "chesshpc: " << where << " could not plan the job (exit code " << all[size_t(failed)] << ")\n";
    else
      err << line << " (" << where << ")\n";
    status = all[size_t(failed)];
  }
  return broadcast(status);
}

// Rank 0: what an earlier run left to do, in the job's order. Elsewhere: nothing.
std::vector<size_t> pending_units(const UnitJob& job) {
  std::vector<size_t> pending;
  for (size_t u = 0; MpiSession::rank() == 0 && u < job.units(); ++u)
    if (!job.done(u)) pending.push_back(u);
  return pending;
}

// Rank 0's checkpoint thread saves the ledger while the run goes on (when the job keeps a
// file), and on a stop signal freezes it, hands the job each rank's time since the farm
// started (hosts: every rank's), saves once more and ends the process with a notice of
// what was kept.
CheckpointHooks checkpoint_hooks(const UnitJobInfo& info, Ledger& ledger, const std::vector<std::string>& hosts,
                                 std::chrono::steady_clock::time_point farm_start, int concurrency) {
  CheckpointHooks hooks;
  if (!info.kept_in.empty())
    hooks.save = [&ledger] {
      std::function<uint64_t()> write = ledger.checkpoint();
      return write ? size_t(write()) : size_t(0);
    };
  hooks.freeze = [&ledger, &hosts, farm_start, concurrency] {
    ledger.stop(hosts, std::chrono::duration<double>(std::chrono::steady_clock::now() - farm_start).count(),
                concurrency);
  };
  return hooks;
}

StopNotice stop_notice(const UnitJobInfo& info) {
  return {info.command, info.items, info.total_items, info.kept_in, info.command_line, info.resumed};
}

// Rank 0's end after a stop: a lost rank says so, a signal says it was one. The launcher's
// SIGTERM and the watch's verdict on a lost peer come in either order: a stop by a signal
// waits a moment for the verdict.
constexpr std::chrono::milliseconds LOST_GRACE{200};

std::function<void(int, size_t)> stop_handler(const UnitJobInfo& info, const PeerWatch* watch) {
  return [notice = stop_notice(info), watch](int sig, size_t done) {
    if (watch && watch->watching())
      if (std::optional<LostRank> lost = watch->lost(LOST_GRACE)) {
        watch_farewell(!lost->silent);
        stop_for_lost_rank(notice, describe(*lost), done);
      }
    watch_farewell(false);  // a signal: the ranks end as they did before the watch, by the launcher
    stop_job(notice, sig, done);
  };
}

// What the other ranks need to say that rank 0 was lost: rank 0's notice, as lines.
std::string notice_lines(const UnitJobInfo& info) { return info.command + "\n" + info.items + "\n" + info.kept_in; }
StopNotice notice_from_lines(const std::string& lines) {
  StopNotice n;
  std::istringstream in(lines);
  std::getline(in, n.command), std::getline(in, n.items), std::getline(in, n.kept_in);
  return n;
}

// Where a lost rank ends the job. A rank whose processes ended, on rank 0: before the farm
// (phase A's routing, whose stop needs every rank) said at once, with the file as open()
// left it; during the farm a stop, which the checkpoint thread saves and says
// (stop_handler). A rank gone silent (a link down) ends nothing here: Open MPI 4.1's
// mpirun, when ranks end the job while a node's daemon is cut off, never exits; its own
// keepalive ends the job (SIGTERM), and the stop then names the silent rank (before the
// farm, said at once). On another rank, rank 0 lost: the reporter says where the
// checkpoint is. A rank that ends for a lost rank whose processes ended stops there, and
// ends when the launcher ends the job (exit_after_launcher): the job's code is then the
// launcher's for a lost node (mpirun's 205), never the ranks' 5 for a launcher that had not
// yet noticed.
PeerWatch::OnLost lost_rank_handler(const Ranks& ranks, const UnitJobInfo& opened, const std::atomic<bool>& farming) {
  return [&ranks, &opened, &farming](const LostRank& lost, const PeerWatch& watch) {
    if (ranks.root()) {
      const size_t kept = opened.total_items - opened.items_to_do;
      if (lost.silent) {
        if (!farming) say_lost_rank(stop_notice(opened), describe(lost), kept);
        return;
      }
      if (farming) return request_stop(SIGTERM);
      watch_farewell(!lost.silent);
      stop_for_lost_rank(stop_notice(opened), describe(lost), kept);
    }
    if (ranks.rank == watch.reporter())
      say_lost_rank(notice_from_lines(watch.note()), describe(lost), std::nullopt, lost.host);
    if (!lost.silent) exit_after_launcher(EXIT_STOPPED);
  };
}

}  // namespace

std::vector<RankLoad> run_units(UnitJob& job, Ledger& ledger) {
  FarmTask task;
  task.compute = [&job](size_t unit, const Payload& input) { return job.compute_with(unit, input); };
  task.input = [&job](size_t unit) { return job.unit_input(unit); };
  task.record = [&ledger](size_t unit, Payload&& result, double secs, int rank) {
    ledger.record(unit, std::move(result), secs, rank);
  };
  task.concurrency = job.concurrency();
  task.affinity = job.affinity();
  task.pinned = job.pinned();
  task.enough = [&ledger] { return ledger.enough(); };
  return run_farm(task, pending_units(job));
}

int run_unit_job(UnitJob& job, std::ostream& out, std::ostream& err) {
  // Step 1. MPI only when there are other ranks to talk to.
  std::optional<MpiSession> mpi;
  if (launched_with_ranks()) mpi.emplace();
  MpiExchange over_mpi;
  SoloExchange alone;
  const Ranks ranks{MpiSession::rank(), MpiSession::size(), mpi ? static_cast<Exchange*>(&over_mpi) : &alone,
                    stop_signal};

  // Step 2. Every rank plans the same units; the run's time includes the planning.
  catch_stop_signals();
  const std::string started = utc_now();
  const auto t0 = std::chrono::steady_clock::now();
  std::ostringstream rank_err;  // another rank's reasons, said by rank 0 when only it failed
  const int planned = job.plan(ranks, ranks.root() ? err : rank_err);
  if (int status = agree_on_plan(planned, rank_err.str(), err); status != EXIT_OK) return status;

  // Step 3. Rank 0 opens or resumes the result file; every rank follows its verdict.
  if (int status = broadcast(ranks.root() ? job.open(started, err) : EXIT_OK); status != EXIT_OK) return status;

  // From here every rank watches for a lost one (cluster/peer_watch), until the farm is done.
  const UnitJobInfo opened = mpi && ranks.root() ? job.info() : UnitJobInfo{};
  std::atomic<bool> farming{false};
  std::optional<PeerWatch> watch;
  if (mpi) watch.emplace(lost_rank_handler(ranks, opened, farming), notice_lines(opened));

  // Step 4. What the ranks prepare together; a stop there keeps the file as open() left it.
  if (int status = job.prepare(ranks, err); status != EXIT_OK) {
    if (status == EXIT_STOPPED && ranks.root()) {
      const UnitJobInfo info = job.info();
      say_stopped(stop_notice(info), stop_signal(), info.total_items - info.items_to_do);
    }
    return status;
  }

  // Step 5. Progress, the ledger and (rank 0) the checkpoint thread, which needs every
  // rank's host for a stop's /ranks rows (collective).
  const std::vector<std::string> hosts = gather_hosts();
  const UnitJobInfo info = ranks.root() ? job.info() : UnitJobInfo{};
  Progress progress(err, info.command, !info.quiet && ranks.root(), info.progress_interval, info.rate);
  progress.set_unit_name(info.items);
  progress.add_total(info.items_to_do);
  Ledger ledger(job, &progress);
  progress.set_detail([&ledger] { return ledger.detail(); });
  std::optional<Checkpointer> checkpointer;
  if (ranks.root())
    checkpointer.emplace(checkpoint_hooks(info, ledger, hosts, std::chrono::steady_clock::now(), job.concurrency()),
                         info.checkpoint_interval, stop_handler(info, watch ? &*watch : nullptr));
  farming = true;

  // Step 6. The units, over every rank.
  UnitRun run;
  run.started = started, run.ranks = ranks.size;
  run.load = run_units(job, ledger);
  if (watch) watch->disarm();  // the ranks leave the job from here on
  if (checkpointer) {
    checkpointer->stop();  // first, or a save between the counts and the end goes uncounted
    run.checkpoints = checkpointer->writes(), run.checkpoint_seconds = checkpointer->seconds_writing();
  }
  checkpointer.reset();
  progress.finish();
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  // Step 7. Rank 0 writes the result and the summary.
  return ranks.root() ? job.finish(run, out, err) : EXIT_OK;
}

}  // namespace chesshpc
