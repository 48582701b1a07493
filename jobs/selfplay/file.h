// Where a selfplay batch's games go. While the batch runs, rank 0 checkpoints into
// FILE.h5.parts/: each part holds the games recorded since the part before, written whole
// and renamed into place, so a kill -9 loses at most the games since the last part. At
// the end the parts merge, in game order, into FILE.h5 (written atomically) and go away.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "jobs/io/resume.h"
#include "jobs/selfplay/request.h"
#include "jobs/selfplay/sprt.h"
#include "jobs/selfplay/tables.h"

namespace chesshpc {

// The job attribute of a selfplay result file.
inline constexpr std::string_view SELFPLAY_JOB = "selfplay";
// Written by the commands that make files of selfplay's /games and /positions (rescore,
// positions) beside their own job attribute, so that export and the Python package read
// them as they read selfplay's.
inline constexpr h5::Attr<std::string> TABLES{"tables", "selfplay: /games and /positions in selfplay's layout"};
// A selfplay file, or one TABLES says has its tables.
bool has_selfplay_tables(const h5::Group& file);

class SelfplayStore {
 public:
  SelfplayStore(std::string path, const SelfplayRequest& req);

  const std::string& path() const { return path_; }
  std::string parts_dir() const { return path_ + ".parts"; }
  // An unfinished batch: parts on disk.
  bool unfinished() const;
  // Removes the parts directory with every part in it.
  void remove_parts() const;
  // The games of every part. Throws ResumeError naming the first difference when a part
  // belongs to another batch. A part HDF5 cannot read throws h5::Error; with set_aside it
  // is renamed PART.unreadable instead and said there in a line, and its games, missing
  // from the tables, are played again (a resume after a crash that left it broken).
  SelfplayTables load_parts(std::ostream* set_aside = nullptr) const;
  // Writes the next part (throws h5::Error).
  void write_part(const SelfplayTables& t);
  // Sorts every game by index, deduplicates positions if asked, writes FILE.h5 (with the
  // threads and ranks of this run in its provenance, the pairs' counts, and the SPRT's
  // outcome when sprt is not null), then removes the parts. Returns the positions dropped
  // as duplicates.
  size_t finish(SelfplayTables& all, const std::string& started, int threads, int ranks,
                const PairSequence* sprt = nullptr);

 private:
  std::string path_;
  const SelfplayRequest& req_;
  int next_part_ = 0;
};

}  // namespace chesshpc
