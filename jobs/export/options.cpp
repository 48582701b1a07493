#include "jobs/export/options.h"

#include "core/quote.h"

namespace chesshpc {

namespace {

std::vector<OptionSpec> format_options() {
  return {{"format", "FORMAT", "what to write (required; the formats are listed above)"},
          {"pgn", "FILE.h5", "the same as --format pgn FILE.h5 (more files after it)"}};
}

// The usage lines, then a line a format.
std::string usage() {
  std::string s =
      "usage: chesshpc export --format FORMAT FILE.h5 [FILE.h5 ...] [--out FILE] [filters]\n"
      "several selfplay files are written one after the other into one output\nformats:\n";
  for (const Format& f : formats()) {
    std::string name = "  " + std::string(f.name);
    name.resize(15, ' ');
    s.append(name).append(f.help).append("\n");
  }
  return s;
}

}  // namespace

std::vector<OptionSpec> filter_options() {
  return {{"skip-plies", "N", "leave out the first N plies of every game"},
          {"skip-book", "", "leave out opening moves (book and random plies: not searched, no score)"},
          {"skip-in-check", "", "leave out positions where the mover is in check"},
          {"skip-capture", "", "leave out positions whose played or best move captures or promotes"},
          {"skip-mate", "", "leave out positions with a mate score"},
          {"max-score", "CP", "leave out positions whose |score| is above CP centipawns (mates too)"},
          {"dedup", "", "write each position (pieces, side, castling, en passant) once, the first in game order"}};
}

const CommandOptions EXPORT_OPTIONS =
    command_options("export",
                    {
                        format_options(),
                        OptionSpec{"out", "FILE", "write to FILE instead of standard output"},
                        force_option(),
                        filter_options(),
                        OptionSpec{"quiet", "", "no progress on stderr"},
                        {"progress", "SECONDS",
                         "seconds between progress lines (default: 1 on a "
                         "terminal, 10 otherwise); with several files, a line after each"},
                    },
                    usage(), 100000);

ExportFilters read_filters(const Options& opt) {
  ExportFilters f;
  f.skip_plies = opt.get_int("skip-plies", 0, 0, 100000);
  f.skip_book = opt.has("skip-book");
  f.skip_in_check = opt.has("skip-in-check");
  f.skip_capture = opt.has("skip-capture");
  f.skip_mate = opt.has("skip-mate");
  if (opt.has("max-score")) f.max_score = opt.get_int("max-score", 0, 0, VALUE_MATE);
  f.dedup = opt.has("dedup");
  return f;
}

ExportRequest export_request(const Options& opt, bool stdout_is_terminal) {
  ExportRequest req;
  const std::vector<std::string>& files = opt.positional();
  if (opt.has("pgn")) {
    if (opt.has("format") && opt.get("format", "") != "pgn") throw UsageError("--pgn is --format pgn: give one format");
    req.paths = {opt.get("pgn", "")};
    req.paths.insert(req.paths.end(), files.begin(), files.end());
    req.format = find_format("pgn");
  } else {
    if (!opt.has("format")) throw UsageError("export needs --format " + format_names());
    const std::string name = opt.get("format", "");
    req.format = find_format(name);
    if (!req.format) throw UsageError("--format must be " + format_names() + ", not " + chess::quoted(name));
    if (files.empty())
      throw UsageError("export needs the selfplay file: chesshpc export --format " + name + " FILE.h5");
    req.paths = files;
  }
  req.filters = read_filters(opt);
  const ExportFilters& f = req.filters;
  if (!req.format->make && f.any())
    throw UsageError("the filters choose positions: --format " + std::string(req.format->name) + " writes whole games");
  req.quiet = opt.has("quiet");
  req.progress_interval = opt.get_double("progress", 0, 0.001, 86400);
  req.out = read_out(opt);
  if (req.out.empty() && req.format->binary && stdout_is_terminal)
    throw UsageError("--format " + std::string(req.format->name) +
                     " writes binary records: give --out FILE or redirect standard output");
  return req;
}

}  // namespace chesshpc
