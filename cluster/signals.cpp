#include "cluster/signals.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <ctime>

namespace chesshpc {

namespace {

std::atomic<int> received{0};
std::atomic<bool> signalled{false};  // a stop signal came from outside (not request_stop)
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs a lock-free flag");

// The stop pipe's ends, made once before any handler can run: the stop writes one byte,
// which stays unread, so the read end polls readable from the stop on.
std::atomic<int> stop_read{-1}, stop_write{-1};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads the pipe's end");
std::atomic<bool> poked{false};  // the stop's byte is in the pipe
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler marks the byte written");

void make_stop_pipe() {
  static const bool made = [] {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) != 0) return false;
    stop_read = fds[0], stop_write = fds[1];
    return true;
  }();
  (void)made;
}

// Writes the stop's byte into the pipe once the pipe is made, and only once however often a
// stop is seen (from the handler, or from stop_signal_fd after a stop that came before the
// pipe). Async-signal-safe: an atomic exchange and write(); errno is the interrupted
// code's, so kept.
void poke_stop_pipe() {
  const int fd = stop_write.load();
  if (fd < 0 || poked.exchange(true)) return;
  const int saved = errno;
  const char byte = 1;
  [[maybe_unused]] const ssize_t n = write(fd, &byte, 1);
  errno = saved;
}

extern "C" void on_stop_signal(int sig) {
  signalled = true;
  request_stop(sig);
}

}  // namespace

void request_stop(int sig) {
  int none = 0;
  if (received.compare_exchange_strong(none, sig)) poke_stop_pipe();
}

void catch_stop_signals() {
  make_stop_pipe();
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);
}

int stop_signal() { return received.load(std::memory_order_relaxed); }

int stop_signal_fd() {
  make_stop_pipe();
  // A stop asked for before the pipe was made has no byte in it yet.
  if (stop_signal()) poke_stop_pipe();
  return stop_read;
}

void exit_after_launcher(int code, double seconds) {
  if (!signalled) {
    // The timer's SIGCONT continues the stopped process; so does the launcher's.
    sigevent event{};
    event.sigev_notify = SIGEV_SIGNAL, event.sigev_signo = SIGCONT;
    timer_t timer;
    if (timer_create(CLOCK_MONOTONIC, &event, &timer) == 0) {
      itimerspec when{};
      when.it_value.tv_sec = time_t(seconds);
      when.it_value.tv_nsec = long((seconds - double(time_t(seconds))) * 1e9);
      if (timer_settime(timer, 0, &when, nullptr) == 0 && !signalled) raise(SIGSTOP);
    }
  }
  std::_Exit(code);
}

const char* signal_name(int sig) { return sig == SIGTERM ? "SIGTERM" : sig == SIGINT ? "SIGINT" : "a signal"; }

}  // namespace chesshpc
