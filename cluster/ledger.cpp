#include "cluster/ledger.h"

#include "jobs/io/progress.h"

namespace chesshpc {

void Ledger::record(size_t unit, uint64_t nodes, double secs, int rank) {
  std::lock_guard lock(mutex_);
  if (frozen_) return;
  r_.record(unit, nodes, secs, rank);
  if (progress_) progress_->done(1, nodes);
}

UnitResults Ledger::snapshot() const {
  std::lock_guard lock(mutex_);
  return r_;
}

void Ledger::freeze() {
  std::lock_guard lock(mutex_);
  frozen_ = true;
}

}  // namespace chesshpc
