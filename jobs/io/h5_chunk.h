// A chunk of an HDF5 dataset as its shuffle and deflate filters would store it, made
// without the HDF5 library, so that a writer deflates chunks on its worker threads and
// HDF5 only stores the bytes (h5::append_chunk, ChunkAppender in h5_table.h). The deflate
// is ISA-L's (igzip), which writes the zlib stream that HDF5's own deflate filter, h5py and
// any zlib read back: on /positions' columns 4 to 5 times zlib's speed at its level 1,
// and smaller.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace chesshpc::h5 {

// raw: the chunk's elements as the file stores them, element_bytes each. Shuffled first
// when shuffle (byte k of every element together, as HDF5's shuffle filter does), then
// deflated into a zlib stream. Thread-safe; throws std::bad_alloc only.
std::vector<uint8_t> deflate_chunk(std::span<const uint8_t> raw, size_t element_bytes, bool shuffle);

}  // namespace chesshpc::h5
