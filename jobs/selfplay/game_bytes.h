// Game records as bytes, for the trip from the rank that played them to rank 0.
#pragma once

#include <vector>

#include "jobs/selfplay/game.h"

namespace chesshpc {

std::vector<char> encode_games(const std::vector<GameRecord>& games);
// Throws std::runtime_error when the bytes are not what encode_games wrote.
std::vector<GameRecord> decode_games(const std::vector<char>& bytes);

}  // namespace chesshpc
