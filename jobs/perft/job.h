// The perft job on one process: a single position (with divide and detailed counters)
// or an EPD suite checked against its published counts.
#pragma once

#include <climits>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/perft.h"
#include "jobs/io/job_common.h"
#include "jobs/io/options.h"
#include "jobs/io/unit_job.h"

namespace chesshpc {

// The result file is that of a run split into units (cluster/).
// The deepest perft any request asks for: --depth, --max-depth and an EPD line's ;Dn alike
// (a count past it would run for years).
inline constexpr int MAX_PERFT_DEPTH = 20;

struct PerftRequest : Reporting, ResultFile {
  std::string fen = "startpos";
  std::vector<std::string> moves;  // UCI moves played from fen; perft counts from the position after them
  chess::FenStyle fen_style = chess::FenStyle::XFEN;  // of the FEN printed (--fen-style; default as read)
  int depth = -1;
  bool upto = false;  // --upto: count and print every depth from 1 to depth
  int threads = 0;    // 0: every core the process may use
  bool divide = false;
  bool detailed = false;
  size_t hash_bytes = 0;     // perft table size; 0: no hashing
  bool verify_keys = false;  // the second, independent Zobrist key set (set before any FEN is read)
  std::string epd;           // when set, check this suite instead of one position
  // Runs split into units (jobs/perft/split_job.h): 0 picks a depth for the ranks.
  int split_depth = 0;
  // Deduplicated runs (jobs/perft/dedup_job.h): the ply whose unique positions are counted
  // once each, on their owner rank; 0: not deduplicated; DEDUP_PLY_AUTO: the deepest that
  // fits memory_bytes.
  static constexpr int DEDUP_PLY_AUTO = -1;
  int dedup_ply = 0;
  size_t memory_bytes = 0;   // per rank, for positions and table together; 0: unbounded
  std::string command_line;  // for the file's provenance
  int max_depth = INT_MAX;
};

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

// The report's share of the driver's run (ranks, checkpoints, busy and idle per rank); the
// run's rows of load, numbered this_run, are added to load for the result file.
void add_run(UnitRunReport& report, const UnitRun& run, int this_run, std::vector<RankLoad>& load);
// A run's rows of load (a whole run's, or a stopped run's until the stop), numbered
// this_run, added to load for the result file.
void add_load(const std::vector<RankLoad>& run_load, int this_run, std::vector<RankLoad>& load);
// The position perft counts from: req.fen after req.moves; or nothing after telling err
// why not in one line (a bad FEN; a move that is not UCI or not legal, named with its
// number, counted from 1).
std::optional<chess::Position> read_perft_root(const PerftRequest& req, std::ostream& err);

// One depth of --upto: its count and how long it took.
struct DepthCount {
  int depth = 0;
  chess::u128 nodes = 0;
  double seconds = 0;
};

// With req.upto, perft of pos at every depth below req.depth (with req's threads and
// table), in order; otherwise nothing.
std::vector<DepthCount> count_shallower(const PerftRequest& req, const chess::Position& pos, chess::PerftTable* table);

// Prints a finished run over units, as print_perft: root move i with divide[i]. With
// req.upto, rank 0 counts the shallower depths here, on its threads (with table).
void print_unit_run(const PerftRequest& req, const chess::Position& pos, const std::vector<chess::Move>& moves,
                    const std::vector<chess::u128>& divide, double secs, int threads, chess::PerftTable* table,
                    std::ostream& out, const UnitRunReport& report);

// Prints a finished run as text or JSON, as req asks; shallower: --upto's depths below req.depth.
void print_perft(const PerftRequest& req, const chess::Position& pos, const std::vector<chess::perft::RootCount>& roots,
                 double secs, int threads, const std::vector<DepthCount>& shallower, std::ostream& out,
                 const UnitRunReport* units = nullptr);
// The perft table req asks for, or null.
std::unique_ptr<chess::PerftTable> make_perft_table(const PerftRequest& req);

// Runs one position; results on out, progress and errors on err. Returns an ExitCode.
int run_perft(const PerftRequest& req, std::ostream& out, std::ostream& err);
// Checks every ";Dn count" of every line (n <= max_depth). Any mismatch or unreadable
// line makes the exit code non-zero; a depth past MAX_PERFT_DEPTH refuses the whole file
// (EXIT_INPUT, its line named) before any count.
int run_epd(const PerftRequest& req, std::ostream& out, std::ostream& err);

}  // namespace chesshpc
