// How many threads a job runs on. Every command's --threads means the same: a count, or
// (0, the default) every core this process may use, which follows the CPU affinity mask
// that mpirun, srun or taskset give it, not the machine's core count.
#pragma once

namespace chess {

// requested > 0: requested; otherwise the cores this process may use.
int resolve_threads(int requested);

}  // namespace chess
