#include "ledger.h"

#include <algorithm>
#include <chrono>
#include <iostream>

#include "h5.h"
#include "perft_file.h"
#include "progress.h"
#include "signals.h"

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

Checkpointer::Checkpointer(Ledger& ledger, const PerftFile* file, double interval,
                           std::function<void(int, size_t)> on_stop)
    : ledger_(ledger), file_(file), interval_(interval), on_stop_(std::move(on_stop)) {
  thread_ = std::thread([this] { loop(); });
}

Checkpointer::~Checkpointer() {
  quit_ = true;
  thread_.join();
}

size_t Checkpointer::write() {
  UnitResults r = ledger_.snapshot();
  if (!file_) return in_file_;
  auto t0 = std::chrono::steady_clock::now();
  try {
    file_->write(r);
    in_file_ = r.count_done();
  } catch (const h5::Error& e) {
    // The previous checkpoint stays in place; the final write reports the error for good.
    std::cerr << "chesshpc perft: checkpoint failed: " << e.what() << "\n";
  }
  writing_ = writing_ + std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ++writes_;
  return in_file_;
}

void Checkpointer::loop() {
  using Clock = std::chrono::steady_clock;
  auto last = Clock::now();
  while (!quit_) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (int sig = stop_signal()) {
      ledger_.freeze();
      on_stop_(sig, write());
      return;
    }
    double since = std::chrono::duration<double>(Clock::now() - last).count();
    double cost = writes_ ? writing_ / writes_ : 0;
    if (since < (interval_ > 0 ? interval_ : std::max(5.0, 50 * cost))) continue;
    write();
    last = Clock::now();
  }
}

}  // namespace chesshpc
