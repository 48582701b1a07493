// Progress of a long run on stderr: units done, nodes per second and the time left.
// Silent for runs shorter than a second and when disabled (--quiet).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

#include "perft.h"

namespace chesshpc {

class Progress {
 public:
  Progress(std::ostream& err, std::string label, bool enabled);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void add_total(uint64_t units) { total_ += units; }
  // Thread-safe.
  void done(uint64_t units, uint64_t nodes) {
    units_ += units;
    nodes_ += nodes;
  }
  // Stops reporting and clears a TTY status line; called by the destructor too.
  void finish();

 private:
  void loop();
  void print();

  std::ostream& err_;
  std::string label_;
  bool tty_;
  std::atomic<uint64_t> total_{0}, units_{0}, nodes_{0};
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false, printed_ = false;
  std::thread thread_;
};

std::string format_duration(double seconds);

}  // namespace chesshpc
