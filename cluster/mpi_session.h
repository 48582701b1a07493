// MPI for the length of a job: initialised (a singleton without mpirun) and finalised.
// Only rank 0's main thread and each rank's main thread call MPI (MPI_THREAD_FUNNELED).
#pragma once

#include <mpi.h>

#include <chrono>
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

  static int rank() {
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
  }
  static int size() {
    int n = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    return n;
  }
};

// Waits for a nonblocking request without spinning: Open MPI's blocking calls busy-poll,
// which would take a core from the rank's own computing threads.
inline void gentle_wait(MPI_Request* req, MPI_Status* status = MPI_STATUS_IGNORE,
                        std::chrono::microseconds poll = std::chrono::microseconds(200)) {
  int done = 0;
  while (MPI_Test(req, &done, status), !done) std::this_thread::sleep_for(poll);
}

}  // namespace chesshpc
