#include "jobs/verify/print.h"

#include <sstream>

#include "jobs/io/job_common.h"
#include "jobs/io/json.h"
#include "jobs/verify/random_positions.h"

namespace chesshpc {

namespace {

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

}  // namespace

void print_suite(const VerifyRequest& req, const std::vector<VerifyTask>& tasks,
                 const std::vector<CheckResult>& results, int faults, std::ostream& out) {
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
    o.add("faults", faults).add("nodes", (unsigned long long)nodes).add("queries", (unsigned long long)queries);
    o.add("engine_seconds", engine_seconds).raw("results", json_list(items));
    out << o.str() << "\n";
  } else {
    for (const CheckResult& r : results)
      if (r.fault.kind != FaultKind::NONE) out << fault_line(r) << "\n";
    out << "verify: " << plural(tasks.size(), "position") << ", " << plural(nodes, "node") << ", "
        << plural((unsigned long long)faults, "fault") << ", " << plural(queries, "engine query", "engine queries")
        << ", engine " << format_seconds(engine_seconds) << "\n";
    if (req.random) {
      out << "traps:";
      for (int t = 0; t < TRAP_COUNT; ++t)
        if (trap_counts[t]) out << " " << TRAPS[t] << " " << trap_counts[t];
      out << "\n";
    }
  }
}

}  // namespace chesshpc
