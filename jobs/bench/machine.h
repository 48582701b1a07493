// The machine and build a benchmark ran on, so that its numbers can be read next to
// another machine's: processor, cores the process could use, memory, system, compiler.
#pragma once

#include <cstdint>
#include <string>

namespace chesshpc {

struct Machine {
  std::string cpu_model;  // /proc/cpuinfo "model name" (or the architecture when there is none)
  int logical_cpus = 1;   // hardware threads online
  int cpus_allowed = 1;   // of those, the ones this process may run on
  uint64_t memory_bytes = 0;
  std::string hostname, os;  // os: uname sysname and release
  std::string compiler, build_type, build_flags;
  bool native = false;  // built with CHESSHPC_NATIVE (-march=native)
  bool pext = false;    // slider attacks by BMI2 PEXT
};

// This process's machine, read from /proc, sysconf, sched_getaffinity and uname.
Machine describe_machine();

}  // namespace chesshpc
