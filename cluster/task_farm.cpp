#include "cluster/task_farm.h"

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <list>
#include <mutex>
#include <thread>

#include <tbb/global_control.h>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>
#include <utility>

#include "cluster/mpi_session.h"
#include "cluster/unit_queues.h"
#include "core/tsan.h"
#include "jobs/io/provenance.h"

namespace chesshpc {

namespace {

constexpr int TAG_REPORT = 1;                // worker -> 0: {unit or NONE, seconds as bits, result bytes}
constexpr int TAG_RESULT = 2;                // worker -> 0: the result's bytes, right after a report with any
constexpr int TAG_ASSIGN = 3;                // 0 -> worker: {unit or NONE (stop), input bytes}
constexpr int TAG_INPUT = 4;                 // 0 -> worker: the input's bytes, right after an assignment with any
constexpr uint64_t NONE = UnitQueues::NONE;  // also what rank 0 assigns once the queues are empty
constexpr uint64_t BYE = ~uint64_t(1);       // worker -> 0 in a report: all done, no answer wanted

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

uint64_t bits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}

double from_bits(uint64_t u) {
  double d;
  std::memcpy(&d, &u, sizeof d);
  return d;
}

void gentle_recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Status* status) {
  MPI_Request req;
  MPI_Irecv(buf, count, type, source, tag, MPI_COMM_WORLD, &req);
  gentle_wait(&req, status);
}

// How long rank 0 sleeps between its polls for reports once units have come back: a
// quarter of the mean unit's seconds, from PollBackoff's cap up to 32 ms. A worker asks
// ahead (concurrency + 1 requests open), so each answer has a unit's time to come before
// the worker's thread runs dry, however many workers there are. Rescore's units of 16
// positions at depth 8 (some 100 ms) have rank 0 wake 4 times a unit; short units (perft's
// dedup buckets) keep the 2 ms cap.
constexpr std::chrono::microseconds REPORT_WAIT_MOST{32000};
std::chrono::microseconds report_wait(double unit_seconds, uint64_t units) {
  const double wait = units ? std::min(unit_seconds / double(units) / 4, REPORT_WAIT_MOST.count() * 1e-6) : 0;
  return std::max(PollBackoff::CAP, std::chrono::microseconds(long(wait * 1e6)));
}

// Messages on their way, each sent without blocking and kept until it has gone: rank 0's
// inputs to the workers (a blocking send of more than MPI's eager size would wait for the
// worker's receive while that worker waits in its own send of a result to rank 0), and
// a worker's reports and results (Open MPI's blocking send spins until rank 0, which
// sleeps between its polls, takes the message: 0.2 to 0.45 s of a rescore's 2 ranks).
class Outbox {
 public:
  void send(Payload bytes, int rank, int tag = TAG_INPUT) {
    sweep();
    Sending& s = sending_.emplace_back(Sending{std::move(bytes), MPI_REQUEST_NULL});
    MPI_Isend(s.bytes.data(), int(s.bytes.size()), MPI_BYTE, rank, tag, MPI_COMM_WORLD, &s.request);
  }
  // Whether a message larger than `eager` bytes is still on its way: one larger than MPI's
  // eager size goes only as this rank polls, while a smaller one's bytes are in MPI's
  // buffers from the send on (its request completes once the receiver took it).
  bool sending(size_t eager) {
    sweep();
    return std::any_of(sending_.begin(), sending_.end(), [eager](const Sending& s) { return s.bytes.size() > eager; });
  }
  // At the farm's end, when every worker has received all it was assigned.
  ~Outbox() {
    for (Sending& s : sending_) gentle_wait(&s.request);
  }

 private:
  struct Sending {
    Payload bytes;
    MPI_Request request;
  };
  void sweep() {
    std::erase_if(sending_, [](Sending& s) {
      int sent = 0;
      MPI_Test(&s.request, &sent, MPI_STATUS_IGNORE);
      return sent != 0;
    });
  }
  std::list<Sending> sending_;  // a list: MPI holds each buffer's address until it has gone
};

// Messages up to this size are sent eagerly by every transport of Open MPI (vader's eager
// limit, the smallest: 4 KB): their bytes leave with the send, whether or not this rank
// polls afterwards.
constexpr size_t EAGER_BYTES = 4096;

