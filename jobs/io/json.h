// A small JSON writer for results printed with --json: objects built field by field,
// 128-bit counts written as exact integers (Python's json reads them losslessly).
#pragma once

#include <string>
#include <string_view>

#include "core/int128.h"

namespace chesshpc {

std::string json_quote(std::string_view s);

class JsonObject {
 public:
  JsonObject& add(std::string_view key, std::string_view value) { return raw(key, json_quote(value)); }
  JsonObject& add(std::string_view key, const char* value) { return raw(key, json_quote(value)); }
  JsonObject& add(std::string_view key, bool value) { return raw(key, value ? "true" : "false"); }
  JsonObject& add(std::string_view key, int value) { return raw(key, std::to_string(value)); }
  JsonObject& add(std::string_view key, long value) { return raw(key, std::to_string(value)); }
  JsonObject& add(std::string_view key, unsigned long value) { return raw(key, std::to_string(value)); }
  JsonObject& add(std::string_view key, unsigned long long value) { return raw(key, std::to_string(value)); }
  JsonObject& add(std::string_view key, chess::u128 value) { return raw(key, chess::to_string(value)); }
  JsonObject& add(std::string_view key, double value);
  JsonObject& add(std::string_view key, const JsonObject& value) { return raw(key, value.str()); }
  JsonObject& null(std::string_view key) { return raw(key, "null"); }
  // value must already be JSON text.
  JsonObject& raw(std::string_view key, std::string_view value);

  std::string str() const { return "{" + body_ + "}"; }

 private:
  std::string body_;
};

}  // namespace chesshpc
