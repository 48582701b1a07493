#include "jobs/io/byte_sink.h"

#include <fcntl.h>
#include <isa-l/igzip_lib.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <vector>

#include "jobs/io/publish.h"

namespace chesshpc {

namespace {

// Compressed bytes are written in blocks of this size, whatever the data's size.
constexpr size_t OUT_BYTES = 256 * 1024;
// zstd's level 1, not its command line's default 3: on 100 K selfplay records
// (bench/README.md, convert) level 3 took 0.05 s more CPU for 10 MB of .plain and wrote
// 4 % more bytes.
constexpr int ZSTD_LEVEL = 1;

}  // namespace

class ByteSink::Encoder {
 public:
  explicit Encoder(ByteSink& sink) : sink_(sink) {}
  virtual ~Encoder() = default;
  // Encodes bytes and writes what is ready; end: the last bytes, after which the stream is
  // complete.
  virtual void encode(std::string_view bytes, bool) { sink_.put(bytes.data(), bytes.size()); }

 protected:
  void emit(const uint8_t* data, size_t n) { sink_.put(reinterpret_cast<const char*>(data), n); }
  WriteError failed(const std::string& how) const {
    return WriteError("cannot write " + sink_.name_ + ": the encoder failed (" + how + ")");
  }

  std::vector<uint8_t> out_ = std::vector<uint8_t>(OUT_BYTES);

 private:
  ByteSink& sink_;
};

namespace {

// gzip through ISA-L's igzip at level 1 (as h5_chunk deflates), a member every
// MEMBER_BYTES of input: igzip counts its input in 32 bits, and a member's trailer holds
// its size modulo 2^32, so no member reaches 4 GiB; gzip, zlib and byte_source read the
// members as one stream. Its header has no name and no time, so one input gives one
// file's bytes.
class Gzip : public ByteSink::Encoder {
 public:
  explicit Gzip(ByteSink& sink) : Encoder(sink), level_buf_(ISAL_DEF_LVL1_DEFAULT) { start_member(); }

  void encode(std::string_view bytes, bool end) override {
    do {
      if (in_member_ == MEMBER_BYTES && !bytes.empty()) {
        deflate({}, true);
        start_member();
      }
      const size_t n = std::min(bytes.size(), MEMBER_BYTES - in_member_);
      deflate(bytes.substr(0, n), end && n == bytes.size());
      in_member_ += n;
      bytes.remove_prefix(n);
    } while (!bytes.empty());
  }

 private:
  static constexpr size_t MEMBER_BYTES = size_t(1) << 30;

  // A stream begun anew, its header next. isal_deflate_reset would keep the settings but
  // writes no second header: the member after it would be raw deflate.
  void start_member() {
    isal_deflate_init(&z_);
    z_.gzip_flag = IGZIP_GZIP;
    z_.level = 1;
    z_.level_buf = level_buf_.data();
    z_.level_buf_size = uint32_t(level_buf_.size());
    z_.flush = NO_FLUSH;
    in_member_ = 0;
  }

  // in into the member; last: the member ends with it (its trailer written).
  void deflate(std::string_view in, bool last) {
    z_.next_in = reinterpret_cast<uint8_t*>(const_cast<char*>(in.data()));
    z_.avail_in = uint32_t(in.size());
    z_.end_of_stream = last;
    // Until the input is taken (what igzip holds back goes out with the next input), and
    // at the end until the trailer is written.
    for (;;) {
      z_.next_out = out_.data();
      z_.avail_out = uint32_t(out_.size());
      if (const int rc = isal_deflate(&z_); rc != COMP_OK) throw failed("igzip error " + std::to_string(rc));
      emit(out_.data(), out_.size() - z_.avail_out);
      if (last ? z_.internal_state.state == ZSTATE_END : z_.avail_in == 0) break;
    }
  }

