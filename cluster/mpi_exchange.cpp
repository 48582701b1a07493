#include "cluster/mpi_exchange.h"

#include <chrono>
#include <limits>
#include <numeric>
#include <stdexcept>

#include <sched.h>

#include "cluster/mpi_session.h"

namespace chesshpc {

namespace {

// Displacements of consecutive blocks of the given sizes; throws past MPI's int range.
std::vector<int> offsets(const std::vector<int>& counts) {
  std::vector<int> at(counts.size());
  long long sum = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    at[i] = int(sum);
    sum += counts[i];
    if (sum > std::numeric_limits<int>::max()) throw std::length_error("all_to_all: over 2 GB in one round");
  }
  return at;
}

// Waits for the bytes of a collective that every rank has entered. Open MPI moves a
// nonblocking collective's bytes only inside MPI calls, a fragment at a time: polled
// between gentle_wait's sleeps (up to 2 ms), 32 MB took 0.8 s a round (routing ply 6 of
// perft(7) on 2 ranks: 7.2 s of its 12.0 s exchanging); polled back to back, 0.04 s (0.4 s
// of 4.5 s). So it polls back to back (sched_yield between, for any other process that
// wants the core) for as long as the round's bytes take at SPIN_RATE, and from then on
// with short sleeps (PollBackoff up to SLEEP_CAP): where ranks outnumber the cores, a
// rank whose peer is descheduled would otherwise hold a core the peer needs to move its
// part (bench/README.md, "Phase B's table by the rank's positions").
// Bytes (sent and received) a second: half or less of what polling back to back moved on
// 2 ranks here (a 32 MB round each way in 18-80 ms).
constexpr double SPIN_RATE = 1e9;
constexpr std::chrono::microseconds SPIN_MIN{1000}, SLEEP_CAP{250};

void eager_wait(MPI_Request* req, size_t bytes) {
  const auto spin_until = std::chrono::steady_clock::now() + SPIN_MIN +
                          std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                              std::chrono::duration<double>(double(bytes) / SPIN_RATE));
  int done = 0;
  while (MPI_Test(req, &done, MPI_STATUS_IGNORE), !done) {
    if (std::chrono::steady_clock::now() >= spin_until) return gentle_wait(req, MPI_STATUS_IGNORE, SLEEP_CAP);
    sched_yield();
  }
}

}  // namespace

int MpiExchange::rank() const { return MpiSession::rank(); }
int MpiExchange::size() const { return MpiSession::size(); }

std::vector<Payload> MpiExchange::all_to_all(std::vector<Payload> to) {
  const size_t n = size_t(size());
  std::vector<int> send_counts(n), recv_counts(n);
  for (size_t r = 0; r < n; ++r) {
    if (to[r].size() > size_t(std::numeric_limits<int>::max())) throw std::length_error("all_to_all: over 2 GB");
    send_counts[r] = int(to[r].size());
  }
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::vector<int> send_at = offsets(send_counts), recv_at = offsets(recv_counts);
  Payload send;
  send.reserve(size_t(send_at.back()) + size_t(send_counts.back()));
  for (const Payload& p : to) send.insert(send.end(), p.begin(), p.end());
  Payload recv(size_t(recv_at.back()) + size_t(recv_counts.back()));
  MPI_Alltoallv(send.data(), send_counts.data(), send_at.data(), MPI_BYTE, recv.data(), recv_counts.data(),
                recv_at.data(), MPI_BYTE, MPI_COMM_WORLD);
  std::vector<Payload> from(n);
  for (size_t r = 0; r < n; ++r) from[r].assign(recv.begin() + recv_at[r], recv.begin() + recv_at[r] + recv_counts[r]);
  return from;
}

namespace {

std::vector<int> to_ints(const std::vector<size_t>& v) {
  std::vector<int> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] > size_t(std::numeric_limits<int>::max())) throw std::length_error("all_to_all: over 2 GB in one round");
    out[i] = int(v[i]);
  }
  return out;
}

}  // namespace

void MpiExchange::all_to_all(const Blocks& to, Blocks& from) {
  const size_t n = size_t(size());
  std::vector<int> send_counts = to_ints(to.size), send_at = to_ints(to.at), recv_counts(n);
  MPI_Request req;
  MPI_Ialltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, MPI_COMM_WORLD, &req);
  gentle_wait(&req);
  std::vector<int> recv_at = offsets(recv_counts);
  const size_t total = size_t(recv_at.back()) + size_t(recv_counts.back());
  if (from.bytes.size() < total) from.bytes.resize(total);
  MPI_Ialltoallv(to.bytes.data(), send_counts.data(), send_at.data(), MPI_BYTE, from.bytes.data(), recv_counts.data(),
                 recv_at.data(), MPI_BYTE, MPI_COMM_WORLD, &req);
  eager_wait(&req, std::accumulate(to.size.begin(), to.size.end(), total));
  from.at.assign(recv_at.begin(), recv_at.end());
  from.size.assign(recv_counts.begin(), recv_counts.end());
}

bool MpiExchange::all(bool mine) {
  int in = mine, out = 0;
  MPI_Request req;
  MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD, &req);
  gentle_wait(&req);
  return out != 0;
}

void MpiExchange::broadcast(Payload& bytes) {
  uint64_t size = bytes.size();
  MPI_Request req;
  MPI_Ibcast(&size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD, &req);
  gentle_wait(&req);
  if (size > uint64_t(std::numeric_limits<int>::max())) throw std::length_error("broadcast: over 2 GB");
  bytes.resize(size_t(size));
  MPI_Ibcast(bytes.data(), int(size), MPI_BYTE, 0, MPI_COMM_WORLD, &req);
  gentle_wait(&req);
}

}  // namespace chesshpc