// A report is its 3 words as bytes, as rank 0 receives it.
constexpr int REPORT_BYTES = 3 * sizeof(uint64_t);

void send_report(uint64_t unit, double secs, Payload result, Outbox& outbox) {
  const uint64_t report[3] = {unit, bits(secs), result.size()};
  const char* at = reinterpret_cast<const char*>(report);
  outbox.send(Payload(at, at + REPORT_BYTES), 0, TAG_REPORT);
  if (!result.empty()) outbox.send(std::move(result), 0, TAG_RESULT);
}

// The units a rank computes at once, each as a TBB task of an arena of its own, fed by
// the rank's main thread (the only one that calls MPI). The arena reserves no slot for
// that thread, which never joins it until the end.
class UnitPool {
 public:
  UnitPool(const FarmTask& task, int threads) : task_(task), threads_(threads), arena_(threads, 0) {}
  ~UnitPool() {
    arena_.execute([&] { group_.wait(); });
  }
  void add(uint64_t unit, Payload input) {
    {
      std::lock_guard lock(mutex_);
      ++working_;
    }
    arena_.execute([&] { group_.run([this, unit, in = std::move(input)] { run(unit, in); }); });
  }
  struct Done {
    uint64_t unit;
    Payload result;
    double seconds;
  };
  std::vector<Done> take_done() {
    std::lock_guard lock(mutex_);
    return std::exchange(done_, {});
  }
  // Sleeps until a unit is done (or none is under way): for a worker that has no request
  // open, so that no message can come, instead of polling.
  void wait_done() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return working_ == 0 || !done_.empty(); });
  }
  // Every thread has a unit, and none is done that was not taken: nothing new can happen
  // here before a unit is done.
  bool full() const {
    std::lock_guard lock(mutex_);
    return working_ >= threads_ && done_.empty();
  }
  // Nothing to compute and nothing computed left to take.
  bool idle() const {
    std::lock_guard lock(mutex_);
    return working_ == 0 && done_.empty();
  }
  double busy_seconds() const {
    std::lock_guard lock(mutex_);
    return busy_;
  }

 private:
  void run(uint64_t unit, const Payload& input) {
    double t0 = now();
    Payload result = task_.compute(unit, input);
    double secs = now() - t0;
    {
      std::lock_guard lock(mutex_);
      done_.push_back({unit, std::move(result), secs});
      busy_ += secs, --working_;
    }
    changed_.notify_one();
  }

  const FarmTask& task_;
  const int threads_;
  tbb::task_arena arena_;
  tbb::task_group group_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;  // a unit done
  std::vector<Done> done_;
  int working_ = 0;  // units added and not yet done
  double busy_ = 0;
};

// Keeps concurrency + 1 requests open, so that a unit is waiting whenever a thread frees
// up: the round trip to rank 0 (a fraction of a millisecond while messages flow, up to
// PollBackoff's cap after a quiet spell, as both ends poll ever more slowly while nothing
// comes) overlaps the computing. Pinned units never move to another rank, so asking ahead costs no
// balance: a pinned farm keeps PINNED_AHEAD more open (4,096 perft dedup buckets of 20 us
// each took 4.2 s at 2 ranks with 2 requests open: a round trip per unit). Rank 0 answers
// every request, with NONE once the queue is empty; when every answer is in and every unit
// done, the worker says BYE.
constexpr int PINNED_AHEAD = 16;

// An assignment that has arrived ({unit, input bytes}) to the pool, with its input, which
// rank 0 sent right after it.
void take_assignment(const uint64_t assign[2], UnitPool& pool) {
  if (assign[0] == NONE) return;
  Payload input(assign[1]);
  if (!input.empty()) gentle_recv(input.data(), int(input.size()), MPI_BYTE, 0, TAG_INPUT, MPI_STATUS_IGNORE);
  pool.add(assign[0], std::move(input));
}

