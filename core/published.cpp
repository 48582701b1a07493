#include "core/published.h"

namespace chess {

namespace {

constexpr uint64_t START[] = {
    20,          400,           8902,           197281,           4865609,           119060324,          3195901860,
    84998978956, 2439530234167, 69352859712417, 2097651003696806, 62854969236701747, 1981066775000396239};
constexpr uint64_t KIWIPETE[] = {48, 2039, 97862, 4085603, 193690690, 8031647685};
constexpr uint64_t POS3[] = {14, 191, 2812, 43238, 674624, 11030083, 178633661, 3009794393};
constexpr uint64_t POS4[] = {6, 264, 9467, 422333, 15833292, 706045033};
// Depth 6 as chessprogramming.org's Perft Results gives it; Stockfish's go perft and
// chesshpc count it too.
constexpr uint64_t POS5[] = {44, 1486, 62379, 2103487, 89941194, 3048196529};
constexpr uint64_t POS6[] = {46, 2079, 89890, 3894594, 164075551, 6923051137, 287188994746, 11923589843526};

// Chess960 start position 0 (data/chess960.epd to depth 5; depth 6 by Stockfish 15.1 with
// UCI_Chess960, and by chesshpc).
constexpr uint64_t CHESS960_0[] = {20, 400, 9006, 201143, 4975808, 121983565};

constexpr PublishedPosition POSITIONS[] = {
    {"start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", START},
    {"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", KIWIPETE},
    {"pos3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", POS3},
    {"pos4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", POS4},
    {"pos5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", POS5},
    {"pos6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", POS6},
};

// Beside the wiki's six, so that Chess960's perft speed is tracked next to standard chess's.
constexpr PublishedPosition OTHERS[] = {
    {"chess960", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1", CHESS960_0},
};

}  // namespace

std::span<const PublishedPosition> published_positions() { return POSITIONS; }

const PublishedPosition* find_published(std::string_view name) {
  for (const PublishedPosition& p : POSITIONS)
    if (p.name == name) return &p;
  for (const PublishedPosition& p : OTHERS)
    if (p.name == name) return &p;
  return nullptr;
}

std::optional<uint64_t> published_count(std::string_view name, int depth) {
  const PublishedPosition* p = find_published(name);
  if (!p || depth < 1 || size_t(depth) > p->counts.size()) return std::nullopt;
  return p->counts[size_t(depth) - 1];
}

}  // namespace chess
