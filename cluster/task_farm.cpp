#include "task_farm.h"

#include <mpi.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

namespace chesshpc {

namespace {

constexpr int TAG_REPORT = 1;  // worker -> 0: {unit or NONE, seconds as bits, result bytes}
constexpr int TAG_RESULT = 2;  // worker -> 0: the result's bytes, right after a report with any
constexpr int TAG_ASSIGN = 3;  // 0 -> worker: {unit or NONE (stop)}
constexpr uint64_t NONE = ~uint64_t(0);

// Each worker keeps IN_FLIGHT requests open, so that its next unit is already there when
// it finishes one: the round trip to rank 0 (a fraction of a millisecond, as rank 0 polls)
// overlaps the computing instead of adding to it.
constexpr int IN_FLIGHT = 2;

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

// Waits for a request without spinning: Open MPI's blocking calls busy-poll, which would
// take a core from the rank's own computing threads.
void gentle_wait(MPI_Request* req, MPI_Status* status) {
  int done = 0;
  while (MPI_Test(req, &done, status), !done) std::this_thread::sleep_for(std::chrono::microseconds(200));
}

void gentle_recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Status* status) {
  MPI_Request req;
  MPI_Irecv(buf, count, type, source, tag, MPI_COMM_WORLD, &req);
  gentle_wait(&req, status);
}

void send_report(uint64_t unit, double secs, const Payload& result) {
  uint64_t report[3] = {unit, bits(secs), result.size()};
  MPI_Send(report, 3, MPI_UINT64_T, 0, TAG_REPORT, MPI_COMM_WORLD);
  if (!result.empty()) MPI_Send(result.data(), int(result.size()), MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD);
}

void worker(const FarmTask& task, double& busy, double& idle) {
  uint64_t current = NONE, next = NONE;
  double t0 = now();
  for (int i = 0; i < IN_FLIGHT; ++i) send_report(NONE, 0, {});
  gentle_recv(&current, 1, MPI_UINT64_T, 0, TAG_ASSIGN, MPI_STATUS_IGNORE);
  idle += now() - t0;
  // Rank 0 answers every request, with NONE once the queue is empty; messages between two
  // ranks arrive in order, so after the first NONE only NONEs follow.
  while (current != NONE) {
    MPI_Request pending;
    MPI_Irecv(&next, 1, MPI_UINT64_T, 0, TAG_ASSIGN, MPI_COMM_WORLD, &pending);
    double t1 = now();
    Payload result = task.compute(current);
    double t2 = now();
    busy += t2 - t1;
    send_report(current, t2 - t1, result);
    gentle_wait(&pending, MPI_STATUS_IGNORE);
    idle += now() - t2;
    current = next;
  }
  for (int i = 1; i < IN_FLIGHT; ++i) gentle_recv(&next, 1, MPI_UINT64_T, 0, TAG_ASSIGN, MPI_STATUS_IGNORE);
}

void coordinator(const FarmTask& task, const std::vector<size_t>& pending, int ranks, double& busy, double& idle) {
  std::atomic<size_t> next{0};
  const size_t n = pending.size();
  double start = now();
  // Rank 0's own share, drawn from the same queue as the others'.
  std::thread local([&] {
    for (size_t i; (i = next.fetch_add(1)) < n;) {
      double t0 = now();
      Payload result = task.compute(pending[i]);
      double secs = now() - t0;
      busy += secs;
      task.record(pending[i], std::move(result), secs, 0);
    }
  });
  for (int stopped = 0; stopped < IN_FLIGHT * (ranks - 1);) {
    uint64_t report[3];
    MPI_Status status;
    gentle_recv(report, 3, MPI_UINT64_T, MPI_ANY_SOURCE, TAG_REPORT, &status);
    if (report[0] != NONE) {
      Payload result(report[2]);
      if (!result.empty())
        gentle_recv(result.data(), int(result.size()), MPI_BYTE, status.MPI_SOURCE, TAG_RESULT, MPI_STATUS_IGNORE);
      task.record(report[0], std::move(result), from_bits(report[1]), status.MPI_SOURCE);
    }
    size_t i = next.fetch_add(1);
    uint64_t assign = i < n ? uint64_t(pending[i]) : NONE;
    stopped += assign == NONE;
    MPI_Send(&assign, 1, MPI_UINT64_T, status.MPI_SOURCE, TAG_ASSIGN, MPI_COMM_WORLD);
  }
  local.join();
  idle = now() - start - busy;
}

}  // namespace

std::vector<RankLoad> run_farm(const FarmTask& task, const std::vector<size_t>& pending, int run) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  double busy = 0, idle = 0;
  if (rank == 0)
    coordinator(task, pending, ranks, busy, idle);
  else
    worker(task, busy, idle);
  double mine[2] = {busy, idle};
  std::vector<double> all(2 * size_t(ranks));
  MPI_Gather(mine, 2, MPI_DOUBLE, all.data(), 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  constexpr int HOST = 256;
  char host[HOST] = {};
  gethostname(host, HOST - 1);
  std::vector<char> hosts(size_t(HOST) * size_t(ranks));
  MPI_Gather(host, HOST, MPI_CHAR, hosts.data(), HOST, MPI_CHAR, 0, MPI_COMM_WORLD);
  std::vector<RankLoad> load;
  for (int i = 0; i < ranks; ++i) load.push_back({run, i, all[2 * i], all[2 * i + 1], &hosts[size_t(HOST) * i]});
  return load;
}

}  // namespace chesshpc
