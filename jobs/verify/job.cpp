#include "jobs/verify/job.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "core/perft.h"
#include "jobs/io/byte_codec.h"
#include "jobs/io/job_common.h"
#include "jobs/io/json.h"
#include "jobs/io/publish.h"
#include "jobs/perft/epd.h"
#include "jobs/verify/file.h"
#include "jobs/verify/random_positions.h"

namespace chesshpc {

namespace {

// A root position as the engine is told it: Chess960 when asked, else as the FEN reads.
std::optional<chess::Position> root_position(const std::string& fen, bool chess960, std::ostream& err) {
  if (!chess960) return read_position(fen, "verify", err);
  try {
    return chess::Position::from_fen(fen, true);
  } catch (const chess::FenError& e) {
    err << "chesshpc verify: " << e.what() << "\n";
    return std::nullopt;
  }
}

std::string format_seconds(double s) {
  std::ostringstream o;
  o.setf(std::ios::fixed);
  o.precision(2);
  o << s << " s";
  return o.str();
}

std::string json_list(const std::vector<std::string>& items) {
  std::string s = "[";
  for (const std::string& i : items) s += (s.size() > 1 ? "," : "") + i;
  return s + "]";
}

std::string json_moves(const std::vector<ReportedMove>& moves) {
  std::vector<std::string> items;
  for (const ReportedMove& m : moves) items.push_back(JsonObject().add("uci", m.uci).add("san", m.san).str());
  return json_list(items);
}

std::string json_result(const CheckResult& r, int trap) {
  std::vector<std::string> moves;
  for (const std::string& m : r.moves) moves.push_back(json_quote(m));
  JsonObject o;
  o.add("fen", r.root_fen)
      .raw("moves", json_list(moves))
      .add("depth", r.depth)
      .add("nodes", (unsigned long long)r.nodes);
  o.add("engine_nodes", (unsigned long long)r.engine_nodes).add("engine_seconds", r.engine_seconds);
  o.add("queries", r.queries).add("trap", trap >= 0 ? TRAPS[trap] : "");
  const Fault& f = r.fault;
  o.add("fault", fault_name(f.kind));
  if (f.kind != FaultKind::NONE) {
    std::vector<std::string> path;
    for (const std::string& m : f.path) path.push_back(json_quote(m));
    o.add("fault_fen", f.fen).add("fault_depth", f.depth).raw("path", json_list(path)).add("path_san", f.path_san);
    o.raw("missing", json_moves(f.missing)).raw("illegal", json_moves(f.illegal));
    o.raw("duplicate", json_moves(f.duplicate));
    o.add("line", fault_line(r));
  }
  return o.str();
}

// --save-epd: each position's FEN and chesshpc's count at its depth, written whole and put
// in place as every result file is (jobs/io/publish.h). "" when written, else why not.
std::string save_epd(const std::string& path, const std::vector<VerifyTask>& tasks,
                     const std::vector<CheckResult>& results) {
  const std::string target = publish_target(path), partial = target + ".partial";
  {
    std::ofstream epd(partial, std::ios::binary | std::ios::trunc);
    for (size_t i = 0; i < tasks.size(); ++i) {
      chess::Position pos = tasks[i].root;
      for (chess::Move m : tasks[i].moves) pos.do_move(m);
      epd << pos.fen() << " ;D" << tasks[i].depth << " " << results[i].nodes << "\n";
    }
    if (epd.flush()) return publish(partial, target);
  }
  std::remove(partial.c_str());
  return "cannot write '" + path + "': " + std::strerror(errno);
}

}  // namespace

bool verify_tasks(const VerifyRequest& req, std::vector<VerifyTask>& tasks, int& code, std::ostream& err) {
  code = EXIT_INPUT;
  const bool c960 = req.engine.chess960;
  if (!req.fen.empty()) {
    std::optional<chess::Position> root = root_position(req.fen, c960, err);
    if (!root) return false;
    VerifyTask t{*root, {}, req.depth, -1, std::nullopt, 0};
    if (!play_moves(*root, req.moves, "verify", err, &t.moves)) return false;
    tasks.push_back(t);
  } else if (!req.epd.empty()) {
    std::ifstream in(req.epd);
    if (std::string why = unreadable_input(req.epd, in); !why.empty()) {
      err << "chesshpc verify: cannot read '" << req.epd << "': " << why << "\n";
      code = EXIT_IO;
      return false;
    }
    EpdFile file = read_epd(in);
    if (!file.errors.empty()) {
      const EpdError& e = file.errors.front();
      err << "chesshpc verify: " << req.epd << ":" << e.line_number << ": " << e.message << "\n";
      return false;
    }
    for (const EpdLine& line : file.lines) {
      int depth = 0;
      uint64_t expected = 0;
      for (const auto& [d, count] : line.expected)
        if ((!req.max_depth || d <= req.max_depth) && d > depth) depth = d, expected = count;
      if (!depth) continue;  // nothing shallow enough on this line
      std::optional<chess::Position> root = root_position(line.fen, c960, err);
      if (!root) return false;
      tasks.push_back({*root, {}, depth, -1, expected, line.line_number});
    }
  } else {
    for (uint64_t i = 0; i < req.random; ++i) {
      SeededPosition p = seeded_position(req.seed, i, c960);
      tasks.push_back({p.root, p.moves, req.depth, p.trap, std::nullopt, 0});
    }
  }
  code = EXIT_OK;
  return true;
}

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
  std::ostringstream quiet;
  // Every rank reads the same positions; rank 0 alone says what is wrong with them.
  if (!verify_tasks(req_, tasks_, code, ranks.root() ? err : quiet)) return code;
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
  uint64_t nodes = 0, queries = 0;
  double engine_seconds = 0;
  int trap_counts[TRAP_COUNT] = {};
  for (size_t i = 0; i < tasks.size(); ++i) {
    nodes += results[i].nodes, queries += results[i].queries, engine_seconds += results[i].engine_seconds;
    if (tasks[i].trap >= 0) ++trap_counts[tasks[i].trap];
  }
  if (req.json) {
    std::vector<std::string> items;
    for (size_t i = 0; i < tasks.size(); ++i) items.push_back(json_result(results[i], tasks[i].trap));
    JsonObject o;
    o.add("command", "verify").add("engine", req.engine.command).add("positions", (unsigned long)tasks.size());
    o.add("faults", faults_).add("nodes", (unsigned long long)nodes).add("queries", (unsigned long long)queries);
    o.add("engine_seconds", engine_seconds).raw("results", json_list(items));
    out << o.str() << "\n";
  } else {
    for (const CheckResult& r : results)
      if (r.fault.kind != FaultKind::NONE) out << fault_line(r) << "\n";
    out << "verify: " << tasks.size() << " positions, " << nodes << " nodes, " << faults_ << " faults, " << queries
        << " engine queries, engine " << format_seconds(engine_seconds) << "\n";
    if (req.random) {
      out << "traps:";
      for (int t = 0; t < TRAP_COUNT; ++t)
        if (trap_counts[t]) out << " " << TRAPS[t] << " " << trap_counts[t];
      out << "\n";
    }
  }
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
