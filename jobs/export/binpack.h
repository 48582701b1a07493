// The .binpack training-data format of Stockfish and nnue-pytorch, written and read.
//
// A file is a sequence of chunks: "BINP", the chunk's size (uint32, little-endian), then
// whole chains. A chain is a stem (32 bytes: the position in 24, the move in 2, then the
// score, the ply with the result, and the half-move clock, 2 bytes each, big-endian) and
// a movetext: a count of continuation plies (uint16, big-endian) and, per ply, the move
// played from the previous entry's position coded as an index among the moving piece's
// pseudo-legal destinations and a score delta, in a bit stream. nnue-pytorch's reader
// (data_loader/cpp/lib/binpack.h) decodes exactly what this writer encodes; the encoding
// is documented beside each part in binpack.cpp.
//
// The format holds standard chess only: its continuation castlings are e1h1, e1a1, e8h8
// and e8a8, and its position marks castling rooks on the corners only. Chess960
// positions are refused.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <istream>
#include <ostream>
#include <stdexcept>
#include <vector>

#include "core/position.h"

namespace chesshpc::binpack {

// One training entry: the position before the move, the move (played or best; none for
// no move), the score and result from the side to move's view (result -1, 0 or 1) and the
// game ply (0 for the start position). The format keeps no move number: a position read
// back has move number ply / 2 + 1.
struct Entry {
  chess::Position pos;
  chess::Move move;
  int16_t score = 0;
  uint16_t ply = 0;
  int16_t result = 0;
};

// The ply shares 16 bits with the result: 14 bits.
constexpr uint16_t MAX_PLY = 0x3FFF;
// A chain is closed and the chunk written once it holds this much (the reference's size).
constexpr size_t CHUNK_TARGET = size_t(1) << 20;
// The largest chunk the reference reader accepts, and so this one.
constexpr size_t MAX_CHUNK = size_t(100) << 20;

// A file that is no binpack, or a malformed or truncated one. what() is one line naming
// the byte offset in the file.
class FormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Appends entries as chains of consecutive positions: an entry continues the chain when
// it is the position after the previous entry's move, one ply later, with the result
// negated (same pieces, side, rights and clocks); anything else starts a new chain.
class Writer {
 public:
  explicit Writer(std::ostream& out);
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;
  // Finishes; a failure then is not thrown (call finish() to see it).
  ~Writer();

  // Throws std::invalid_argument, with nothing written, for a Chess960 position, a move
  // that is neither legal nor none, a result other than -1, 0 and 1, or a ply above
  // MAX_PLY; std::runtime_error when the stream fails.
  void add(const Entry& e);
  // Writes what is buffered as the last chunk and flushes the stream; throws
  // std::runtime_error when the stream fails. Entries added after it go to a new chunk.
  void finish();

  uint64_t entries() const { return entries_; }
  uint64_t chains() const { return chains_; }
  // Bytes given to the stream so far, chunk headers included.
  uint64_t bytes_written() const { return bytes_written_; }

 private:
  void close_chain();
  void write_chunk();
  void put_bits(uint32_t value, int count);
  void put_move_and_score(const Entry& e);

  std::ostream& out_;
  std::vector<uint8_t> chunk_;  // the chunk being filled, without its header
  bool open_ = false;           // a chain is open: last_ is its latest entry
  Entry last_;
  size_t count_at_ = 0;  // where the open chain's count of plies goes in chunk_
  uint16_t plies_ = 0;   // continuation plies of the open chain
  int16_t last_score_ = 0;
  uint64_t bits_ = 0;  // bits not yet written as a whole byte, the oldest highest
  int nbits_ = 0;
  uint64_t entries_ = 0, chains_ = 0, bytes_written_ = 0;
};

// Calls f with every entry of the stream in file order. Throws FormatError for a stream
// that is not a whole binpack file: a chunk that does not start with "BINP", a chunk
// larger than MAX_CHUNK or cut short, a position no legal game has (as a FEN would be
// refused), an illegal move, a result out of range, bytes left over after a chunk's
// last chain; std::runtime_error when the stream itself fails.
void read_each(std::istream& in, const std::function<void(const Entry&)>& f);
// read_each a chunk at a time, for a reader that pulls entries (one chunk's entries at a
// time in memory: about 1 MiB of file, some 400 K entries, as this writer makes them).
class ChunkReader {
 public:
  explicit ChunkReader(std::istream& in) : in_(in) {}
  // Calls f with every entry of the next chunk; false at the end of the stream. Throws as
  // read_each does.
  bool next(const std::function<void(const Entry&)>& f);
  // The bytes of the chunks read so far.
  uint64_t offset() const { return offset_; }

 private:
  std::istream& in_;
  std::vector<uint8_t> chunk_;
  uint64_t offset_ = 0;
};
std::vector<Entry> read_all(std::istream& in);

}  // namespace chesshpc::binpack
