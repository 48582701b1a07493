// The selfplay dataset as columns: one row per game in /games, one row per position
// (before each move) in /positions, in game order. Rank 0 builds them from game records;
// the result file, its checkpoint segments and the PGN export read and write them.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.h"
#include "core/pack.h"
#include "jobs/io/h5.h"
#include "jobs/selfplay/game.h"

namespace chesshpc {

struct GameColumns {
  std::vector<uint64_t> game, seed;
  std::vector<int64_t> opening_id, start_number;
  std::vector<std::string> opening, white, black, white_settings, black_settings, result, termination, start_fen, moves;
  std::vector<std::string> variant;
  std::vector<int32_t> plies, book_plies, checks_white, checks_black;
  std::vector<std::array<int32_t, chess::RULE_NB>> first_fire;
  std::vector<bool> perpetual_check;
  size_t size() const { return game.size(); }
};

struct PositionColumns {
  std::vector<uint64_t> game;
  std::vector<int32_t> ply, mate_in, depth, halfmove;
  std::vector<std::string> fen, move, best;
  std::vector<uint8_t> packed;   // 32 bytes a position (core/pack.h)
  std::vector<double> score_cp;  // the mover's view; NaN without a centipawn score (book move, mate)
  std::vector<double> result;    // final result from the mover's view: 1, 0.5, 0; NaN if none
  std::vector<uint64_t> nodes;
  std::vector<int32_t> time_ms;  // the player's time on the move; 0 for a book move
  std::vector<bool> in_check, book;
  // Added for the trainers' filters: files written before them lack these columns, and
  // derive_filter_columns() fills them in from the others.
  std::vector<bool> is_capture;   // the move played or the best move captures or promotes
  std::vector<bool> gives_check;  // the move played gives check
  std::vector<int32_t> wdl;       // result as WDL_WIN, WDL_DRAW, WDL_LOSS or WDL_NONE
  size_t size() const { return game.size(); }
};

// /positions/score_cp's range besides NaN: a player's `score cp`, which UCI gives and
// selfplay keeps as an int (the built-in search's stay within +-31871). Export refuses a
// row outside it.
inline constexpr double SCORE_CP_MIN = -2147483648.0, SCORE_CP_MAX = 2147483647.0;

// The mover's game result as /positions/wdl holds it (the form trainers' files use).
enum Wdl : int32_t { WDL_LOSS = -1, WDL_DRAW = 0, WDL_WIN = 1, WDL_NONE = 2 };
Wdl wdl_of(double mover_result);
// A capture (en passant included) or a promotion: what the trainers' capture filter skips.
bool captures_or_promotes(const chess::Position& pos, chess::Move m);
// Fills is_capture, gives_check and wdl from packed, move, best and result when a file
// read back lacks them (written before they were added). Throws h5::Error on a move that
// is not legal in its position, naming its row: first_row plus its index in p.
void derive_filter_columns(PositionColumns& p, size_t first_row = 0);

struct SelfplayTables {
  GameColumns games;
  PositionColumns positions;

  void append(const GameRecord& g);
  void append(const SelfplayTables& other);
  // Stable order by game index (segments of a resumed batch arrive in any order).
  void sort_by_game();
  // Drops the games from index `end` on, with their positions (a decided SPRT's tail).
  void keep_games_before(uint64_t end);
  // Keeps the first row of every position (pieces, side, castling, en passant; clocks
  // aside) in game order, drops the rest. Returns the rows dropped.
  size_t dedup_positions();
};

// Writes /games, /positions and /drawstats (per-rule totals over the games) into file.
void write_selfplay_tables(const h5::Group& file, const SelfplayTables& t);
// Reads /games and /positions back. Throws h5::Error.
SelfplayTables read_selfplay_tables(const h5::Group& file);
// /positions alone, without the columns named in leave_out (they stay empty), the rows in
// range (every row by default): for a reader of millions of rows that needs a few columns,
// a batch at a time. Throws h5::Error.
PositionColumns read_selfplay_positions(const h5::Group& file, std::span<const std::string_view> leave_out,
                                        h5::RowRange rows = {});
// The rows of /positions. Throws h5::Error.
size_t selfplay_position_rows(const h5::Group& file);
// Those three tables' part of the file's README attribute.
std::string selfplay_tables_readme();

}  // namespace chesshpc
