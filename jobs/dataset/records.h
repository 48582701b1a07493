// A dataset file as a stream of records, in any format export writes (jobs/export/formats.h,
// pgn aside) or selfplay's HDF5 /positions layout: the formats by name or file name, a
// reader that pulls records (decoded, or as the file's own bytes) and a writer. convert,
// shuffle, interleave and stats all read and write through these.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "jobs/export/formats.h"

namespace chesshpc {

// The HDF5 format: selfplay's /positions (the file's job attribute "selfplay").
const Format& h5_format();
// A format that convert reads and writes, by name ("h5" too), or nullptr.
const Format* dataset_format(std::string_view name);
// By the file name's ending (".gz" and ".zst" after it are the compression: flat formats
// are read and written so): .plain .bin .binpack .bullet .txt (bullet-text) .epd .h5;
// nullptr for another.
const Format* format_of_path(std::string_view path);
// Why a file named path cannot be written in format f, "" when it can: an HDF5 file named
// as gzip's or zstd's (.h5.gz), which no decompressor would read (HDF5 deflates its
// chunks inside the file). A usage error of the command that names it.
std::string unwritable_name(std::string_view path, const Format& f);
// "plain|bin|binpack|bullet|bullet-text|epd|h5"
std::string dataset_format_names();
// Whether the format's records are the file's own bytes, one after another (fixed-size
// or text records): shuffle and interleave move them as they are. binpack (chains) and h5
// (columns) are decoded and written again.
bool has_own_records(const Format& f);

// A record as a row of selfplay's /positions (jobs/selfplay/tables.h) in game `game`: its
// ply (the position's game_ply where the format has none), its move ("0000" for none) as
// best too, its score and result; no search (depth, nodes and time_ms 0), no book move.
void append_position_row(const DecodedPosition& d, uint64_t game, PositionColumns& p);

// A record that does not read, or (convert --validate) is not possible, or that the
// output format cannot hold: what() is one line that names the record by its index
// (0-based, in file order) and says why.
class DatasetError : public std::runtime_error {
 public:
  DatasetError(uint64_t index, const std::string& why);
  uint64_t index() const { return index_; }

 private:
  uint64_t index_;
};

// Records of one file in file order. Opening throws ReadError (jobs/io/byte_source.h: a
// file that cannot be read) or DatasetError (an HDF5 file that is not selfplay's).
class RecordReader {
 public:
  static std::unique_ptr<RecordReader> open(const std::string& path, const Format& format);
  virtual ~RecordReader() = default;
  // The next record, decoded; false at the end. Throws DatasetError, ReadError.
  virtual bool next(DecodedPosition& out) = 0;
  // The next record as the file's own bytes (has_own_records formats only; the view lives
  // until the next call); false at the end.
  virtual bool next_bytes(std::string_view& out);
  // Records given so far (the next one's index).
  uint64_t count() const { return count_; }
  // The input's bytes consumed so far (decompressed).
  virtual uint64_t bytes_read() const = 0;

 protected:
  uint64_t count_ = 0;
};

// Records written in order to path (published whole: jobs/io/publish.h, h5::File), or to
// standard output for "" (flat formats). A flat format's file is gzip or zstd when its name
// ends in .gz or .zst (jobs/io/byte_sink.h), standard output plain. add() throws
// DatasetError (index: the caller's) when the format cannot hold the record: a Chess960
// position in a standard-only format, a move binpack cannot code; add() and add_bytes()
// throw WriteError (jobs/io/byte_sink.h) when the file cannot be written.
class RecordWriter {
 public:
  static std::unique_ptr<RecordWriter> open(const std::string& path, const Format& format,
                                            const std::string& command_line);
  virtual ~RecordWriter() = default;
  // Why format f cannot hold the record ("without a score" for a format that needs one,
  // "without a game result" for one with no "none"): the caller leaves it out and counts
  // it under that reason. nullptr when f holds it.
  static const char* skip_reason(const Format& f, const DecodedPosition& d);
  virtual void add(const DecodedPosition& d, uint64_t index) = 0;
  // A record of the same format as the file's own bytes (has_own_records).
  virtual void add_bytes(std::string_view bytes);
  // Finishes and publishes; "" or why not.
  virtual std::string commit() = 0;
  // The records' bytes written, before any compression (as bytes_read counts them).
  virtual uint64_t bytes_written() const = 0;
};

}  // namespace chesshpc
