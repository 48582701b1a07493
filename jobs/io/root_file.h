// An input file that a job made of units needs on every rank (verify's EPD suite,
// selfplay's book), read by rank 0 alone and sent to every rank: on separate machines the
// path only has to exist on rank 0's node, as the result file does.
#pragma once

#include <string>

#include "jobs/io/exchange.h"

namespace chesshpc {

struct RootFile {
  std::string bytes;
  std::string why;  // rank 0's reason it could not read the file (unreadable_input's), or ""
};

// Collective over ex (every rank, in the same order); ex null: this process alone reads.
// The same answer on every rank.
RootFile read_on_root(Exchange* ex, const std::string& path);

}  // namespace chesshpc
