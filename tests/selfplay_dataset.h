// A small selfplay dataset for the tests of what reads one (export, convert): sixteen games
// of the built-in search at 300 nodes a move after 4 random plies, to 160 plies at most:
// book moves, captures, checks, mates and both results, in about a second.
#pragma once

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "jobs/selfplay/file.h"
#include "jobs/selfplay/game.h"
#include "jobs/selfplay/search_player.h"

namespace chesshpc {

inline std::string make_dataset(const std::string& name, Variant variant = Variant::STANDARD) {
  const std::string path = testing::TempDir() + name;
  std::filesystem::remove(path);
  GameSpec spec;
  spec.seed = 5;
  spec.openings.variant = variant;
  spec.openings.seed = 5;
  spec.openings.random_plies = 4;
  spec.adjudication.max_plies = 160;
  SearchPlayer a(MoveLimits{300, 0, 0}, 1 << 20, 0, 0), b(MoveLimits{300, 0, 0}, 1 << 20, 0, 0);
  SelfplayTables t;
  for (uint64_t i = 0; i < 16; ++i) t.append(play_game(spec, i, a, b));
  SelfplayRequest req;
  SelfplayStore(path, req).finish(t, "2026-01-01T00:00:00Z", 1, 1);
  return path;
}

}  // namespace chesshpc
