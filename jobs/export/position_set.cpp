#include "jobs/export/position_set.h"

#include <algorithm>
#include <cstring>

namespace chesshpc {

PositionKey position_key(const uint8_t* packed) {
  PositionKey k;
  std::copy_n(packed, 26, k.bytes.begin());
  std::copy_n(packed + 30, 2, k.bytes.begin() + 26);
  return k;
}

size_t PositionSet::hash(const PositionKey& k) {
  uint64_t h = 0x9E3779B97F4A7C15ULL;
  for (size_t i = 0; i < k.bytes.size(); i += 4) {
    uint32_t w;
    std::memcpy(&w, k.bytes.data() + i, 4);
    h = (h ^ w) * 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 31;
  }
  return size_t(h);
}

size_t PositionSet::bytes_for_one_more() const {
  return 2 * (size_ + 1) > keys_.size() ? std::bit_ceil(2 * (size_ + 1)) * SLOT_BYTES : bytes();
}

bool PositionSet::place(const PositionKey& k) {
  const size_t mask = keys_.size() - 1;
  size_t i = hash(k) & mask;
  for (; used_[i]; i = (i + 1) & mask)
    if (keys_[i] == k) return false;
  keys_[i] = k, used_[i] = true;
  return true;
}

bool PositionSet::insert(const PositionKey& k) {
  if (2 * (size_ + 1) > keys_.size()) {
    // Twice the positions at least: every key placed again in the new table.
    std::vector<PositionKey> old_keys(std::bit_ceil(2 * (size_ + 1)));
    std::vector<uint8_t> old_used(old_keys.size());
    std::swap(old_keys, keys_), std::swap(old_used, used_);
    for (size_t i = 0; i < old_keys.size(); ++i)
      if (old_used[i]) place(old_keys[i]);
  }
  if (!place(k)) return false;
  ++size_;
  return true;
}

}  // namespace chesshpc
