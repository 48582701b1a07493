#include "jobs/bench/print.h"

#include <cmath>
#include <cstdio>

#include "jobs/bench/suite.h"
#include "jobs/io/job_common.h"
#include "jobs/io/json.h"
#include "jobs/io/version.h"

namespace chesshpc {

namespace {

std::string format(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

void print_table(const BenchRun& run, std::ostream& out) {
  char line[200];
  std::snprintf(line, sizeof line, "%-16s %-9s %5s %7s %5s %13s %10s %10s %10s %9s %9s\n", "benchmark", "set", "depth",
                "threads", "ranks", "nodes", "median ms", "min ms", "max ms", "Mnps", "vs SF");
  out << line;
  for (const SummaryRow& s : run.summary) {
    std::string ratio =
        std::isnan(s.stockfish_ratio) ? "" : format("%9.2f", s.stockfish_ratio) + (s.short_ratio() ? " (short)" : "");
    std::snprintf(line, sizeof line, "%-16s %-9s %5d %7d %5d %13llu %10.3f %10.3f %10.3f %9.1f %s\n",
                  s.benchmark.c_str(), s.set.c_str(), s.depth, s.threads, s.ranks, (unsigned long long)s.nodes,
                  s.median_seconds * 1e3, s.min_seconds * 1e3, s.max_seconds * 1e3, s.median_nodes_per_second / 1e6,
                  ratio.c_str());
    std::string text = line;
    text.erase(text.find_last_not_of(" \n") + 1);  // no trailing blanks where there is no ratio
    out << text << "\n";
  }
  size_t short_ratios = 0, ratios = 0;
  for (const SummaryRow& s : run.summary) ratios += !std::isnan(s.stockfish_ratio), short_ratios += s.short_ratio();
  if (short_ratios)
    out << "(short): " << short_ratios << " of " << ratios << " ratios: Stockfish ran under "
        << format("%g", STOCKFISH_SHORT_SECONDS)
        << " s there, so the ratio measures its UCI round trip more than its move generation\n";
}

void print_ratios(const BenchRun& run, std::ostream& out) {
  if (run.stockfish.empty()) {
    out << "Stockfish: none (--stockfish PATH to compare)\n";
    return;
  }
  out << "chesshpc perft / Stockfish perft, median n/s, 1 thread each (" << run.stockfish << "):";
  for (const SummaryRow& s : run.summary)
    if (!std::isnan(s.stockfish_ratio)) out << " " << s.set << " " << format("%.2f", s.stockfish_ratio);
  out << "\n";
}

// A suite of one-thread perft alone (perft, perft-quick) is a comparison with the anchor
// programs, which report leaves per second in G nodes/s: its figures in that unit.
bool perft_only(const BenchRun& run) {
  for (const SummaryRow& s : run.summary)
    if (s.benchmark != benchmark_name(Benchmark::PERFT)) return false;
  return !run.summary.empty();
}

void print_gnps(const BenchRun& run, std::ostream& out) {
  out << "perft, 1 thread, no table, median G nodes/s:";
  const char* sep = " ";
  for (const SummaryRow& s : run.summary) {
    out << sep << s.set << " " << s.depth << ": " << format("%.3f", s.median_nodes_per_second / 1e9);
    sep = ", ";
  }
  out << "\n";
}

void print_text(const BenchRun& run, const std::string& out_path, std::ostream& out) {
  out << "bench " << run.suite << " (suite version " << SUITE_VERSION << "): " << plural(run.threads, "thread") << ", "
      << plural(run.ranks, "rank") << ", " << plural(run.repeats, "repeat") << " on " << run.machine.cpu_model << "\n";
  print_table(run, out);
  if (perft_only(run))
    print_gnps(run, out);
  else
    print_ratios(run, out);
  out << (out_path.empty() ? "no file written" : "wrote " + out_path) << ": " << run.rows.size() << " measurements in "
      << format("%.1f", run.seconds) << " s\n";
}

std::string summary_json(const SummaryRow& s) {
  JsonObject o;
  o.add("benchmark", s.benchmark).add("set", s.set).add("depth", s.depth).add("threads", s.threads);
  o.add("ranks", s.ranks).add("nodes", (unsigned long long)s.nodes).add("median_seconds", s.median_seconds);
  o.add("min_seconds", s.min_seconds).add("max_seconds", s.max_seconds);
  o.add("median_nodes_per_second", s.median_nodes_per_second);
  o.add("median_g_nodes_per_second", s.median_nodes_per_second / 1e9).add("stockfish_ratio", s.stockfish_ratio);
  return o.str();
}

void print_json(const BenchRun& run, const std::string& out_path, std::ostream& out) {
  const Machine& m = run.machine;
  JsonObject o;
  o.add("job", "bench").add("suite", run.suite).add("suite_version", SUITE_VERSION);
  o.add("chesshpc_version", std::string(CHESSHPC_VERSION) + " (" + CHESSHPC_GIT_COMMIT + ")");
  o.add("started_utc", run.started_utc).add("seconds", run.seconds);
  o.add("cpu_model", m.cpu_model).add("logical_cpus", m.logical_cpus).add("cpus_allowed", m.cpus_allowed);
  o.add("memory_bytes", (unsigned long long)m.memory_bytes).add("hostname", m.hostname);
  o.add("hosts", run.hosts).add("os", m.os).add("compiler", m.compiler).add("build_type", m.build_type);
  o.add("build_flags", m.build_flags).add("native", int(m.native)).add("pext", int(m.pext));
  o.add("ranks", run.ranks).add("threads", run.threads).add("repeats", run.repeats).add("stockfish", run.stockfish);
  if (out_path.empty())
    o.null("out");
  else
    o.add("out", out_path);
  std::string rows;
  for (const SummaryRow& s : run.summary) rows += (rows.empty() ? "" : ", ") + summary_json(s);
  o.raw("summary", "[" + rows + "]");
  out << o.str() << "\n";
}

}  // namespace

void print_bench(const BenchRun& run, bool json, const std::string& out_path, std::ostream& out) {
  if (json)
    print_json(run, out_path, out);
  else
    print_text(run, out_path, out);
}

}  // namespace chesshpc
