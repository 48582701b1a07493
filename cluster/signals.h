// SIGTERM and SIGINT ask a long job to stop cleanly (Slurm sends SIGTERM before the time
// limit; Ctrl-C sends SIGINT). The handler only records the signal, and makes a pipe
// readable, so that a thread can sleep until a stop (poll on stop_signal_fd()) instead of
// waking to look; the job polls the flag.
#pragma once

namespace chesshpc {

void catch_stop_signals();
// Stops the job as the signal sig would (the first stop asked for wins): for a stop the
// process decides itself, such as a rank that was lost.
void request_stop(int sig);
// The signal that asked the job to stop, or 0.
int stop_signal();
// A descriptor that polls readable (POLLIN) once a stop was asked for, and stays so (one
// byte in a pipe, never read, however often this is called); -1 when the pipe could not
// be made (then only stop_signal() says it).
int stop_signal_fd();
const char* signal_name(int sig);

// Seconds a rank that lost a peer waits for the launcher to end the job (LAUNCHER_GRACE)
// before it ends by itself.
inline constexpr double LAUNCHER_GRACE_SECONDS = 10;

// Ends this process with `code` (EXIT_STOPPED) after a rank was lost, once the launcher
// ends the job, or after `seconds` if it does not: the process stops itself (SIGSTOP, every
// thread at once: no MPI call that would say the lost peer's broken connection, no CPU)
// with a timer that continues it after `seconds`. Open MPI's mpirun, and Slurm, send
// SIGCONT and SIGTERM to every rank when they end a job (SIGKILL a moment later), so the
// job's code is the launcher's (mpirun's 205 for a lost daemon): a rank that exited by
// itself first would have the job end with its own 5 instead. A stop signal that has
// already come means the launcher is ending the job: the process ends at once.
[[noreturn]] void exit_after_launcher(int code, double seconds = LAUNCHER_GRACE_SECONDS);

}  // namespace chesshpc
