#include "jobs/io/byte_source.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>
#include <cerrno>
#include <cstring>
#include <vector>

#include "jobs/io/byte_sink.h"
#include "jobs/io/job_common.h"

namespace chesshpc {

namespace {

// Compressed bytes are read in blocks of this size, whatever the data's size.
constexpr size_t IN_BYTES = 256 * 1024;

// Up to n bytes of fd, fewer only at its end; EINTR is retried. what: "PGN file 'x'".
size_t read_fd(int fd, char* buf, size_t n, const std::string& what) {
  size_t got = 0;
  while (got < n) {
    ssize_t r = ::read(fd, buf + got, n - got);
    if (r == 0) break;
    if (r < 0) {
      if (errno == EINTR) continue;
      throw ReadError(EXIT_IO, "cannot read " + what + ": " + std::strerror(errno));
    }
    got += size_t(r);
  }
  return got;
}

}  // namespace

class ByteSource::Decoder {
 public:
  // peeked: the file's first bytes, already read to tell its format; read before the rest.
  Decoder(int fd, const std::string& what, std::string peeked) : fd_(fd), what_(what), peeked_(std::move(peeked)) {}
  virtual ~Decoder() = default;
  // Up to n decoded bytes, fewer only at the end of the data.
  virtual size_t decode(char* buf, size_t n) { return read_raw(buf, n); }

 protected:
  // The next block of compressed bytes into in_; 0 at the end of the file.
  size_t refill() {
    in_.resize(IN_BYTES);
    return read_raw(in_.data(), in_.size());
  }
  // "PGN file 'x.gz' is corrupt: its gzip data are damaged (invalid block type)"
  ReadError corrupt(const char* format, const std::string& how) const {
    return ReadError(EXIT_INPUT, what_ + " is corrupt: its " + format + " data are " + how);
  }
  ReadError out_of_memory() const { return ReadError(EXIT_IO, "cannot read " + what_ + ": out of memory"); }

  int fd_;
  const std::string& what_;
  std::vector<char> in_;  // compressed bytes: a fixed block, allocated on the first read

 private:
  // Up to n bytes of the file as stored, the peeked ones first; fewer only at its end.
  size_t read_raw(char* buf, size_t n) {
    size_t got = peeked_.copy(buf, n);
    peeked_.erase(0, got);
    return got + read_fd(fd_, buf + got, n - got, what_);
  }

  std::string peeked_;
};

namespace {

// gzip through zlib's inflate: one member after another until the file ends, which must
// be between members.
class Gzip : public ByteSource::Decoder {
 public:
  Gzip(int fd, const std::string& what, std::string peeked) : Decoder(fd, what, std::move(peeked)) {
    if (inflateInit2(&z_, 15 + 16) != Z_OK) throw out_of_memory();
  }
  ~Gzip() override { inflateEnd(&z_); }

  size_t decode(char* buf, size_t n) override {
    z_.next_out = reinterpret_cast<Bytef*>(buf);
    z_.avail_out = uInt(n);
    while (z_.avail_out > 0 && !ended_) {
      if (z_.avail_in == 0) {
        size_t got = refill();
        if (got == 0) {
          if (in_member_ || members_ == 0) throw corrupt("gzip", "cut short (the file ends inside a member)");
          ended_ = true;
          break;
        }
        z_.next_in = reinterpret_cast<Bytef*>(in_.data());
        z_.avail_in = uInt(got);
      }
      in_member_ = true;
      int rc = inflate(&z_, Z_NO_FLUSH);
      if (rc == Z_STREAM_END) {
        in_member_ = false;
        ++members_;
        inflateReset(&z_);
      } else if (rc == Z_DATA_ERROR || (rc == Z_BUF_ERROR && z_.avail_in > 0)) {
        throw corrupt("gzip", std::string("damaged (") + (z_.msg ? z_.msg : "no deflate stream") + ")");
      } else if (rc == Z_MEM_ERROR) {
        throw out_of_memory();
      }
    }
    return n - z_.avail_out;
  }

 private:
  z_stream z_{};
  bool in_member_ = false;  // a member has begun and not ended
  bool ended_ = false;
  long members_ = 0;
};

// zstd through libzstd's streaming decompression: frames one after another until the
// file ends, which must be between frames.
class Zstd : public ByteSource::Decoder {
 public:
  Zstd(int fd, const std::string& what, std::string peeked)
      : Decoder(fd, what, std::move(peeked)), d_(ZSTD_createDStream()) {
    if (!d_) throw out_of_memory();
  }
  ~Zstd() override { ZSTD_freeDStream(d_); }

  size_t decode(char* buf, size_t n) override {
    ZSTD_outBuffer out{buf, n, 0};
    while (out.pos < out.size && !ended_) {
      // An output filled to the end may leave decoded bytes inside zstd: those first.
      if (in_buf_.pos == in_buf_.size && !flush_) {
        size_t got = refill();
        if (got == 0) {
          if (frame_open_ || !started_) throw corrupt("zstd", "cut short (the file ends inside a frame)");
          ended_ = true;
          break;
        }
        in_buf_ = {in_.data(), got, 0};
        started_ = true;
      }
      size_t rc = ZSTD_decompressStream(d_, &out, &in_buf_);
      if (ZSTD_isError(rc)) throw corrupt("zstd", std::string("damaged (") + ZSTD_getErrorName(rc) + ")");
      frame_open_ = rc != 0;
      flush_ = out.pos == out.size;
    }
    return out.pos;
  }

 private:
  ZSTD_DStream* d_;
  ZSTD_inBuffer in_buf_{nullptr, 0, 0};
  bool frame_open_ = false;  // the last frame begun is not complete
  bool flush_ = false;       // the last call filled the output
  bool started_ = false;
  bool ended_ = false;
};

// A stream's compression from its first bytes (gzip: 1f 8b; zstd: 28 b5 2f fd), for standard
// input, which has no name to tell it.
Compression sniff(const std::string& head) {
  if (head.starts_with("\x1f\x8b")) return Compression::GZIP;
  if (head.starts_with("\x28\xb5\x2f\xfd")) return Compression::ZSTD;
  return Compression::NONE;
}

}  // namespace

ByteSource::ByteSource(const std::string& path, const std::string& kind) : what_(kind + " '" + path + "'") {
  if (path == "-") {
    fd_ = STDIN_FILENO;
  } else {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw ReadError(EXIT_IO, "cannot read " + what_ + ": " + std::strerror(errno));
    owns_fd_ = true;
    struct stat st;
    if (fstat(fd_, &st) == 0 && S_ISDIR(st.st_mode)) {
      ::close(fd_);
      throw ReadError(EXIT_IO, "cannot read " + what_ + ": it is a directory");
    }
  }
  try {
    std::string peeked;
    Compression compression = compression_of(path);
    if (path == "-") {
      peeked.resize(4);
      peeked.resize(read_fd(fd_, peeked.data(), peeked.size(), what_));
      compression = sniff(peeked);
    }
    if (compression == Compression::GZIP)
      decoder_ = std::make_unique<Gzip>(fd_, what_, std::move(peeked));
    else if (compression == Compression::ZSTD)
      decoder_ = std::make_unique<Zstd>(fd_, what_, std::move(peeked));
    else
      decoder_ = std::make_unique<Decoder>(fd_, what_, std::move(peeked));
  } catch (...) {
    if (owns_fd_) ::close(fd_);
    throw;
  }
}

ByteSource::~ByteSource() {
  decoder_.reset();
  if (owns_fd_) ::close(fd_);
}

size_t ByteSource::read(char* buf, size_t n) { return decoder_->decode(buf, n); }

}  // namespace chesshpc
