#include "jobs/io/root_file.h"

#include <fstream>
#include <iterator>

#include "jobs/io/job_common.h"

namespace chesshpc {

namespace {

RootFile read_here(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (std::string why = unreadable_input(path, in); !why.empty()) return {"", why};
  std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) return {"", "a read failed"};
  return {std::move(bytes), ""};
}

}  // namespace

// On the wire: one byte, 1 for the file's bytes after it, 0 for the reason it was not read.
RootFile read_on_root(Exchange* ex, const std::string& path) {
  if (!ex || ex->size() == 1) return read_here(path);
  Payload wire;
  if (ex->rank() == 0) {
    RootFile f = read_here(path);
    const std::string& body = f.why.empty() ? f.bytes : f.why;
    wire.reserve(body.size() + 1);
    wire.push_back(f.why.empty() ? 1 : 0);
    wire.insert(wire.end(), body.begin(), body.end());
  }
  ex->broadcast(wire);
  if (wire.empty()) return {"", "rank 0 sent nothing"};
  std::string body(wire.begin() + 1, wire.end());
  return wire[0] ? RootFile{std::move(body), ""} : RootFile{"", std::move(body)};
}

}  // namespace chesshpc
