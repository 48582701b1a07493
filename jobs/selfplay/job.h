// The selfplay job's request: what to play, how, and where the dataset goes.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "jobs/io/options.h"
#include "jobs/rules/job.h"
#include "jobs/selfplay/game.h"
#include "jobs/selfplay/openings.h"
#include "jobs/selfplay/players.h"

namespace chesshpc {

// A side: the built-in search (empty command) or an external UCI engine.
struct PlayerSpec {
  std::string command;                                       // e.g. "/usr/games/stockfish"; empty: built-in
  std::vector<std::pair<std::string, std::string>> options;  // UCI setoption name/value
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

struct SelfplayRequest : RulesetChoice, ResultFile, Reporting {
  uint64_t games = 0;
  uint64_t seed = 0;
  std::string book;  // EPD or PGN; empty: the start position
  // A hash of the book's bytes (read_book's digest), filled when the batch reads the book:
  // part of identity(), so that --resume refuses a book that changed since the parts.
  std::string book_digest;
  BookOrder book_order = BookOrder::SEQUENTIAL;
  int random_plies = 0;
  Variant variant = Variant::STANDARD;
  Adjudication adjudication;
  TimeControl clock;
  MoveLimits limits;
  PlayerSpec first, second;             // first has White in even games, Black in odd ones
  size_t hash_bytes = size_t(2) << 20;  // per built-in search: cleared every game, so small by default
  double temperature = 0;               // built-in: softmax sampling over root moves...
  int sample_plies = 0;                 // ...in the first this many plies of each side's own moves
  int games_per_unit = 0;               // 0: GAMES_PER_UNIT (jobs/selfplay/batch.h)
  int threads = 0;
  bool dedup = false;  // write each position once
  std::string command_line;

  // Everything that decides the games, as "key=value;..." in a fixed order: a resumed
  // batch must have the same.
  std::string identity() const;
};

}  // namespace chesshpc

namespace chesshpc {

// The player a spec names, with the request's limits. Throws UciError (or another
// std::exception) when it cannot start.
std::unique_ptr<Player> make_player(const PlayerSpec& spec, const SelfplayRequest& req);

}  // namespace chesshpc