  isal_zstream z_{};
  std::vector<uint8_t> level_buf_;
  size_t in_member_ = 0;
};

// One zstd frame through libzstd's streaming compression, with its content checksum (as
// zstd's command line writes it).
class Zstd : public ByteSink::Encoder {
 public:
  explicit Zstd(ByteSink& sink) : Encoder(sink), c_(ZSTD_createCCtx()) {
    if (!c_) throw failed("out of memory");
    ZSTD_CCtx_setParameter(c_, ZSTD_c_compressionLevel, ZSTD_LEVEL);
    ZSTD_CCtx_setParameter(c_, ZSTD_c_checksumFlag, 1);
  }
  ~Zstd() override { ZSTD_freeCCtx(c_); }

  void encode(std::string_view bytes, bool end) override {
    ZSTD_inBuffer in{bytes.data(), bytes.size(), 0};
    for (;;) {
      ZSTD_outBuffer out{out_.data(), out_.size(), 0};
      const size_t rc = ZSTD_compressStream2(c_, &out, &in, end ? ZSTD_e_end : ZSTD_e_continue);
      if (ZSTD_isError(rc)) throw failed(ZSTD_getErrorName(rc));
      emit(out_.data(), out.pos);
      // e_continue: until the input is taken; e_end: until the frame is flushed whole.
      if (end ? rc == 0 : in.pos == in.size) break;
    }
  }

 private:
  ZSTD_CCtx* c_;
};

std::unique_ptr<ByteSink::Encoder> make_encoder(Compression c, ByteSink& sink) {
  switch (c) {
    case Compression::GZIP: return std::make_unique<Gzip>(sink);
    case Compression::ZSTD: return std::make_unique<Zstd>(sink);
    default: return std::make_unique<ByteSink::Encoder>(sink);
  }
}

}  // namespace

Compression compression_of(std::string_view path) {
  for (Compression c : {Compression::GZIP, Compression::ZSTD})
    if (path.ends_with(extension_of(c))) return c;
  return Compression::NONE;
}

std::string_view extension_of(Compression c) {
  switch (c) {
    case Compression::GZIP: return ".gz";
    case Compression::ZSTD: return ".zst";
    default: return "";
  }
}

ByteSink::ByteSink(const std::string& path) {
  if (path.empty()) {
    // Standard output: what the C++ and C streams hold goes first.
    std::cout.flush();
    std::fflush(stdout);
    name_ = "to standard output";
    fd_ = STDOUT_FILENO;
  } else {
    name_ = "'" + path + "'";
    target_ = publish_target(path);
    partial_ = target_ + ".partial";
    fd_ = ::open(partial_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd_ < 0) throw WriteError("cannot write " + name_ + ": " + std::strerror(errno));
    owns_fd_ = true;
  }
  try {
    encoder_ = make_encoder(compression_of(path), *this);
  } catch (...) {
    if (owns_fd_) ::close(fd_), std::remove(partial_.c_str());
    throw;
  }
}

ByteSink::ByteSink(int fd, Compression compression, const std::string& name)
    : name_("'" + name + "'"), fd_(fd), encoder_(make_encoder(compression, *this)) {}

ByteSink::~ByteSink() {
  encoder_.reset();
  if (owns_fd_) ::close(fd_);
  if (!partial_.empty() && !committed_) std::remove(partial_.c_str());
}

void ByteSink::write(std::string_view bytes) {
  if (!encoder_) throw WriteError("cannot write " + name_ + ": an earlier write failed");
  try {
    encoder_->encode(bytes, false);
  } catch (...) {
    encoder_.reset();  // the stream is broken: nothing more goes into it
    throw;
  }
  in_ += bytes.size();
}

void ByteSink::commit() {
  if (!encoder_) throw WriteError("cannot write " + name_ + ": an earlier write failed");
  std::unique_ptr<Encoder> encoder = std::move(encoder_);
  encoder->encode({}, true);
  if (!owns_fd_) return;
  const int fd = fd_;
  owns_fd_ = false;
  // close() reports what a network file system kept back.
  if (::close(fd) != 0) throw WriteError("cannot write " + name_ + ": " + std::strerror(errno));
  if (const std::string why = publish(partial_, target_); !why.empty()) throw WriteError(why);
  committed_ = true;
}

void ByteSink::put(const char* data, size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd_, data, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      throw WriteError("cannot write " + name_ + ": " + std::strerror(errno));
    }
    data += w, n -= size_t(w), out_ += uint64_t(w);
  }
}

}  // namespace chesshpc
