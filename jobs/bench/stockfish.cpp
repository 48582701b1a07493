#include "jobs/bench/stockfish.h"

#include <unistd.h>

namespace chesshpc {

Stockfish::Stockfish(const std::string& path)
    : engine_(path, {{"Threads", "1"}}), description_(path + ": id name " + engine_.name()) {}

std::unique_ptr<Stockfish> Stockfish::open(const std::string& option) {
  if (option == "none") return nullptr;
  std::string path = option.empty() ? DEFAULT_STOCKFISH : option;
  // A bare name is looked up on PATH when the engine starts.
  if (path.find('/') != std::string::npos && access(path.c_str(), X_OK) != 0) {
    if (option.empty()) return nullptr;
    throw UciError("'" + path + "' is not an executable file (give Stockfish's path, or --stockfish none)");
  }
  return std::unique_ptr<Stockfish>(new Stockfish(path));
}

BenchResult Stockfish::perft(const std::string& fen, int depth) {
  // A day is no limit for a benchmark, only a guard against an engine that hangs.
  UciPerft p = engine_.perft(fen, depth, 86400);
  return {p.nodes, p.seconds};
}

}  // namespace chesshpc
