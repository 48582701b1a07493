// The rules command's result: how and when the game ended and the ply each rule's
// condition first held, as text or JSON.
#pragma once

#include <ostream>

#include "core/game.h"

namespace chesshpc {

// plies: the game's length, or the ply its termination came at.
void print_rules(const chess::Game& g, int plies, bool json, std::ostream& out);

}  // namespace chesshpc
