#include "cluster/peer_watch.h"

#include <fcntl.h>
#include <mpi.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "cluster/mpi_session.h"
#include "cluster/signals.h"
#include "cluster/task_farm.h"
#include "jobs/io/job_common.h"

namespace chesshpc {

namespace {

// Rank 0 to every rank: rank 0 ends the job itself; the rank leaves too, or stays for the
// launcher to end it (when a rank went silent: see watch_farewell).
constexpr char FAREWELL = 'F', FAREWELL_STAY = 'S';

std::mutex farewell_mutex;
std::vector<int> farewell_fds;  // rank 0's connections to the other ranks

void set_int(int fd, int level, int name, int value) { setsockopt(fd, level, name, &value, sizeof value); }

// Probes after 1 s of quiet, 3 of them 1 s apart: a peer that answers none is lost.
void keep_alive(int fd) {
  set_int(fd, SOL_SOCKET, SO_KEEPALIVE, 1);
  set_int(fd, IPPROTO_TCP, TCP_KEEPIDLE, 1);
  set_int(fd, IPPROTO_TCP, TCP_KEEPINTVL, 1);
  set_int(fd, IPPROTO_TCP, TCP_KEEPCNT, WATCH_SILENT_SECONDS - 1);
}

void set_timeout(int fd, int option, int seconds) {
  timeval tv{seconds, 0};
  setsockopt(fd, SOL_SOCKET, option, &tv, sizeof tv);
}

// A listening TCP socket on every address of this host (IPv6 and IPv4, or IPv4 alone where
// the host has no IPv6), or -1; its port in port.
int listen_any(int backlog, int& port) {
  for (const int family : {AF_INET6, AF_INET}) {
    const int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) continue;
    sockaddr_storage addr{};
    socklen_t len = family == AF_INET6 ? sizeof(sockaddr_in6) : sizeof(sockaddr_in);
    if (family == AF_INET6) {
      set_int(fd, IPPROTO_IPV6, IPV6_V6ONLY, 0);  // IPv4 peers too
      auto* a = reinterpret_cast<sockaddr_in6*>(&addr);
      a->sin6_family = AF_INET6, a->sin6_addr = in6addr_any;
    } else {
      auto* a = reinterpret_cast<sockaddr_in*>(&addr);
      a->sin_family = AF_INET, a->sin_addr.s_addr = htonl(INADDR_ANY);
    }
    sockaddr* at = reinterpret_cast<sockaddr*>(&addr);
    if (bind(fd, at, len) == 0 && listen(fd, backlog) == 0 && getsockname(fd, at, &len) == 0) {
      port = ntohs(family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port
                                      : reinterpret_cast<sockaddr_in*>(&addr)->sin_port);
      return fd;
    }
    close(fd);
  }
  return -1;
}

// A connection to host:port that says which rank it is, or -1.
int connect_to(const std::string& host, int port, int rank) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC, hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0) return -1;
  int fd = -1;
  for (addrinfo* a = found; a && fd < 0; a = a->ai_next) {
    fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    set_timeout(fd, SO_SNDTIMEO, 2);  // bounds connect() too
    if (connect(fd, a->ai_addr, a->ai_addrlen) != 0 || send(fd, &rank, sizeof rank, MSG_NOSIGNAL) != sizeof rank) {
      close(fd);
      fd = -1;
    }
  }
  freeaddrinfo(found);
  if (fd >= 0) keep_alive(fd);
  return fd;
}

// What a watched connection says now: 1 a byte came (its value in got), 0 it ended, -1 it
// went silent (the probes failed), 2 nothing yet.
int read_state(int fd, char& got) {
  const ssize_t n = recv(fd, &got, 1, MSG_DONTWAIT);
  if (n == 1) return 1;
  if (n == 0) return 0;
  if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return 2;
  return errno == ETIMEDOUT || errno == EHOSTUNREACH ? -1 : 0;
}

// The string rank 0 has, on every rank.
std::string broadcast_string(std::string s) {
  int size = int(s.size());
  MPI_Bcast(&size, 1, MPI_INT, 0, MPI_COMM_WORLD);
  s.resize(size_t(size));
  MPI_Bcast(s.data(), size, MPI_CHAR, 0, MPI_COMM_WORLD);
  return s;
}

}  // namespace

std::string describe(const LostRank& lost) {
  return "rank " + std::to_string(lost.rank) + " on node " + lost.host +
         (lost.silent ? " (no answer for " + std::to_string(WATCH_SILENT_SECONDS) + " s)" : " (its processes ended)");
}

