#include "jobs/perft/request.h"

#include "jobs/io/job_common.h"

namespace chesshpc {

std::optional<chess::Position> read_perft_root(const PerftRequest& req, std::ostream& err) {
  std::optional<chess::Position> pos = read_position(req.fen, "perft", err);
  return pos ? play_moves(*pos, req.moves, "perft", err) : std::nullopt;
}

std::unique_ptr<chess::PerftTable> make_perft_table(const PerftRequest& req) {
  if (!req.hash_bytes || req.detailed) return nullptr;
  return std::make_unique<chess::PerftTable>(req.hash_bytes);
}

}  // namespace chesshpc
