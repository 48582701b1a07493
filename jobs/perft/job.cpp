#include "jobs/perft/job.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <type_traits>

#include <memory>

#include "core/movegen.h"
#include "core/threads.h"
#include "core/uci.h"
#include "jobs/io/byte_size.h"
#include "jobs/io/job_common.h"
#include "jobs/io/json.h"
#include "jobs/io/progress.h"
#include "jobs/perft/epd.h"

namespace chesshpc {

using chess::u128;
namespace perft = chess::perft;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// "1.234 s, 567.8 Mnps"
std::string format_timing(u128 nodes, double seconds) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f s, %.1f Mnps", seconds, seconds > 0 ? double(nodes) / seconds / 1e6 : 0.0);
  return buf;
}

struct CounterField {
  const char* name;
  u128 perft::Counters::*member;
};

constexpr CounterField COUNTER_FIELDS[] = {
    {"nodes", &perft::Counters::nodes},
    {"captures", &perft::Counters::captures},
    {"en_passant", &perft::Counters::en_passant},
    {"castles", &perft::Counters::castles},
    {"promotions", &perft::Counters::promotions},
    {"checks", &perft::Counters::checks},
    {"discovered_checks", &perft::Counters::discovered},
    {"double_checks", &perft::Counters::double_checks},
    {"checkmates", &perft::Counters::checkmates},
};

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

// The moves as one line: "e2e4 e7e5".
std::string join_moves(const std::vector<std::string>& moves) {
  std::string line;
  for (const std::string& m : moves) line += (line.empty() ? "" : " ") + m;
  return line;
}

}  // namespace

std::unique_ptr<chess::PerftTable> make_perft_table(const PerftRequest& req) {
  if (!req.hash_bytes || req.detailed) return nullptr;
  return std::make_unique<chess::PerftTable>(req.hash_bytes);
}

namespace {

void print_text(const PerftRequest& req, const chess::Position& pos, const std::vector<perft::RootCount>& roots,
                double secs, int threads, const std::vector<DepthCount>& shallower, std::ostream& out,
                const UnitRunReport* units) {
  u128 nodes = perft::total(roots);
  if (req.divide) {
    for (const auto& r : roots)
      out << chess::to_uci(r.move, pos.is_chess960()) << ": " << chess::to_string(r.nodes) << "\n";
    out << "\n";
  }
  if (req.detailed) {
    perft::Counters c = perft::total_counters(roots);
    for (const auto& f : COUNTER_FIELDS) {
      char line[64];
      std::snprintf(line, sizeof line, "%-18s %s\n", f.name, chess::to_string(c.*f.member).c_str());
      out << line;
    }
  }
  for (const DepthCount& d : shallower) out << "depth " << d.depth << ": " << chess::to_string(d.nodes) << "\n";
  if (req.upto) out << "depth " << req.depth << ": " << chess::to_string(nodes) << "\n";
  out << "perft " << req.depth << " of " << pos.fen(req.fen_style) << "\n"
      << "nodes " << chess::to_string(nodes) << " in " << format_timing(units ? units->nodes_counted : nodes, secs)
      << ", " << threads << (threads == 1 ? " thread" : " threads");
  if (units)
    out << ", " << units->ranks << (units->ranks == 1 ? " rank" : " ranks") << ", " << units->units
        << " units at split depth " << units->split_depth;
  if (units && units->dedup_ply)
    out << ", deduplicated at ply " << units->dedup_ply << " (" << units->unique_positions << " unique positions)";
  if (units && units->units_resumed) out << " (" << units->units_resumed << " resumed)";
  if (req.hash_bytes) out << ", hash " << format_size(req.hash_bytes);
  if (req.verify_keys) out << ", verification keys";
  out << "\n";
}

template <class T>
std::string json_array(const std::vector<T>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) {
    char buf[32];
    if constexpr (std::is_floating_point_v<T>)
      std::snprintf(buf, sizeof buf, "%s%.6g", i ? ", " : "", v[i]);
    else
      std::snprintf(buf, sizeof buf, "%s%llu", i ? ", " : "", (unsigned long long)v[i]);
    s += buf;
  }
  return s + "]";
}

// --upto's depths as a JSON array: {"depth", "nodes", "seconds"} per depth, the deepest last.
std::string json_depths(const std::vector<DepthCount>& depths) {
  std::string s = "[";
  for (size_t i = 0; i < depths.size(); ++i) {
    JsonObject d;
    d.add("depth", depths[i].depth).add("nodes", depths[i].nodes).add("seconds", depths[i].seconds);
    s += (i ? ", " : "") + d.str();
  }
  return s + "]";
}

