// A selfplay dataset as PGN, for any PGN reader.
#pragma once

#include <ostream>
#include <string>

#include "jobs/selfplay/tables.h"

namespace chesshpc {

// What a PGN export reads of a selfplay file.
struct SelfplayFileData {
  SelfplayTables tables;
  std::string started, host;  // the file's root attributes
};

// Writes every game as PGN on out: the seven-tag roster, SetUp/FEN when the game does not
// start from the standard position, Termination (the PGN standard's word) and
// TerminationDetail (chesshpc's), PlyCount, Opening, TimeControl (BASE+INC in seconds, as
// cutechess writes it) for a batch with a clock, GameDuration (the players' time, h:mm:ss),
// and each searched move's comment as cutechess writes it, score/depth and time, then the
// nodes: {+0.35/12 0.120s 5000n} (pawns from the mover's view, 0.00 unsigned; +M5 for mate
// in 5 plies). Time is
// left out for files written before it was kept. Returns an ExitCode.
int write_pgn(const SelfplayFileData& data, std::ostream& out, std::ostream& err);

}  // namespace chesshpc
