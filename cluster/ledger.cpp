#include "cluster/ledger.h"

#include <algorithm>

#include "jobs/io/progress.h"

namespace chesshpc {

// The record after which the job wants no more units is reported at once: the run ends
// soon after, before the next report or within the same interval, and its log should say
// what ended it. Outside the lock, since the report asks detail() for the job's words.
void Ledger::record(size_t unit, Payload&& result, double seconds, int rank) {
  bool now_enough = false;
  {
    std::lock_guard lock(mutex_);
    if (frozen_) return;
    Recorded r = job_.record(unit, std::move(result), seconds, rank);
    if (seconds_.size() <= size_t(rank)) seconds_.resize(size_t(rank) + 1);
    seconds_[size_t(rank)] += seconds;
    if (progress_) progress_->done(r.items, r.work);
    now_enough = !enough_reported_ && job_.enough();
    enough_reported_ = enough_reported_ || now_enough;
  }
  if (now_enough && progress_) progress_->report();
}

std::function<uint64_t()> Ledger::checkpoint() {
  std::lock_guard lock(mutex_);
  return job_.checkpoint();
}

void Ledger::freeze() {
  std::lock_guard lock(mutex_);
  frozen_ = true;
}

void Ledger::stop(const std::vector<std::string>& hosts, double elapsed, int concurrency) {
  std::lock_guard lock(mutex_);
  frozen_ = true;
  std::vector<RankLoad> load;
  for (size_t rank = 0; rank < hosts.size(); ++rank) {
    const double busy = (rank < seconds_.size() ? seconds_[rank] : 0) / std::max(concurrency, 1);
    load.push_back({0, int(rank), busy, std::max(elapsed - busy, 0.0), hosts[rank]});
  }
  job_.stopped(load);
}

bool Ledger::enough() const {
  std::lock_guard lock(mutex_);
  return job_.enough();
}

std::string Ledger::detail() const {
  std::lock_guard lock(mutex_);
  return job_.progress_detail();
}

}  // namespace chesshpc
