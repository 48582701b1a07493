// A compressed file's bytes decompressed by zlib and libzstd themselves, not by chesshpc's
// reader (jobs/io/byte_source), for the tests of what chesshpc writes compressed: a test
// fails (and returns what it got) on data the library finds damaged or cut short.
#pragma once

#include <gtest/gtest.h>
#include <zlib.h>
#include <zstd.h>

#include <string>

namespace chesshpc::testing_support {

inline bool is_gzip(const std::string& bytes) { return bytes.starts_with("\x1f\x8b"); }
inline bool is_zstd(const std::string& bytes) { return bytes.starts_with("\x28\xb5\x2f\xfd"); }

// Every gzip member of bytes, one after another, through zlib's inflate.
inline std::string gunzip(const std::string& bytes) {
  std::string out;
  z_stream z{};
  EXPECT_EQ(inflateInit2(&z, 15 + 16), Z_OK);
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = uInt(bytes.size());
  char block[1 << 16];
  for (int rc = Z_OK; z.avail_in > 0 || rc != Z_STREAM_END;) {
    z.next_out = reinterpret_cast<Bytef*>(block);
    z.avail_out = sizeof block;
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(block, sizeof block - z.avail_out);
    if (rc == Z_STREAM_END && z.avail_in > 0) inflateReset(&z);
    if (rc != Z_OK && rc != Z_STREAM_END) {
      ADD_FAILURE() << "zlib: " << rc << (z.msg ? z.msg : "");
      break;
    }
  }
  inflateEnd(&z);
  return out;
}

// Every zstd frame of bytes through libzstd's streaming decompression; each frame's
// checksum, when it has one, is checked by libzstd.
inline std::string unzstd(const std::string& bytes) {
  std::string out;
  ZSTD_DCtx* d = ZSTD_createDCtx();
  ZSTD_inBuffer in{bytes.data(), bytes.size(), 0};
  char block[1 << 16];
  size_t rc = 1;
  while (in.pos < in.size || rc != 0) {
    ZSTD_outBuffer o{block, sizeof block, 0};
    rc = ZSTD_decompressStream(d, &o, &in);
    if (ZSTD_isError(rc)) {
      ADD_FAILURE() << "zstd: " << ZSTD_getErrorName(rc);
      break;
    }
    out.append(block, o.pos);
    if (in.pos == in.size && o.pos == 0 && rc != 0) {
      ADD_FAILURE() << "zstd: the data end inside a frame";
      break;
    }
  }
  ZSTD_freeDCtx(d);
  return out;
}

}  // namespace chesshpc::testing_support
