#include "jobs/io/json.h"

#include <cmath>
#include <cstdio>

namespace chesshpc {

std::string json_quote(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else
          out += char(c);
    }
  }
  return out + "\"";
}

JsonObject& JsonObject::add(std::string_view key, double value) {
  if (!std::isfinite(value)) return null(key);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", value);
  return raw(key, buf);
}

JsonObject& JsonObject::raw(std::string_view key, std::string_view value) {
  if (!body_.empty()) body_ += ", ";
  body_ += json_quote(key);
  body_ += ": ";
  body_ += value;
  return *this;
}

}  // namespace chesshpc
