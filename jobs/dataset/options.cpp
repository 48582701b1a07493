#include "jobs/dataset/options.h"

#include "core/quote.h"
#include "jobs/dataset/records.h"
#include "jobs/io/byte_size.h"

namespace chesshpc {

namespace {

// The formats' lines of a usage text.
std::string format_lines() {
  std::string s =
      "formats (by --from/--to, or by the file name: .plain .bin .binpack .bullet .txt .epd .h5; "
      "all but h5 read and written as gzip or zstd when the name ends in .gz or .zst):\n";
  for (const Format& f : formats()) {
    if (!dataset_format(f.name)) continue;
    std::string name = "  " + std::string(f.name);
    name.resize(15, ' ');
    s.append(name).append(f.help).append("\n");
  }
  std::string name = "  " + std::string(h5_format().name);
  name.resize(15, ' ');
  return s.append(name).append(h5_format().help).append("\n");
}

OptionSpec from_option() { return {"from", "FORMAT", "the input's format (" + dataset_format_names() + ")"}; }
OptionSpec to_option() { return {"to", "FORMAT", "the output's format (by default the input's, or by its name)"}; }
// --out as read_out reads it, named for a dataset file (out_option names an HDF5 file).
OptionSpec output_option(std::string help) { return {"out", "FILE", std::move(help)}; }
OptionSpec seed_option() { return {"seed", "N", "the seed: the same seed gives the same output bytes (default 0)"}; }

// The format --option names, or the one path's name tells, or fallback.
const Format* format_for(const Options& opt, const std::string& option, const std::string& path,
                         const Format* fallback) {
  if (opt.has(option)) {
    const std::string name = opt.get(option, "");
    const Format* f = dataset_format(name);
    if (!f) throw UsageError("--" + option + " must be " + dataset_format_names() + ", not " + chess::quoted(name));
    return f;
  }
  if (const Format* f = path.empty() ? nullptr : format_of_path(path)) return f;
  if (fallback) return fallback;
  throw UsageError("cannot tell the format of " +
                   (path.empty() ? std::string("standard output") : chess::quoted(path)) + " by its name: give --" +
                   option + " " + dataset_format_names());
}

// The output: OUT (the last file, or --out), its format, and standard output's checks.
DatasetFile output_file(const Options& opt, size_t inputs, const Format* fallback, bool stdout_is_terminal) {
  DatasetFile out;
  out.path = read_last_positional_out(opt, inputs);
  out.format = format_for(opt, "to", out.path, fallback);
  if (const std::string why = unwritable_name(out.path, *out.format); !why.empty()) throw UsageError(why);
  if (out.path.empty()) {
    if (out.format == &h5_format()) throw UsageError("h5 is written to a file: give OUT");
    if (opt.has("json")) throw UsageError("--json prints the summary on standard output: give OUT for the records");
    if (out.format->binary && stdout_is_terminal)
      throw UsageError(std::string(out.format->name) + " is binary: give OUT or redirect standard output");
  }
  return out;
}

std::string file_options_usage(const std::string& command, const std::string& what) {
  return "usage: chesshpc " + command + " " + what + "\n" + format_lines();
}

}  // namespace

const CommandOptions CONVERT_OPTIONS = command_options(
    "convert",
    {
        std::vector<OptionSpec>{from_option(), to_option()},
        {"validate", "", "stop at the first illegal or impossible record: name its index and why (exit 3)"},
        output_option("the output (or give it as the last file; standard output without)"),
        force_option(),
        reporting_options("print the summary as JSON"),
    },
    file_options_usage("convert", "IN [OUT] [--from F] [--to F] [--validate]"), 2);

const CommandOptions SHUFFLE_OPTIONS = command_options(
    "shuffle",
    {
        std::vector<OptionSpec>{from_option(), to_option()},
        seed_option(),
        {"memory", "SIZE", "records held at once, e.g. 512M or 4G (default 1G); a larger file is shuffled in runs"},
        {"tmp", "DIR", "where the runs go (default: the output's directory)"},
        output_option("the output (or give it as the last file)"),
        force_option(),
        reporting_options("print the summary as JSON"),
    },
    file_options_usage("shuffle", "IN [OUT] [--seed N] [--memory SIZE]"), 2);

const CommandOptions INTERLEAVE_OPTIONS =
    command_options("interleave",
                    {
                        std::vector<OptionSpec>{from_option(), to_option()},
                        seed_option(),
                        output_option("the output (required)"),
                        force_option(),
                        reporting_options("print the summary as JSON"),
                    },
                    file_options_usage("interleave", "IN1 IN2 ... --out OUT [--seed N]"), 1024);

const CommandOptions STATS_OPTIONS =
    command_options("stats",
                    {
                        from_option(),
                        out_option("also write the distributions to FILE.h5 (job 'stats', read by chesshpc-report)"),
                        force_option(),
                        reporting_options("print the distributions as JSON"),
                    },
                    file_options_usage("stats", "FILE [--json] [--out STATS.h5]"), 1);

ConvertRequest convert_request(const Options& opt, const std::string& command_line, bool stdout_is_terminal) {
  ConvertRequest req;
  read_reporting(opt, req);
  if (opt.positional().empty()) throw UsageError("convert needs the input: chesshpc convert IN OUT");
  req.in.path = opt.positional()[0];
  req.in.format = format_for(opt, "from", req.in.path, nullptr);
  req.out = output_file(opt, 1, nullptr, stdout_is_terminal);
  req.validate = opt.has("validate");
  req.command_line = command_line;
  return req;
}

ShuffleRequest shuffle_request(const Options& opt, const std::string& command_line, bool stdout_is_terminal) {
  ShuffleRequest req;
  read_reporting(opt, req);
  if (opt.positional().empty()) throw UsageError("shuffle needs the input: chesshpc shuffle IN OUT");
  req.in.path = opt.positional()[0];
  req.in.format = format_for(opt, "from", req.in.path, nullptr);
  req.out = output_file(opt, 1, req.in.format, stdout_is_terminal);
  req.seed = opt.get_u64("seed", 0);
  req.memory = read_size_option(opt, "memory", 1024 * MB, "512M or 4G");
  req.tmp_dir = opt.get("tmp", "");
  req.command_line = command_line;
  return req;
}

InterleaveRequest interleave_request(const Options& opt, const std::string& command_line, bool stdout_is_terminal) {
  InterleaveRequest req;
  read_reporting(opt, req);
  if (opt.positional().size() < 2) throw UsageError("interleave needs two files or more: IN1 IN2 ... --out OUT");
  if (!opt.has("out")) throw UsageError("interleave needs --out OUT (every file named is an input)");
  for (const std::string& path : opt.positional()) {
    req.in.push_back({path, format_for(opt, "from", path, nullptr)});
  }
  req.out = output_file(opt, opt.positional().size(), req.in[0].format, stdout_is_terminal);
  req.seed = opt.get_u64("seed", 0);
  req.command_line = command_line;
  return req;
}

StatsRequest stats_request(const Options& opt, const std::string& command_line) {
  StatsRequest req;
  read_reporting(opt, req);
  if (opt.positional().empty()) throw UsageError("stats needs the file: chesshpc stats FILE");
  req.in.path = opt.positional()[0];
  req.in.format = format_for(opt, "from", req.in.path, nullptr);
  req.out = read_out(opt);
  if (!req.out.empty() && format_of_path(req.out) != &h5_format())
    throw UsageError("stats --out writes an HDF5 file: name it FILE.h5");
  if (const std::string why = unwritable_name(req.out, h5_format()); !why.empty()) throw UsageError(why);
  req.command_line = command_line;
  return req;
}

}  // namespace chesshpc
