// The Stockfish a bench compares its perft with: chosen by --stockfish, started once with
// one thread, and asked for `go perft` counts over UCI.
#pragma once

#include <memory>
#include <string>

#include "jobs/bench/measure.h"
#include "jobs/uci/engine.h"

namespace chesshpc {

constexpr const char* DEFAULT_STOCKFISH = "/usr/games/stockfish";

class Stockfish {
 public:
  // option: a path; "" for DEFAULT_STOCKFISH when it exists (else no Stockfish); "none"
  // for no Stockfish. Returns null for none; throws UciError when the engine chosen
  // cannot be started or does not speak UCI.
  static std::unique_ptr<Stockfish> open(const std::string& option);

  // "PATH: id name Stockfish 15.1", for the result file.
  const std::string& description() const { return description_; }
  BenchResult perft(const std::string& fen, int depth);

 private:
  explicit Stockfish(const std::string& path);
  UciEngine engine_;
  std::string description_;
};

}  // namespace chesshpc
