// Command-line options of one command: "--name value", "--name=value" and flags.
// Anything not declared is an error that names it, so a typo never runs a default.
// Beside the parser, the groups of options several commands share, each declared once
// with the reader that fills its struct; each job folder declares its command's table
// (jobs/<job>/options.h) from its own options and these groups.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iostream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace chesshpc {

// Bad usage: exit 2, the message and a pointer to the command's --help.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A file named on the command line that cannot be read or written as asked (a directory, a
// missing or unwritable directory): exit 4, the message alone, before any work.
struct FileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct OptionSpec {
  std::string name;        // without the leading "--"
  std::string value_name;  // empty for a flag
  std::string help;
  // A list option takes every argument after it up to the next "--" option as its value
  // (cutechess-cli's "-engine name=A cmd=..."), and may be given more than once.
  bool list = false;
};

// How messages name an option: "--nodes" on the command line, "nodes=" for the KEY=VALUE
// arguments of a list option (--engine, --sprt), read as options of their own.
enum class OptionStyle { FLAGS, KEYS };

// The closest of names to word by edit distance, when it is close enough to be a typo
// (at most a third of word's letters, and at least one, differ); else empty.
std::string closest_name(std::string_view word, const std::vector<std::string_view>& names);

class Options {
 public:
  // Throws UsageError for an unknown option (with the closest declared one, when there is
  // one, as "did you mean"), a missing value or a stray argument beyond max_positional.
  // "-h" is "--help".
  Options(const std::string& command, const std::vector<std::string>& args, const std::vector<OptionSpec>& spec,
          size_t max_positional = 0, OptionStyle style = OptionStyle::FLAGS);
  // An option's name as messages give it: "--nodes", or "nodes=" for keys.
  std::string named(const std::string& name) const { return style_ == OptionStyle::KEYS ? name + "=" : "--" + name; }

  const std::string& command() const { return command_; }  // as messages name it: "perft", "bench search"
  bool has(const std::string& name) const { return values_.count(name) != 0; }
  std::optional<std::string> get(const std::string& name) const;
  std::string get(const std::string& name, const std::string& fallback) const;
  // An integer within [lo, hi]; a value that is not one is a UsageError.
  int get_int(const std::string& name, int fallback, int lo, int hi) const;
  // A non-negative 64-bit integer (decimal); anything else is a UsageError.
  uint64_t get_u64(const std::string& name, uint64_t fallback) const;
  // A number within [lo, hi]; a value that is not one is a UsageError.
  double get_double(const std::string& name, double fallback, double lo, double hi) const;
  const std::vector<std::string>& positional() const { return positional_; }
  // Each occurrence of a list option, in command-line order: its arguments.
  std::vector<std::vector<std::string>> lists(const std::string& name) const;
  // Every option given with its value (flags with ""), by name.
  const std::map<std::string, std::string>& values() const { return values_; }

  static std::string help_text(const std::vector<OptionSpec>& spec);

 private:
  std::string command_;
  OptionStyle style_ = OptionStyle::FLAGS;
  std::map<std::string, std::string> values_;  // a list option's last occurrence, its arguments joined by spaces
  std::map<std::string, std::vector<std::vector<std::string>>> lists_;
  std::vector<std::string> positional_;
};

// One row of a command's table written in place ({name, value_name, help}), or a shared
// group of rows; a table lists them in the order --help shows them.
struct OptionRows {
  std::vector<OptionSpec> specs;
  OptionRows(std::string name, std::string value_name, std::string help)
      : specs{{std::move(name), std::move(value_name), std::move(help)}} {}
  OptionRows(OptionSpec spec) : specs{std::move(spec)} {}
  OptionRows(std::vector<OptionSpec> group) : specs(std::move(group)) {}
};

// A command's options as parsing and --help see them.
struct CommandOptions {
  std::string command;  // as messages name it: "perft", "bench search"
  std::vector<OptionSpec> table;
  size_t max_positional = 0;
  std::string help;  // what --help prints: the usage line(s), then the table

  // Throws UsageError as Options does.
  Options parse(const std::vector<std::string>& args) const { return Options(command, args, table, max_positional); }
};

// A command's options: the rows in --help order, then --help itself. usage is what --help
// prints above them, line(s) each ending in a newline.
CommandOptions command_options(std::string command, std::initializer_list<OptionRows> rows, std::string usage,
                               size_t max_positional = 0);

// --json alone, for commands that print one result and no progress. The help says what
// is printed.
OptionSpec json_option(std::string help);
bool read_json(const Options& opt);

