// The speed anchor of `chesshpc export` (bench/README.md, "export"): runs one of
// nnue-pytorch's own training-data converters on a file, so that export's figures are
// quoted against the program trainers use for these formats, measured in the same run.
//   nnue_pytorch_driver MODE IN OUT [validate]
// MODE is FROM2TO with FROM and TO among plain, bin and binpack (bin2binpack, plain2bin,
// bin2plain, binpack2bin, ...). "validate" makes the converter check that every entry's
// move is legal in its position, and stop at the first that is not.
//
// This file is ours; the converters are not. It is NOT built by the project's CMake: it
// needs nnue-pytorch's data loader header (MIT), fetched at the commit bench/README.md
// names and compiled by the one g++ line given there. Exit codes follow chesshpc's: 0 done,
// 2 bad usage, 4 an input that cannot be read (the converters themselves say nothing when
// a file is missing, so this is checked first).
#include <cstdio>
#include <fstream>
#include <ios>
#include <string>
#include <string_view>

#include "nnue_training_data_formats.h"

namespace {

using Converter = void (*)(std::string, std::string, std::ios_base::openmode, bool);

struct Mode {
  std::string_view name;
  Converter convert;
};

// Every conversion nnue-pytorch's header offers, by the name the command line gives it.
constexpr Mode MODES[] = {
    {"plain2bin", binpack::convertPlainToBin},         {"bin2plain", binpack::convertBinToPlain},
    {"plain2binpack", binpack::convertPlainToBinpack}, {"binpack2plain", binpack::convertBinpackToPlain},
    {"bin2binpack", binpack::convertBinToBinpack},     {"binpack2bin", binpack::convertBinpackToBin},
};

int usage() {
  std::fputs("usage: nnue_pytorch_driver MODE IN OUT [validate]\nMODE:", stderr);
  for (const Mode& m : MODES) std::fprintf(stderr, " %.*s", static_cast<int>(m.name.size()), m.name.data());
  std::fputc('\n', stderr);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 && !(argc == 5 && std::string_view(argv[4]) == "validate")) return usage();
  for (const Mode& m : MODES) {
    if (m.name != argv[1]) continue;
    if (!std::ifstream(argv[2], std::ios_base::binary)) {
      std::fprintf(stderr, "nnue_pytorch_driver: cannot read '%s'\n", argv[2]);
      return 4;
    }
    // trunc: OUT is written anew, as chesshpc export --force does.
    m.convert(argv[2], argv[3], std::ios_base::out | std::ios_base::trunc, argc == 5);
    return 0;
  }
  return usage();
}
