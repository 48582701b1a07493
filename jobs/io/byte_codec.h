// Values as bytes for the trip from the rank that computed a unit to rank 0 (a unit job's
// Payload): fixed-size values as they lie in memory (every rank runs the same build on
// the same kind of machine) and strings with their 32-bit length first.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace chesshpc {

class ByteWriter {
 public:
  template <typename T>
  void put(T v) {
    const char* p = reinterpret_cast<const char*>(&v);
    out_.insert(out_.end(), p, p + sizeof v);
  }
  void put(const std::string& s) {
    put(uint32_t(s.size()));
    out_.insert(out_.end(), s.begin(), s.end());
  }
  std::vector<char> take() { return std::move(out_); }

 private:
  std::vector<char> out_;
};

// Reads what a ByteWriter wrote, in the same order; throws std::runtime_error(what) when
// the bytes end too soon.
class ByteReader {
 public:
  ByteReader(const std::vector<char>& in, const char* what) : in_(in), what_(what) {}
  template <typename T>
  T get() {
    T v;
    need(sizeof v);
    std::memcpy(&v, in_.data() + at_, sizeof v);
    at_ += sizeof v;
    return v;
  }
  std::string text() {
    uint32_t n = get<uint32_t>();
    need(n);
    std::string s(in_.data() + at_, n);
    at_ += n;
    return s;
  }
  bool done() const { return at_ == in_.size(); }

 private:
  void need(size_t n) const {
    if (in_.size() - at_ < n) throw std::runtime_error(what_);
  }
  const std::vector<char>& in_;
  const char* what_;
  size_t at_ = 0;
};

}  // namespace chesshpc
