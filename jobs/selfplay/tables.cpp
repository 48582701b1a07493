#include "jobs/selfplay/tables.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

#include "core/uci.h"
#include "jobs/io/h5.h"
#include "jobs/rules/rule_stats.h"

namespace chesshpc {

namespace {

double mover_result(chess::Result r, chess::Color mover) {
  if (r == chess::Result::DRAW) return 0.5;
  if (r == chess::Result::ONGOING) return std::nan("");
  return (r == chess::Result::WHITE_WINS) == (mover == chess::WHITE) ? 1.0 : 0.0;
}

template <typename T>
void permute(std::vector<T>& v, const std::vector<size_t>& order) {
  std::vector<T> out;
  out.reserve(order.size());
  for (size_t i : order) out.push_back(v[i]);
  v = std::move(out);
}

void permute_rows(std::vector<uint8_t>& flat, const std::vector<size_t>& order, size_t cols) {
  std::vector<uint8_t> out;
  out.reserve(order.size() * cols);
  for (size_t i : order) out.insert(out.end(), flat.begin() + long(i * cols), flat.begin() + long((i + 1) * cols));
  flat = std::move(out);
}

void keep_rows(GameColumns& g, const std::vector<size_t>& order) {
  permute(g.game, order), permute(g.opening_id, order), permute(g.opening, order), permute(g.white, order);
  permute(g.seed, order), permute(g.white_settings, order), permute(g.black_settings, order);
  permute(g.black, order), permute(g.result, order), permute(g.termination, order), permute(g.start_fen, order);
  permute(g.moves, order), permute(g.plies, order), permute(g.book_plies, order), permute(g.checks_white, order);
  permute(g.checks_black, order), permute(g.first_fire, order), permute(g.perpetual_check, order);
}

void keep_rows(PositionColumns& p, const std::vector<size_t>& order) {
  permute(p.game, order), permute(p.ply, order), permute(p.mate_in, order), permute(p.depth, order);
  permute(p.halfmove, order), permute(p.fen, order), permute(p.move, order), permute(p.best, order);
  permute_rows(p.packed, order, 32), permute(p.score_cp, order), permute(p.result, order), permute(p.nodes, order);
  permute(p.in_check, order), permute(p.book, order);
}

template <typename T>
void concat(std::vector<T>& a, const std::vector<T>& b) {
  a.insert(a.end(), b.begin(), b.end());
}

// Row order that sorts `keys` stably.
std::vector<size_t> stable_order(const std::vector<uint64_t>& keys) {
  std::vector<size_t> order(keys.size());
  std::iota(order.begin(), order.end(), size_t(0));
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return keys[a] < keys[b]; });
  return order;
}

}  // namespace

void SelfplayTables::append(const GameRecord& g) {
  GameColumns& c = games;
  c.game.push_back(g.index);
  c.opening_id.push_back(g.opening.id);
  c.opening.push_back(g.opening.text);
  c.white.push_back(g.white), c.black.push_back(g.black);
  c.white_settings.push_back(g.white_settings), c.black_settings.push_back(g.black_settings);
  c.seed.push_back(g.seed);
  c.result.emplace_back(chess::result_string(g.result));
  c.termination.push_back(g.termination);
  c.start_fen.push_back(g.opening.start.fen());
  std::string moves;
  int book = 0;
  for (const PlyRecord& p : g.plies) {
    if (!moves.empty()) moves += ' ';
    moves += chess::to_uci(p.move);
    book += p.book;
  }
  c.moves.push_back(moves);
  c.plies.push_back(int32_t(g.plies.size())), c.book_plies.push_back(book);
  c.checks_white.push_back(g.checks[0]), c.checks_black.push_back(g.checks[1]);
  c.first_fire.push_back(g.first_fire);
  c.perpetual_check.push_back(g.perpetual_check);

  PositionColumns& p = positions;
  chess::Position pos = g.opening.start;
  for (size_t ply = 0; ply < g.plies.size(); ++ply) {
    const PlyRecord& r = g.plies[ply];
    p.game.push_back(g.index);
    p.ply.push_back(int32_t(ply));
    p.fen.push_back(pos.fen());
    chess::PackedPosition packed = chess::pack(pos);
    p.packed.insert(p.packed.end(), packed.begin(), packed.end());
    p.move.push_back(chess::to_uci(r.move));
    p.best.push_back(r.book ? "" : chess::to_uci(r.best));
    p.score_cp.push_back(r.score_cp ? double(*r.score_cp) : std::nan(""));
    p.mate_in.push_back(r.mate_in.value_or(0));
    p.depth.push_back(r.depth), p.nodes.push_back(r.nodes);
    p.in_check.push_back(pos.checkers() != 0);
    p.book.push_back(r.book);
    p.halfmove.push_back(pos.rule50());
    p.result.push_back(mover_result(g.result, pos.side_to_move()));
    pos = pos.after(r.move);
  }
}

