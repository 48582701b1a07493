// The collectives a unit job may call in plan(), without seeing MPI: the driver passes one
// in Ranks (cluster/mpi_exchange over MPI_COMM_WORLD; SoloExchange for one process). Every
// call is collective: every rank makes the same calls in the same order, from its main
// thread, or the ranks deadlock.
#pragma once

#include <utility>
#include <vector>

#include "jobs/io/unit_job.h"  // Payload

namespace chesshpc {

class Exchange {
 public:
  virtual ~Exchange() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // to[r] (size() of them) goes to rank r; returns from[r], what rank r sent here.
  virtual std::vector<Payload> all_to_all(std::vector<Payload> to) = 0;
  // Whether every rank passed true: how rounds of all_to_all agree to end.
  virtual bool all(bool mine) = 0;
};

// One process: what it sends to itself comes back.
class SoloExchange : public Exchange {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  std::vector<Payload> all_to_all(std::vector<Payload> to) override { return to; }
  bool all(bool mine) override { return mine; }
};

}  // namespace chesshpc
