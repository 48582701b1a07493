#include "jobs/verify/request.h"

#include <sstream>

#include "jobs/io/job_common.h"
#include "jobs/perft/epd.h"
#include "jobs/verify/random_positions.h"

namespace chesshpc {

namespace {

// A root position as the engine is told it: Chess960 when asked, else as the FEN reads.
std::optional<chess::Position> root_position(const std::string& fen, bool chess960, std::ostream& err) {
  if (!chess960) return read_position(fen, "verify", err);
  try {
    return chess::Position::from_fen(fen, true);
  } catch (const chess::FenError& e) {
    err << "chesshpc verify: " << e.what() << "\n";
    return std::nullopt;
  }
}

}  // namespace

bool verify_tasks(const VerifyRequest& req, const std::string& epd, std::vector<VerifyTask>& tasks, int& code,
                  std::ostream& err) {
  code = EXIT_INPUT;
  const bool c960 = req.engine.chess960;
  if (!req.fen.empty()) {
    std::optional<chess::Position> root = root_position(req.fen, c960, err);
    if (!root) return false;
    VerifyTask t{*root, {}, req.depth, -1, std::nullopt, 0};
    if (!play_moves(*root, req.moves, "verify", err, &t.moves)) return false;
    tasks.push_back(t);
  } else if (!req.epd.empty()) {
    std::istringstream in(epd);
    EpdFile file = read_epd(in);
    if (!file.errors.empty()) {
      const EpdError& e = file.errors.front();
      err << "chesshpc verify: " << req.epd << ":" << e.line_number << ": " << e.message << "\n";
      return false;
    }
    for (const EpdLine& line : file.lines) {
      int depth = 0;
      uint64_t expected = 0;
      for (const auto& [d, count] : line.expected)
        if ((!req.max_depth || d <= req.max_depth) && d > depth) depth = d, expected = count;
      if (!depth) continue;  // nothing shallow enough on this line
      std::optional<chess::Position> root = root_position(line.fen, c960, err);
      if (!root) return false;
      tasks.push_back({*root, {}, depth, -1, expected, line.line_number});
    }
  } else {
    for (uint64_t i = 0; i < req.random; ++i) {
      SeededPosition p = seeded_position(req.seed, i, c960);
      tasks.push_back({p.root, p.moves, req.depth, p.trap, std::nullopt, 0});
    }
  }
  code = EXIT_OK;
  return true;
}

}  // namespace chesshpc
