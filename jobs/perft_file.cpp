#include "perft_file.h"

#include "h5.h"
#include "uci.h"

namespace chesshpc {

namespace {

const char* README =
    "chesshpc perft: a perft run split into work units (the unique positions split_depth plies below the root).\n"
    "/units: one row per unit, biggest first: fen, multiplicity (paths from the root), nodes (perft of the unit "
    "at depth - split_depth), seconds, rank (that computed it).\n"
    "/divide: one row per root move: move (UCI), nodes (exact decimal text), nodes_hi, nodes_lo "
    "(nodes = hi * 2**64 + lo).\n"
    "/ranks: rank, busy_seconds, idle_seconds.\n"
    "Root attributes: the total as 'total' (decimal text) and total_hi, total_lo; Python: "
    "int(f.attrs['total']) or (int(f.attrs['total_hi']) << 64) | int(f.attrs['total_lo']).";

}  // namespace

void write_perft_file(const std::string& path, const PerftRequest& req, const PerftPlan& plan, const UnitResults& r,
                      const std::string& started, const std::string& command_line) {
  h5::File file(path);
  {
    h5::Handle g = h5::create_group(file.id(), "units");
    std::vector<std::string> fen;
    std::vector<uint64_t> multiplicity;
    for (const PerftUnit& u : plan.units) fen.push_back(u.pos.fen()), multiplicity.push_back(u.multiplicity());
    h5::write_column(g.id(), "fen", fen, "the unit's position");
    h5::write_column(g.id(), "multiplicity", multiplicity, "move paths from the root to the unit");
    h5::write_column(g.id(), "nodes", r.nodes, "perft of the unit at depth - split_depth");
    h5::write_column(g.id(), "seconds", r.seconds, "time to count the unit");
    h5::write_column(g.id(), "rank", std::vector<int32_t>(r.rank.begin(), r.rank.end()), "rank that counted it");
  }
  std::vector<chess::u128> divide = merge_divide(plan, r.nodes);
  chess::u128 total = 0;
  {
    h5::Handle g = h5::create_group(file.id(), "divide");
    std::vector<std::string> move, text;
    std::vector<uint64_t> hi, lo;
    for (size_t i = 0; i < divide.size(); ++i) {
      total += divide[i];
      move.push_back(chess::to_uci(plan.root_moves[i]));
      text.push_back(chess::to_string(divide[i]));
      hi.push_back(uint64_t(divide[i] >> 64)), lo.push_back(uint64_t(divide[i]));
    }
    h5::write_column(g.id(), "move", move, "root move (UCI)");
    h5::write_column(g.id(), "nodes", text, "paths through the move, exact decimal");
    h5::write_column(g.id(), "nodes_hi", hi, "high 64 bits of nodes");
    h5::write_column(g.id(), "nodes_lo", lo, "low 64 bits of nodes");
  }
  {
    h5::Handle g = h5::create_group(file.id(), "ranks");
    std::vector<int32_t> rank;
    for (size_t i = 0; i < r.busy.size(); ++i) rank.push_back(int32_t(i));
    h5::write_column(g.id(), "rank", rank, "MPI rank");
    h5::write_column(g.id(), "busy_seconds", r.busy, "time counting units");
    h5::write_column(g.id(), "idle_seconds", r.idle, "time waiting for work or results");
  }
  h5::Provenance p;
  p.command_line = command_line;
  p.started = started;
  p.finished = h5::utc_now();
  p.threads = req.threads > 0 ? req.threads : chess::perft::default_threads();
  p.ranks = req.ranks;
  p.readme = README;
  h5::write_provenance(file.id(), p);
  h5::set_attr(file.id(), "job", std::string("perft"));
  h5::set_attr(file.id(), "fen", plan.units.empty() ? req.fen : chess::Position::from_fen(req.fen).fen());
  h5::set_attr(file.id(), "depth", int64_t(plan.depth));
  h5::set_attr(file.id(), "split_depth", int64_t(plan.split_depth));
  h5::set_attr(file.id(), "units", int64_t(plan.units.size()));
  h5::set_attr(file.id(), "hash_bytes", uint64_t(req.hash_bytes));
  h5::set_attr(file.id(), "zobrist_seed", uint64_t(chess::zobrist::seed()));
  h5::set_attr(file.id(), "total", chess::to_string(total));
  h5::set_attr(file.id(), "total_hi", uint64_t(total >> 64));
  h5::set_attr(file.id(), "total_lo", uint64_t(total));
  file.commit();
}

}  // namespace chesshpc
