#include "jobs/rescore/options.h"

#include "core/search_tt.h"
#include "jobs/dataset/records.h"
#include "jobs/rescore/file.h"
#include "jobs/selfplay/options.h"

namespace chesshpc {

const CommandOptions RESCORE_OPTIONS = command_options(
    "rescore",
    {
        OptionSpec{"engine", "K=V...",
                   "the player, as selfplay's --engine names it: cmd=chesshpc|uci:COMMAND, depth=D or nodes=N, "
                   "option.NAME=VALUE (setoption) (default: cmd=chesshpc)",
                   true},
        {"depth", "D", "search depth per position (unless --engine gives depth= or nodes=)"},
        {"nodes", "N", "search nodes per position (unless --engine gives depth= or nodes=)"},
        hash_option("chesshpc: transposition table per engine, cleared before every position; a bare number is MB "
                    "(default: 16M)"),
        {"timeout", "S", "seconds an external engine has for uciok, readyok and beyond a search (default: 10)"},
        {"positions-per-unit", "N", "positions in one unit of the task farm (default: 16)"},
        threads_option("engines searching at once on each rank, each on one thread"),
        out_option("the positions rescored: records of the format its name ends in (.plain, .bin, .binpack, .bullet, "
                   ".txt, .epd; then .gz or .zst: compressed), or a selfplay HDF5 file (.h5, or any other name) "
                   "(required)"),
        resume_option("continue the run recorded in FILE.h5.checkpoint"),
        force_option(),
        checkpoint_option("save the positions searched this often (default: 5, longer if saving took over 2%)"),
        reporting_options("print the summary as one JSON object"),
    },
    "usage: chesshpc rescore IN --out OUT (--depth D | --nodes N | --engine cmd=... depth=D) [options]\n"
    "IN: a selfplay HDF5 file or records of .plain, .bin, .binpack, .bullet, .txt (bullet-text) or .epd\n",
    1);

RescoreRequest rescore_request(const Options& opt, const std::string& command_line) {
  RescoreRequest req;
  if (opt.positional().empty()) throw UsageError("rescore needs the input file: chesshpc rescore IN --out OUT");
  req.in = opt.positional()[0];
  SelfplayRequest& play = req.play;
  std::vector<std::vector<std::string>> engines = opt.lists("engine");
  if (engines.size() > 1) throw UsageError("rescore takes one --engine");
  if (!engines.empty()) play.first = read_engine(opt, engines[0]);
  if (play.first.own_limits) {
    if (opt.has("depth") || opt.has("nodes"))
      throw UsageError("--engine gives the limit: leave out --depth and --nodes");
    play.limits = play.first.limits, play.first.own_limits = false;
  } else {
    play.limits.depth = opt.get_int("depth", 0, 1, 100);
    play.limits.nodes = opt.get_int("nodes", 0, 1, 2000000000);
  }
  // Fixed limits only: the same scores on any rank and thread count, and after a resume.
  if (play.limits.movetime_ms || play.first.clock.on() || (play.limits.depth > 0) == (play.limits.nodes > 0))
    throw UsageError("rescore needs one of --depth and --nodes (or depth= or nodes= in --engine): a fixed limit");
  play.variation = 0;
  play.hash_bytes = chess::SearchTT::size_for(read_hash_size(opt, size_t(16) << 20, "16M or 1G"));
  play.engine_timeout = opt.get_double("timeout", UCI_HANDSHAKE_SECONDS, 0.01, 86400);
  req.positions_per_unit = opt.get_int("positions-per-unit", POSITIONS_PER_UNIT, 1, 1000000);
  req.threads = read_threads(opt);
  read_result_file(opt, req);
  if (req.out.empty()) throw UsageError("rescore needs --out OUT");
  if (const std::string why = unwritable_name(req.out, rescore_format(req.out)); !why.empty()) throw UsageError(why);
  read_reporting(opt, req);
  req.command_line = command_line;
  return req;
}

}  // namespace chesshpc
