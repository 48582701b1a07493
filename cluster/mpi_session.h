// MPI for the length of a job: initialised (a singleton without mpirun) and finalised.
// Only rank 0's main thread and each rank's main thread call MPI (MPI_THREAD_FUNNELED).
#pragma once

#include <mpi.h>

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

}  // namespace chesshpc
