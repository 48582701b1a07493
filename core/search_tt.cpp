#include "core/search_tt.h"

#include <algorithm>
#include <cstring>

namespace chess {

void SearchTT::resize(size_t bytes) {
  const size_t n = size_for(bytes) / sizeof(Bucket);
  if (n == buckets_) {
    clear();  // the same table again: its old entries must go
    return;
  }
  table_ = allocate_zeroed<Bucket>(n);  // fresh, so zero: clear without a pass
  buckets_ = n;
  generation_ = 0;
}

void SearchTT::clear() {
  std::memset(static_cast<void*>(table_.get()), 0, buckets_ * sizeof(Bucket));
  generation_ = 0;
}

const TTEntry* SearchTT::probe(Key key) const {
  const Bucket& b = bucket(key);
  for (const TTEntry& e : b.entry)
    if (e.key == key && e.gen_bound) return &e;
  return nullptr;
}

void SearchTT::store(Key key, int score, int eval, Bound bound, int depth, Move m) {
  Bucket& b = bucket(key);
  TTEntry* replace = &b.entry[0];
  int worst = 1 << 30;
  for (TTEntry& e : b.entry) {
    if (e.key == key || !e.gen_bound) {
      replace = &e;
      break;
    }
    // Older entries and shallower ones go first.
    int age = ((generation_ - (e.gen_bound & ~3)) & 0xFF) / 4;
    int value = e.depth - 8 * age;
    if (value < worst) worst = value, replace = &e;
  }
  // Keep the move of an entry for the same position when the new result has none.
  if (m.is_none() && replace->key == key) m = replace->move;
  replace->key = key;
  replace->move = m;
  replace->score = int16_t(score);
  replace->eval = int16_t(eval);
  replace->depth = uint8_t(std::clamp(depth, 0, 255));
  replace->gen_bound = uint8_t(generation_ | bound);
}

int SearchTT::hashfull() const {
  int n = 0, sampled = 0;
  for (size_t i = 0; i < std::min<size_t>(buckets_, 250); ++i)
    for (const TTEntry& e : table_[i].entry) {
      ++sampled;
      n += e.gen_bound && (e.gen_bound & ~3) == generation_;
    }
  return sampled ? n * 1000 / sampled : 0;
}

}  // namespace chess
