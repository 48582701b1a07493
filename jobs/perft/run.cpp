#include "jobs/perft/run.h"

#include <sys/resource.h>

#include <chrono>
#include <fstream>
#include <memory>

#include "core/threads.h"
#include "jobs/io/byte_size.h"
#include "jobs/io/job_common.h"
#include "jobs/io/json.h"
#include "jobs/io/progress.h"
#include "jobs/io/provenance.h"
#include "jobs/perft/epd.h"
#include "jobs/perft/epd_file.h"
#include "jobs/perft/print.h"

namespace chesshpc {

using chess::u128;
namespace perft = chess::perft;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The process's CPU time so far, user and system, over all its threads.
std::pair<double, double> cpu_seconds() {
  rusage r{};
  getrusage(RUSAGE_SELF, &r);
  auto secs = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) * 1e-6; };
  return {secs(r.ru_utime), secs(r.ru_stime)};
}

// Runs a parallel perft with progress reporting on err.
std::vector<perft::RootCount> timed_divide(const chess::Position& pos, int depth, const PerftRequest& req,
                                           Progress& progress, chess::PerftTable* table) {
  perft::Options opt;
  opt.table = table;
  opt.threads = req.threads;
  opt.detailed = req.detailed;
  opt.on_plan = [&](size_t tasks) { progress.add_total(tasks); };
  opt.on_task_done = [&](uint64_t nodes) { progress.done(1, nodes); };
  return perft::divide(pos, depth, opt);
}

// req with its table cut to what the count can fill (perft::table_bytes_for), said on err
// unless quiet: the run prints and writes the table it used.
PerftRequest with_table_for_tree(const PerftRequest& req, const chess::Position& pos, std::ostream& err) {
  PerftRequest used = req;
  if (!req.hash_bytes || req.detailed) return used;
  used.hash_bytes = perft::table_bytes_for(pos, req.depth, req.hash_bytes);
  if (used.hash_bytes < req.hash_bytes && !req.quiet)
    err << "chesshpc perft: a table of " << format_size(used.hash_bytes) << ", not " << format_size(req.hash_bytes)
        << ": perft " << req.depth << " of this position stores too few subtrees to fill more\n";
  return used;
}

}  // namespace

std::vector<DepthCount> count_shallower(const PerftRequest& req, const chess::Position& pos, chess::PerftTable* table) {
  std::vector<DepthCount> depths;
  if (!req.upto) return depths;
  perft::Options opt;
  opt.table = table;
  opt.threads = req.threads;
  for (int depth = 1; depth < req.depth; ++depth) {
    auto t0 = std::chrono::steady_clock::now();
    u128 nodes = perft::total(perft::divide(pos, depth, opt));
    depths.push_back({depth, nodes, seconds_since(t0)});
  }
  return depths;
}

int run_perft(const PerftRequest& asked, std::ostream& out, std::ostream& err) {
  std::optional<chess::Position> root = read_perft_root(asked, err);
  if (!root) return EXIT_INPUT;
  const chess::Position& pos = *root;
  int threads = chess::resolve_threads(asked.threads);
  RunCost cost;
  auto setup = std::chrono::steady_clock::now();  // the table's size and its making
  const PerftRequest req = with_table_for_tree(asked, pos, err);
  std::unique_ptr<chess::PerftTable> table = make_perft_table(req);
  cost.setup_seconds = seconds_since(setup);
  std::vector<DepthCount> shallower = count_shallower(req, pos, table.get());
  Progress progress(err, "perft", !req.quiet, req.progress_interval);
  const auto [user0, system0] = cpu_seconds();
  auto t0 = std::chrono::steady_clock::now();
  std::vector<perft::RootCount> roots = timed_divide(pos, req.depth, req, progress, table.get());
  double secs = seconds_since(t0);
  const auto [user1, system1] = cpu_seconds();
  cost.user_seconds = user1 - user0, cost.system_seconds = system1 - system0;
  progress.finish();
  print_perft(req, pos, roots, secs, threads, shallower, out, nullptr, &cost);
  return EXIT_OK;
}

int run_epd(const PerftRequest& req, std::ostream& out, std::ostream& err) {
  std::ifstream in(req.epd);
  if (const std::string why = unreadable_input(req.epd, in); !why.empty()) {
    err << "chesshpc perft: cannot read EPD file '" << req.epd << "': " << why << "\n";
    return EXIT_IO;
  }
  EpdFile file = read_epd(in);
  for (const EpdLine& line : file.lines)
    for (auto [depth, expected] : line.expected)
      if (depth > chess::perft::MAX_DEPTH) {
        err << "chesshpc perft: " << req.epd << ":" << line.line_number << ": depth " << depth
            << " is past perft's cap of " << chess::perft::MAX_DEPTH << " (as for --depth); no count checked\n";
        return EXIT_INPUT;
      }
  for (const EpdError& e : file.errors) {
    err << "chesshpc perft: " << req.epd << ":" << e.line_number << ": unreadable line: " << e.message << "\n";
    if (req.json) out << JsonObject().add("line", e.line_number).add("error", e.message).add("ok", false).str() << "\n";
  }

  std::unique_ptr<chess::PerftTable> table = make_perft_table(req);
  Progress progress(err, "epd", !req.quiet, req.progress_interval);
  const std::string started = utc_now();
  std::vector<EpdCount> counts;
  size_t checks = 0, mismatches = 0;
  u128 nodes = 0;
  auto t0 = std::chrono::steady_clock::now();
  PerftRequest one = req;
  one.detailed = false;
  for (const EpdLine& line : file.lines) {
    chess::Position pos = chess::Position::from_any_fen(line.fen);
    for (auto [depth, expected] : line.expected) {
      if (depth > req.max_depth) continue;
      auto t1 = std::chrono::steady_clock::now();
      u128 got = perft::total(timed_divide(pos, depth, one, progress, table.get()));
      double secs = seconds_since(t1);
      ++checks;
      nodes += got;
      bool ok = got == expected;
      counts.push_back({int32_t(line.line_number), line.fen, int32_t(depth), expected, uint64_t(got), secs});
      if (!ok) {
        ++mismatches;
        err << "MISMATCH " << req.epd << ":" << line.line_number << " depth " << depth << ": expected " << expected
            << ", got " << chess::to_string(got) << "  [" << line.fen << "]\n";
      }
      if (req.json)
        out << JsonObject()
                   .add("line", line.line_number)
                   .add("fen", line.fen)
                   .add("depth", depth)
                   .add("expected", (unsigned long long)expected)
                   .add("nodes", got)
                   .add("seconds", secs)
                   .add("ok", ok)
                   .str()
            << "\n";
    }
  }
  double secs = seconds_since(t0);
  progress.finish();
  if (!req.json)
    out << req.epd << ": " << plural(file.lines.size(), "position") << ", " << plural(checks, "count") << " checked, "
        << plural(mismatches, "mismatch", "mismatches") << ", " << plural(file.errors.size(), "unreadable line") << "; "
        << chess::to_string(nodes) << (nodes == 1 ? " node in " : " nodes in ") << format_timing(nodes, secs) << "\n";
  if (!req.out.empty())
    if (const std::string why = write_epd_file(req, counts, int64_t(file.errors.size()), started); !why.empty())
      return say_unwritten("perft", why, "", err);
  return mismatches || !file.errors.empty() ? EXIT_MISMATCH : EXIT_OK;
}

}  // namespace chesshpc
