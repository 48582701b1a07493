// libFuzzer's entry point for one harness of tests/fuzz/harnesses.h, named at compile
// time (CHESSHPC_FUZZ_HARNESS): one executable per parser.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tests/fuzz/harnesses.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  chesshpc::fuzz::CHESSHPC_FUZZ_HARNESS(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
