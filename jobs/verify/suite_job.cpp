#include "jobs/verify/suite_job.h"

#include <sstream>

#include "jobs/io/byte_codec.h"
#include "jobs/io/job_common.h"
#include "jobs/io/root_file.h"
#include "jobs/verify/file.h"
#include "jobs/verify/print.h"

namespace chesshpc {

Payload encode_result(const CheckResult& r) {
  ByteWriter w;
  auto strings = [&](const std::vector<std::string>& v) {
    w.put(uint32_t(v.size()));
    for (const std::string& x : v) w.put(x);
  };
  auto moves = [&](const std::vector<ReportedMove>& v) {
    w.put(uint32_t(v.size()));
    for (const ReportedMove& m : v) w.put(m.uci), w.put(m.san);
  };
  w.put(r.root_fen), strings(r.moves), w.put(int32_t(r.depth)), w.put(r.nodes), w.put(r.engine_nodes);
  w.put(r.engine_seconds), w.put(int32_t(r.queries));
  const Fault& f = r.fault;
  w.put(uint8_t(f.kind)), w.put(f.fen), w.put(int32_t(f.depth)), strings(f.path), w.put(f.path_san);
  moves(f.missing), moves(f.illegal), moves(f.duplicate);
  w.put(f.move), w.put(f.engine_count), w.put(f.expected_count), w.put(f.message);
  return w.take();
}

CheckResult decode_result(const Payload& bytes) {
  ByteReader in(bytes, "truncated verify result");
  auto strings = [&] {
    std::vector<std::string> v(in.get<uint32_t>());
    for (std::string& x : v) x = in.text();
    return v;
  };
  auto moves = [&] {
    std::vector<ReportedMove> v(in.get<uint32_t>());
    for (ReportedMove& m : v) m.uci = in.text(), m.san = in.text();
    return v;
  };
  CheckResult r;
  r.root_fen = in.text(), r.moves = strings(), r.depth = in.get<int32_t>(), r.nodes = in.get<uint64_t>();
  r.engine_nodes = in.get<uint64_t>(), r.engine_seconds = in.get<double>(), r.queries = in.get<int32_t>();
  Fault& f = r.fault;
  f.kind = FaultKind(in.get<uint8_t>()), f.fen = in.text(), f.depth = in.get<int32_t>(), f.path = strings();
  f.path_san = in.text(), f.missing = moves(), f.illegal = moves(), f.duplicate = moves();
  f.move = in.text(), f.engine_count = in.get<uint64_t>(), f.expected_count = in.get<uint64_t>();
  f.message = in.text();
  return r;
}

int VerifySuite::plan(const Ranks& ranks, std::ostream& err) {
  int code = EXIT_OK;
  // Rank 0 reads the suite and sends it to every rank: the file need only be on its node.
  RootFile suite;
  if (!req_.epd.empty()) suite = read_on_root(ranks.exchange, req_.epd);
  if (!suite.why.empty()) {
    err << "chesshpc verify: cannot read '" << req_.epd << "': " << suite.why << "\n";
    return EXIT_IO;
  }
  // Every rank makes the same positions of it (the driver shows what rank 0 says of them).
  if (!verify_tasks(req_, suite.bytes, tasks_, code, err)) return code;
  // A position that reads only as Chess960 (its castling rooks off the corners) needs the
  // engine in Chess960 mode, --chess960 given or not.
  for (const VerifyTask& t : tasks_) req_.engine.chess960 |= t.root.is_chess960();
  return EXIT_OK;
}

// The engine must start before any work: one that cannot is bad input now, not a fault
// in every position.
int VerifySuite::open(const std::string& started, std::ostream& err) {
  started_ = started;
  results_.resize(tasks_.size());
  try {
    start_engine(req_.engine);  // and ends it: each computing thread starts its own
  } catch (const UciError& e) {
    err << "chesshpc verify: " << e.what() << "\n";
    return EXIT_INPUT;
  }
  return EXIT_OK;
}

UnitJobInfo VerifySuite::info() const {
  UnitJobInfo i = unit_job_info("verify", req_, ResultFile{}, req_.command_line);
  i.items = "positions";
  i.total_items = i.items_to_do = tasks_.size();
  return i;
}

Payload VerifySuite::compute(size_t unit) {
  const VerifyTask& t = tasks_[unit];
  std::unique_ptr<PerftEngine>& engine = engines_.local();
  if (!engine) {
    try {
      engine = start_engine(req_.engine);
    } catch (const UciError& e) {
      CheckResult r;
      r.root_fen = t.root.fen(), r.depth = t.depth;
      r.fault.kind = FaultKind::CRASH, r.fault.fen = r.root_fen, r.fault.depth = t.depth, r.fault.message = e.what();
      return encode_result(r);
    }
  }
  return encode_result(check_position(*engine, t.root, t.moves, t.depth));
}

Recorded VerifySuite::record(size_t unit, Payload&& result, double, int) {
  results_[unit] = decode_result(result);
  faults_ += results_[unit].fault.kind != FaultKind::NONE;
  return {1, results_[unit].nodes};
}

int VerifySuite::finish(const UnitRun&, std::ostream& out, std::ostream& err) {
  engines_.clear();
  const std::vector<CheckResult>& results = results_;
  const std::vector<VerifyTask>& tasks = tasks_;
  const VerifyRequest& req = req_;
  print_suite(req, tasks, results, faults_, out);
  out.flush();
  // A suite whose count chesshpc does not reach is wrong, or chesshpc is: either way no
  // engine can be judged by it.
  int suite_mismatches = 0;
  for (size_t i = 0; i < tasks.size(); ++i)
    if (tasks[i].expected && results[i].nodes != *tasks[i].expected) {
      err << "chesshpc verify: " << req.epd << ":" << tasks[i].line << ": chesshpc counts " << results[i].nodes
          << " at depth " << tasks[i].depth << " where the file says " << *tasks[i].expected << "\n";
      ++suite_mismatches;
    }

  if (!req.save_epd.empty()) {
    if (int c = say_unwritten("verify", save_epd(req.save_epd, tasks, results), "", err)) return c;
  }
  if (!req.out.empty()) {
    std::string error = write_verify_file(req, tasks, results, started_);
    if (int c = say_unwritten("verify", error, "", err)) return c;
  }
  return faults_ || suite_mismatches ? EXIT_MISMATCH : EXIT_OK;
}

}  // namespace chesshpc
