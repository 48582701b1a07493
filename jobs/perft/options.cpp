#include "jobs/perft/options.h"

#include <sstream>

#include "core/perft_table.h"
#include "core/pgn.h"
#include "core/quote.h"

namespace chesshpc {

const CommandOptions PERFT_OPTIONS = command_options(
    "perft",
    {
        {"fen", "FEN", "position to count from (default: startpos)"},
        {"fen-style", "xfen|shredder",
         "how FENs printed name castling rooks: X-FEN (KQkq, a file letter for an inner rook) or Shredder-FEN "
         "(file letters, HAha); default: as --fen wrote them"},
        {"moves", "\"M1 M2 ...\"", "moves played from --fen (UCI or SAN); perft counts from the position after them"},
        {"depth", "D", "plies to count (required unless --epd or --upto)"},
        {"upto", "D", "count and print every depth from 1 to D (instead of --depth)"},
        threads_option(),
        {"divide", "", "print each root move with its count"},
        {"detailed", "",
         "count captures, en passant, castles, promotions, checks, discovered and double checks, mates"},
        hash_option("transposition table for subtree counts, e.g. 512M or 8G; a bare number is MB; the table is "
                    "the size in whole 2 MB, less where the tree cannot fill it, and reported so (default: none; "
                    "not with --detailed)"),
        {"verify-keys", "", "use the second, independent Zobrist key set, to cross-check a hashed run"},
        {"split-depth", "K", "split into the unique positions K plies down and run them as units over MPI ranks"},
        {"dedup-ply", "L|auto",
         "deduplicate exactly at every ply from K to L (< D) over the ranks: each unique position is expanded "
         "once, on the rank its hash names, and each at ply L counted once (units: 16384 buckets; --split-depth K "
         "<= L, default min(L, 3)); auto: the deepest L <= D - 3 (D - 2 below depth 4) that --memory holds"},
        {"memory", "SIZE",
         "with --dedup-ply: memory per rank for positions and table together, e.g. 8G (a bare number is MB); a "
         "plan that does not fit "
         "is refused before any work (the table gets what the positions leave)"},
        out_option("write units, divide, exact total, per-rank load and provenance to HDF5 (the run is split into "
                   "units: --split-depth K, or the default for the threads and ranks); with --epd, every count "
                   "checked"),
        checkpoint_option(
            "rewrite the file with the units done so far this often (default: 5, longer if writing took over 2%)"),
        resume_option("continue the job recorded in FILE.h5, counting only the units it lacks"),
        force_option(),
        {"epd", "FILE", "check every ';Dn count' of every line of an EPD suite"},
        {"max-depth", "D", "with --epd: check depths up to D only"},
        reporting_options("print results as JSON (one object; with --epd one per count checked)"),
    },
    "usage: chesshpc perft [--fen FEN] --depth D [options]\n"
    "       chesshpc perft --epd FILE [--max-depth D] [--out FILE.h5 [--force]] [options]\n");

bool checks_epd_suite(const Options& opt) { return opt.has("epd"); }

namespace {

// An EPD suite: its file and how deep to check; no single position's options.
void read_epd_suite(const Options& opt, PerftRequest& req) {
  if (opt.has("fen") || opt.has("depth") || opt.has("moves") || opt.has("upto"))
    throw UsageError("--epd checks a suite; it takes no --fen, --moves, --depth or --upto");
  if (req.divide || req.detailed) throw UsageError("--epd takes no --divide or --detailed");
  // --out writes every count checked (jobs/perft/epd_file.h); the suite runs in one go, so
  // there is nothing to resume.
  if (opt.has("resume") || opt.has("checkpoint"))
    throw UsageError(std::string(opt.has("resume") ? "--resume" : "--checkpoint") +
                     " goes with a run split into units; --epd writes its --out once, at the end");
  req.out = read_out(opt);
  req.force = opt.has("force");
  req.epd = opt.get("epd", "");
  req.max_depth = opt.get_int("max-depth", req.max_depth, 1, chess::perft::MAX_DEPTH);
}

// One position, in one process or split into units.
void read_one_position(const Options& opt, PerftRequest& req) {
  if (opt.has("max-depth")) throw UsageError("--max-depth goes with --epd");
  if (opt.has("depth") && opt.has("upto")) throw UsageError("--upto D counts every depth to D; drop --depth");
  if (!opt.has("depth") && !opt.has("upto")) throw UsageError("perft needs --depth D (or --upto D, or --epd FILE)");
  req.upto = opt.has("upto");
  req.depth = opt.get_int(req.upto ? "upto" : "depth", 0, 1, chess::perft::MAX_DEPTH);
  req.moves = chess::move_list(opt.get("moves", ""));
  req.split_depth = opt.get_int("split-depth", 0, 1, chess::perft::MAX_DEPTH - 1);
  req.dedup_ply = opt.get("dedup-ply", "") == "auto" ? PerftRequest::DEDUP_PLY_AUTO
                                                     : opt.get_int("dedup-ply", 0, 1, chess::perft::MAX_DEPTH - 1);
  req.memory_bytes = read_size_option(opt, "memory", 0, "8G or 512M");
  if (req.memory_bytes && !req.dedup_ply) throw UsageError("--memory goes with --dedup-ply");
  if (req.dedup_ply == PerftRequest::DEDUP_PLY_AUTO && !req.memory_bytes)
    throw UsageError("--dedup-ply auto needs --memory SIZE");
  read_result_file(opt, req);
  if (req.detailed && req.split_depth) throw UsageError("--detailed runs in one process; drop --split-depth");
  if (req.detailed && req.dedup_ply) throw UsageError("--detailed runs in one process; drop --dedup-ply");
  if (req.detailed && req.hash_bytes) throw UsageError("--detailed counts without a table; drop --hash");
}

}  // namespace

PerftRequest perft_request(const Options& opt, const std::string& command_line) {
  PerftRequest req;
  req.fen = opt.get("fen", "startpos");
  const std::string style =
      opt.get("fen-style", chess::fen_style_of(req.fen) == chess::FenStyle::SHREDDER ? "shredder" : "xfen");
  if (style != "xfen" && style != "shredder")
    throw UsageError("--fen-style is xfen or shredder, not " + chess::quoted(style));
  req.fen_style = style == "xfen" ? chess::FenStyle::XFEN : chess::FenStyle::SHREDDER;
  req.threads = read_threads(opt);
  req.divide = opt.has("divide");
  req.detailed = opt.has("detailed");
  read_reporting(opt, req);
  // What the table allocates, so that what is printed and written is what was used.
  const size_t hash = read_hash_size(opt, 0, "512M or 8G");
  req.hash_bytes = hash ? chess::PerftTable::size_for(hash) : 0;
  req.verify_keys = opt.has("verify-keys");
  req.command_line = command_line;
  if (checks_epd_suite(opt))
    read_epd_suite(opt, req);
  else
    read_one_position(opt, req);
  return req;
}

std::string resume_command_line(const PerftRequest& req, int split_depth, int chosen_dedup_ply) {
  std::string line = req.command_line;
  if (!req.split_depth) line += " --split-depth " + std::to_string(split_depth);
  if (chosen_dedup_ply) line += " --dedup-ply " + std::to_string(chosen_dedup_ply);
  return line;
}

}  // namespace chesshpc
