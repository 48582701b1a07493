#include "jobs/bench/search_bench.h"

#include <chrono>
#include <cstdio>

#include "core/search.h"
#include "jobs/io/job_common.h"
#include "jobs/io/json.h"

namespace chesshpc {

const std::vector<std::string_view>& bench_positions() {
  // Openings, middle games with tactics, and endings of every kind; changing the list
  // changes the signature.
  static const std::vector<std::string_view> positions = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
      "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
      "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
      "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
      "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
      "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
      "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2PP1N2/PP3PPP/RNBQ1RK1 w - - 1 7",
      "r2q1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QK2R w KQ - 0 10",
      "2rq1rk1/pb2bppp/1pn1pn2/2pp4/3P4/1PN1PN2/PBQ1BPPP/R4RK1 w - - 0 12",
      "r1b2rk1/2q1bppp/p2ppn2/1p6/3BPP2/2N2B2/PPPQ2PP/R4R1K w - - 0 14",
      "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
      "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
      "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
      "r1bq1rk1/ppp1nppp/4n3/3p3Q/3P4/1BP1B3/PP1N2PP/R4RK1 w - - 1 16",
      "4r1k1/r1q2ppp/ppp2n2/4P3/5Rb1/1N1BQ3/PPP3PP/R5K1 w - - 1 17",
      "2rqkb1r/ppp2p2/2npb1p1/1N1Nn2p/2P1PP2/8/PP2B1PP/R1BQK2R b KQ - 0 11",
      "r1bq1r1k/b1p1npp1/p2p3p/1p6/3PP3/1B2NN2/PP3PPP/R2Q1RK1 w - - 1 16",
      "3r1rk1/p5pp/bpp1pp2/8/q1PP1P2/b3P3/P2NQRPP/1R2B1K1 b - - 6 22",
      "r1q2rk1/2p1bppp/2Pp4/p6b/Q1PNp3/4B3/PP1R1PPP/2K4R w - - 2 18",
      "4k2r/1pb2ppp/1p2p3/1R1p4/3P4/2r1PN2/P4PPP/1R4K1 b - - 3 22",
      "3q2k1/pb3p1p/4pbp1/2r5/PpN2N2/1P2P2P/5PP1/Q2R2K1 b - - 4 26",
      "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1",
      "3b4/5kp1/1p1p1p1p/pP1PpP1P/P1P1P3/3KN3/8/8 w - - 0 1",
      "2K5/p7/7P/5pR1/8/5k2/r7/8 w - - 0 1",
      "8/6pk/1p6/8/PP3p1p/5P2/4KP1q/3Q4 w - - 0 1",
      "7k/3p2pp/4q3/8/4Q3/5Kp1/P6b/8 w - - 0 1",
      "8/2p5/8/2kPKp1p/2p4P/2P5/3P4/8 w - - 0 1",
      "8/1p3pp1/7p/5P1P/2k3P1/8/2K2P2/8 w - - 0 1",
      "8/pp2r1k1/2p1p3/3pP2p/1P1P1P1P/P5KR/8/8 w - - 0 1",
      "8/3p4/p1bk3p/Pp6/1Kp1PpPp/2P2P1P/2P5/5B2 b - - 0 1",
      "5k2/7R/4P2p/5K2/p1r2P1p/8/8/8 b - - 0 1",
      "6k1/6p1/P6p/r1N5/5p2/7P/1b3PP1/4R1K1 w - - 0 1",
      "1r3k2/4q3/2Pp3b/3Bp3/2Q2p2/1p1P2P1/1P2KP2/3N4 w - - 0 1",
      "6k1/4pp1p/3p2p1/P1pPb3/R7/1r2P1PP/3B1P2/6K1 w - - 0 1",
      "8/3p3B/5p2/5P2/p7/PP5b/k7/6K1 w - - 0 1",
      "8/8/8/8/5kp1/P7/8/1K1N4 w - - 0 1",
      "8/8/8/5N2/8/p7/8/2NK3k w - - 0 1",
      "8/3k4/8/8/8/4B3/4KB2/2B5 w - - 0 1",
  };
  return positions;
}

SearchBenchResult bench_search(int depth, int hash_mb) {
  SearchBenchResult r;
  chess::Search search(size_t(hash_mb) << 20);
  chess::SearchLimits limits;
  limits.depth = depth;
  for (std::string_view fen : bench_positions()) {
    search.clear();
    chess::Position pos = chess::Position::from_fen(fen);
    // Only the searches are timed: clearing the table is not search speed.
    auto start = std::chrono::steady_clock::now();
    r.nodes += search.run(pos, {}, limits).nodes;
    r.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  return r;
}

int run_search_bench(const SearchBenchRequest& req, std::ostream& out) {
  int depth = req.depth ? req.depth : BENCH_DEPTH;
  SearchBenchResult r = bench_search(depth, req.hash_mb);
  double nps = r.seconds > 0 ? double(r.nodes) / r.seconds : 0;
  if (req.json) {
    JsonObject o;
    o.add("positions", int(bench_positions().size()))
        .add("depth", depth)
        .add("hash_mb", req.hash_mb)
        .add("nodes", (unsigned long long)r.nodes)
        .add("seconds", r.seconds)
        .add("nps", nps);
    out << o.str() << "\n";
  } else {
    char line[160];
    std::snprintf(line, sizeof line, "bench search: %zu positions, depth %d, hash %d MB\n", bench_positions().size(),
                  depth, req.hash_mb);
    out << line;
    std::snprintf(line, sizeof line, "nodes %llu in %.3f s, %.2f Mnps, 1 thread\n", (unsigned long long)r.nodes,
                  r.seconds, nps / 1e6);
    out << line;
  }
  return EXIT_OK;
}

}  // namespace chesshpc