void worker(const FarmTask& task, double& busy, double& idle) {
  const int concurrency = std::max(task.concurrency, 1);
  double start = now();
  int open = 0;
  Outbox outbox;  // destroyed last: every report has gone before the gather below
  for (int i = 0; i <= concurrency + (task.pinned ? PINNED_AHEAD : 0); ++i) send_report(NONE, 0, {}, outbox), ++open;
  UnitPool pool(task, concurrency);
  PollBackoff backoff;
  uint64_t assign[2] = {NONE, 0};
  MPI_Request request;
  MPI_Irecv(assign, 2, MPI_UINT64_T, 0, TAG_ASSIGN, MPI_COMM_WORLD, &request);
  while (open > 0 || !pool.idle()) {
    bool progress = false;
    int arrived = 0;
    // Every answer that has arrived, not one per turn: a turn may end in a sleep.
    while (open > 0 && (MPI_Test(&request, &arrived, MPI_STATUS_IGNORE), arrived)) {
      --open, progress = true;
      take_assignment(assign, pool);
      if (open > 0) MPI_Irecv(assign, 2, MPI_UINT64_T, 0, TAG_ASSIGN, MPI_COMM_WORLD, &request);
    }
    for (UnitPool::Done& d : pool.take_done()) {
      send_report(d.unit, d.seconds, std::move(d.result), outbox);
      progress = true;
      // Each report asks for another unit; rank 0 answers every one (NONE when drained).
      if (open++ == 0) MPI_Irecv(assign, 2, MPI_UINT64_T, 0, TAG_ASSIGN, MPI_COMM_WORLD, &request);
    }
    if (progress) {
      backoff.reset();
    } else if (open == 0 || (pool.full() && !outbox.sending(EAGER_BYTES))) {
      // Only a unit done can bring anything to do: with no request open rank 0 sends
      // nothing, and while every thread has a unit an answer can wait in MPI's buffers
      // until one is done (a report asked for it a whole unit ahead). So sleep until then
      // instead of polling through a long unit; a message still going out that may be
      // larger than MPI's eager size (a selfplay unit's games) needs the polls.
      pool.wait_done();
    } else {
      backoff.idle();
    }
  }
  send_report(BYE, 0, {}, outbox);
  busy = pool.busy_seconds() / concurrency;
  idle = now() - start - busy;
}

Payload input_of(const FarmTask& task, uint64_t unit) {
  return task.input && unit != NONE ? task.input(unit) : Payload{};
}

// Rank 0's answer to a worker's report: the next unit (or NONE) and that unit's input.
void assign(const FarmTask& task, uint64_t unit, int rank, Outbox& outbox) {
  Payload input = input_of(task, unit);
  uint64_t message[2] = {unit, input.size()};
  MPI_Send(message, 2, MPI_UINT64_T, rank, TAG_ASSIGN, MPI_COMM_WORLD);
  if (!input.empty()) outbox.send(std::move(input), rank);
}

