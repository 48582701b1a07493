#include "jobs/io/h5_table.h"

namespace chesshpc::h5::detail {

namespace {

std::string_view type_name(Type t) {
  switch (t) {
    case Type::INT32: return "int32";
    case Type::INT64: return "int64";
    case Type::UINT64: return "uint64";
    case Type::FLOAT64: return "float64";
    case Type::STR: return "str";
    case Type::BOOL: return "bool";
    case Type::BYTES: return "uint8";
  }
  return "?";
}

// text with the placeholder of c's keys replaced by key k (text itself without keys).
std::string expand(std::string_view text, const ColumnInfo& c, size_t k) {
  std::string out(text);
  if (!c.keys) return out;
  std::string_view from = c.keys->placeholder, to = c.keys->key(k);
  for (size_t at = out.find(from); at != std::string::npos; at = out.find(from, at + to.size()))
    out.replace(at, from.size(), to);
  return out;
}

}  // namespace

size_t datasets(const ColumnInfo& c) { return c.keys ? c.keys->count : 1; }
std::string dataset_name(const ColumnInfo& c, size_t k) { return expand(c.name, c, k); }
std::string dataset_doc(const ColumnInfo& c, size_t k) { return expand(c.description, c, k); }

void text_too_long(const std::string& dataset, const std::string& text, size_t width) {
  throw Error("HDF5: '" + text + "' is longer than column " + dataset + "'s " + std::to_string(width) + " bytes");
}

void check_rows(const ColumnInfo& c, size_t k, size_t rows, size_t expected) {
  if (rows != expected)
    throw Error("HDF5: column " + dataset_name(c, k) + " has " + std::to_string(rows) + " rows, the table's first " +
                std::to_string(expected));
}

// Appended piece by piece: GCC 12 warns (-Wrestrict, falsely) of "/" + std::string(...).
std::string readme_heading(std::string_view group, std::string_view description) {
  std::string s = "/";
  s.append(group).append(": ").append(description).append("\n");
  return s;
}

std::string readme_line(const ColumnInfo& c) {
  std::string s = "  ";
  s.append(c.name).append(" (").append(type_name(c.type));
  if (c.width) s.append(", ").append(std::to_string(c.width)).append(c.type == Type::STR ? " bytes at most" : " a row");
  if (c.keys) {
    s.append("; a column per ").append(c.keys->placeholder).append(":");
    for (size_t k = 0; k < c.keys->count; ++k) s.append(k ? ", " : " ").append(c.keys->key(k));
  }
  s.append("): ").append(c.description).append("\n");
  return s;
}

std::string readme_line(const AttrInfo& a) {
  std::string s = "  ";
  s.append(a.name).append(" (").append(type_name(a.type)).append("): ").append(a.description).append("\n");
  return s;
}

}  // namespace chesshpc::h5::detail
