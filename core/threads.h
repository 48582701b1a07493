// How many threads a job runs on. Every command's --threads means the same: a count, or
// (0, the default) every core this process may use, which follows the CPU affinity mask
// that mpirun, srun or taskset give it, not the machine's core count.
#pragma once

#include <vector>

namespace chess {

// requested > 0: requested; otherwise the cores this process may use.
int resolve_threads(int requested);

// The CPUs the calling thread may run on (its affinity mask), ascending; empty where the
// system does not say.
std::vector<int> allowed_cpus();
// Runs the calling thread on `cpus` alone from now on: what it starts afterwards (an
// engine's process, every thread of it) inherits them. False when the system refuses.
bool run_on(const std::vector<int>& cpus);
// The CPU for the engine of `slot` (0 to engines - 1) of a process that may run on `cpus`
// and runs `engines` external engines at once, each searching on one thread: a CPU of its
// own when the engines are as many as the CPUs, 2 or more (the default --threads on the
// whole machine, or on the cores a launcher bound a rank to), so that no two share a core
// and none moves between cores, cooling its caches; else -1, left to the scheduler (one
// engine leaves the other cores to the threads that drive it, and fewer engines than
// CPUs may share the machine with another process that pins its own).
int engine_cpu(const std::vector<int>& cpus, int engines, int slot);

}  // namespace chess
