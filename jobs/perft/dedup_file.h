// The HDF5 result file of a deduplicated perft run (jobs/perft/dedup_job.h): one row per
// bucket of the dedup ply, with a done flag, and per done bucket its sums per root move.
// Like the split run's file (file.h) it is the checkpoint as well as the result: rewritten
// whole and atomically, complete at the end, read back by --resume on any rank count
// (buckets do not depend on it).
#pragma once

#include <string>
#include <vector>

#include "jobs/perft/dedup.h"  // LevelTraffic
#include "jobs/perft/file_common.h"
#include "jobs/perft/request.h"
#include "jobs/perft/units.h"

namespace chesshpc {

// What the buckets' counts produced, wherever they were computed. Bucket b is done when
// run[b] >= 0.
struct BucketResults {
  // Per bucket, per root move: the sum over the bucket's positions of paths x
  // perft(depth - dedup ply). Empty until done.
  std::vector<std::vector<chess::u128>> divide;
  std::vector<uint64_t> positions;   // per bucket: unique positions at the dedup ply
  std::vector<double> seconds;       // per bucket
  std::vector<int> rank;             // per bucket: who computed it
  std::vector<int> run;              // per bucket: which run of the job, or -1
  std::vector<RankLoad> load;        // per run and rank
  std::vector<LevelTraffic> levels;  // per run, rank and routed ply: phase A
  int this_run = 0;

  explicit BucketResults(size_t buckets = 0)
      : divide(buckets), positions(buckets), seconds(buckets), rank(buckets, -1), run(buckets, -1) {}
  bool done(size_t b) const { return run[b] >= 0; }
  size_t count_done() const;
  // The divide over the done buckets.
  std::vector<chess::u128> merged(size_t root_moves) const;
};

// What identifies a deduplicated run, beside the request: its plan's root, root moves and
// depths, and the dedup ply.
struct DedupLayout {
  const PerftPlan& plan;
  int dedup_ply = 0;
};

// Layout: /buckets (one row per bucket), /bucket_divide (one row per done bucket and root
// move with a non-zero sum), /levels (phase A: one row per run, rank and routed ply, with
// its positions, records, bytes and seconds), /divide (complete files only), /ranks and
// root attributes.
class DedupFile {
 public:
  DedupFile(std::string path, const PerftRequest& req, DedupLayout layout, std::string started, int ranks);
  // Replaces the file with r's state (PATH.partial, fsync, rename). Throws h5::Error.
  void write(const BucketResults& r) const;

 private:
  std::string path_, started_;
  int ranks_;
  const PerftRequest& req_;
  DedupLayout layout_;
};

// The buckets an earlier run of the same job recorded in path, with this_run set to the next
// run. Throws ResumeError naming the first difference when the file holds another job (FEN,
// depth, dedup ply, split depth, buckets and their hash, rules version, Zobrist keys; not the
// rank count, which does not change the buckets) or disagrees with itself (a done bucket's
// nodes and its /bucket_divide rows, buckets_done, a complete file's total), and h5::Error
// when it cannot be read.
BucketResults read_dedup_file(const std::string& path, DedupLayout layout);

// Whether path holds a deduplicated perft job whose buckets are not all done.
bool holds_unfinished_dedup(const std::string& path);

}  // namespace chesshpc
