// The positions of a corpus as a file in selfplay's layout (/games and /positions, with
// the TABLES attribute, so that export, rescore and the Python package read it), written
// in batches as the games come and published whole at the end (h5::File).
#pragma once

#include <array>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "jobs/positions/request.h"
#include "jobs/selfplay/tables.h"

namespace chesshpc {

inline constexpr std::string_view POSITIONS_JOB = "positions";

// What the corpus gave, for the root attributes and the summary.
struct PositionsCounts {
  int64_t games = 0;                                      // replayed: the rows of /games
  int64_t skipped = 0;                                    // not read (malformed or of another variant)
  int64_t plies = 0;                                      // of the games replayed: every position before a move
  int64_t filtered = 0, sampled_out = 0, duplicates = 0;  // left out, by the first reason
  int64_t positions = 0;                                  // kept: the rows of /positions
  double seconds = 0;
};

// Rows of /positions (one game's) as the file stores them: each column's bytes, a row after
// the other, chunk_row_bytes a row (text null-padded, bools a byte). A worker writes them
// there from its replay, with no string or column vector a row, and the chunks are made
// of these bytes as they are.
struct PositionRows {
  static constexpr size_t COLUMNS = SELFPLAY_POSITIONS.columns.size();
  std::array<std::vector<uint8_t>, COLUMNS> bytes;
  size_t rows = 0;

  static constexpr size_t row_bytes(size_t column) { return h5::chunk_row_bytes(SELFPLAY_POSITIONS.columns[column]); }
  // n rows of zeros.
  void assign(size_t n) {
    rows = n;
    for (size_t c = 0; c < COLUMNS; ++c) bytes[c].assign(n * row_bytes(c), 0);
  }
  // The bytes of member M's column at a row.
  template <auto M>
  uint8_t* at(size_t row) {
    constexpr size_t c = h5::index_of<M>(SELFPLAY_POSITIONS);
    return bytes[c].data() + row * row_bytes(c);
  }
  template <auto M>
  const uint8_t* at(size_t row) const {
    constexpr size_t c = h5::index_of<M>(SELFPLAY_POSITIONS);
    return bytes[c].data() + row * row_bytes(c);
  }
  // A number's or a bool's value at a row, as stored.
  template <auto M, class T>
  void set(size_t row, T value) {
    static_assert(sizeof(T) == row_bytes(h5::index_of<M>(SELFPLAY_POSITIONS)));
    std::memcpy(at<M>(row), &value, sizeof value);
  }
  // Keeps the rows `keep` names (ascending), in order.
  void keep(const std::vector<size_t>& keep);
};

class PositionsFile {
 public:
  // Rows [first, first + count) of one game's positions, as its worker made them: a chunk
  // of /positions is made of such parts, its rows never copied before they are deflated.
  struct Part {
    std::shared_ptr<const PositionRows> rows;
    size_t first, count;
  };
  // A chunk of /positions: its rows (chunk_rows(), fewer only for the last), then deflated.
  struct Chunk {
    std::vector<Part> parts;
    size_t rows = 0;
    std::vector<std::vector<uint8_t>> datasets;  // each dataset's deflated bytes, once encoded
  };

  // Throws h5::Error when the file cannot be made.
  explicit PositionsFile(const PositionsRequest& req);
  ~PositionsFile();
  // The rows of a chunk of /positions (req.rows_per_write).
  size_t chunk_rows() const;
  // Deflates the chunk's datasets, in parallel on the caller's TBB arena; no HDF5 call, so
  // any thread, several chunks at once. Throws h5::Error on a text past its width.
  void encode(Chunk& chunk) const;
  // Appends games to /games, and an encoded chunk to /positions after the chunks before
  // (throws h5::Error).
  void write(const GameColumns& games);
  void write(const Chunk& chunk);
  // The root attributes and provenance, then publishes the file (throws h5::Error).
  void finish(const PositionsCounts& counts, const std::string& started);

 private:
  struct Tables;
  const PositionsRequest& req_;
  std::unique_ptr<Tables> tables_;
};

}  // namespace chesshpc
