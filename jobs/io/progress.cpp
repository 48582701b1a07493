#include "jobs/io/progress.h"

#include <unistd.h>
#include <cstdio>

namespace chesshpc {

std::string format_duration(double seconds) {
  long s = long(seconds + 0.5);
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  return buf;
}

Progress::Progress(std::ostream& err, std::string label, bool enabled, double interval, std::string rate)
    : err_(err),
      label_(std::move(label)),
      rate_(std::move(rate)),
      tty_(isatty(STDERR_FILENO)),
      enabled_(enabled),
      interval_(interval > 0 ? interval
                : tty_       ? 1.0
                             : 10.0) {
  if (enabled) thread_ = std::thread([this] { loop(); });
}

Progress::~Progress() { finish(); }

void Progress::finish() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
  if (printed_ && tty_) err_ << "\r\033[K" << std::flush;
}

void Progress::say(const std::string& line) {
  std::lock_guard lock(mutex_);
  err_ << (printed_ && tty_ ? "\r\033[K" : "") << line << std::flush;
}

void Progress::report() {
  std::lock_guard lock(mutex_);
  if (enabled_ && !stop_) print();
}

void Progress::loop() {
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, interval_, [this] { return stop_; })) print();
}

void Progress::print() {
  double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  uint64_t units = units_, total = total_, nodes = nodes_;
  char line[200];
  std::string eta = units && total ? format_duration(elapsed * double(total - units) / double(units)) : "?";
  std::snprintf(line, sizeof line, "%s: %llu/%llu %s, %.1f %s, elapsed %s, ETA %s", label_.c_str(),
                (unsigned long long)units, (unsigned long long)total, unit_name_.c_str(),
                double(nodes) / elapsed / (rate_[0] == 'M' ? 1e6 : 1), rate_.c_str(), format_duration(elapsed).c_str(),
                eta.c_str());
  err_ << (tty_ ? "\r\033[K" : "") << line << (detail_ ? detail_() : "") << (tty_ ? "" : "\n") << std::flush;
  printed_ = true;
}

}  // namespace chesshpc
