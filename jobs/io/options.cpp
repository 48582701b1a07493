#include "jobs/io/options.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "core/quote.h"
#include "core/threads.h"
#include "jobs/io/byte_size.h"
#include "jobs/io/publish.h"

namespace chesshpc {

namespace {
std::string format_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// "--a", "--a and --b", "--a, --b and --c".
std::string option_list(const std::vector<std::string_view>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) out += i + 1 == names.size() ? " and " : ", ";
    out += "--" + std::string(names[i]);
  }
  return out;
}
}  // namespace

std::string closest_name(std::string_view word, const std::vector<std::string_view>& names) {
  std::string_view best;
  size_t best_distance = std::max<size_t>(1, word.size() / 3) + 1;
  for (std::string_view name : names) {
    // The optimal string alignment distance: Levenshtein's with a swap of two neighbours
    // as one edit ("pertf", "dpeth").
    std::vector<std::vector<size_t>> d(word.size() + 1, std::vector<size_t>(name.size() + 1));
    for (size_t i = 0; i <= word.size(); ++i) d[i][0] = i;
    for (size_t j = 0; j <= name.size(); ++j) d[0][j] = j;
    for (size_t i = 1; i <= word.size(); ++i)
      for (size_t j = 1; j <= name.size(); ++j) {
        d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (word[i - 1] == name[j - 1] ? 0 : 1)});
        if (i > 1 && j > 1 && word[i - 1] == name[j - 2] && word[i - 2] == name[j - 1])
          d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    // A word all of whose letters differ is no typo ("--b" is not "--a").
    const size_t distance = d[word.size()][name.size()];
    if (distance < best_distance && distance < word.size()) best_distance = distance, best = name;
  }
  return std::string(best);
}

Options::Options(const std::string& command, const std::vector<std::string>& args, const std::vector<OptionSpec>& spec,
                 size_t max_positional, OptionStyle style)
    : command_(command), style_(style) {
  auto find = [&](const std::string& name) -> const OptionSpec* {
    for (const auto& s : spec)
      if (s.name == name) return &s;
    return nullptr;
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i] == "-h" ? "--help" : args[i];
    if (a.rfind("--", 0) != 0 || a == "--") {
      if (positional_.size() >= max_positional) {
        // "--fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" unquoted: the
        // shell split the FEN, and its side to move is the first word left over.
        const bool split_fen = i > 0 && std::count(args[i - 1].begin(), args[i - 1].end(), '/') == 7;
        throw UsageError("unexpected argument " + chess::quoted(a) + " for '" + command + "'" +
                         (split_fen
                              ? " (a FEN is one argument: put it in quotes, e.g. --fen \"8/8/8/8/8/8/8/K1k5 w - - "
                                "0 1\")"
                              : ""));
      }
      positional_.push_back(a);
      continue;
    }
    size_t eq = a.find('=');
    std::string name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    const OptionSpec* s = find(name);
    if (!s) {
      std::vector<std::string_view> names;
      for (const auto& known : spec) names.push_back(known.name);
      const std::string near = closest_name(name, names);
      const std::string shown = style == OptionStyle::KEYS ? chess::excerpt(name) + "=" : "--" + chess::excerpt(name);
      throw UsageError("unknown " + std::string(style == OptionStyle::KEYS ? "key " : "option ") + shown + " for '" +
                       command + "'" + (near.empty() ? "" : " (did you mean " + named(near) + "?)"));
    }
    if (s->list) {
      std::vector<std::string> items;
      if (eq != std::string::npos) items.push_back(a.substr(eq + 1));
      while (i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0) items.push_back(args[++i]);
      if (items.empty()) throw UsageError(named(name) + " needs a value (" + s->value_name + ")");
      std::string joined;
      for (const std::string& item : items) joined += (joined.empty() ? "" : " ") + item;
      values_[name] = joined;
      lists_[name].push_back(std::move(items));
    } else if (s->value_name.empty()) {
      if (eq != std::string::npos) throw UsageError(named(name) + " takes no value");
      values_[name] = "";
    } else if (eq != std::string::npos) {
      values_[name] = a.substr(eq + 1);
    } else {
      if (i + 1 >= args.size()) throw UsageError(named(name) + " needs a value (" + s->value_name + ")");
      values_[name] = args[++i];
    }
  }
}

