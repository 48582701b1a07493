#include "cluster/unit_queues.h"

#include <algorithm>

namespace chesshpc {

UnitQueues::UnitQueues(const std::function<size_t(size_t unit)>& affinity, const std::vector<size_t>& pending,
                       int ranks, bool pinned)
    : queues_(size_t(ranks)) {
  for (size_t u : pending) queues_[affinity ? affinity(u) % size_t(ranks) : 0].push_back(u);
  shared_ = !affinity;
  pinned_ = pinned && affinity;
}

uint64_t UnitQueues::next(int rank) {
  std::lock_guard lock(mutex_);
  std::deque<size_t>* q = &queues_[shared_ ? 0 : size_t(rank)];
  if (!q->empty()) {
    size_t u = q->front();
    q->pop_front();
    return u;
  }
  if (pinned_) return NONE;
  q = &*std::max_element(queues_.begin(), queues_.end(),
                         [](const auto& a, const auto& b) { return a.size() < b.size(); });
  if (q->empty()) return NONE;
  size_t u = q->back();
  q->pop_back();
  return u;
}

}  // namespace chesshpc
