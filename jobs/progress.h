// Progress of a long run on stderr: units done, nodes per second and the time left.
// Silent for runs shorter than one interval and when disabled (--quiet). On a terminal
// one status line is rewritten in place; in a log each report is a line of its own.
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
  // interval: seconds between reports; 0 picks 1 s on a terminal and 10 s for a log.
  // rate: how the per-second count of done() items is shown, e.g. "Mnps".
  Progress(std::ostream& err, std::string label, bool enabled, double interval = 0, std::string rate = "Mnps");
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
  std::string label_, rate_;
  bool tty_;
  std::chrono::duration<double> interval_;
  std::atomic<uint64_t> total_{0}, units_{0}, nodes_{0};
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false, printed_ = false;
  std::thread thread_;
};

std::string format_duration(double seconds);

}  // namespace chesshpc
