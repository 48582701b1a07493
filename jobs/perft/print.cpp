#include "jobs/perft/print.h"

#include <cstdio>
#include <type_traits>

#include "core/uci.h"
#include "core/zobrist.h"
#include "jobs/io/byte_size.h"
#include "jobs/io/job_common.h"
#include "jobs/io/json.h"

namespace chesshpc {

using chess::u128;
namespace perft = chess::perft;

std::string format_timing(u128 nodes, double seconds) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f s, %.1f Mnps", seconds, seconds > 0 ? double(nodes) / seconds / 1e6 : 0.0);
  return buf;
}

namespace {

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

// The moves as one line: "e2e4 e7e5".
std::string join_moves(const std::vector<std::string>& moves) {
  std::string line;
  for (const std::string& m : moves) line += (line.empty() ? "" : " ") + m;
  return line;
}

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
      << ", " << plural((unsigned long long)threads, "thread");
  if (units)
    out << ", " << plural((unsigned long long)units->ranks, "rank") << ", " << plural(units->units, "unit")
        << " at split depth " << units->split_depth;
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
                const UnitRunReport* units, const RunCost* cost) {
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
  if (cost)
    o.add("setup_seconds", cost->setup_seconds)
        .add("user_seconds", cost->user_seconds)
        .add("system_seconds", cost->system_seconds);
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

void print_unit_run(const PerftRequest& req, const chess::Position& pos, const std::vector<chess::Move>& moves,
                    const std::vector<chess::u128>& divide, double secs, int threads,
                    const std::vector<DepthCount>& shallower, std::ostream& out, const UnitRunReport& report) {
  std::vector<perft::RootCount> roots;
  for (size_t i = 0; i < divide.size(); ++i) roots.push_back({moves[i], divide[i], {}});
  print_perft(req, pos, roots, secs, threads, shallower, out, &report);
}

void print_perft(const PerftRequest& req, const chess::Position& pos, const std::vector<perft::RootCount>& roots,
                 double secs, int threads, const std::vector<DepthCount>& shallower, std::ostream& out,
                 const UnitRunReport* units, const RunCost* cost) {
  if (req.json)
    print_json(req, pos, roots, secs, threads, shallower, out, units, cost);
  else
    print_text(req, pos, roots, secs, threads, shallower, out, units);
}

}  // namespace chesshpc
