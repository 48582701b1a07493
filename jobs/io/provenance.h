// Where a result came from, as every result file records it on its root: the program,
// its version and commit, the command line, the host, the start and end times, threads
// and ranks, and the file's own README.
#pragma once

#include <string>

namespace chesshpc {

struct Provenance {
  std::string command_line;
  std::string started, finished;  // ISO 8601 UTC; finished is empty in a checkpoint
  int threads = 0;
  int ranks = 1;
  std::string readme;  // the file's tables and root attributes; write_provenance adds its own
};

// A finished run's provenance (finished: now), as the job files write it on their last
// write.
Provenance finished_provenance(std::string command_line, std::string started, int threads, int ranks,
                               std::string readme);

// Now, as ISO 8601 UTC to the second ("2026-11-30T18:45:56Z").
std::string utc_now();
// This machine's host name (on a cluster, the node's).
std::string host_name();

}  // namespace chesshpc
