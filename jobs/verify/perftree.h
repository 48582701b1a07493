// `chesshpc perftree DEPTH FEN [MOVES]`: the divide of FEN after MOVES as perftree reads
// it ("e2e4 20" lines, a blank line, the total).
#pragma once

#include <ostream>

#include "jobs/io/options.h"

namespace chesshpc {

// Throws UsageError for a DEPTH that is not 1 to 20 or missing arguments; a bad FEN or
// move is one line on err and EXIT_INPUT.
int run_perftree(const Options& opt, std::ostream& out, std::ostream& err);

}  // namespace chesshpc
