// Game records as bytes, for the trip from the rank that played them to rank 0.
#pragma once

#include <string>
#include <vector>

#include "jobs/selfplay/game.h"

namespace chesshpc {

// games: a unit's games, in order; stopped: why the unit stopped before its last game (a
// player that could not be started again), empty when it was played whole.
std::vector<char> encode_games(const std::vector<GameRecord>& games, const std::string& stopped = {});
// Throws std::runtime_error when the bytes are not what encode_games wrote.
std::vector<GameRecord> decode_games(const std::vector<char>& bytes, std::string* stopped = nullptr);

}  // namespace chesshpc
