// A file's bytes, read in blocks into a caller's buffer: a plain file, a .gz file through
// zlib, a .zst file through libzstd, or standard input for "-" (any of the three, told by
// its first bytes). Nothing but the decoder's fixed input buffer is held, so a corpus of
// any size streams.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

namespace chesshpc {

// Why the bytes could not be read: one line naming the file, and the exit code that fits
// (EXIT_IO: the file cannot be opened or read, or is a directory; EXIT_INPUT: its
// compressed data are corrupt or cut short).
class ReadError : public std::runtime_error {
 public:
  ReadError(int exit_code, const std::string& message) : std::runtime_error(message), exit_code_(exit_code) {}
  int exit_code() const { return exit_code_; }

 private:
  int exit_code_;
};

class ByteSource {
 public:
  // Opens path: "-" is standard input (gzip or zstd when its first bytes are their magic
  // numbers, 1f 8b or 28 b5 2f fd, else read as it comes); a name ending in
  // ".gz" is gzip (members one after another, as pigz and bgzip write, read as one
  // stream), ".zst" zstd (frames one after another likewise), any other a plain file.
  // kind names the file in messages ("PGN file"). Throws ReadError.
  ByteSource(const std::string& path, const std::string& kind);
  ~ByteSource();
  ByteSource(const ByteSource&) = delete;
  ByteSource& operator=(const ByteSource&) = delete;

  // Fills buf with up to n bytes and returns how many; fewer than n only at the end of
  // the data, 0 past it. Throws ReadError.
  size_t read(char* buf, size_t n);

  class Decoder;

 private:
  std::string what_;  // "PGN file 'x.pgn.gz'"
  int fd_ = -1;
  bool owns_fd_ = false;
  std::unique_ptr<Decoder> decoder_;
};

}  // namespace chesshpc
