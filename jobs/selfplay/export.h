// chesshpc export: a selfplay dataset as PGN, for any PGN reader.
#pragma once

#include <ostream>
#include <string>

namespace chesshpc {

// Writes every game of the selfplay file as PGN on out: the seven-tag roster, SetUp/FEN
// when the game does not start from the standard position, Termination (the PGN
// standard's word) and TerminationDetail (chesshpc's), PlyCount, Opening, and each
// searched move's score as a comment ({+0.35/12} in pawns from the mover's view, or
// {+M3/12} for a mate). Returns an ExitCode.
int export_pgn(const std::string& path, std::ostream& out, std::ostream& err);

}  // namespace chesshpc