PeerWatch::PeerWatch(OnLost on_lost, const std::string& note) : on_lost_(std::move(on_lost)) {
  if (!MpiSession::running()) return;
  const int rank = rank_ = MpiSession::rank(), ranks = MpiSession::size();
  hosts_ = gather_hosts();
  int header[2] = {0, 1};  // rank 0's port (0: no watch), the reporter
  if (rank == 0) {
    const int fd = listen_any(ranks, header[0]);
    if (fd >= 0) fds_.push_back(fd), fd_rank_.push_back(-1);
    for (int r = ranks - 1; r > 0; --r)
      if (hosts_[size_t(r)] != hosts_[0]) header[1] = r;
  }
  MPI_Bcast(header, 2, MPI_INT, 0, MPI_COMM_WORLD);
  reporter_ = header[1];
  root_host_ = broadcast_string(rank == 0 ? hosts_[0] : "");
  note_ = broadcast_string(rank == 0 ? note : "");
  if (header[0] == 0) return;
  if (rank != 0) {
    const int fd = connect_to(root_host_, header[0], rank);
    if (fd < 0) return;
    fds_.push_back(fd), fd_rank_.push_back(0);
  }
  if (pipe2(wake_, O_CLOEXEC) != 0) return;
  thread_ = std::thread([this] { loop(); });
}

PeerWatch::~PeerWatch() {
  armed_ = false;
  if (thread_.joinable()) {
    const char c = 0;
    [[maybe_unused]] const ssize_t woken = write(wake_[1], &c, 1);  // a pipe's first byte: never fails
    thread_.join();
  }
  for (int fd : wake_)
    if (fd >= 0) close(fd);
  if (rank_ == 0 && !fds_.empty()) close(fds_[0]);  // the listening socket: no more to accept
}

std::optional<LostRank> PeerWatch::lost(std::chrono::milliseconds wait) const {
  const auto until = std::chrono::steady_clock::now() + wait;
  for (;;) {
    {
      std::lock_guard lock(mutex_);
      if (lost_ || !watching()) return lost_;
    }
    if (std::chrono::steady_clock::now() >= until) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

void PeerWatch::lose(const LostRank& lost) {
  {
    std::lock_guard lock(mutex_);
    if (lost_) return;
    lost_ = lost;
  }
  if (armed_) on_lost_(lost, *this);
}

void PeerWatch::loop() {
  std::vector<pollfd> polled;
  while (armed_) {
    polled.assign(1, pollfd{wake_[0], POLLIN, 0});
    for (int fd : fds_) polled.push_back({fd, POLLIN, 0});
    if (poll(polled.data(), polled.size(), -1) < 0) continue;
    if (polled[0].revents || !armed_) return;
    for (size_t i = 1; i < polled.size(); ++i) {
      if (!polled[i].revents) continue;
      const int fd = polled[i].fd;
      int& who = fd_rank_[i - 1];
      if (who < 0 && rank_ == 0) {  // rank 0's listening socket
        const int conn = accept4(fd, nullptr, nullptr, SOCK_CLOEXEC);
        if (conn < 0) continue;
        int r = -1;
        set_timeout(conn, SO_RCVTIMEO, 2);
        if (recv(conn, &r, sizeof r, MSG_WAITALL) != sizeof r || r <= 0 || size_t(r) >= hosts_.size()) {
          close(conn);
          continue;
        }
        set_timeout(conn, SO_RCVTIMEO, 0);
        keep_alive(conn);
        fds_.push_back(conn), fd_rank_.push_back(r);
        std::lock_guard lock(farewell_mutex);
        farewell_fds.push_back(conn);
        continue;
      }
      char got = 0;
      const int state = read_state(fd, got);
      if (state == 2) continue;
      // Rank 0 ends the job itself: its end is no loss, and this rank leaves too, with
      // rank 0's code, without another message to rank 0 (Open MPI says each failure):
      // stopped until the launcher ends the job, so that the job's code is the launcher's.
      if (state == 1 && (got == FAREWELL || got == FAREWELL_STAY)) {
        if (armed_ && got == FAREWELL) exit_after_launcher(EXIT_STOPPED);
        return;
      }
      if (state == 1) continue;
      lose({who, who == 0 ? root_host_ : hosts_[size_t(who)], state < 0});
      return;
    }
  }
}

void watch_farewell(bool leave) {
  std::lock_guard lock(farewell_mutex);
  const char* say = leave ? &FAREWELL : &FAREWELL_STAY;
  for (int fd : farewell_fds) send(fd, say, 1, MSG_NOSIGNAL | MSG_DONTWAIT);
}

}  // namespace chesshpc
