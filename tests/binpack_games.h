// Seeded games as binpack entries, for the binpack tests (test_binpack) and the sample
// writer and measurement (binpack_sample): two kinds of game.
//   varied: random moves that take a castling, an en-passant capture, a promotion or a
//     pawn's double step an enemy pawn may take en passant whenever one is legal, three
//     times in four; scores anywhere in int16 (extremes included); some entries dropped,
//     some with a move other than the one played (a best move), and the last position of
//     a finished game with no move: every way a chain breaks.
//   realistic: each move the best by the static evaluation one ply down, or a random one
//     a fifth of the time; every position an entry, scored by the static evaluation from
//     the mover's view, with the result of the game: a trainer's data, one chain a game.
#pragma once

#include <algorithm>
#include <vector>

#include "core/eval.h"
#include "core/movegen.h"
#include "core/random.h"
#include "jobs/export/binpack.h"

namespace binpack_games {

enum class Kind { VARIED, REALISTIC };

// A castling, an en-passant capture, a promotion, or a pawn's double step past an enemy
// pawn's capture (which gives the next move an en-passant capture).
inline bool is_special(const chess::Position& pos, chess::Move m) {
  using namespace chess;
  const Color us = pos.side_to_move();
  const Square passed = Square((m.from() + m.to()) / 2);
  return m.kind() != NORMAL || (type_of(pos.piece_on(m.from())) == PAWN && (m.to() ^ m.from()) == 16 &&
                                (PAWN_ATTACKS[us][passed] & pos.pieces(~us, PAWN)));
}

inline chess::Move choose_move(const chess::MoveList& moves, const chess::Position& pos, Kind kind,
                               chess::Random& rng) {
  if (kind == Kind::VARIED) {
    std::vector<chess::Move> special;
    for (chess::Move m : moves)
      if (is_special(pos, m)) special.push_back(m);
    if (!special.empty() && rng.below(4)) return special[rng.below(special.size())];
    return moves[rng.below(moves.size())];
  }
  if (rng.below(5) == 0) return moves[rng.below(moves.size())];
  chess::Move best = moves[0];
  int best_score = -1000000;
  for (chess::Move m : moves) {
    const int score = -chess::evaluate(pos.after(m));
    if (score > best_score) best = m, best_score = score;
  }
  return best;
}

inline int16_t random_score(int16_t previous, chess::Random& rng) {
  switch (rng.below(8)) {
    case 0: return int16_t(int(rng.below(65536)) - 32768);
    case 1: return rng.below(2) ? int16_t(32767) : int16_t(-32768);
    default: return int16_t(std::clamp(-previous + int(rng.below(201)) - 100, -32768, 32767));
  }
}

// One game of at most max_plies from the start position, as entries.
inline std::vector<chesshpc::binpack::Entry> game(Kind kind, int max_plies, chess::Random& rng) {
  using chesshpc::binpack::Entry;
  std::vector<Entry> entries;
  chess::Position pos = chess::Position::start();
  const int white_result = int(rng.below(3)) - 1;
  int16_t score = 0;
  bool finished = false;
  int ply = 0;
  for (; ply < max_plies; ++ply) {
    const chess::MoveList moves = chess::legal_moves(pos);
    finished = moves.empty();
    if (finished) break;
    const chess::Move played = choose_move(moves, pos, kind, rng);
    Entry e{pos, played, 0, uint16_t(ply), int16_t(pos.side_to_move() == chess::WHITE ? white_result : -white_result)};
    if (kind == Kind::REALISTIC) {
      e.score = int16_t(std::clamp(chess::evaluate(pos), -32000, 32000));
      entries.push_back(e);
    } else {
      score = e.score = random_score(score, rng);
      if (rng.below(20) == 0) e.move = moves[rng.below(moves.size())];
      if (rng.below(20) != 0) entries.push_back(e);
    }
    pos = pos.after(played);
  }
  if (finished && kind == Kind::VARIED)
    entries.push_back(Entry{pos, chess::Move::none(), int16_t(rng.below(100)), uint16_t(ply), 0});
  return entries;
}

// games games of the kind from one seed, one after the other.
inline std::vector<chesshpc::binpack::Entry> games(Kind kind, int games, int max_plies, uint64_t seed) {
  chess::Random rng(seed);
  std::vector<chesshpc::binpack::Entry> all;
  for (int g = 0; g < games; ++g) {
    std::vector<chesshpc::binpack::Entry> one = game(kind, max_plies, rng);
    all.insert(all.end(), one.begin(), one.end());
  }
  return all;
}

}  // namespace binpack_games
