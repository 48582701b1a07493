#include "jobs/bench/machine.h"

#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>

#include "core/bitboard.h"
#include "jobs/io/build_info.h"
#include "jobs/io/byte_size.h"
#include "jobs/io/h5.h"
#include "jobs/io/provenance.h"

namespace chesshpc {

namespace {

std::string cpu_model(const std::string& architecture) {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) != 0) continue;
    size_t colon = line.find(':');
    size_t start = line.find_first_not_of(" \t", colon + 1);
    if (colon != std::string::npos && start != std::string::npos) return line.substr(start);
  }
  return architecture;  // e.g. ARM kernels list no model name
}

int cpus_allowed(int fallback) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return fallback;
  return CPU_COUNT(&set);
}

}  // namespace

Machine describe_machine() {
  Machine m;
  utsname u{};
  uname(&u);
  m.cpu_model = cpu_model(u.machine);
  m.logical_cpus = int(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
  m.cpus_allowed = cpus_allowed(m.logical_cpus);
  m.memory_bytes = physical_memory();
  m.hostname = host_name();
  m.os = std::string(u.sysname) + " " + u.release;
  m.compiler = CHESSHPC_COMPILER;
  m.build_type = CHESSHPC_BUILD_TYPE;
  m.build_flags = CHESSHPC_BUILD_FLAGS;
  m.native = CHESSHPC_NATIVE_BUILD;
  m.pext = CHESSHPC_USE_PEXT;
  return m;
}

}  // namespace chesshpc