void print_json(const PerftRequest& req, const chess::Position& pos, const std::vector<perft::RootCount>& roots,
                double secs, int threads, const std::vector<DepthCount>& shallower, std::ostream& out,
                const UnitRunReport* units) {
  u128 nodes = perft::total(roots);
  JsonObject o;
  o.add("fen", pos.fen(req.fen_style));
  if (!req.moves.empty()) o.add("moves", join_moves(req.moves));
  o.add("depth", req.depth).add("nodes", nodes).add("seconds", secs);
  o.add("nps", secs > 0 ? double(units ? units->nodes_counted : nodes) / secs : 0.0).add("threads", threads);
  if (units) {
    o.add("split_depth", units->split_depth).add("ranks", units->ranks).add("units", units->units);
    if (units->dedup_ply) {
      o.add("dedup_ply", units->dedup_ply).add("unique_positions", (unsigned long long)units->unique_positions);
      o.raw("routing_seconds", json_array(units->routing_seconds))
          .raw("exchange_seconds", json_array(units->exchange_seconds));
      o.raw("bytes_sent", json_array(units->bytes_sent)).raw("bytes_received", json_array(units->bytes_received));
    }
    o.add("units_resumed", units->units_resumed).add("units_computed", units->units - units->units_resumed);
    o.add("checkpoints", units->checkpoints).add("checkpoint_seconds", units->checkpoint_seconds);
    o.raw("busy_seconds", json_array(units->busy)).raw("idle_seconds", json_array(units->idle));
  }
  o.add("hash_bytes", (unsigned long long)req.hash_bytes)
      .add("zobrist_seed", (unsigned long long)chess::zobrist::seed());
  if (req.upto) {
    std::vector<DepthCount> depths = shallower;
    depths.push_back({req.depth, nodes, secs});
    o.raw("upto", json_depths(depths));
  }
  if (req.divide) {
    JsonObject d;
    for (const auto& r : roots) d.add(chess::to_uci(r.move, pos.is_chess960()), r.nodes);
    o.add("divide", d);
  }
  if (req.detailed) {
    JsonObject c;
    perft::Counters total = perft::total_counters(roots);
    for (const auto& f : COUNTER_FIELDS) c.add(f.name, total.*f.member);
    o.add("counters", c);
  }
  out << o.str() << "\n";
}

}  // namespace

void add_run(UnitRunReport& report, const UnitRun& run, int this_run, std::vector<RankLoad>& load) {
  report.ranks = run.ranks;
  report.checkpoints = run.checkpoints, report.checkpoint_seconds = run.checkpoint_seconds;
  for (const RankLoad& l : run.load) report.busy.push_back(l.busy), report.idle.push_back(l.idle);
  add_load(run.load, this_run, load);
}

void add_load(const std::vector<RankLoad>& run_load, int this_run, std::vector<RankLoad>& load) {
  for (RankLoad l : run_load) {
    l.run = this_run;
    load.push_back(l);
  }
}

std::optional<chess::Position> read_perft_root(const PerftRequest& req, std::ostream& err) {
  std::optional<chess::Position> pos = read_position(req.fen, "perft", err);
  return pos ? play_moves(*pos, req.moves, "perft", err) : std::nullopt;
}

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

void print_unit_run(const PerftRequest& req, const chess::Position& pos, const std::vector<chess::Move>& moves,
                    const std::vector<chess::u128>& divide, double secs, int threads, chess::PerftTable* table,
                    std::ostream& out, const UnitRunReport& report) {
  std::vector<perft::RootCount> roots;
  for (size_t i = 0; i < divide.size(); ++i) roots.push_back({moves[i], divide[i], {}});
  print_perft(req, pos, roots, secs, threads, count_shallower(req, pos, table), out, &report);
}

void print_perft(const PerftRequest& req, const chess::Position& pos, const std::vector<perft::RootCount>& roots,
                 double secs, int threads, const std::vector<DepthCount>& shallower, std::ostream& out,
                 const UnitRunReport* units) {
  if (req.json)
    print_json(req, pos, roots, secs, threads, shallower, out, units);
  else
    print_text(req, pos, roots, secs, threads, shallower, out, units);
}

int run_perft(const PerftRequest& req, std::ostream& out, std::ostream& err) {
  std::optional<chess::Position> root = read_perft_root(req, err);
  if (!root) return EXIT_INPUT;
  const chess::Position& pos = *root;
  int threads = chess::resolve_threads(req.threads);
  std::unique_ptr<chess::PerftTable> table = make_perft_table(req);
  std::vector<DepthCount> shallower = count_shallower(req, pos, table.get());
  Progress progress(err, "perft", !req.quiet, req.progress_interval);
  auto t0 = std::chrono::steady_clock::now();
  std::vector<perft::RootCount> roots = timed_divide(pos, req.depth, req, progress, table.get());
  double secs = seconds_since(t0);
  progress.finish();
  print_perft(req, pos, roots, secs, threads, shallower, out);
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
      if (depth > MAX_PERFT_DEPTH) {
        err << "chesshpc perft: " << req.epd << ":" << line.line_number << ": depth " << depth
            << " is past perft's cap of " << MAX_PERFT_DEPTH << " (as for --depth); no count checked\n";
        return EXIT_INPUT;
      }
  for (const EpdError& e : file.errors) {
    err << "chesshpc perft: " << req.epd << ":" << e.line_number << ": unreadable line: " << e.message << "\n";
    if (req.json) out << JsonObject().add("line", e.line_number).add("error", e.message).add("ok", false).str() << "\n";
  }

  std::unique_ptr<chess::PerftTable> table = make_perft_table(req);
  Progress progress(err, "epd", !req.quiet, req.progress_interval);
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
    out << req.epd << ": " << file.lines.size() << " positions, " << checks << " counts checked, " << mismatches
        << " mismatches, " << file.errors.size() << " unreadable lines; " << chess::to_string(nodes) << " nodes in "
        << format_timing(nodes, secs) << "\n";
  return mismatches || !file.errors.empty() ? EXIT_MISMATCH : EXIT_OK;
}

}  // namespace chesshpc
