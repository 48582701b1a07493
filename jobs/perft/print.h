// perft's results on stdout, as text or JSON: the count, the divide, the detailed
// counters, --upto's depths, and what a run over units adds.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "core/perft.h"
#include "jobs/perft/request.h"

namespace chesshpc {

// What a run split into units adds to its report.
struct UnitRunReport {
  int split_depth = 0;
  int dedup_ply = 0;  // deduplicated runs: units are buckets of this ply's positions
  int ranks = 1;
  long units = 0;
  long units_resumed = 0;         // done by earlier runs of the job, not counted again
  chess::u128 nodes_counted = 0;  // the part of the total this run counted (its nps is of these)
  int checkpoints = 0;
  double checkpoint_seconds = 0;   // rank 0 writing the result file, beside its computing thread
  std::vector<double> busy, idle;  // per rank, this run
  // Deduplicated runs, phase A per rank: routing time, the part of it exchanging, bytes;
  // and the unique positions of the dedup ply this run counted (over the ranks).
  std::vector<double> routing_seconds, exchange_seconds;
  std::vector<uint64_t> bytes_sent, bytes_received;
  uint64_t unique_positions = 0;
};

// One depth of --upto: its count and how long it took.
struct DepthCount {
  int depth = 0;
  chess::u128 nodes = 0;
  double seconds = 0;
};

// Where a single-process run's time went beside the counting's wall time: making the
// table (a fresh mapping: next to nothing), and the process's CPU time while counting,
// user and system (the system's is chiefly the first touch of the table's pages, which
// the kernel zeroes and a virtual machine's host may have to back first).
struct RunCost {
  double setup_seconds = 0;
  double user_seconds = 0, system_seconds = 0;
};

// "1.234 s, 567.8 Mnps"
std::string format_timing(chess::u128 nodes, double seconds);

// Prints a finished run over units, as print_perft: root move i with divide[i];
// shallower: --upto's depths below req.depth.
void print_unit_run(const PerftRequest& req, const chess::Position& pos, const std::vector<chess::Move>& moves,
                    const std::vector<chess::u128>& divide, double secs, int threads,
                    const std::vector<DepthCount>& shallower, std::ostream& out, const UnitRunReport& report);

// Prints a finished run as text or JSON, as req asks; shallower: --upto's depths below
// req.depth; cost, of a single-process run, goes into the JSON.
void print_perft(const PerftRequest& req, const chess::Position& pos, const std::vector<chess::perft::RootCount>& roots,
                 double secs, int threads, const std::vector<DepthCount>& shallower, std::ostream& out,
                 const UnitRunReport* units = nullptr, const RunCost* cost = nullptr);

}  // namespace chesshpc