void coordinator(const FarmTask& task, const std::vector<size_t>& pending, int ranks, double& busy, double& idle) {
  UnitQueues queues(task.affinity, pending, ranks, task.pinned);
  // The next unit for a rank, or NONE once the queues are empty or the task wants no more.
  auto next = [&](int rank) { return task.enough && task.enough() ? NONE : queues.next(rank); };
  const int concurrency = std::max(task.concurrency, 1);
  double start = now();
  std::atomic<double> computing{0};
  // Rank 0's own share, drawn from the same queues as the others', in as many TBB tasks
  // as units it computes at once, on an arena that leaves this thread to MPI.
  tbb::task_arena arena(concurrency, 0);
  tbb::task_group local;
  // The queues and the task go to TBB's threads, and what they computed comes back, only
  // through TBB's spawn and wait (see core/tsan.h); the tasks meet each other only in
  // next() and record(), which lock. The arena keeps no slot for this thread, so spawn
  // itself may run on one of TBB's threads too.
  auto spawn = [&] {
    chess::tsan::acquire(&queues);
    local.run([&] {
      chess::tsan::acquire(&queues);
      for (uint64_t u; (u = next(0)) != NONE;) {
        double t0 = now();
        Payload result = task.compute(u, input_of(task, u));
        double secs = now() - t0;
        computing += secs;  // one atomic add: two tasks may finish at once
        task.record(u, std::move(result), secs, 0);
      }
      chess::tsan::release(&computing);
    });
  };
  chess::tsan::release(&queues);
  for (int t = 0; t < concurrency; ++t) arena.execute(spawn);
  Outbox outbox;
  // Reports are polled for, each poll one MPI_Test: after one that found nothing, rank 0
  // sleeps a backoff's (from 50 us: the workers' first requests come at once) while no unit
  // has come back, then report_wait(), without a ramp from 50 us.
  double unit_seconds = 0;
  uint64_t units_back = 0;
  PollBackoff backoff(REPORT_WAIT_MOST);
  uint64_t report[3];
  MPI_Request request = MPI_REQUEST_NULL;
  if (ranks > 1) MPI_Irecv(report, REPORT_BYTES, MPI_BYTE, MPI_ANY_SOURCE, TAG_REPORT, MPI_COMM_WORLD, &request);
  for (int byes = 0; byes < ranks - 1;) {
    MPI_Status status;
    int arrived = 0;
    if (MPI_Test(&request, &arrived, &status), !arrived) {
      if (units_back)
        std::this_thread::sleep_for(report_wait(unit_seconds, units_back));
      else
        backoff.idle();
      continue;
    }
    backoff.reset();
    const uint64_t unit = report[0], bytes = report[2];
    const double seconds = from_bits(report[1]);
    if (byes + (unit == BYE) < ranks - 1)
      MPI_Irecv(report, REPORT_BYTES, MPI_BYTE, MPI_ANY_SOURCE, TAG_REPORT, MPI_COMM_WORLD, &request);
    if (unit == BYE) {
      ++byes;
      continue;
    }
    if (unit != NONE) {
      unit_seconds += seconds, ++units_back;
      Payload result(bytes);
      if (!result.empty())
        gentle_recv(result.data(), int(result.size()), MPI_BYTE, status.MPI_SOURCE, TAG_RESULT, MPI_STATUS_IGNORE);
      task.record(unit, std::move(result), seconds, status.MPI_SOURCE);
    }
    assign(task, next(status.MPI_SOURCE), status.MPI_SOURCE, outbox);
  }
  arena.execute([&] { local.wait(); });
  chess::tsan::acquire(&computing);
  busy = computing / concurrency;
  idle = now() - start - busy;
}

}  // namespace

std::vector<RankLoad> run_farm(const FarmTask& task, const std::vector<size_t>& pending) {
  const int rank = MpiSession::rank(), ranks = MpiSession::size();
  double busy = 0, idle = 0;
  // TBB allows one worker fewer than the cores by default, counting on the main thread to
  // join; here the main thread serves MPI, so the unit tasks need workers of their own
  // (and a job's compute may add its own threads inside, as perft does).
  tbb::global_control workers(
      tbb::global_control::max_allowed_parallelism,
      std::max<size_t>(tbb::this_task_arena::max_concurrency(), 0) + size_t(std::max(task.concurrency, 1)) + 1);
  if (rank == 0)
    coordinator(task, pending, ranks, busy, idle);
  else
    worker(task, busy, idle);
  double mine[2] = {busy, idle};
  std::vector<double> all(2 * size_t(ranks));
  if (MpiSession::running())
    gentle_gather(mine, 2, MPI_DOUBLE, all.data());  // the workers wait here for rank 0's last units
  else
    all.assign(mine, mine + 2);
  std::vector<std::string> hosts = gather_hosts();
  std::vector<RankLoad> load;
  for (size_t i = 0; i < hosts.size(); ++i) load.push_back({0, int(i), all[2 * i], all[2 * i + 1], hosts[i]});
  return load;
}

std::vector<std::string> gather_hosts() {
  if (!MpiSession::running()) return {host_name()};
  constexpr int HOST = 256;
  char host[HOST] = {};
  host_name().copy(host, HOST - 1);
  int ranks = MpiSession::size();
  std::vector<char> all(size_t(HOST) * size_t(ranks));
  gentle_gather(host, HOST, MPI_CHAR, all.data());
  std::vector<std::string> hosts;
  for (int i = 0; MpiSession::rank() == 0 && i < ranks; ++i) hosts.push_back(&all[size_t(HOST) * size_t(i)]);
  return hosts;
}

}  // namespace chesshpc
