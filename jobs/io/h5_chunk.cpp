#include "jobs/io/h5_chunk.h"

#include <isa-l/igzip_lib.h>
#include <zlib.h>

#include <cstring>

namespace chesshpc::h5 {

namespace {

// Byte k of element i goes to k * n + i: HDF5's shuffle filter (H5Zshuffle.c) for a buffer
// of whole elements. The element sizes of result files get loops the compiler unrolls.
template <size_t E>
void shuffle_fixed(const uint8_t* in, size_t n, uint8_t* out) {
  for (size_t i = 0; i < n; ++i)
    for (size_t k = 0; k < E; ++k) out[k * n + i] = in[i * E + k];
}

void shuffle(std::span<const uint8_t> raw, size_t e, uint8_t* out) {
  const size_t n = raw.size() / e;
  switch (e) {
    case 2: return shuffle_fixed<2>(raw.data(), n, out);
    case 4: return shuffle_fixed<4>(raw.data(), n, out);
    case 8: return shuffle_fixed<8>(raw.data(), n, out);
    default:
      for (size_t i = 0; i < n; ++i)
        for (size_t k = 0; k < e; ++k) out[k * n + i] = raw[i * e + k];
  }
  // Bytes past the last whole element stay where they are, as the filter leaves them.
  std::memcpy(out + n * e, raw.data() + n * e, raw.size() - n * e);
}

// ISA-L at its level 1 (its fastest with a hash of whole matches; level 0 deflated
// /positions' columns a fifth larger for a fifth less time), the zlib wrapper that HDF5's
// deflate filter reads, into out. Returns the bytes written, 0 when out is too small.
size_t igzip(std::span<const uint8_t> in, std::vector<uint8_t>& out) {
  thread_local isal_zstream stream;
  thread_local std::vector<uint8_t> level_buf(ISAL_DEF_LVL1_DEFAULT);
  isal_deflate_stateless_init(&stream);
  stream.gzip_flag = IGZIP_ZLIB;
  stream.level = 1;
  stream.level_buf = level_buf.data();
  stream.level_buf_size = uint32_t(level_buf.size());
  stream.next_in = const_cast<uint8_t*>(in.data());
  stream.avail_in = uint32_t(in.size());
  stream.next_out = out.data();
  stream.avail_out = uint32_t(out.size());
  stream.end_of_stream = 1;
  stream.flush = NO_FLUSH;
  return isal_deflate_stateless(&stream) == COMP_OK ? stream.total_out : 0;
}

}  // namespace

std::vector<uint8_t> deflate_chunk(std::span<const uint8_t> raw, size_t element_bytes, bool shuffled) {
  // Buffers kept by each thread: a chunk's megabytes allocated anew each time cost more
  // in page faults than the shuffle itself.
  thread_local std::vector<uint8_t> reordered, out;
  std::span<const uint8_t> in = raw;
  if (shuffled && element_bytes > 1) {
    if (reordered.size() < raw.size()) reordered.resize(raw.size());
    shuffle(raw, element_bytes, reordered.data());
    in = std::span(reordered.data(), raw.size());
  }
  // Room for stored blocks (5 bytes each 64 KB) and the zlib header and checksum.
  out.resize(in.size() + in.size() / 8192 + 1024);
  if (const size_t n = igzip(in, out)) return {out.begin(), out.begin() + long(n)};
  // Data that does not compress: zlib, whose bound is exact.
  uLongf n = compressBound(uLong(in.size()));
  std::vector<uint8_t> z(n);
  compress2(z.data(), &n, in.data(), uLong(in.size()), 1);
  z.resize(n);
  return z;
}

}  // namespace chesshpc::h5
