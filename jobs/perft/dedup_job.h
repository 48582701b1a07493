// Deep perft deduplicated exactly over the ranks, as a unit job.
// Phase A, in prepare() on every rank together: the split-depth units are routed to their
// owners and expanded level by level to ply L, every unique position of every level on
// one rank only (jobs/perft/dedup.h). Phase B, the units: bucket b of ply-L positions is
// counted on its owner (b % ranks, or another rank when balancing moved it) and only
// there (the farm's pinned mode):
// perft(depth - L) of each unique position with the rank's TBB threads (and table, when
// depth - L > 2), sent to rank 0 as per-root-move 128-bit sums. A position reached on two
// ranks by transposition anywhere from ply K to L is thus expanded once, not once per rank;
// below L, transpositions are shared within a rank by its table.
//
// Resume: the file is written before phase A, which a resumed run recomputes (rank 0
// shares the file's done buckets first, so their records are dropped before routing);
// only the buckets the file lacks are counted. The buckets do not depend on the rank
// count, so any rank count resumes any file. Why recompute rather than save the phase:
// see prepare().
#pragma once

#include <memory>
#include <optional>

#include "jobs/perft/dedup.h"       // DedupShard, over units.h
#include "jobs/perft/dedup_file.h"  // BucketResults
#include "jobs/perft/unit_run.h"

namespace chesshpc {

class DedupPerft : public PerftUnitJob<DedupFile, BucketResults> {
 public:
  explicit DedupPerft(const PerftRequest& req)
      : PerftUnitJob(req, BucketResults(DEDUP_BUCKETS)), auto_ply_(req.dedup_ply == PerftRequest::DEDUP_PLY_AUTO) {}

  int plan(const Ranks& ranks, std::ostream& err) override;
  size_t units() const override { return DEDUP_BUCKETS; }
  int open(const std::string& started, std::ostream& err) override;
  // Collective (phase A) over ranks.exchange, or this process alone when it is null.
  int prepare(const Ranks& ranks, std::ostream& err) override;
  UnitJobInfo info() const override;

  // Bucket b on its owner after phase A's balancing (a rank number: key % ranks is it).
  std::function<size_t(size_t)> affinity() const override {
    return [this](size_t bucket) { return size_t(shard_.owner.at(bucket)); };
  }
  bool pinned() const override { return true; }
  // Only on the bucket's owner (shard().owner); elsewhere it throws.
  Payload compute(size_t bucket) override;
  Recorded record(size_t bucket, Payload&& result, double seconds, int rank) override;
  int finish(const UnitRun& run, std::ostream& out, std::ostream& err) override;

  // The divide over every bucket.
  std::vector<chess::u128> divide() const override { return results_.merged(plan_.root_moves.size()); }
  // This rank's unique positions at the dedup ply.
  const DedupShard& shard() const { return shard_; }

 private:
  int check(int ranks, std::ostream& say) const;
  int split_depth() const;
  size_t table_bytes(int ranks) const;
  int auto_ply(const std::vector<double>& unique, int ranks) const;
  std::vector<char> done_buckets(Exchange& ex) const;
  static std::vector<LevelTraffic> gather_levels(const std::vector<LevelTraffic>& mine, Exchange& ex);
  void print_plan(std::ostream& err) const;
  void print_level(const LevelTraffic& t, std::ostream& err) const;

  // req_ (PerftUnitJob's): dedup_ply as planned, also when asked for auto.
  bool auto_ply_;
  DedupShard shard_;
  std::vector<double> unique_;        // estimated unique positions per ply
  std::vector<LevelTraffic> levels_;  // rank 0: every rank's phase A, this run
};

}  // namespace chesshpc
