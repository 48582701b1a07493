// The collectives a unit job may call in prepare(), without seeing MPI: the driver passes
// one in Ranks (cluster/mpi_exchange over MPI_COMM_WORLD; SoloExchange for one process). Every
// call is collective: every rank makes the same calls in the same order, from its main
// thread, or the ranks deadlock.
#pragma once

#include <algorithm>
#include <utility>
#include <vector>

#include "jobs/io/unit_job.h"  // Payload

namespace chesshpc {

// Blocks of bytes in one buffer, one block per rank: block r is [at[r], at[r] + size[r]).
// Reused from round to round, so that a routing loop allocates its buffers once.
struct Blocks {
  Payload bytes;
  std::vector<size_t> at, size;
};

class Exchange {
 public:
  virtual ~Exchange() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // to[r] (size() of them) goes to rank r; returns from[r], what rank r sent here.
  virtual std::vector<Payload> all_to_all(std::vector<Payload> to) = 0;
  // The same over blocks: to's block r goes to rank r, and from's block r is what rank r
  // sent here. From's buffer grows as needed and is never shrunk. By default through the
  // form above; an implementation may avoid its copies.
  virtual void all_to_all(const Blocks& to, Blocks& from);
  // Whether every rank passed true: how rounds of all_to_all agree to end.
  virtual bool all(bool mine) = 0;
  // Rank 0's bytes on every rank (what the others pass is replaced). By default through
  // all_to_all; an implementation may send them down a tree.
  virtual void broadcast(Payload& bytes);
};

// One process: what it sends to itself comes back.
class SoloExchange : public Exchange {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  std::vector<Payload> all_to_all(std::vector<Payload> to) override { return to; }
  bool all(bool mine) override { return mine; }
};

inline void Exchange::broadcast(Payload& bytes) {
  std::vector<Payload> to(static_cast<size_t>(size()));
  if (rank() == 0) to.assign(to.size(), bytes);
  bytes = std::move(all_to_all(std::move(to))[0]);
}

inline void Exchange::all_to_all(const Blocks& to, Blocks& from) {
  std::vector<Payload> parts(to.at.size());
  for (size_t r = 0; r < parts.size(); ++r)
    parts[r].assign(to.bytes.begin() + long(to.at[r]), to.bytes.begin() + long(to.at[r] + to.size[r]));
  parts = all_to_all(std::move(parts));
  from.at.assign(parts.size(), 0), from.size.assign(parts.size(), 0);
  size_t total = 0;
  for (size_t r = 0; r < parts.size(); ++r)
    from.at[r] = total, from.size[r] = parts[r].size(), total += parts[r].size();
  if (from.bytes.size() < total) from.bytes.resize(total);
  for (size_t r = 0; r < parts.size(); ++r)
    std::copy(parts[r].begin(), parts[r].end(), from.bytes.begin() + long(from.at[r]));
}

}  // namespace chesshpc
