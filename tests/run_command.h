// A command line run as a user runs it, for the tests of the command line: its standard
// output, its standard error and its exit code.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

namespace chesshpc::testing_support {

struct CommandResult {
  int code;  // the exit status; -1 when a signal ended it
  std::string out, err;
};

// Runs `command` through the shell; its standard error goes through err_file (one per
// test: ctest runs the tests of a file concurrently).
inline CommandResult run_command(const std::string& command, const std::string& err_file) {
  CommandResult r{};
  FILE* p = popen((command + " 2>" + err_file).c_str(), "r");
  std::array<char, 4096> buf;
  for (size_t n; (n = fread(buf.data(), 1, buf.size(), p)) > 0;) r.out.append(buf.data(), n);
  int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream e(err_file);
  r.err.assign(std::istreambuf_iterator<char>(e), {});
  return r;
}

}  // namespace chesshpc::testing_support
