#include "cluster/ledger.h"

#include "jobs/io/progress.h"

namespace chesshpc {

void Ledger::record(size_t unit, Payload&& result, double seconds, int rank) {
  std::lock_guard lock(mutex_);
  if (frozen_) return;
  Recorded r = job_.record(unit, std::move(result), seconds, rank);
  if (progress_) progress_->done(r.items, r.work);
}

std::function<uint64_t()> Ledger::checkpoint() {
  std::lock_guard lock(mutex_);
  return job_.checkpoint();
}

void Ledger::freeze() {
  std::lock_guard lock(mutex_);
  frozen_ = true;
}

std::string Ledger::detail() const {
  std::lock_guard lock(mutex_);
  return job_.progress_detail();
}

}  // namespace chesshpc
