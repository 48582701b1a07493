#include "jobs/io/job_common.h"

#include "core/quote.h"
#include "core/san.h"

namespace chesshpc {

std::optional<chess::Move> read_move(const chess::Position& pos, const std::string& text, int ply, const char* command,
                                     std::ostream& err) {
  chess::SanError why = chess::SanError::NONE;
  const std::optional<chess::Move> m = chess::parse_move(pos, text, why);
  if (!m)
    err << "chesshpc " << command << ": " << chess::san_refusal(why, text) << " at ply " << ply << " (position "
        << pos.fen() << ")\n";
  else if (const std::string full = pos.clock_overflow(); !full.empty())
    err << "chesshpc " << command << ": move " << chess::quoted(text) << " at ply " << ply << ": " << full << "\n";
  else
    return m;
  return std::nullopt;
}

std::optional<chess::Position> play_moves(chess::Position pos, const std::vector<std::string>& moves,
                                          const char* command, std::ostream& err, std::vector<chess::Move>* played) {
  for (size_t i = 0; i < moves.size(); ++i) {
    const std::optional<chess::Move> m = read_move(pos, moves[i], int(i) + 1, command, err);
    if (!m) return std::nullopt;
    if (played) played->push_back(*m);
    pos.do_move(*m);
  }
  return pos;
}

}  // namespace chesshpc
