// The thread that keeps a job's result file up to date with its ledger on rank 0. The
// file is the job's checkpoint: after kill -9 it holds every unit recorded before its
// last write, and --resume continues from there.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <thread>

namespace chesshpc {

struct CheckpointHooks {
  // Writes what the ledger holds and returns the units the written checkpoint holds;
  // throws on failure (the previous checkpoint stays). Empty: the job keeps no file.
  std::function<size_t()> save;
  // Makes the ledger ignore later results, so the last checkpoint holds all it reports.
  std::function<void()> freeze;
};

// Saves every `interval` seconds (0: every 5 s, stretched so that saving stays under 2% of
// the run), and once more when a stop signal arrives, after which it calls
// on_stop(signal, units in the file), which ends the process. A failed save is said on
// stderr (once while saves fail alike) and the run goes on, the wait doubling after each
// failure in a row.
class Checkpointer {
 public:
  Checkpointer(CheckpointHooks hooks, double interval, std::function<void(int, size_t)> on_stop);
  ~Checkpointer();
  Checkpointer(const Checkpointer&) = delete;
  Checkpointer& operator=(const Checkpointer&) = delete;

  // Ends the thread, waiting for a save under way; the counts below are final after it.
  // The destructor calls it too.
  void stop();

  // Seconds spent saving so far, and how many saves were made.
  double seconds_writing() const { return writing_.load(); }
  int writes() const { return writes_.load(); }

 private:
  void loop();
  void sleep_until(std::chrono::steady_clock::time_point due) const;
  size_t save();  // the units in the file, after this save or the last that worked

  CheckpointHooks hooks_;
  double interval_;
  std::function<void(int, size_t)> on_stop_;
  std::atomic<bool> quit_{false};
  std::atomic<double> writing_{0};
  std::atomic<int> writes_{0};
  size_t in_file_ = 0;
  int failures_ = 0;        // saves failed since the last that worked
  std::string said_;        // the failure said since then
  int wake_[2] = {-1, -1};  // a pipe that stop() writes to, ending the thread's sleep
  std::thread thread_;
};

// What a stopped job tells its user, then the end of the process (EXIT_STOPPED). Runs on
// rank 0's checkpoint thread once the last checkpoint is written: the other ranks' work in
// flight is lost either way, so the job ends now rather than after it; mpirun or srun takes
// the other ranks down when rank 0 exits.
struct StopNotice {
  std::string command;       // "perft"
  std::string items;         // "units"
  uint64_t total = 0;        // items in the job
  std::string kept_in;       // where the checkpoint is; empty: nothing is kept
  std::string command_line;  // to resume with
  bool resumed = false;      // the command line already has --resume
};
[[noreturn]] void stop_job(const StopNotice& notice, int sig, size_t done);
// The notice alone, for a job that stops by returning (every rank then finalizes MPI).
void say_stopped(const StopNotice& notice, int sig, size_t done);
// A job that lost a rank (cluster/peer_watch; who: "rank 2 on node c2 (its processes
// ended)"), in one line. done: the items the checkpoint holds; none when it is on the lost
// rank's node (kept_on), which saved it last. stop_for_lost_rank then ends the process
// (EXIT_STOPPED) when the launcher ends the job (cluster/signals.h, exit_after_launcher).
void say_lost_rank(const StopNotice& notice, const std::string& who, std::optional<size_t> done,
                   const std::string& kept_on = "");
[[noreturn]] void stop_for_lost_rank(const StopNotice& notice, const std::string& who, size_t done);

}  // namespace chesshpc
