// The dataset commands' requests: convert, shuffle, interleave and stats, each filled by
// its options (options.h) and run by its file (convert.cpp, shuffle.cpp, interleave.cpp,
// stats.cpp; run.h declares them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "jobs/export/formats.h"
#include "jobs/io/options.h"

namespace chesshpc {

// A file and its format (by --from/--to, or by the file name's ending).
struct DatasetFile {
  std::string path;  // "" for standard output (flat formats only)
  const Format* format = nullptr;
};

struct ConvertRequest : Reporting {
  DatasetFile in, out;
  bool validate = false;  // stop at the first illegal or impossible record
  std::string command_line;
};

struct ShuffleRequest : Reporting {
  DatasetFile in, out;
  uint64_t seed = 0;
  size_t memory = 0;    // bytes of records held at once (and of the merge's buffers)
  std::string tmp_dir;  // where the runs go; "" beside the output
  std::string command_line;
};

struct InterleaveRequest : Reporting {
  std::vector<DatasetFile> in;
  DatasetFile out;
  uint64_t seed = 0;
  std::string command_line;
};

struct StatsRequest : Reporting {
  DatasetFile in;
  std::string out;  // an HDF5 result file (job "stats"); "" none
  std::string command_line;
};

}  // namespace chesshpc
