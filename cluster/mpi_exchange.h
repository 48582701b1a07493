// jobs/io/exchange.h over MPI_COMM_WORLD, for a running MpiSession.
#pragma once

#include "jobs/io/exchange.h"

namespace chesshpc {

class MpiExchange : public Exchange {
 public:
  int rank() const override;
  int size() const override;
  // MPI_Alltoall of the sizes, then MPI_Alltoallv of the bytes. Each rank's total must
  // stay under 2 GB (MPI's int counts): callers send in bounded rounds.
  std::vector<Payload> all_to_all(std::vector<Payload> to) override;
  // Straight from to's buffer into from's: no copies. Every collective here waits for the
  // other ranks by polling gently (cluster/mpi_session.h): Open MPI's blocking calls spin,
  // and a rank spinning while it waits for a slower one takes a core from it where ranks
  // share cores. Once the sizes have come (every rank is in the exchange), the bytes are
  // waited for by polling back to back: they move only while MPI is called.
  void all_to_all(const Blocks& to, Blocks& from) override;
  bool all(bool mine) override;
  // The size, then the bytes, down MPI's tree; under 2 GB.
  void broadcast(Payload& bytes) override;
};

}  // namespace chesshpc
