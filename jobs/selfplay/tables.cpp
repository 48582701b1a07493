#include "jobs/selfplay/tables.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <set>
#include <tuple>

#include "core/uci.h"
#include "jobs/rules/rule_stats.h"

namespace chesshpc {

namespace {

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
  permute(g.variant, order), permute(g.start_number, order);
}

// Every column of PositionColumns, with its values a row (the packed bytes 32): the one
// list for what treats each column alike.
constexpr auto POSITION_COLUMNS = std::make_tuple(
    &PositionColumns::game, &PositionColumns::ply, &PositionColumns::mate_in, &PositionColumns::depth,
    &PositionColumns::halfmove, &PositionColumns::fen, &PositionColumns::move, &PositionColumns::best,
    &PositionColumns::packed, &PositionColumns::score_cp, &PositionColumns::result, &PositionColumns::nodes,
    &PositionColumns::in_check, &PositionColumns::book, &PositionColumns::time_ms, &PositionColumns::is_capture,
    &PositionColumns::gives_check, &PositionColumns::wdl);

template <class T>
constexpr size_t values_a_row(std::vector<T> PositionColumns::*) {
  return std::is_same_v<T, uint8_t> ? 32 : 1;
}

template <class F>
void for_each_position_column(F&& f) {
  std::apply([&](auto... column) { (f(column, values_a_row(column)), ...); }, POSITION_COLUMNS);
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

constexpr auto DRAWSTATS = rule_summary_table("drawstats", "one row per rule of both rulesets, over the games");

}  // namespace

void keep_position_rows(PositionColumns& p, const std::vector<size_t>& order) {
  for_each_position_column([&](auto column, size_t width) {
    if constexpr (std::is_same_v<decltype(column), std::vector<uint8_t> PositionColumns::*>)
      permute_rows(p.*column, order, width);
    else
      permute(p.*column, order);
  });
}

double mover_result(chess::Result r, chess::Color mover) {
  if (r == chess::Result::DRAW) return 0.5;
  if (r == chess::Result::ONGOING) return std::nan("");
  return (r == chess::Result::WHITE_WINS) == (mover == chess::WHITE) ? 1.0 : 0.0;
}

Wdl wdl_of(double mover_result) {
  if (std::isnan(mover_result)) return WDL_NONE;
  return mover_result == 1 ? WDL_WIN : mover_result == 0 ? WDL_LOSS : WDL_DRAW;
}

bool captures_or_promotes(const chess::Position& pos, chess::Move m) {
  if (m.kind() == chess::PROMOTION || m.kind() == chess::EN_PASSANT) return true;
  // Castling is the king taking its own rook: not a capture.
  return m.kind() == chess::NORMAL && (pos.pieces(~pos.side_to_move()) & (chess::Bitboard(1) << m.to()));
}

void derive_filter_columns(PositionColumns& p, size_t first_row) {
  const size_t n = p.size();
  if (p.is_capture.size() == n && p.gives_check.size() == n && p.wdl.size() == n) return;
  p.is_capture.assign(n, false), p.gives_check.assign(n, false), p.wdl.assign(n, WDL_NONE);
  for (size_t i = 0; i < n; ++i) {
    chess::PackedPosition packed;
    std::copy_n(p.packed.begin() + long(32 * i), 32, packed.begin());
    const chess::Position pos = chess::unpack(packed);
    const std::optional<chess::Move> move = chess::parse_uci(pos, p.move[i]);
    const std::optional<chess::Move> best = p.best[i].empty() ? move : chess::parse_uci(pos, p.best[i]);
    if (!move || !best)
      throw h5::Error("/positions row " + std::to_string(first_row + i) + ": the move " + p.move[i] + " or " +
                      p.best[i] + " is not legal in its position");
    p.is_capture[i] = captures_or_promotes(pos, *move) || captures_or_promotes(pos, *best);
    p.gives_check[i] = pos.gives_check(*move);
    p.wdl[i] = wdl_of(p.result[i]);
  }
}

void append_game(GameColumns& c, const GameRecord& g) {
  c.game.push_back(g.index);
  c.opening_id.push_back(g.opening.id);
  c.opening.push_back(g.opening.text);
  c.white.push_back(g.white), c.black.push_back(g.black);
  c.white_settings.push_back(g.white_settings), c.black_settings.push_back(g.black_settings);
  c.seed.push_back(g.seed);
  c.result.emplace_back(chess::result_string(g.result));
  c.termination.push_back(g.termination);
  c.start_fen.push_back(g.opening.start.fen());
  c.variant.emplace_back(variant_name(g.opening.variant));
  c.start_number.push_back(g.opening.start_number);
  const bool chess960 = g.opening.start.is_chess960();
  std::string moves;
  moves.reserve((chess::UCI_MOVE_BYTES + 1) * g.plies.size());
  char uci[chess::UCI_MOVE_BYTES];
  int book = 0;
  for (const PlyRecord& p : g.plies) {
    if (!moves.empty()) moves += ' ';
    moves.append(uci, chess::write_uci(p.move, chess960, uci));
    book += p.book;
  }
  c.moves.push_back(std::move(moves));
  c.plies.push_back(int32_t(g.plies.size())), c.book_plies.push_back(book);
  c.checks_white.push_back(g.checks[0]), c.checks_black.push_back(g.checks[1]);
  c.first_fire.push_back(g.first_fire);
  c.perpetual_check.push_back(g.perpetual_check);
}

void SelfplayTables::append(const GameRecord& g) {
  append_game(games, g);
  const bool chess960 = g.opening.start.is_chess960();
  PositionColumns& p = positions;
  // Room for the game's rows at once, still doubling: a table of one game grows once.
  for_each_position_column([&](auto column, size_t width) {
    auto& v = p.*column;
    if (const size_t need = v.size() + width * g.plies.size(); need > v.capacity())
      v.reserve(std::max(need, 2 * v.capacity()));
  });
  chess::Position pos = g.opening.start;
  for (size_t ply = 0; ply < g.plies.size(); ++ply) {
    const PlyRecord& r = g.plies[ply];
    p.game.push_back(g.index);
    p.ply.push_back(int32_t(ply));
    p.fen.push_back(pos.fen());
    chess::PackedPosition packed = chess::pack(pos);
    p.packed.insert(p.packed.end(), packed.begin(), packed.end());
    p.move.push_back(chess::to_uci(r.move, chess960));
    p.best.push_back(r.book ? "" : chess::to_uci(r.best, chess960));
    p.score_cp.push_back(r.score_cp ? double(*r.score_cp) : std::nan(""));
    p.mate_in.push_back(r.mate_in.value_or(0));
    p.depth.push_back(r.depth), p.nodes.push_back(r.nodes), p.time_ms.push_back(r.time_ms);
    p.in_check.push_back(pos.checkers() != 0);
    p.book.push_back(r.book);
    p.halfmove.push_back(pos.rule50());
    p.result.push_back(mover_result(g.result, pos.side_to_move()));
    p.is_capture.push_back(captures_or_promotes(pos, r.move) || (!r.book && captures_or_promotes(pos, r.best)));
    p.gives_check.push_back(pos.gives_check(r.move));
    p.wdl.push_back(wdl_of(p.result.back()));
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
  concat(g.variant, h.variant), concat(g.start_number, h.start_number);
  for_each_position_column([&](auto column, size_t) { concat(positions.*column, o.positions.*column); });
}

void SelfplayTables::sort_by_game() {
  keep_rows(games, stable_order(games.game));
  keep_position_rows(positions, stable_order(positions.game));
}

void SelfplayTables::keep_games_before(uint64_t end) {
  auto below = [end](const std::vector<uint64_t>& game) {
    std::vector<size_t> rows;
    for (size_t i = 0; i < game.size(); ++i)
      if (game[i] < end) rows.push_back(i);
    return rows;
  };
  keep_rows(games, below(games.game));
  keep_position_rows(positions, below(positions.game));
}

size_t SelfplayTables::dedup_positions() {
  std::set<std::array<uint8_t, 28>> seen;  // the packed bytes without the clocks
  std::vector<size_t> keep;
  for (size_t i = 0; i < positions.size(); ++i) {
    std::array<uint8_t, 28> key;
    std::copy_n(positions.packed.begin() + long(32 * i), 26, key.begin());
    std::copy_n(positions.packed.begin() + long(32 * i + 30), 2, key.begin() + 26);  // Chess960's rook files
    if (seen.insert(key).second) keep.push_back(i);
  }
  size_t dropped = positions.size() - keep.size();
  keep_position_rows(positions, keep);
  return dropped;
}

void write_selfplay_tables(const h5::Group& file, const SelfplayTables& t) {
  h5::write_table(file, SELFPLAY_POSITIONS, t.positions);
  write_game_tables(file, t.games);
}

void write_game_tables(const h5::Group& file, const GameColumns& games) {
  h5::write_table(file, SELFPLAY_GAMES, games);
  std::vector<int32_t> ended_by;
  for (const std::string& term : games.termination) {
    std::optional<chess::Rule> rule = chess::rule_from_name(term);
    ended_by.push_back(rule ? int32_t(*rule) : -1);
  }
  h5::write_table(file, DRAWSTATS, summarise_rules(games.first_fire, ended_by));
}

SelfplayTables read_selfplay_tables(const h5::Group& file) {
  SelfplayTables t;
  h5::read_table(file, SELFPLAY_GAMES, t.games);
  h5::read_table(file, SELFPLAY_POSITIONS, t.positions);
  return t;
}

PositionColumns read_selfplay_positions(const h5::Group& file, std::span<const std::string_view> leave_out,
                                        h5::RowRange rows) {
  PositionColumns p;
  h5::read_table(file, SELFPLAY_POSITIONS, p, leave_out, rows);
  return p;
}

size_t selfplay_position_rows(const h5::Group& file) {
  return h5::rows_of(h5::open_group(file, SELFPLAY_POSITIONS.group),
                     std::string(h5::name_of<&PositionColumns::game>(SELFPLAY_POSITIONS)));
}

std::string selfplay_tables_readme() {
  return h5::readme(SELFPLAY_GAMES) + h5::readme(SELFPLAY_POSITIONS) + h5::readme(DRAWSTATS);
}

std::pair<std::string, std::string> player_names(const GameColumns& g) {
  if (g.size() == 0) return {};
  const bool even = g.game[0] % 2 == 0;
  return even ? std::pair(g.white[0], g.black[0]) : std::pair(g.black[0], g.white[0]);
}

}  // namespace chesshpc
