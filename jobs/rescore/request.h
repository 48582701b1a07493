// `chesshpc rescore`: which positions, searched by which player, into which file.
#pragma once

#include <cstdint>
#include <string>

#include "jobs/io/options.h"
#include "jobs/selfplay/request.h"

namespace chesshpc {

// Positions a unit searches, one engine after the other on one thread: small enough that
// a kill loses little and the farm balances ranks, big enough that the payloads are few.
constexpr int POSITIONS_PER_UNIT = 16;

struct RescoreRequest : ResultFile, Reporting {
  std::string in;  // a selfplay (or positions) HDF5 file, or an EPD file
  // The player and its limits as selfplay takes them (jobs/selfplay/players.h's
  // make_player reads them): play.first is the player, play.limits its depth or nodes
  // unless its --engine set them, play.hash_bytes the built-in search's table.
  SelfplayRequest play;
  int threads = 0;  // engines per rank, each one thread
  int positions_per_unit = POSITIONS_PER_UNIT;
  std::string command_line;

  // The player's settings ("uci:/usr/games/stockfish depth=8 Hash=16").
  std::string player() const { return player_settings(play.first, play); }
  // What decides the output but the input's bytes, "key=value;...": a resumed run must
  // have the same.
  std::string identity() const;
};

}  // namespace chesshpc
