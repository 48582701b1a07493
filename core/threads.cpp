#include "core/threads.h"

#include <pthread.h>
#include <sched.h>

#include <tbb/info.h>

namespace chess {

int resolve_threads(int requested) { return requested > 0 ? requested : tbb::info::default_concurrency(); }

std::vector<int> allowed_cpus() {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  std::vector<int> cpus;
  if (pthread_getaffinity_np(pthread_self(), sizeof mask, &mask) != 0) return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &mask)) cpus.push_back(cpu);
  return cpus;
}

bool run_on(const std::vector<int>& cpus) {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  for (int cpu : cpus)
    if (cpu >= 0 && cpu < CPU_SETSIZE) CPU_SET(cpu, &mask);
  return CPU_COUNT(&mask) > 0 && pthread_setaffinity_np(pthread_self(), sizeof mask, &mask) == 0;
}

int engine_cpu(const std::vector<int>& cpus, int engines, int slot) {
  if (engines < 2 || size_t(engines) != cpus.size() || slot < 0 || slot >= engines) return -1;
  return cpus[size_t(slot)];
}

}  // namespace chess
