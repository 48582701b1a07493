// rescore's files: the input's positions, read through jobs/dataset/records.h's reader of
// its format; the checkpoint of the positions searched so far (OUT.checkpoint, rewritten
// whole and published atomically, so a kill -9 loses at most what was searched since); and
// the result: in selfplay's layout (the input's /games and /positions with each position's
// search columns replaced) or, when OUT's name ends in a format's extension, that format's
// records written by records.h's writer, each with its new score.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jobs/export/formats.h"
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
  // The first record without a game result (EPD's), or none: a format that needs one
  // cannot hold the output.
  std::optional<uint64_t> without_result;
  size_t size() const { return packed.size() / 32; }
};
// A file's format by its name's ending (jobs/dataset/records.h's format_of_path), and
// selfplay's HDF5 layout for a name of no format.
const Format& rescore_format(const std::string& path);
// IN's records through records.h's reader of its format. Throws what the reader throws
// (DatasetError naming the record, ReadError).
RescoreInput read_rescore_input(const std::string& path);
// Why OUT's format cannot hold IN's positions ("" when it can), one line without the
// command's name: a Chess960 position in a standard-only format, a position without a
// result in a format without "none".
std::string unfit_output(const RescoreRequest& req, const RescoreInput& in);

// What the search of each position gave, a row per position in input order.
struct Rescored {
  std::vector<std::string> best;
  std::vector<double> score_cp;  // NaN with a mate score
  std::vector<int32_t> mate_in, depth, time_ms;
  std::vector<uint64_t> nodes;
  std::vector<bool> unit_done;  // a row per unit
  void resize(size_t positions, size_t units);
};

std::string checkpoint_path(const RescoreRequest& req);
// Writes the checkpoint (throws h5::Error).
void write_checkpoint(const RescoreRequest& req, const RescoreInput& in, const Rescored& r);
// The checkpoint's rows. Throws ResumeError when it holds another run, h5::Error when it
// cannot be read.
Rescored read_checkpoint(const RescoreRequest& req, const RescoreInput& in);

// Writes OUT. In selfplay's layout: IN's tables (a selfplay file's as they are, another
// format's records as /positions rows: game the chain's number, /games empty), each
// position's best, score_cp, mate_in, depth, nodes, time_ms and is_capture from r, the
// played move and the result kept (a position without a move takes its best). In another
// format: IN's records with their new scores, the moves (or, without one, the best) and
// results kept. Throws h5::Error, DatasetError (a record OUT's format cannot hold), ReadError.
void write_rescored(const RescoreRequest& req, const RescoreInput& in, const Rescored& r, const std::string& started,
                    int threads, int ranks);

}  // namespace chesshpc
