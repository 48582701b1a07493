// A file's bytes, written a block at a time: plain, gzip (ISA-L's igzip) or zstd (libzstd)
// by the name's last extension, as byte_source reads them back. Nothing but the encoder's
// fixed output buffer is held, so an output of any size streams. A named file is written
// as NAME.partial and published whole at commit() (jobs/io/publish.h), so a failed or
// killed run never leaves a half-written file under NAME.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

namespace chesshpc {

// Why the bytes could not be written: one line naming the file and the system's reason
// ("cannot write 'x.plain.gz': No space left on device"). Always an I/O failure (EXIT_IO).
class WriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class Compression { NONE, GZIP, ZSTD };

// By the name's last extension: ".gz" gzip, ".zst" zstd, any other (and "") none; what
// every reader and writer of a file tells its compression by (byte_source too).
Compression compression_of(std::string_view path);
// The extension that names c: ".gz", ".zst", "" for none.
std::string_view extension_of(Compression c);

class ByteSink {
 public:
  // path: the file, opened (as its publish_target's .partial) at once; "" is standard
  // output, written plain. Throws WriteError.
  explicit ByteSink(const std::string& path);
  // A descriptor the caller keeps open (a pipe, /dev/full in a test), compressed as asked,
  // written in place; name names it in messages.
  ByteSink(int fd, Compression compression, const std::string& name);
  ~ByteSink();  // a file not committed is removed
  ByteSink(const ByteSink&) = delete;
  ByteSink& operator=(const ByteSink&) = delete;

  // Compresses bytes and writes what the encoder gives. Throws WriteError.
  void write(std::string_view bytes);
  // Ends the compressed stream, writes the rest, and (a named file) syncs and renames it
  // over its name. Throws WriteError; a file that fails is removed.
  void commit();

  // Bytes given to write(), and bytes that reached the file.
  uint64_t bytes_in() const { return in_; }
  uint64_t bytes_out() const { return out_; }

  class Encoder;

 private:
  void put(const char* data, size_t n);  // to the descriptor, whole

  std::string name_, target_, partial_;  // partial_ "" when nothing is published
  int fd_ = -1;
  bool owns_fd_ = false, committed_ = false;
  std::unique_ptr<Encoder> encoder_;
  uint64_t in_ = 0, out_ = 0;
};

}  // namespace chesshpc
