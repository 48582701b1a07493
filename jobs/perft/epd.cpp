#include "jobs/perft/epd.h"

#include <charconv>
#include <sstream>

#include "core/position.h"
#include "core/quote.h"

namespace chesshpc {

namespace {

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

template <class T>
bool parse_number(const std::string& s, T& out) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

// Parses "Dn count"; returns an error message, empty on success.
std::string parse_field(const std::string& field, std::pair<int, uint64_t>& out) {
  std::istringstream ss(field);
  std::string tag, count, extra;
  ss >> tag >> count >> extra;
  if (tag.size() < 2 || tag[0] != 'D' || !parse_number(tag.substr(1), out.first) || out.first < 1)
    return chess::quoted(field) + " is not a ';Dn count' field";
  if (count.empty() || !extra.empty() || !parse_number(count, out.second))
    return chess::quoted(field) + " does not end in one non-negative count";
  return {};
}

}  // namespace

EpdFile read_epd(std::istream& in) {
  EpdFile file;
  std::string raw;
  for (int number = 1; std::getline(in, raw); ++number) {
    std::string line = trim(raw);
    if (line.empty() || line[0] == '#') continue;
    auto fail = [&](const std::string& why) { file.errors.push_back({number, line, why}); };

    size_t semi = line.find(';');
    EpdLine entry;
    entry.line_number = number;
    std::istringstream fields(line.substr(0, semi));
    std::string f, fen;
    int count = 0;
    while (fields >> f) fen += (count++ ? " " : "") + f;
    // EPD carries four FEN fields; some suites append the two clocks as well.
    if (count == 4) fen += " 0 1";
    try {
      entry.fen = chess::Position::from_any_fen(fen).fen();
    } catch (const chess::FenError& e) {
      fail(e.what());
      continue;
    }
    std::string error;
    while (semi != std::string::npos && error.empty()) {
      size_t next = line.find(';', semi + 1);
      std::string field = trim(line.substr(semi + 1, next == std::string::npos ? std::string::npos : next - semi - 1));
      semi = next;
      if (field.empty() && semi == std::string::npos) break;  // a trailing ';'
      if (field.starts_with("id ")) continue;                 // a name (";id chess960-518"), not a count
      std::pair<int, uint64_t> d;
      error = parse_field(field, d);
      entry.expected.push_back(d);
    }
    if (error.empty() && entry.expected.empty()) error = "no ';Dn count' field";
    if (!error.empty()) {
      fail(error);
      continue;
    }
    file.lines.push_back(std::move(entry));
  }
  return file;
}

}  // namespace chesshpc
