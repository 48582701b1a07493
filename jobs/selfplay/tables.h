// The selfplay dataset as columns: one row per game in /games, one row per position
// (before each move) in /positions, in game order. Rank 0 builds them from game records;
// the result file, its checkpoint segments and the PGN export read and write them.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/game.h"
#include "core/pack.h"
#include "core/uci.h"
#include "jobs/io/h5.h"
#include "jobs/io/h5_table.h"
#include "jobs/rules/rule_stats.h"
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
// The game's result from the mover's view, as /positions/result holds it: 1, 0.5, 0; NaN
// for an ongoing game.
double mover_result(chess::Result r, chess::Color mover);
// A capture (en passant included) or a promotion: what the trainers' capture filter skips.
bool captures_or_promotes(const chess::Position& pos, chess::Move m);
// Fills is_capture, gives_check and wdl from packed, move, best and result when a file
// read back lacks them (written before they were added). Throws h5::Error on a move that
// is not legal in its position, naming its row: first_row plus its index in p.
void derive_filter_columns(PositionColumns& p, size_t first_row = 0);

// The file's /games and /positions, each column's name, type, description and member
// declared once (jobs/io/h5_table.h): they write and read the tables and make the README,
// and a reader names a column through them (h5::name_of), never as a literal.
inline constexpr auto SELFPLAY_GAMES = h5::table(
    "games", "one row per game, by game index",
    {
        h5::column<&GameColumns::game>("game",
                                       "game index in the batch: its opening and randomness derive from (seed, game)"),
        h5::column<&GameColumns::opening_id>("opening_id", "book line (0-based), -1 without a book"),
        h5::column<&GameColumns::opening>("opening", "the book line as the book gives it, and the random plies"),
        h5::column<&GameColumns::white>("white", "White's player"),
        h5::column<&GameColumns::black>("black", "Black's player"),
        h5::column<&GameColumns::white_settings>("white_settings", "what the batch asked of White's player"),
        h5::column<&GameColumns::black_settings>("black_settings", "what the batch asked of Black's player"),
        h5::column<&GameColumns::seed>("seed", "the batch's seed; with game, it decides all of the game's randomness"),
        h5::column<&GameColumns::result>("result", "1-0, 0-1, 1/2-1/2, or * (void or error)"),
        h5::column<&GameColumns::termination>("termination", "rule or adjudication that ended the game"),
        h5::column<&GameColumns::variant>("variant",
                                          "standard, chess960 or dfrc (Double Fischer Random); in the last two "
                                          "castling moves are written king-takes-rook (e1h1)"),
        h5::column<&GameColumns::start_number>(
            "start_number",
            "chess960: the start position's number N (0-959, 518 classical); "
            "dfrc: W*960+B, white's back rank of number W, black's of B; -1 standard"),
        h5::column<&GameColumns::start_fen>("start_fen",
                                            "position before the first move (book moves included); X-FEN, read as "
                                            "Chess960 unless variant is standard"),
        h5::column<&GameColumns::moves>("moves",
                                        "every move in UCI (UCI_Chess960's in a variant), space-separated, book moves "
                                        "first"),
        h5::column<&GameColumns::plies>("plies", "moves played, book moves included"),
        h5::column<&GameColumns::book_plies>("book_plies", "moves from the opening, not chosen by a player"),
        h5::column<&GameColumns::checks_white>("checks_white", "checks given by White"),
        h5::column<&GameColumns::checks_black>("checks_black", "checks given by Black"),
        h5::column<&GameColumns::perpetual_check>("perpetual_check", "a repetition reached by perpetual check"),
        first_fire_column<&GameColumns::first_fire>(),
    });

inline constexpr auto SELFPLAY_POSITIONS = h5::table(
    "positions", "one row per position before a move, in game and ply order",
    {
        h5::column<&PositionColumns::game>("game", "game index (joins /games/game)"),
        h5::column<&PositionColumns::ply>("ply", "moves before this position, from the game's start_fen"),
        h5::fixed_width(h5::column<&PositionColumns::fen>("fen", "the position"), chess::FEN_MAX_BYTES),
        h5::byte_rows<&PositionColumns::packed, 32>("packed", "the position in 32 bytes; layout in the file's README"),
        h5::fixed_width(h5::column<&PositionColumns::move>("move", "move played (UCI)"), chess::UCI_MOVE_BYTES),
        h5::fixed_width(
            h5::column<&PositionColumns::best>("best", "the search's best move (UCI); differs from move when sampled"),
            chess::UCI_MOVE_BYTES),
        h5::column<&PositionColumns::score_cp>(
            "score_cp", "search score in centipawns, mover's view: a whole number from -2^31 to 2^31 - 1; NaN if none"),
        h5::column<&PositionColumns::mate_in>("mate_in", "mate in N moves, mover's view (negative: mated); 0 if none"),
        h5::column<&PositionColumns::depth>("depth", "search depth reached"),
        h5::column<&PositionColumns::nodes>("nodes", "search nodes"),
        h5::column<&PositionColumns::in_check>("in_check", "the mover is in check"),
        h5::column<&PositionColumns::book>("book", "an opening move, not searched"),
        h5::column<&PositionColumns::halfmove>("halfmove_clock", "plies since the last capture or pawn move"),
        h5::column<&PositionColumns::result>("result",
                                             "game result for the mover: 1 win, 0.5 draw, 0 loss; NaN if none"),
        h5::since_added(h5::column<&PositionColumns::time_ms>(
            "time_ms", "milliseconds the player took for the move (varies by run); 0 for a book move")),
        h5::since_added(h5::column<&PositionColumns::is_capture>(
            "is_capture", "the move played or the best move captures (en passant too) or promotes")),
        h5::since_added(h5::column<&PositionColumns::gives_check>("gives_check", "the move played gives check")),
        h5::since_added(h5::column<&PositionColumns::wdl>(
            "wdl", "result as trainers label it, mover's view: 1 win, 0 draw, -1 loss; 2 if none")),
    });

// Keeps the rows of p that `rows` names, in its order.
void keep_position_rows(PositionColumns& p, const std::vector<size_t>& rows);

// The game's row of /games.
void append_game(GameColumns& games, const GameRecord& g);

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

// The first and the second player's names as the games give them (the first player has
// White in even games); both empty without games.
std::pair<std::string, std::string> player_names(const GameColumns& g);

// Writes /games, /positions and /drawstats (per-rule totals over the games) into file.
void write_selfplay_tables(const h5::Group& file, const SelfplayTables& t);
// /games and /drawstats alone, for a file whose /positions is written otherwise (appended
// in batches: chesshpc convert's).
void write_game_tables(const h5::Group& file, const GameColumns& games);
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
