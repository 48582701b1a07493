#include "jobs/io/provenance.h"

#include <unistd.h>

#include <ctime>
#include <utility>

namespace chesshpc {

Provenance finished_provenance(std::string command_line, std::string started, int threads, int ranks,
                               std::string readme) {
  return {std::move(command_line), std::move(started), utc_now(), threads, ranks, std::move(readme)};
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string host_name() {
  char buf[256] = {};
  gethostname(buf, sizeof buf - 1);
  return buf;
}

}  // namespace chesshpc
