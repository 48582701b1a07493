// `chesshpc perft`'s request: the position, the depth, how to count and print, and how a
// run over units is split or deduplicated.
#pragma once

#include <climits>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/perft.h"
#include "core/perft_table.h"
#include "jobs/io/options.h"

namespace chesshpc {

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

// The position perft counts from: req.fen after req.moves; or nothing after telling err
// why not in one line (a bad FEN; a move that is not UCI or not legal, named with its
// number, counted from 1).
std::optional<chess::Position> read_perft_root(const PerftRequest& req, std::ostream& err);

// The perft table req asks for, or null.
std::unique_ptr<chess::PerftTable> make_perft_table(const PerftRequest& req);

}  // namespace chesshpc
