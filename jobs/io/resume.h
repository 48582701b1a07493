// What every job's --resume shares: the error a file that cannot be resumed throws (the
// job says it in one line, exit 3), and the check of one of the file's values against
// this run's.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace chesshpc {

// A file that cannot be resumed: it holds another job, or contradicts itself. Its message
// starts "cannot resume from 'PATH': ".
struct ResumeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws ResumeError naming what differs ("its depth is 6, this run's is 7") unless the
// file's value (theirs) is this run's (ours).
template <typename T>
void require_same(const std::string& path, const char* what, const T& theirs, const T& ours) {
  if (theirs == ours) return;
  std::ostringstream s;
  s << "cannot resume from '" << path << "': it holds another job: its " << what << " is " << theirs
    << ", this run's is " << ours;
  throw ResumeError(s.str());
}

}  // namespace chesshpc
