#include "jobs/perft/split_job.h"

#include <cstring>

#include "core/movegen.h"
#include "jobs/perft/options.h"

namespace chesshpc {

int SplitPerft::plan(const Ranks& ranks, std::ostream& err) {
  ranks_ = ranks;
  std::ostream nowhere(nullptr);  // the other ranks plan as rank 0 does: it alone says why not
  std::ostream& say = ranks.root() ? err : nowhere;
  std::optional<chess::Position> root = read_perft_root(req_, say);
  if (!root) return EXIT_INPUT;
  if (req_.depth < 2) {
    say << "chesshpc perft: a run split into units needs --depth 2 or more\n";
    return EXIT_USAGE;
  }
  int split_depth = req_.split_depth ? req_.split_depth : default_split_depth(*root, req_.depth, ranks.size);
  if (split_depth >= req_.depth) {
    say << "chesshpc perft: --split-depth must be below --depth\n";
    return EXIT_USAGE;
  }
  plan_ = plan_units(*root, req_.depth, split_depth);
  results_ = UnitResults(plan_.units.size());
  counting_ = RankCounting(req_);
  return EXIT_OK;
}

// The units an earlier run recorded (with --resume), and a first write of the file, so
// that an unwritable --out fails now and not after hours.
int SplitPerft::open(const std::string& started, std::ostream& err) {
  if (req_.out.empty()) return EXIT_OK;
  return perft_file::open_result_file(
      req_, err, [this] { results_ = read_perft_file(req_.out, plan_); }, holds_unfinished_perft,
      [this, &started] {
        file_.emplace(req_.out, req_, plan_, started, ranks_.size);
        file_->write(results_);
      });
}

UnitJobInfo SplitPerft::info() const {
  UnitJobInfo i = unit_job_info("perft", req_, req_, resume_command_line(req_, plan_.split_depth, 0));
  i.total_items = plan_.units.size();
  i.items_to_do = plan_.units.size() - results_.count_done();
  return i;
}

// Units with one pawn structure transpose into each other far more often than others
// (pawns never move back), so they share one rank's table: at 4 ranks this cut the extra
// work of per-rank tables from 2.6 to about 2.0 times the work of one rank.
std::function<size_t(size_t)> SplitPerft::affinity() const {
  return [this](size_t unit) {
    const chess::Position& p = plan_.units[unit].pos;
    return size_t((p.pieces(chess::WHITE, chess::PAWN) * 0x9E3779B97F4A7C15ULL) ^
                  (p.pieces(chess::BLACK, chess::PAWN) * 0xC2B2AE3D27D4EB4FULL)) >>
           20;
  };
}

// A unit's count travels as its 8 bytes.
Payload SplitPerft::compute(size_t unit) {
  const chess::Position& pos = plan_.units[unit].pos;
  const int depth = plan_.depth - plan_.split_depth;
  chess::MoveList moves = chess::legal_moves(pos);
  uint64_t nodes = moves.size();
  if (depth > 1) {
    nodes = 0;
    for (uint64_t c : counting_.count_each(moves.size(), depth - 1, [&](size_t m) { return pos.after(moves[m]); }))
      nodes += c;
  }
  Payload bytes(sizeof nodes);
  std::memcpy(bytes.data(), &nodes, sizeof nodes);
  return bytes;
}

Recorded SplitPerft::record(size_t unit, Payload&& result, double seconds, int rank) {
  uint64_t nodes = 0;
  std::memcpy(&nodes, result.data(), std::min(result.size(), sizeof nodes));
  results_.record(unit, nodes, seconds, rank);
  return {1, nodes};
}

int SplitPerft::finish(const UnitRun& run, std::ostream& out, std::ostream& err) {
  UnitRunReport report;
  report.split_depth = plan_.split_depth, report.units = long(plan_.units.size());
  for (size_t i = 0; i < plan_.units.size(); ++i) {
    if (results_.run[i] == results_.this_run)
      report.nodes_counted += chess::u128(plan_.units[i].multiplicity()) * results_.nodes[i];
    else
      ++report.units_resumed;
  }
  return finish_run(run, report, out, err);
}

}  // namespace chesshpc
