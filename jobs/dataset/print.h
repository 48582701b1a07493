// What convert, shuffle and interleave say when done: one summary line, or JSON; and the
// one line of an error that ended them.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "jobs/dataset/request.h"

namespace chesshpc {

struct DatasetSummary {
  std::string command;  // "convert"
  std::vector<DatasetFile> in;
  DatasetFile out;
  uint64_t read = 0, written = 0;
  std::map<std::string, uint64_t> left_out;  // reason -> records
  uint64_t bytes_read = 0, bytes_written = 0;
  // shuffle's runs: how many, the merge passes over them, and their bytes on disk
  uint64_t runs = 0, merge_passes = 0, temp_written = 0, temp_read = 0;
  double seconds = 0;
};

// "convert: 1000 records of 'a.bin' (bin) -> 'a.plain' (plain): 1000 written (88 KB); ..."
// on err, or the JSON object on out.
void print_summary(const DatasetSummary& s, bool json, std::ostream& out, std::ostream& err);

// Runs f and turns what it throws into the command's one line on err and its exit code:
// a record that does not read or cannot be held (DatasetError: 3, the file and record
// named), a file that cannot be read (ReadError's code), written (h5::Error, WriteError,
// std::ios failures: 4).
// input is read when an error is caught: the file being read then.
int run_guarded(const std::string& command, const std::string& input, std::ostream& err, const std::function<int()>& f);

}  // namespace chesshpc