std::optional<std::string> Options::get(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::vector<std::vector<std::string>> Options::lists(const std::string& name) const {
  auto it = lists_.find(name);
  return it == lists_.end() ? std::vector<std::vector<std::string>>{} : it->second;
}

std::string Options::get(const std::string& name, const std::string& fallback) const {
  return get(name).value_or(fallback);
}

int Options::get_int(const std::string& name, int fallback, int lo, int hi) const {
  auto text = get(name);
  if (!text) return fallback;
  int value = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc() || end != text->data() + text->size() || value < lo || value > hi)
    throw UsageError(named(name) + " must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) +
                     ", not " + chess::quoted(*text));
  return value;
}

uint64_t Options::get_u64(const std::string& name, uint64_t fallback) const {
  auto text = get(name);
  if (!text) return fallback;
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc() || end != text->data() + text->size())
    throw UsageError(named(name) + " must be a whole number from 0 to 2^64 - 1, not " + chess::quoted(*text));
  return value;
}

double Options::get_double(const std::string& name, double fallback, double lo, double hi) const {
  auto text = get(name);
  if (!text) return fallback;
  double value = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc() || end != text->data() + text->size() || !(value >= lo && value <= hi))
    throw UsageError(named(name) + " must be a number from " + format_number(lo) + " to " + format_number(hi) +
                     ", not " + chess::quoted(*text));
  return value;
}

std::string Options::help_text(const std::vector<OptionSpec>& spec) {
  std::string out;
  for (const auto& s : spec) {
    std::string left = "  --" + s.name + (s.value_name.empty() ? "" : " " + s.value_name);
    if (left.size() < 24)
      left.resize(24, ' ');
    else
      left += "  ";
    out += left + s.help + "\n";
  }
  return out;
}

CommandOptions command_options(std::string command, std::initializer_list<OptionRows> rows, std::string usage,
                               size_t max_positional) {
  CommandOptions c{std::move(command), {}, max_positional, std::move(usage)};
  for (const OptionRows& r : rows) c.table.insert(c.table.end(), r.specs.begin(), r.specs.end());
  c.table.push_back({"help", "", "show this help"});
  c.help += Options::help_text(c.table);
  return c;
}

OptionSpec json_option(std::string help) { return {"json", "", std::move(help)}; }

bool read_json(const Options& opt) { return opt.has("json"); }

std::vector<OptionSpec> reporting_options(std::string json_help) {
  return {json_option(std::move(json_help)),
          {"quiet", "", "no progress on stderr"},
          {"progress", "SECONDS", "seconds between progress reports (default: 1 on a terminal, 10 otherwise)"}};
}

void read_reporting(const Options& opt, Reporting& into) {
  into.json = read_json(opt);
  into.quiet = opt.has("quiet");
  into.progress_interval = opt.get_double("progress", 0, 0.01, 86400);
}

OptionSpec threads_option(std::string what, std::string value_name) {
  return {"threads", std::move(value_name),
          what + " (default, and the most that run: every core this process may use)"};
}

int read_threads(const Options& opt, std::ostream& note) {
  const int requested = opt.get_int("threads", 0, 1, 4096);
  const int cores = chess::resolve_threads(0);
  if (requested <= cores) return requested;
  if (launch_rank() == 0)
    note << "chesshpc " << opt.command() << ": --threads " << requested << " is more than the " << cores
         << (cores == 1 ? " core" : " cores") << " this process may use: running " << cores << "\n";
  return cores;
}

OptionSpec hash_option(std::string help) { return {"hash", "SIZE", std::move(help)}; }

size_t read_size_option(const Options& opt, const std::string& name, size_t fallback, std::string_view examples) {
  auto text = opt.get(name);
  if (!text) return fallback;
  size_t bytes = parse_size(*text);
  if (!bytes)
    throw UsageError("--" + name + " takes a size like " + std::string(examples) + " (a bare number is MB), not " +
                     chess::quoted(*text));
  if (bytes < MB) throw UsageError("--" + name + " takes at least 1 MB, not " + chess::quoted(*text));
  check_fits_memory(name, *text, bytes);
  return bytes;
}

void check_fits_memory(const std::string& name, const std::string& text, uint64_t bytes) {
  const uint64_t memory = physical_memory();
  if (memory && bytes > memory)
    throw UsageError("--" + name + " " + text + " is more than this machine's memory (" +
                     format_size(memory / MB * MB) + ")");
}

size_t read_hash_size(const Options& opt, size_t fallback, std::string_view examples) {
  return read_size_option(opt, "hash", fallback, examples);
}

