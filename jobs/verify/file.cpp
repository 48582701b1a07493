#include "jobs/verify/file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "jobs/io/h5.h"
#include "jobs/io/h5_table.h"
#include "jobs/io/provenance.h"
#include "jobs/io/publish.h"
#include "jobs/verify/random_positions.h"

namespace chesshpc {

namespace {

std::string joined(const std::vector<std::string>& words) {
  std::string s;
  for (const std::string& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

std::string joined(const std::vector<ReportedMove>& moves) {
  std::string s;
  for (const ReportedMove& m : moves) s += (s.empty() ? "" : ", ") + m.uci + " " + m.san;
  return s;
}

struct PositionRow {
  std::string fen, moves, trap, fault;
  int32_t depth = 0, queries = 0;
  uint64_t nodes = 0, engine_nodes = 0;
  double engine_seconds = 0;
};

struct FaultRow {
  int64_t position = 0;
  std::string kind, fen, path, path_san, missing, illegal, duplicate, line;
  int32_t depth = 0;
};

constexpr auto POSITIONS = h5::table(
    "positions", "one row per position checked, in input order",
    {
        h5::column<&PositionRow::fen>("fen", "the root position as the engine was given it"),
        h5::column<&PositionRow::moves>("moves", "moves played from the root first, UCI, space-separated"),
        h5::column<&PositionRow::depth>("depth", "plies counted"),
        h5::column<&PositionRow::nodes>("nodes", "chesshpc's perft count"),
        h5::column<&PositionRow::engine_nodes>("engine_nodes", "the engine's total at the root; 0 when it gave none"),
        h5::column<&PositionRow::engine_seconds>("engine_seconds",
                                                 "the engine's wall time over this position's queries"),
        h5::column<&PositionRow::queries>("queries", "engine queries this position cost (at most depth)"),
        h5::column<&PositionRow::trap>("trap", "--random: the generator trap the position was drawn for; '' otherwise"),
        h5::column<&PositionRow::fault>("fault", "none, moves, count, total, inconsistent, crash, timeout or protocol"),
    });

constexpr auto FAULTS =
    h5::table("faults", "one row per position the engine got wrong, where the drill-down stopped",
              {
                  h5::column<&FaultRow::position>("position", "the row of /positions"),
                  h5::column<&FaultRow::kind>("kind", "moves, count, total, inconsistent, crash, timeout or protocol"),
                  h5::column<&FaultRow::fen>("fen", "the position where the fault shows"),
                  h5::column<&FaultRow::depth>("depth", "the depth asked there"),
                  h5::column<&FaultRow::path>("path", "the moves from the root to it, UCI, space-separated"),
                  h5::column<&FaultRow::path_san>("path_san", "the same moves in SAN, numbered"),
                  h5::column<&FaultRow::missing>("missing", "legal moves the engine lacks: 'uci san' comma-separated"),
                  h5::column<&FaultRow::illegal>("illegal", "moves the engine lists that are not legal there"),
                  h5::column<&FaultRow::duplicate>("duplicate", "legal moves the engine lists more than once"),
                  h5::column<&FaultRow::line>("line", "the report's line, as verify prints it"),
              });

struct Root {
  const VerifyRequest& req;
  int64_t positions, faults;
};

constexpr auto ROOT = std::to_array({
    h5::attr<Root>(h5::JOB, [](const Root&) { return "verify"; }),
    h5::attr<Root>("engine", "the engine's command line", [](const Root& s) { return s.req.engine.command; }),
    h5::attr<Root>("protocol", "uci or perftree",
                   [](const Root& s) { return s.req.engine.protocol == Protocol::UCI ? "uci" : "perftree"; }),
    h5::attr<Root>("positions", "positions checked: the rows of /positions", [](const Root& s) { return s.positions; }),
    h5::attr<Root>("faults", "positions the engine got wrong: the rows of /faults",
                   [](const Root& s) { return s.faults; }),
    h5::attr<Root>("seed", "--random's seed; 0 otherwise", [](const Root& s) { return int64_t(s.req.seed); }),
});

std::string readme() {
  return "chesshpc verify: an engine's perft divides checked against chesshpc's, with the drill-down to the first "
         "wrong move.\n" +
         h5::readme(POSITIONS) + h5::readme(FAULTS) + h5::readme("Root attributes", ROOT);
}

}  // namespace

std::string write_verify_file(const VerifyRequest& req, const std::vector<VerifyTask>& tasks,
                              const std::vector<CheckResult>& results, const std::string& started) {
  std::vector<PositionRow> positions;
  std::vector<FaultRow> faults;
  for (size_t i = 0; i < results.size(); ++i) {
    const CheckResult& r = results[i];
    positions.push_back({r.root_fen, joined(r.moves), tasks[i].trap >= 0 ? TRAPS[tasks[i].trap] : "",
                         fault_name(r.fault.kind), r.depth, r.queries, r.nodes, r.engine_nodes, r.engine_seconds});
    const Fault& f = r.fault;
    if (f.kind == FaultKind::NONE) continue;
    faults.push_back({int64_t(i), fault_name(f.kind), f.fen, joined(f.path), f.path_san, joined(f.missing),
                      joined(f.illegal), joined(f.duplicate), fault_line(r), f.depth});
  }
  return h5::write_error([&] {
    h5::File file(req.out);
    h5::write_table(file, POSITIONS, positions);
    h5::write_table(file, FAULTS, faults);
    h5::write_provenance(file, finished_provenance(req.command_line, started, req.threads, 1, readme()));
    h5::write_attrs(file, ROOT, Root{req, int64_t(positions.size()), int64_t(faults.size())});
    file.commit();
  });
}

std::string save_epd(const std::string& path, const std::vector<VerifyTask>& tasks,
                     const std::vector<CheckResult>& results) {
  PublishedFile epd(path);
  for (size_t i = 0; i < tasks.size(); ++i) {
    chess::Position pos = tasks[i].root;
    for (chess::Move m : tasks[i].moves) pos.do_move(m);
    epd.stream() << pos.fen() << " ;D" << tasks[i].depth << " " << results[i].nodes << "\n";
  }
  return epd.commit();
}

}  // namespace chesshpc
