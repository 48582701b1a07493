// `chesshpc perftree DEPTH FEN [MOVES]`: chesshpc as the engine of perftree's script
// interface, so that perftree (and verify --protocol perftree) can use it as a reference.
#include "jobs/verify/perftree.h"

#include <sstream>

#include "core/quote.h"
#include "core/uci.h"
#include "jobs/io/job_common.h"
#include "jobs/uci/server.h"

namespace chesshpc {

int run_perftree(const Options& opt, std::ostream& out, std::ostream& err) {
  const std::vector<std::string>& args = opt.positional();
  if (args.size() < 2) throw UsageError("perftree needs DEPTH and FEN");
  int depth = 0;
  std::istringstream d(args[0]);
  if (!(d >> depth) || !d.eof() || depth < 1 || depth > 20)
    throw UsageError("DEPTH must be a whole number from 1 to 20, not " + chess::quoted(args[0]));
  std::optional<chess::Position> pos = read_position(args[1], "perftree", err);
  if (!pos) return EXIT_INPUT;
  std::istringstream moves(args.size() > 2 ? args[2] : "");
  for (std::string text; moves >> text;) {
    std::optional<chess::Move> m = chess::parse_uci(*pos, text);
    if (!m) {
      err << "chesshpc perftree: illegal move " << chess::quoted(text) << " in " << pos->fen() << "\n";
      return EXIT_INPUT;
    }
    pos->do_move(*m);
  }
  out << divide_text(*pos, depth, DivideFormat::PERFTREE) << std::flush;
  return EXIT_OK;
}

}  // namespace chesshpc