void SelfplayTables::append(const SelfplayTables& o) {
  GameColumns& g = games;
  const GameColumns& h = o.games;
  concat(g.game, h.game), concat(g.opening_id, h.opening_id), concat(g.opening, h.opening), concat(g.white, h.white);
  concat(g.seed, h.seed), concat(g.white_settings, h.white_settings), concat(g.black_settings, h.black_settings);
  concat(g.black, h.black), concat(g.result, h.result), concat(g.termination, h.termination);
  concat(g.start_fen, h.start_fen), concat(g.moves, h.moves), concat(g.plies, h.plies);
  concat(g.book_plies, h.book_plies), concat(g.checks_white, h.checks_white), concat(g.checks_black, h.checks_black);
  concat(g.first_fire, h.first_fire), concat(g.perpetual_check, h.perpetual_check);
  PositionColumns& p = positions;
  const PositionColumns& q = o.positions;
  concat(p.game, q.game), concat(p.ply, q.ply), concat(p.mate_in, q.mate_in), concat(p.depth, q.depth);
  concat(p.halfmove, q.halfmove), concat(p.fen, q.fen), concat(p.move, q.move), concat(p.best, q.best);
  concat(p.packed, q.packed), concat(p.score_cp, q.score_cp), concat(p.result, q.result), concat(p.nodes, q.nodes);
  concat(p.in_check, q.in_check), concat(p.book, q.book);
}

void SelfplayTables::sort_by_game() {
  keep_rows(games, stable_order(games.game));
  keep_rows(positions, stable_order(positions.game));
}

size_t SelfplayTables::dedup_positions() {
  std::set<std::array<uint8_t, 26>> seen;  // the packed bytes without the clocks
  std::vector<size_t> keep;
  for (size_t i = 0; i < positions.size(); ++i) {
    std::array<uint8_t, 26> key;
    std::copy_n(positions.packed.begin() + long(32 * i), 26, key.begin());
    if (seen.insert(key).second) keep.push_back(i);
  }
  size_t dropped = positions.size() - keep.size();
  keep_rows(positions, keep);
  return dropped;
}

void write_selfplay_tables(hid_t file, const SelfplayTables& t) {
  {
    const GameColumns& c = t.games;
    h5::Handle g = h5::create_group(file, "games");
    h5::write_column(g.id(), "game", c.game,
                     "game index in the batch: its opening and randomness derive from (seed, game)");
    h5::write_column(g.id(), "opening_id", c.opening_id, "book line (0-based), -1 without a book");
    h5::write_column(g.id(), "opening", c.opening, "the book line as the book gives it, and the random plies");
    h5::write_column(g.id(), "white", c.white, "White's player");
    h5::write_column(g.id(), "black", c.black, "Black's player");
    h5::write_column(g.id(), "white_settings", c.white_settings, "what the batch asked of White's player");
    h5::write_column(g.id(), "black_settings", c.black_settings, "what the batch asked of Black's player");
    h5::write_column(g.id(), "seed", c.seed, "the batch's seed; with game, it decides all of the game's randomness");
    h5::write_column(g.id(), "result", c.result, "1-0, 0-1, 1/2-1/2, or * (void or error)");
    h5::write_column(g.id(), "termination", c.termination, "rule or adjudication that ended the game");
    h5::write_column(g.id(), "start_fen", c.start_fen, "position before the first move (book moves included)");
    h5::write_column(g.id(), "moves", c.moves, "every move in UCI, space-separated, book moves first");
    h5::write_column(g.id(), "plies", c.plies, "moves played, book moves included");
    h5::write_column(g.id(), "book_plies", c.book_plies, "moves from the opening, not chosen by a player");
    h5::write_column(g.id(), "checks_white", c.checks_white, "checks given by White");
    h5::write_column(g.id(), "checks_black", c.checks_black, "checks given by Black");
    h5::write_bool_column(g.id(), "perpetual_check", c.perpetual_check, "a repetition reached by perpetual check");
    write_first_fire_columns(g.id(), c.first_fire);
  }
  {
    const PositionColumns& c = t.positions;
    h5::Handle g = h5::create_group(file, "positions");
    h5::write_column(g.id(), "game", c.game, "game index (joins /games/game)");
    h5::write_column(g.id(), "ply", c.ply, "moves before this position, from the game's start_fen");
    h5::write_column(g.id(), "fen", c.fen, "the position");
    h5::write_byte_rows(g.id(), "packed", c.packed, 32, "the position in 32 bytes; layout in the file's README");
    h5::write_column(g.id(), "move", c.move, "move played (UCI)");
    h5::write_column(g.id(), "best", c.best, "the search's best move (UCI); differs from move when sampled");
    h5::write_column(g.id(), "score_cp", c.score_cp, "search score in centipawns, mover's view; NaN if none");
    h5::write_column(g.id(), "mate_in", c.mate_in, "mate in N moves, mover's view (negative: mated); 0 if none");
    h5::write_column(g.id(), "depth", c.depth, "search depth reached");
    h5::write_column(g.id(), "nodes", c.nodes, "search nodes");
    h5::write_bool_column(g.id(), "in_check", c.in_check, "the mover is in check");
    h5::write_bool_column(g.id(), "book", c.book, "an opening move, not searched");
    h5::write_column(g.id(), "halfmove_clock", c.halfmove, "plies since the last capture or pawn move");
    h5::write_column(g.id(), "result", c.result, "game result for the mover: 1 win, 0.5 draw, 0 loss; NaN if none");
  }
  std::vector<int32_t> ended_by;
  for (const std::string& term : t.games.termination) {
    int32_t rule = -1;
    for (int r = 0; r < chess::RULE_NB; ++r)
      if (term == chess::rule_name(chess::Rule(r))) rule = r;
    ended_by.push_back(rule);
  }
  write_rule_summaries(file, "drawstats", summarise_rules(t.games.first_fire, ended_by));
}

