// Whether the other ranks are still there, as the kernel sees it: a TCP connection from
// every rank to rank 0 that carries nothing but TCP keepalive probes. A process that ends
// (kill -9, a node that dies with every process on it) has its sockets closed by the
// kernel, so the peer reads an end of file at once; a link that goes down leaves the probes
// unanswered, and the socket fails after about WATCH_SILENT_SECONDS. Why a channel of its
// own: under Open MPI 4.1 a lost node ends the job from mpirun (SIGTERM, then SIGKILL a
// second later), and the ranks that are left learn nothing of why from MPI; with this
// watch the rank that is left says which rank it lost, and on which node.
//
// Best effort: a rank that cannot reach rank 0's host by its name is not watched, and the
// job runs as it would without the watch.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace chesshpc {

constexpr int WATCH_SILENT_SECONDS = 4;  // keepalive: 1 s idle, then 3 probes 1 s apart

struct LostRank {
  int rank = -1;
  std::string host;
  bool silent = false;  // no answer to the probes (a link down), rather than ended
};

// "rank 2 on node c2 (its processes ended)" or "... (no answer for 4 s)".
std::string describe(const LostRank& lost);

class PeerWatch {
 public:
  // Collective over MPI_COMM_WORLD (nothing without MPI). on_lost runs once, on the watch's
  // own thread, for the first rank lost: on rank 0 any other rank, elsewhere rank 0 only.
  // note: rank 0's, for note() on every rank.
  using OnLost = std::function<void(const LostRank& lost, const PeerWatch& watch)>;
  PeerWatch(OnLost on_lost, const std::string& note);
  // Stops the watch's thread. The connections stay open until the process ends: a rank
  // that closed its end as it left the job would read as lost to one still in it.
  ~PeerWatch();
  PeerWatch(const PeerWatch&) = delete;
  PeerWatch& operator=(const PeerWatch&) = delete;

  // No on_lost from now on; for the end of the job, when ranks leave by design.
  void disarm() { armed_ = false; }
  bool watching() const { return thread_.joinable(); }
  // The rank lost, waiting up to `wait` for one (a stop signal from the launcher often
  // comes with a lost peer: which of the two is seen first is a race).
  std::optional<LostRank> lost(std::chrono::milliseconds wait) const;
  // On every rank: the rank that says rank 0 was lost (the lowest on another node than
  // rank 0's, else rank 1), and rank 0's host.
  int reporter() const { return reporter_; }
  const std::string& root_host() const { return root_host_; }
  const std::string& note() const { return note_; }

 private:
  void loop();
  void lose(const LostRank& lost);

  OnLost on_lost_;
  std::atomic<bool> armed_{true};
  mutable std::mutex mutex_;
  std::optional<LostRank> lost_;    // the first, once seen
  std::vector<int> fds_;            // rank 0: its listening socket, then one per rank as each connects
  std::vector<int> fd_rank_;        // the rank of each of fds_ (-1: not yet known, or listening)
  std::vector<std::string> hosts_;  // rank 0: every rank's
  std::string root_host_, note_;
  int rank_ = 0, reporter_ = 1;
  int wake_[2] = {-1, -1};  // a pipe that ends the thread
  std::thread thread_;
};

// Rank 0, just before it ends the job itself (a stop, a lost rank): tells every rank's
// watch that the end of rank 0 that follows is no loss to report. With leave, a rank whose
// watch is armed then stops at once and ends with EXIT_STOPPED when the launcher ends the
// job (exit_after_launcher, cluster/signals.h: after a rank's processes ended, its messages
// to rank 0 would fail, each said by Open MPI); without, the ranks stay for the
// launcher to end (a stop signal, as before the watch; a rank gone silent: Open MPI 4.1's
// mpirun never exits when the ranks it can reach end by themselves while a node's daemon
// is cut off).
void watch_farewell(bool leave);

}  // namespace chesshpc
