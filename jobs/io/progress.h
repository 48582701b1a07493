// Progress of a long run on stderr: units done, nodes per second and the time left.
// Silent for runs shorter than one interval (unless report() asks for one) and when
// disabled (--quiet). On a terminal one status line is rewritten in place; in a log each
// report is a line of its own.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

namespace chesshpc {

class Progress {
 public:
  // interval: seconds between reports; 0 picks 1 s on a terminal and 10 s for a log.
  // rate: how the per-second count of done() items is shown, in millions, e.g. "Mnps";
  // a rate not starting with 'M' is shown as it is counted.
  Progress(std::ostream& err, std::string label, bool enabled, double interval = 0, std::string rate = "Mnps");
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void add_total(uint64_t units) { total_ += units; }
  // What the counted items are called ("units" by default), and more to say on each
  // report (e.g. results so far); set both before the first report.
  void set_unit_name(std::string name) { unit_name_ = std::move(name); }
  void set_detail(std::function<std::string()> detail) { detail_ = std::move(detail); }
  // Thread-safe.
  void done(uint64_t units, uint64_t nodes) {
    units_ += units;
    nodes_ += nodes;
  }
  // Prints a line of its own (ending in '\n') between reports, clearing a TTY status
  // line first; thread-safe.
  void say(const std::string& line);
  // Reports now, between the interval's reports, for an event the run's log should show
  // when it happens (an SPRT's decision); nothing when disabled or finished. Thread-safe;
  // the caller must not hold a lock that the detail function takes.
  void report();
  // Stops reporting and clears a TTY status line; called by the destructor too.
  void finish();

 private:
  void loop();
  void print();

  std::ostream& err_;
  std::string label_, rate_, unit_name_ = "units";
  std::function<std::string()> detail_;
  bool tty_, enabled_;
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
