// `chesshpc verify`: another engine's perft against chesshpc's, position by position,
// with the drill-down to the first wrong move (drill.h), over --threads engine processes
// per rank and over MPI ranks.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <tbb/enumerable_thread_specific.h>

#include <memory>

#include "jobs/io/options.h"
#include "jobs/io/unit_job.h"
#include "jobs/verify/drill.h"
#include "jobs/verify/engines.h"
#include "jobs/verify/request.h"

namespace chesshpc {

// A check result as bytes, for the trip from the rank that computed it to rank 0.
Payload encode_result(const CheckResult& r);
CheckResult decode_result(const Payload& bytes);

// verify as a unit job (cluster/unit_driver runs it in one process or over MPI ranks): a
// unit is one position, a rank checks `threads` positions at once, each thread with its
// own engine process. Rank 0 prints one line per fault and a summary (or JSON) at the
// end: finish returns EXIT_MISMATCH when the engine is wrong anywhere (crashes and
// timeouts included); open returns EXIT_INPUT when the engine cannot start.
class VerifySuite : public UnitJob {
 public:
  explicit VerifySuite(VerifyRequest req) : req_(std::move(req)) {}

  int plan(const Ranks& ranks, std::ostream& err) override;
  size_t units() const override { return tasks_.size(); }
  int open(const std::string& started, std::ostream& err) override;
  bool done(size_t) const override { return false; }
  UnitJobInfo info() const override;
  int concurrency() const override { return req_.threads; }
  Payload compute(size_t unit) override;
  Recorded record(size_t unit, Payload&& result, double seconds, int rank) override;
  std::function<uint64_t()> checkpoint() override { return {}; }
  std::string progress_detail() const override { return std::to_string(faults_) + " faults"; }
  int finish(const UnitRun& run, std::ostream& out, std::ostream& err) override;

 private:
  VerifyRequest req_;
  std::vector<VerifyTask> tasks_;
  tbb::enumerable_thread_specific<std::unique_ptr<PerftEngine>> engines_;
  // Rank 0.
  std::string started_;
  std::vector<CheckResult> results_;
  int faults_ = 0;
};

}  // namespace chesshpc
