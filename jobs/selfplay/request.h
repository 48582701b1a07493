// The selfplay job's request: what to play, how, and where the dataset goes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "jobs/io/options.h"
#include "jobs/rules/request.h"
#include "jobs/selfplay/game.h"
#include "jobs/selfplay/openings.h"
#include "jobs/selfplay/players.h"
#include "jobs/selfplay/sprt.h"

namespace chesshpc {

// A side: the built-in search (empty command) or an external UCI engine, with its limits.
struct PlayerSpec {
  std::string name;                                          // --engine name=...; empty: the player's own
  std::string command;                                       // e.g. "/usr/games/stockfish"; empty: built-in
  std::vector<std::pair<std::string, std::string>> options;  // UCI setoption name/value
  std::string dir;                                           // --engine dir=: where it runs; empty: here
  // This side's own limits when its --engine set them (own_limits); otherwise the batch's
  // (SelfplayRequest::limits_of, clock_of).
  MoveLimits limits;
  TimeControl clock;
  bool own_limits = false;
  std::string label() const { return command.empty() ? "chesshpc" : "uci:" + command; }
};

struct SelfplayRequest;
// "chesshpc nodes=1000 hash=2097152 temperature=1 sample_plies=8" or
// "uci:/usr/games/stockfish nodes=1000 Threads=1 Hash=16": the player and what it was asked.
std::string player_settings(const PlayerSpec& p, const SelfplayRequest& req);

// The most games in one batch. Rank 0 lists every unit and keeps every game until the
// dataset is written at the end, so a batch must fit one process's memory: 2^31 games
// took 16.8 GB for the list of units alone. Larger runs are several batches (other seeds).
constexpr uint64_t MAX_GAMES = 10'000'000;

// Node limits vary by up to 25% either way at every move (GameSpec::variation). The search
// stops at whole iterations, so smaller changes seldom change a move: at 300 nodes a
// move, +-5% a game left one pair in 16 the same game twice, +-25% a move one in 256.
constexpr double DEFAULT_VARIATION = 0.25;

struct SelfplayRequest : RulesetChoice, ResultFile, Reporting {
  uint64_t games = 0;
  uint64_t seed = 0;
  std::string book;  // EPD or PGN; empty: the start position
  // A hash of the book's bytes (read_book's digest), filled when the batch reads the book:
  // part of identity(), so that --resume refuses a book that changed since the parts.
  std::string book_digest;
  BookOrder book_order = BookOrder::SEQUENTIAL;
  int random_plies = 0;
  int book_start = 1;   // --book-start: the first line played, 1 for the book's first
  int book_plies = -1;  // --book-plies: each PGN line cut to this many plies; -1: whole
  Variant variant = Variant::STANDARD;
  Adjudication adjudication;
  TimeControl clock;  // the batch's limits: a player's unless its --engine set its own
  MoveLimits limits;
  PlayerSpec first, second;              // first has White in even games, Black in odd ones
  size_t hash_bytes = size_t(2) << 20;   // per built-in search: cleared every game, so small by default
  double temperature = 0;                // built-in: softmax sampling over root moves...
  int sample_plies = 0;                  // ...in the first this many plies of each side's own moves
  double variation = DEFAULT_VARIATION;  // GameSpec::variation (--variation; 0: off)
  // --timeout: an external engine's handshake deadline and its bestmove's margin (UciPlayer).
  // Not in identity(): it decides no game an engine answers in time.
  double engine_timeout = UCI_HANDSHAKE_SECONDS;
  std::optional<SprtSpec> sprt;  // --sprt: stop the batch once decided
  int games_per_unit = 0;        // 0: GAMES_PER_UNIT (jobs/selfplay/batch_job.h)
  int threads = 0;
  bool dedup = false;   // write each position once
  std::string pgn_out;  // --pgn-out: the games as PGN too (cluster/main writes it); not in identity()
  std::string command_line;

  // Everything that decides the games, as "key=value;..." in a fixed order: a resumed
  // batch must have the same.
  std::string identity() const;
  // A player's limits: its own, or the batch's.
  const MoveLimits& limits_of(const PlayerSpec& p) const { return p.own_limits ? p.limits : limits; }
  const TimeControl& clock_of(const PlayerSpec& p) const { return p.own_limits ? p.clock : clock; }
};

}  // namespace chesshpc
