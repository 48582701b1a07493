// SIGTERM and SIGINT ask a long job to stop cleanly (Slurm sends SIGTERM before the time
// limit; Ctrl-C sends SIGINT). The handler only records the signal; the job polls it.
#pragma once

namespace chesshpc {

void catch_stop_signals();
// Stops the job as the signal sig would (the first stop asked for wins): for a stop the
// process decides itself, such as a rank that was lost.
void request_stop(int sig);
// The signal that asked the job to stop, or 0.
int stop_signal();
const char* signal_name(int sig);

}  // namespace chesshpc
