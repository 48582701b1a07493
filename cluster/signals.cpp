#include "cluster/signals.h"

#include <atomic>
#include <csignal>

namespace chesshpc {

namespace {

std::atomic<int> received{0};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs a lock-free flag");

extern "C" void on_stop_signal(int sig) { request_stop(sig); }

}  // namespace

void request_stop(int sig) {
  int none = 0;
  received.compare_exchange_strong(none, sig);
}

void catch_stop_signals() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  sigaction(SIGTERM, &sa, nullptr);
  sigaction(SIGINT, &sa, nullptr);
}

int stop_signal() { return received.load(std::memory_order_relaxed); }

const char* signal_name(int sig) { return sig == SIGTERM ? "SIGTERM" : sig == SIGINT ? "SIGINT" : "a signal"; }

}  // namespace chesshpc
