#include "jobs/verify/options.h"

#include <filesystem>
#include <sstream>

#include "core/pgn.h"
#include "core/quote.h"

namespace chesshpc {

namespace {

constexpr int MAX_VERIFY_DEPTH = 15;  // every subtree count of a game position fits in 64 bits

// Whether two paths name one file, whether it exists yet or not.
bool same_file(const std::string& a, const std::string& b) {
  std::error_code ea, eb;
  return std::filesystem::weakly_canonical(a, ea) == std::filesystem::weakly_canonical(b, eb) && !ea && !eb;
}

}  // namespace

const CommandOptions VERIFY_OPTIONS = command_options(
    "verify",
    {
        {"engine", "CMD", "the engine to check: a command line, split as a shell splits words (required)"},
        {"protocol", "uci|perftree",
         "uci: one process, 'position fen F moves ...' and 'go perft D' (Stockfish's divide); perftree: CMD "
         "DEPTH \"FEN\" \"MOVES\" run once per query (default: uci)"},
        {"fen", "FEN", "one position to check (with --depth)"},
        {"moves", "\"M1 M2 ...\"", "with --fen: moves played first (UCI or SAN), given to the engine as moves"},
        {"depth", "D", "plies to count, with --fen or --random"},
        {"epd", "FILE", "check every line of an EPD suite at its deepest ';Dn' (up to --max-depth)"},
        {"max-depth", "D", "with --epd: check no deeper than D"},
        {"random", "N", "check N seeded positions from random play biased to generator traps (with --seed, --depth)"},
        {"seed", "S", "with --random: the seed (default 1)"},
        {"chess960", "", "the engine plays Chess960 (UCI_Chess960; --fen read as Chess960, --random from 960 starts)"},
        {"threads", "N", "engine processes run at once, on each rank (default 1)"},
        {"timeout", "S",
         "seconds from a command to its answer (uciok, readyok, a query's total) before the engine is killed and "
         "restarted (default 60)"},
        {"save-epd", "FILE",
         "write the positions checked with chesshpc's counts as EPD, to repeat a run (checked as --out is: an "
         "existing FILE needs --force, an input never)"},
        out_option("write positions, depths, counts, engine time and every mismatch with its drill-down path to HDF5"),
        {"force", "", "overwrite the files --out and --save-epd name if they exist"},
        reporting_options("print the results as one JSON object"),
    },
    "usage: chesshpc verify --engine CMD [--protocol uci|perftree] --fen FEN [--moves \"...\"] --depth D "
    "[options]\n"
    "       chesshpc verify --engine CMD --epd FILE [--max-depth D] [options]\n"
    "       chesshpc verify --engine CMD --random N [--seed S] --depth D [options]\n");

const CommandOptions PERFTREE_OPTIONS = command_options(
    "perftree", {},
    "usage: chesshpc perftree DEPTH FEN [MOVES]\n"
    "prints the divide of FEN after MOVES (UCI, separated by spaces) as perftree reads it: 'move count' lines, a "
    "blank line, the total\n",
    3);

VerifyRequest verify_request(const Options& opt, const std::string& command_line) {
  VerifyRequest req;
  req.command_line = command_line;
  if (!opt.has("engine")) throw UsageError("verify needs --engine CMD");
  req.engine.command = opt.get("engine", "");
  const std::string protocol = opt.get("protocol", "uci");
  if (protocol != "uci" && protocol != "perftree")
    throw UsageError("--protocol is uci or perftree, not " + chess::quoted(protocol));
  req.engine.protocol = protocol == "uci" ? Protocol::UCI : Protocol::PERFTREE;
  req.engine.chess960 = opt.has("chess960");
  req.engine.timeout_seconds = opt.get_double("timeout", 60, 0.01, 1e6);
  const int sources = int(opt.has("fen")) + int(opt.has("epd")) + int(opt.has("random"));
  if (sources != 1) throw UsageError("verify checks one of --fen FEN, --epd FILE or --random N");
  if (opt.has("moves") && !opt.has("fen")) throw UsageError("--moves goes with --fen");
  if (opt.has("max-depth") && !opt.has("epd")) throw UsageError("--max-depth goes with --epd");
  if (opt.has("seed") && !opt.has("random")) throw UsageError("--seed goes with --random");
  if (opt.has("epd")) {
    if (opt.has("depth")) throw UsageError("--epd takes its depths from the file (limit them with --max-depth)");
    req.epd = opt.get("epd", "");
    req.max_depth = opt.get_int("max-depth", 0, 1, MAX_VERIFY_DEPTH);
  } else {
    if (!opt.has("depth")) throw UsageError("verify needs --depth D with --fen or --random");
    req.depth = opt.get_int("depth", 0, 1, MAX_VERIFY_DEPTH);
  }
  if (opt.has("fen")) {
    req.fen = opt.get("fen", "");
    req.moves = chess::move_list(opt.get("moves", ""));
  }
  if (opt.has("random")) {
    req.random = opt.get_u64("random", 0);
    if (req.random == 0 || req.random > 10'000'000) throw UsageError("--random takes 1 to 10000000 positions");
    req.seed = opt.get_u64("seed", 1);
  }
  req.threads = opt.get_int("threads", 1, 1, 1024);
  // --save-epd obeys --out's rules, before any work; --force may go with either.
  req.save_epd = opt.get("save-epd", "");
  if (!req.save_epd.empty()) check_output_path("save-epd", req.save_epd, opt);
  req.out = req.save_epd.empty() || opt.has("out") ? read_out(opt) : "";
  if (!req.out.empty() && !req.save_epd.empty() && same_file(req.out, req.save_epd))
    throw UsageError("--save-epd and --out name the same file '" + req.save_epd + "': give each its own");
  read_reporting(opt, req);
  return req;
}

}  // namespace chesshpc
