#include "cluster/checkpointer.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <iostream>

#include "cluster/signals.h"
#include "jobs/io/job_common.h"

namespace chesshpc {

Checkpointer::Checkpointer(CheckpointHooks hooks, double interval, std::function<void(int, size_t)> on_stop)
    : hooks_(std::move(hooks)), interval_(interval), on_stop_(std::move(on_stop)) {
  if (pipe2(wake_, O_CLOEXEC | O_NONBLOCK) != 0) wake_[0] = wake_[1] = -1;
  thread_ = std::thread([this] { loop(); });
}

Checkpointer::~Checkpointer() {
  stop();
  for (int fd : wake_)
    if (fd >= 0) close(fd);
}

void Checkpointer::stop() {
  quit_ = true;
  if (wake_[1] >= 0) {
    const char byte = 1;
    [[maybe_unused]] const ssize_t n = write(wake_[1], &byte, 1);
  }
  if (thread_.joinable()) thread_.join();
}

void Checkpointer::sleep_until(std::chrono::steady_clock::time_point due) const {
  // Without either pipe the flags are looked at every 20 ms, as they all were before.
  const int stop_fd = stop_signal_fd();
  const bool blocking = stop_fd >= 0 && wake_[0] >= 0;
  const long long left = std::chrono::ceil<std::chrono::milliseconds>(due - std::chrono::steady_clock::now()).count();
  pollfd fds[2] = {{stop_fd, POLLIN, 0}, {wake_[0], POLLIN, 0}};
  if (left > 0) poll(fds, blocking ? 2 : 0, int(std::min(left, blocking ? 1LL << 30 : 20LL)));
}

size_t Checkpointer::save() {
  if (!hooks_.save) return in_file_;
  auto t0 = std::chrono::steady_clock::now();
  try {
    in_file_ = hooks_.save();
    failures_ = 0;
    said_.clear();
  } catch (const std::exception& e) {
    // The previous checkpoint stays in place and the run goes on; the final write reports
    // the error for good. A full disk fails every save the same way: said once, not every
    // few seconds.
    if (e.what() != said_) std::cerr << "chesshpc: checkpoint failed, the run goes on: " << e.what() << "\n";
    said_ = e.what();
    ++failures_;
  }
  writing_ = writing_ + std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ++writes_;
  return in_file_;
}

// Sleeps until the next save is due, a stop signal, or stop(): the thread wakes once a
// save, not every few ms to look at the flags.
void Checkpointer::loop() {
  using Clock = std::chrono::steady_clock;
  auto last = Clock::now();
  while (!quit_) {
    double cost = writes_ ? writing_ / writes_ : 0;
    // After failures the wait doubles each time (up to 64 times): each failed HDF5 file
    // leaks a little memory (h5.cpp), and a disk that is full now is likely full in 5 s.
    double wait = (interval_ > 0 ? interval_ : std::max(5.0, 50 * cost)) * double(1 << std::min(failures_, 6));
    const auto due = last + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(wait));
    sleep_until(due);
    if (int sig = stop_signal()) {
      if (hooks_.freeze) hooks_.freeze();
      on_stop_(sig, save());
      return;
    }
    if (quit_ || Clock::now() < due) continue;
    save();
    last = Clock::now();
  }
}

void stop_job(const StopNotice& n, int sig, size_t done) {
  say_stopped(n, sig, done);
  std::_Exit(EXIT_STOPPED);
}

void say_stopped(const StopNotice& n, int sig, size_t done) {
  std::cerr << "\nchesshpc " << n.command << ": stopped by " << signal_name(sig) << " after " << done << " of "
            << n.total << " " << n.items;
  if (n.kept_in.empty())
    std::cerr << "; without --out nothing is kept\n";
  else
    std::cerr << " recorded in '" << n.kept_in << "'\nresume with: " << n.command_line << (n.resumed ? "" : " --resume")
              << "\n";
  std::cerr.flush();
}

void say_lost_rank(const StopNotice& n, const std::string& who, std::optional<size_t> done,
                   const std::string& kept_on) {
  std::cerr << "\nchesshpc " << n.command << ": lost " << who << "; ";
  if (n.kept_in.empty())
    std::cerr << "without --out nothing is kept\n";
  else if (done)
    std::cerr << "'" << n.kept_in << "' keeps " << *done << " of " << n.total << " " << n.items
              << ": rerun with --resume\n";
  else
    std::cerr << "'" << n.kept_in << "' on " << kept_on << " keeps the " << n.items
              << " of its last checkpoint: rerun with --resume\n";
  std::cerr.flush();
}

void stop_for_lost_rank(const StopNotice& notice, const std::string& who, size_t done) {
  say_lost_rank(notice, who, done);
  exit_after_launcher(EXIT_STOPPED);
}

}  // namespace chesshpc