OptionSpec out_option(std::string help) { return {"out", "FILE.h5", std::move(help)}; }

OptionSpec with_out_option(std::string name, std::string value_name, std::string help) {
  return {std::move(name), std::move(value_name), "with --out: " + help};
}

OptionSpec resume_option(std::string help) { return with_out_option("resume", "", std::move(help)); }

OptionSpec checkpoint_option(std::string help) { return with_out_option("checkpoint", "SECONDS", std::move(help)); }

OptionSpec force_option() {
  return {"force", "",
          "overwrite the file --out names if it exists (a regular file, or the one a symbolic link names)"};
}

int launch_rank() {
  for (const char* var : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"})
    if (const char* v = std::getenv(var)) return std::atoi(v);
  return 0;
}

namespace {

// check_output_path's checks, out against the inputs given.
void check_output_against(const std::string& option, const std::string& out, const Options& opt, bool resumable,
                          const std::vector<std::string>& inputs) {
  namespace fs = std::filesystem;
  std::error_code ec;
  for (const std::string& input : inputs)
    if (fs::equivalent(out, input, ec))
      throw UsageError("--" + option + " '" + out + "' is the input '" + input + "': write the result to another file");
  if (const std::string why = not_a_regular_file(out); !why.empty())
    throw FileError("cannot write '" + out + "': " + why);
  // The directory the file goes to is that of the file a symbolic link names.
  const fs::path target = publish_target(out);
  const fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
  if (!fs::is_directory(parent, ec))
    throw FileError("cannot write '" + out + "': there is no directory '" + parent.string() + "'");
  if (access(parent.c_str(), W_OK | X_OK) != 0)
    throw FileError("cannot write '" + out + "': cannot create files in '" + parent.string() +
                    "': " + std::strerror(errno));
  if (fs::exists(out, ec) && !opt.has("force") && !(resumable && opt.has("resume")))
    throw UsageError("'" + out + "' exists: add --force to overwrite it" +
                     (resumable ? std::string(", or --resume to continue its job") : std::string()));
}

}  // namespace

void check_output_path(const std::string& option, const std::string& out, const Options& opt, bool resumable) {
  if (launch_rank() != 0) return;
  std::vector<std::string> inputs = opt.positional();
  for (const auto& [name, value] : opt.values())
    if (name != option && !value.empty()) inputs.push_back(value);
  check_output_against(option, out, opt, resumable, inputs);
}

std::string read_last_positional_out(const Options& opt, size_t inputs) {
  const std::vector<std::string>& pos = opt.positional();
  if (pos.size() <= inputs) return read_out(opt);
  if (opt.has("out")) throw UsageError("give the output once: as --out or as the last file, not both");
  const std::string out = pos.back();
  if (launch_rank() != 0) return out;
  std::vector<std::string> others(pos.begin(), pos.end() - 1);
  for (const auto& [name, value] : opt.values())
    if (!value.empty()) others.push_back(value);
  check_output_against("out", out, opt, false, others);
  return out;
}

namespace {

// read_out's checks; resumable: an existing out may be continued with --resume.
std::string checked_out(const Options& opt, const std::string& fallback, bool resumable) {
  const std::string out = opt.get("out", fallback);
  if (out.empty()) {
    if (opt.has("force")) throw UsageError("--force goes with --out FILE.h5");
    return out;
  }
  check_output_path("out", out, opt, resumable);
  return out;
}

}  // namespace

std::string read_out(const Options& opt, const std::string& fallback) { return checked_out(opt, fallback, false); }

void read_result_file(const Options& opt, ResultFile& into, std::initializer_list<std::string_view> also_with_out) {
  into.out = checked_out(opt, "", true);
  into.resume = opt.has("resume");
  into.force = opt.has("force");
  if (into.resume && into.force) throw UsageError("--resume continues the file and --force overwrites it: give one");
  into.checkpoint_interval = opt.get_double("checkpoint", 0, 0.01, 86400);
  std::vector<std::string_view> with_out = {"resume"};
  with_out.insert(with_out.end(), also_with_out);
  with_out.push_back("checkpoint");
  bool given = false;
  for (std::string_view name : with_out) given = given || opt.has(std::string(name));
  if (given && into.out.empty()) throw UsageError(option_list(with_out) + " go with --out FILE.h5");
}

}  // namespace chesshpc
