// One rank's time in one run of a job, for load balance (a resumed job has several runs).
#pragma once

#include <string>

namespace chesshpc {

struct RankLoad {
  int run = 0, rank = 0;
  double busy = 0, idle = 0;  // seconds computing units; seconds waiting for work or results
  std::string host;
};

}  // namespace chesshpc
