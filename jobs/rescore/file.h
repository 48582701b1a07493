// rescore's files: the input's positions, the checkpoint of the positions searched so far
// (OUT.checkpoint, rewritten whole and published atomically, so a kill -9 loses at most
// what was searched since), and the result: the input's /games and /positions with each
// position's search columns replaced, in selfplay's layout.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "jobs/rescore/request.h"
#include "jobs/selfplay/tables.h"

namespace chesshpc {

inline constexpr std::string_view RESCORE_JOB = "rescore";

// The input's positions, 32 bytes each (core/pack.h), in its order, and a digest of them:
// a resumed run must read the same.
struct RescoreInput {
  std::vector<uint8_t> packed;
  uint64_t digest = 0;
  bool chess960 = false;  // any position is Chess960's: a UCI engine is told so
  size_t size() const { return packed.size() / 32; }
};
// IN's positions: a file of selfplay's layout (its packed column alone), a .binpack or an
// .epd file. Throws h5::Error naming the path (a file that is none of them, or lacks the
// columns, a malformed record).
RescoreInput read_rescore_input(const std::string& path);

// What the search of each position gave, a row per position in input order.
struct Rescored {
  std::vector<std::string> best;
  std::vector<double> score_cp;  // NaN with a mate score
  std::vector<int32_t> mate_in, depth, time_ms;
  std::vector<uint64_t> nodes;
  std::vector<bool> unit_done;  // a row per unit
  void resize(size_t positions, size_t units);
};

// IN as selfplay's tables: a selfplay-layout file's as they are; a .binpack's entries as
// /positions rows (game: the chain's number, the move and result kept), an EPD file's
// lines (game: the line's number from 0; no move, no result), /games empty. Throws
// h5::Error.
SelfplayTables read_input_tables(const std::string& path);

std::string checkpoint_path(const RescoreRequest& req);
// Writes the checkpoint (throws h5::Error).
void write_checkpoint(const RescoreRequest& req, const RescoreInput& in, const Rescored& r);
// The checkpoint's rows. Throws ResumeError when it holds another run, h5::Error when it
// cannot be read.
Rescored read_checkpoint(const RescoreRequest& req, const RescoreInput& in);

// Writes OUT: the input's tables, each position's best, score_cp, mate_in, depth, nodes,
// time_ms and is_capture from r, the played move and the result kept. Throws h5::Error.
void write_rescored(const RescoreRequest& req, const RescoreInput& in, const Rescored& r, const std::string& started,
                    int threads, int ranks);

}  // namespace chesshpc
