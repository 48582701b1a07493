// MPI for the length of a job: initialised and finalised. Only each rank's main thread
// calls MPI (MPI_THREAD_FUNNELED). A job on one process starts no MPI at all (a singleton
// start costs half a second): rank() and size() then answer 0 and 1, and the task farm
// and gather_hosts work without messages.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <thread>

namespace chesshpc {

inline void gentle_barrier();

struct MpiSession {
  MpiSession() {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  }
  // MPI_Finalize waits for every rank busily: the ranks that finished first meet at a
  // barrier that sleeps while rank 0 writes its file.
  ~MpiSession() {
    gentle_barrier();
    MPI_Finalize();
  }
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  // Whether MPI is up in this process (between a session's start and end).
  static bool running() {
    int started = 0, ended = 0;
    MPI_Initialized(&started);
    MPI_Finalized(&ended);
    return started && !ended;
  }
  static int rank() {
    int r = 0;
    if (running()) MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
  }
  static int size() {
    int n = 1;
    if (running()) MPI_Comm_size(MPI_COMM_WORLD, &n);
    return n;
  }
};

// True when this process was started by mpirun or srun with more than one rank: only then
// does a job start MPI.
inline bool launched_with_ranks() {
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "SLURM_NTASKS"})
    if (const char* v = std::getenv(var); v && std::atoi(v) > 1) return true;
  return false;
}

// Sleeps between polls that found nothing, each sleep twice the one before, from 50 us up
// to a cap: a rank that waits long wakes a few hundred times a second, not thousands (each
// wake an MPI progress call and a context switch: at a fixed 200 us, 5,000 a second, some
// 4 % of a core per waiting thread), while one answered soon is answered within a short
// sleep. reset() after a poll that found something.
class PollBackoff {
 public:
  static constexpr std::chrono::microseconds FIRST{50}, CAP{2000};
  explicit PollBackoff(std::chrono::microseconds cap = CAP) : cap_(std::max(cap, FIRST)) {}
  void idle() {
    std::this_thread::sleep_for(sleep_);
    sleep_ = std::min(2 * sleep_, cap_);
  }
  void reset() { sleep_ = FIRST; }

 private:
  std::chrono::microseconds cap_, sleep_ = FIRST;
};

// Waits for a nonblocking request without spinning: Open MPI's blocking calls busy-poll,
// which would take a core from the rank's own computing threads (or from the engines a
// rank drives, or the other ranks on its cores while it waits for rank 0).
inline void gentle_wait(MPI_Request* req, MPI_Status* status = MPI_STATUS_IGNORE,
                        std::chrono::microseconds cap = PollBackoff::CAP) {
  PollBackoff backoff(cap);
  int done = 0;
  while (MPI_Test(req, &done, status), !done) backoff.idle();
}

// The collectives every rank waits in while another works (rank 0 opening or writing a
// file, finishing its last unit), gently; nothing without MPI.
inline void gentle_barrier() {
  if (!MpiSession::running()) return;
  MPI_Request req;
  MPI_Ibarrier(MPI_COMM_WORLD, &req);
  gentle_wait(&req);
}
inline void gentle_bcast(void* buf, int count, MPI_Datatype type, std::chrono::microseconds cap = PollBackoff::CAP) {
  if (!MpiSession::running()) return;
  MPI_Request req;
  MPI_Ibcast(buf, count, type, 0, MPI_COMM_WORLD, &req);
  gentle_wait(&req, MPI_STATUS_IGNORE, cap);
}
// To rank 0.
inline void gentle_gather(const void* send, int count, MPI_Datatype type, void* recv) {
  MPI_Request req;
  MPI_Igather(send, count, type, recv, count, type, 0, MPI_COMM_WORLD, &req);
  gentle_wait(&req);
}

}  // namespace chesshpc
