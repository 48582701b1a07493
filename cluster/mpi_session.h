// MPI for the length of a job: initialised and finalised. Only each rank's main thread
// calls MPI (MPI_THREAD_FUNNELED). A job on one process starts no MPI at all (a singleton
// start costs half a second): rank() and size() then answer 0 and 1, and the task farm
// and gather_hosts work without messages.
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstdlib>
#include <thread>

namespace chesshpc {

struct MpiSession {
  MpiSession() {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  }
  ~MpiSession() { MPI_Finalize(); }
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

// Waits for a nonblocking request without spinning: Open MPI's blocking calls busy-poll,
// which would take a core from the rank's own computing threads.
inline void gentle_wait(MPI_Request* req, MPI_Status* status = MPI_STATUS_IGNORE,
                        std::chrono::microseconds poll = std::chrono::microseconds(200)) {
  int done = 0;
  while (MPI_Test(req, &done, status), !done) std::this_thread::sleep_for(poll);
}

}  // namespace chesshpc