SelfplayTables read_selfplay_tables(hid_t file) {
  SelfplayTables t;
  {
    GameColumns& c = t.games;
    h5::Handle g = h5::open_group(file, "games");
    h5::read_column(g.id(), "game", c.game);
    h5::read_column(g.id(), "opening", c.opening);
    h5::read_column(g.id(), "white", c.white), h5::read_column(g.id(), "black", c.black);
    h5::read_column(g.id(), "white_settings", c.white_settings);
    h5::read_column(g.id(), "black_settings", c.black_settings);
    h5::read_column(g.id(), "seed", c.seed);
    h5::read_column(g.id(), "result", c.result), h5::read_column(g.id(), "termination", c.termination);
    h5::read_column(g.id(), "start_fen", c.start_fen), h5::read_column(g.id(), "moves", c.moves);
    h5::read_column(g.id(), "plies", c.plies), h5::read_column(g.id(), "book_plies", c.book_plies);
    h5::read_column(g.id(), "checks_white", c.checks_white), h5::read_column(g.id(), "checks_black", c.checks_black);
    h5::read_bool_column(g.id(), "perpetual_check", c.perpetual_check);
    h5::read_column(g.id(), "opening_id", c.opening_id);
    c.first_fire.assign(c.game.size(), {});
    for (int r = 0; r < chess::RULE_NB; ++r) {
      std::vector<int32_t> fire;
      h5::read_column(g.id(), "first_fire_" + std::string(chess::rule_name(chess::Rule(r))), fire);
      for (size_t i = 0; i < fire.size() && i < c.first_fire.size(); ++i) c.first_fire[i][r] = fire[i];
    }
  }
  {
    PositionColumns& c = t.positions;
    h5::Handle g = h5::open_group(file, "positions");
    h5::read_column(g.id(), "game", c.game), h5::read_column(g.id(), "ply", c.ply);
    h5::read_column(g.id(), "fen", c.fen), h5::read_byte_rows(g.id(), "packed", c.packed, 32);
    h5::read_column(g.id(), "move", c.move), h5::read_column(g.id(), "best", c.best);
    h5::read_column(g.id(), "score_cp", c.score_cp), h5::read_column(g.id(), "mate_in", c.mate_in);
    h5::read_column(g.id(), "depth", c.depth), h5::read_column(g.id(), "nodes", c.nodes);
    h5::read_bool_column(g.id(), "in_check", c.in_check), h5::read_bool_column(g.id(), "book", c.book);
    h5::read_column(g.id(), "halfmove_clock", c.halfmove), h5::read_column(g.id(), "result", c.result);
  }
  return t;
}

}  // namespace chesshpc