// The report group: --json, --quiet, --progress SECONDS. Requests derive from Reporting, so
// that a job reads req.json and the reader fills the request.
struct Reporting {
  bool json = false;
  bool quiet = false;            // no progress on stderr
  double progress_interval = 0;  // seconds; 0: 1 on a terminal, 10 otherwise
};
std::vector<OptionSpec> reporting_options(std::string json_help);
void read_reporting(const Options& opt, Reporting& into);

// --threads N: what the threads do (TBB threads unless said); the help adds the default,
// every core this process may use, which reads as 0.
OptionSpec threads_option(std::string what = "TBB threads", std::string value_name = "N");
// The threads that run: N, 0 (every core this process may use), or, when N is more than
// those cores, the cores, after one line on note (on rank 0, launch_rank) saying so: a
// process never runs more TBB threads than its cores, and reports the count that runs.
int read_threads(const Options& opt, std::ostream& note = std::cerr);

// --hash SIZE, a size like 512M (jobs/io/byte_size.h). Text that is not a size is a
// UsageError offering examples, e.g. "512M or 8G".
OptionSpec hash_option(std::string help);
size_t read_hash_size(const Options& opt, size_t fallback, std::string_view examples);
// A size option (--name SIZE, as parse_size reads it: a bare number is MB), or fallback
// when absent. Less than 1 MB, or more than this machine's memory, is a UsageError.
size_t read_size_option(const Options& opt, const std::string& name, size_t fallback, std::string_view examples);
// A memory size given as text (for the message) beyond this machine's physical memory is a
// UsageError: refused before any work, not a std::bad_alloc hours later.
void check_fits_memory(const std::string& name, const std::string& text, uint64_t bytes);

// The result-file group: --out FILE.h5, and with it --resume and --checkpoint SECONDS,
// each with its command's help. Requests that write a file as they go derive from
// ResultFile.
struct ResultFile {
  std::string out;      // HDF5 result file; empty: none
  bool resume = false;  // continue the job recorded in out
  bool force = false;   // overwrite what out holds, finished or not
  // Seconds between saves of out while the run goes on; 0: 5 s, stretched so that saving
  // stays under 2% of the run.
  double checkpoint_interval = 0;
};
OptionSpec out_option(std::string help);
// The help of the options below, and of a command's own options that need --out, starts
// "with --out: ".
OptionSpec with_out_option(std::string name, std::string value_name, std::string help);
OptionSpec resume_option(std::string help);
OptionSpec checkpoint_option(std::string help);
// --force, which every command that writes a file takes: an existing --out is refused
// without it.
OptionSpec force_option();
// The rank this process was started as by mpirun or srun (from their environment), 0 when
// it was started alone.
int launch_rank();
// --out (or fallback), checked before any work, on rank 0 only (launch_rank): the one
// that writes the file. The other ranks may run on nodes without its directory, or look
// after rank 0 has made the file. On rank 0: the same file as an input
// (any positional argument or option value naming an existing file; not even with --force)
// or an existing file without --force is a UsageError; anything that exists and is not a
// regular file (a directory, a device such as /dev/full or /dev/null, a fifo, a socket;
// with or without --force), or a parent directory that is missing or not writable, a
// FileError. A symbolic link is followed (jobs/io/publish.h): the file it names is
// checked and written, the link stays. Nothing is created. --force without a --out is a
// UsageError.
std::string read_out(const Options& opt, const std::string& fallback = "");
// read_out's checks of a non-empty path that --OPTION names for writing (verify's
// --save-epd as well as any --out): the same file as any other option's value or a
// positional argument, or an existing file without --force (or --resume, when
// resumable), is a UsageError; what read_out calls a FileError is one. Rank 0 only.
void check_output_path(const std::string& option, const std::string& path, const Options& opt, bool resumable = false);
// The output of a command written "CMD IN... OUT" or "CMD IN... --out OUT": with more than
// `inputs` positional arguments the last is the output, checked as read_out checks --out
// (the message names it as --out); else read_out(opt).
std::string read_last_positional_out(const Options& opt, size_t inputs);
// Fills into, with read_out's checks; an existing --out may also be continued with --resume.
// --resume, --checkpoint, and the command's own options also_with_out (named between them
// in the message), without a non-empty --out are a UsageError.
void read_result_file(const Options& opt, ResultFile& into, std::initializer_list<std::string_view> also_with_out = {});

}  // namespace chesshpc
