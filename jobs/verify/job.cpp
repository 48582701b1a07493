#include "jobs/verify/job.h"

#include <algorithm>
#include <atomic>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include "core/perft.h"
#include "core/san.h"
#include "core/uci.h"
#include "jobs/io/job_common.h"
#include "jobs/io/json.h"
#include "jobs/io/progress.h"
#include "jobs/io/provenance.h"
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

}  // namespace

bool verify_tasks(const VerifyRequest& req, std::vector<VerifyTask>& tasks, int& code, std::ostream& err) {
  code = EXIT_INPUT;
  const bool c960 = req.engine.chess960;
  if (!req.fen.empty()) {
    std::optional<chess::Position> root = root_position(req.fen, c960, err);
    if (!root) return false;
    VerifyTask t{*root, {}, req.depth, -1};
    chess::Position pos = *root;
    for (const std::string& text : req.moves) {
      chess::SanError why = chess::SanError::NONE;
      std::optional<chess::Move> m = chess::parse_move(pos, text, why);
      if (!m) {
        err << "chesshpc verify: --moves: " << chess::san_refusal(why, text) << " in " << pos.fen() << "\n";
        return false;
      }
      t.moves.push_back(*m);
      pos.do_move(*m);
    }
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
      for (const auto& [d, count] : line.expected)
        if (!req.max_depth || d <= req.max_depth) depth = std::max(depth, d);
      if (!depth) continue;  // nothing shallow enough on this line
      std::optional<chess::Position> root = root_position(line.fen, c960, err);
      if (!root) return false;
      tasks.push_back({*root, {}, depth, -1});
    }
  } else {
    for (uint64_t i = 0; i < req.random; ++i) {
      SeededPosition p = seeded_position(req.seed, i, c960);
      tasks.push_back({p.root, p.moves, req.depth, p.trap});
    }
  }
  code = EXIT_OK;
  return true;
}

int run_verify(const VerifyRequest& req, std::ostream& out, std::ostream& err) {
  const std::string started = utc_now();
  std::vector<VerifyTask> tasks;
  int code = EXIT_OK;
  if (!verify_tasks(req, tasks, code, err)) return code;

  // The first engine starts before any work: one that cannot start is bad input now.
  const int workers = std::max(1, std::min<int>(req.threads, int(tasks.size())));
  std::vector<std::unique_ptr<PerftEngine>> engines(workers);
  try {
    engines[0] = start_engine(req.engine);
  } catch (const UciError& e) {
    err << "chesshpc verify: " << e.what() << "\n";
    return EXIT_INPUT;
  }

  std::vector<CheckResult> results(tasks.size());
  std::atomic<size_t> next{0};
  std::atomic<int> faults{0};
  std::mutex print;
  std::string start_error;
  Progress progress(err, "verify", !req.quiet && !req.json, req.progress_interval, "Mnps");
  progress.set_unit_name("positions");
  progress.add_total(tasks.size());
  progress.set_detail([&] { return std::to_string(faults.load()) + " faults"; });
  auto work = [&](int w) {
    try {
      if (!engines[w]) engines[w] = start_engine(req.engine);
    } catch (const UciError& e) {
      std::lock_guard lock(print);
      start_error = e.what();
      return;
    }
    for (size_t i; (i = next++) < tasks.size();) {
      const VerifyTask& t = tasks[i];
      results[i] = check_position(*engines[w], t.root, t.moves, t.depth);
      progress.done(1, results[i].nodes);
      if (results[i].fault.kind == FaultKind::NONE) continue;
      ++faults;
      if (req.json) continue;
      std::lock_guard lock(print);
      out << fault_line(results[i]) << std::endl;
    }
  };
  std::vector<std::thread> threads;
  for (int w = 1; w < workers; ++w) threads.emplace_back(work, w);
  work(0);
  for (std::thread& t : threads) t.join();
  progress.finish();
  engines.clear();
  if (!start_error.empty()) {
    err << "chesshpc verify: " << start_error << "\n";
    return EXIT_INPUT;
  }

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
    o.add("faults", faults.load()).add("nodes", (unsigned long long)nodes).add("queries", (unsigned long long)queries);
    o.add("engine_seconds", engine_seconds).raw("results", json_list(items));
    out << o.str() << "\n";
  } else {
    out << "verify: " << tasks.size() << " positions, " << nodes << " nodes, " << faults.load() << " faults, "
        << queries << " engine queries, engine " << format_seconds(engine_seconds) << "\n";
    if (req.random) {
      out << "traps:";
      for (int t = 0; t < TRAP_COUNT; ++t)
        if (trap_counts[t]) out << " " << TRAPS[t] << " " << trap_counts[t];
      out << "\n";
    }
  }
  out.flush();

  if (!req.save_epd.empty()) {
    std::ofstream epd(req.save_epd);
    for (size_t i = 0; i < tasks.size(); ++i) {
      chess::Position pos = tasks[i].root;
      for (chess::Move m : tasks[i].moves) pos.do_move(m);
      epd << pos.fen() << " ;D" << tasks[i].depth << " " << results[i].nodes << "\n";
    }
    if (!epd.flush()) {
      err << "chesshpc verify: cannot write '" << req.save_epd << "'\n";
      return EXIT_IO;
    }
  }
  if (!req.out.empty()) {
    std::string error = write_verify_file(req, tasks, results, started);
    if (int c = say_unwritten("verify", error, "", err)) return c;
  }
  return faults.load() ? EXIT_MISMATCH : EXIT_OK;
}

}  // namespace chesshpc
