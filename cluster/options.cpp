#include "cluster/options.h"

#include <charconv>
#include <cstdio>

namespace chesshpc {

namespace {
std::string format_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}
}  // namespace

Options::Options(const std::string& command, const std::vector<std::string>& args, const std::vector<OptionSpec>& spec,
                 size_t max_positional)
    : command_(command) {
  auto find = [&](const std::string& name) -> const OptionSpec* {
    for (const auto& s : spec)
      if (s.name == name) return &s;
    return nullptr;
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--", 0) != 0 || a == "--") {
      if (positional_.size() >= max_positional)
        throw UsageError("unexpected argument '" + a + "' for '" + command + "'");
      positional_.push_back(a);
      continue;
    }
    size_t eq = a.find('=');
    std::string name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    const OptionSpec* s = find(name);
    if (!s) throw UsageError("unknown option --" + name + " for '" + command + "'");
    if (s->value_name.empty()) {
      if (eq != std::string::npos) throw UsageError("--" + name + " takes no value");
      values_[name] = "";
    } else if (eq != std::string::npos) {
      values_[name] = a.substr(eq + 1);
    } else {
      if (i + 1 >= args.size()) throw UsageError("--" + name + " needs a value (" + s->value_name + ")");
      values_[name] = args[++i];
    }
  }
}

std::optional<std::string> Options::get(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
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
    throw UsageError("--" + name + " must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) +
                     ", not '" + *text + "'");
  return value;
}

uint64_t Options::get_u64(const std::string& name, uint64_t fallback) const {
  auto text = get(name);
  if (!text) return fallback;
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc() || end != text->data() + text->size())
    throw UsageError("--" + name + " must be a whole number from 0 to 2^64 - 1, not '" + *text + "'");
  return value;
}

double Options::get_double(const std::string& name, double fallback, double lo, double hi) const {
  auto text = get(name);
  if (!text) return fallback;
  double value = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc() || end != text->data() + text->size() || !(value >= lo && value <= hi))
    throw UsageError("--" + name + " must be a number from " + format_number(lo) + " to " + format_number(hi) +
                     ", not '" + *text + "'");
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

}  // namespace chesshpc
