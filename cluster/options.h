// Command-line options of one subcommand: "--name value", "--name=value" and flags.
// Anything not declared is an error that names it, so a typo never runs a default.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace chesshpc {

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct OptionSpec {
  std::string name;        // without the leading "--"
  std::string value_name;  // empty for a flag
  std::string help;
};

class Options {
 public:
  // Throws UsageError for an unknown option, a missing value or a stray argument
  // beyond max_positional.
  Options(const std::string& command, const std::vector<std::string>& args, const std::vector<OptionSpec>& spec,
          size_t max_positional = 0);

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

  static std::string help_text(const std::vector<OptionSpec>& spec);

 private:
  std::string command_;
  std::map<std::string, std::string> values_;
  std::vector<std::string> positional_;
};

}  // namespace chesshpc
