// The HDF5 result file of a perft run split into units. It is the job's checkpoint as well
// as its result: rewritten whole and atomically as units finish, complete at the end, and
// read back by --resume.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "jobs/perft/file_common.h"
#include "jobs/perft/request.h"
#include "jobs/perft/units.h"

namespace chesshpc {

// Layout: /units (one row per unit), /divide (complete files only), /ranks (one row per
// run and rank) and root attributes, as file.cpp declares them and the file's README
// attribute describes them.
class PerftFile {
 public:
  // ranks: the ranks of this run, for the provenance.
  PerftFile(std::string path, const PerftRequest& req, const PerftPlan& plan, std::string started, int ranks);
  // Replaces the file with r's state (PATH.partial, fsync, rename): a reader, or a resume
  // after kill -9, finds this state or the previous one, never a mix. Throws h5::Error.
  void write(const UnitResults& r) const;
  const std::string& path() const { return path_; }

 private:
  std::string path_, started_;
  int ranks_;
  const PerftRequest& req_;
  const PerftPlan& plan_;
  std::vector<std::string> fen_;  // fixed for the job: computed once, written at every checkpoint
  std::vector<uint64_t> multiplicity_;
};

// The units an earlier run of the same job recorded in path, with this_run set to the next
// run. Throws ResumeError naming the first difference when the file holds another job
// (FEN, depth, split depth, rules version, Zobrist keys, or the units themselves), and
// h5::Error when it cannot be read.
UnitResults read_perft_file(const std::string& path, const PerftPlan& plan);

// Whether path holds a perft job whose units are not all done (a run to resume, not to overwrite).
bool holds_unfinished_perft(const std::string& path);

}  // namespace chesshpc
