// Writes a PGN corpus of seeded random games, for drawstats benchmarks and tests:
//   make_pgn_corpus GAMES SEED > corpus.pgn
// Game i depends only on (SEED, i). Moves are chosen uniformly among the legal ones, with a
// bias towards captures so that games end by mate or material as well as by the clock
// rules; a game ends when FIDE's automatic rules end it (claims are never made) or after
// 400 plies, and its Result tag says how.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>

#include "core/game.h"
#include "core/movegen.h"
#include "core/pgn.h"

using namespace chess;

namespace {

Move pick(const Position& pos, std::mt19937_64& rng) {
  MoveList moves = legal_moves(pos);
  std::vector<Move> captures;
  for (Move m : moves)
    if (pos.pieces(~pos.side_to_move()) & square_bb(m.to())) captures.push_back(m);
  if (!captures.empty() && rng() % 2) return captures[rng() % captures.size()];
  return moves[rng() % moves.size()];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: make_pgn_corpus GAMES SEED > corpus.pgn\n");
    return 2;
  }
  long games = std::atol(argv[1]);
  unsigned long long seed = std::strtoull(argv[2], nullptr, 10);
  for (long i = 0; i < games; ++i) {
    std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ULL + uint64_t(i));
    Game game(Position::start(), Ruleset::FIDE, ClaimPolicy::NEVER);
    while (!game.over() && game.ply() < 400) game.play(pick(game.position(), rng));
    PgnGame pgn;
    pgn.tags = {{"Event", "chesshpc random corpus"},
                {"Site", "?"},
                {"Date", "????.??.??"},
                {"Round", std::to_string(i + 1)},
                {"White", "random"},
                {"Black", "random"},
                {"Result", std::string(result_string(game.result()))}};
    pgn.start = Position::start();
    pgn.moves = game.moves();
    pgn.result = std::string(result_string(game.result()));
    std::cout << write_pgn(pgn);
  }
  return 0;
}
