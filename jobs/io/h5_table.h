// Result-file tables and root attributes, each declared once. A table is a group name, a
// one-line description and its columns; a column is a name, a type, a description and
// where its values live in the job's data. The same declaration writes the group (a
// dataset per column, with the column's description as its "description" attribute),
// reads it back for --resume, and gives the table's part of the file's README attribute.
// Root attributes are a list of name, description and value, written and documented alike.
//
// The job's data is either a std::vector of row structs (columns from members, or
// computed from a row) or a struct of column vectors (columns from its vector members):
//   constexpr auto SKIPPED = h5::table("skipped", "malformed games",
//       {h5::column<&SkippedGame::index>("index", "0-based game number in the file"), ...});
//   h5::write_table(file, SKIPPED, result.skipped);
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "jobs/io/h5.h"
#include "jobs/io/h5_chunk.h"

namespace chesshpc::h5 {

// Column and attribute types, named in the README as numpy names them.
enum class Type : uint8_t { INT32, INT64, UINT64, FLOAT64, STR, BOOL, BYTES };

namespace detail {

template <class>
inline constexpr bool unsupported = false;

// An address that stands for member M alone: a column keeps it, so that a reader finds the
// column by its member (name_of).
template <auto M>
inline constexpr char member_tag = 0;

}  // namespace detail

template <class T>
constexpr Type type_of() {
  if constexpr (std::is_same_v<T, int32_t>)
    return Type::INT32;
  else if constexpr (std::is_same_v<T, int64_t>)
    return Type::INT64;
  else if constexpr (std::is_same_v<T, uint64_t>)
    return Type::UINT64;
  else if constexpr (std::is_same_v<T, double>)
    return Type::FLOAT64;
  else if constexpr (std::is_same_v<T, std::string>)
    return Type::STR;
  else if constexpr (std::is_same_v<T, bool>)
    return Type::BOOL;
  else
    static_assert(detail::unsupported<T>, "no HDF5 type for this C++ type");
}

// A family of columns, one per key, from a std::array per row: in the column's name and
// description `placeholder` stands for the key (first_fire_RULE: first_fire_checkmate, ...).
struct Keys {
  std::string_view placeholder;
  size_t count;
  std::string_view (*key)(size_t i);
};

// What the README says of a column, and the names of its datasets.
struct ColumnInfo {
  std::string_view name, description;
  Type type;
  size_t width = 0;            // BYTES: bytes a row; STR: fixed-length strings of that many bytes
  const Keys* keys = nullptr;  // a family: a dataset per key
  bool since_added = false;    // added after files were written: read only when there
};

// The data a table is written from: rows (any contiguous range of them) or the struct of
// column vectors itself.
template <class Src>
struct Data {
  using In = const Src&;
};
template <class Row>
struct Data<std::vector<Row>> {
  using In = std::span<const Row>;
};

// One column of a table of Src (std::vector<Row>, or a struct of column vectors).
template <class Src>
struct Column : ColumnInfo {
  void (*write)(const Group& g, const ColumnInfo& c, typename Data<Src>::In data, const Layout& layout);
  // nullptr for computed columns, which are written only. first: the first column read,
  // which sets the number of rows (the others must have as many). Returns the rows read.
  size_t (*read)(const Group& g, const ColumnInfo& c, Src& data, bool first, RowRange rows);
  const void* member = nullptr;  // &detail::member_tag<M> of the member M it holds; none when computed
};

// The bytes a row of column c takes in a chunk as the file stores it (ChunkAppender):
// fixed-width text and byte rows their width (text null-padded), bools one, numbers their
// size; 0 for variable-length text, which no chunk of raw bytes holds.
constexpr size_t chunk_row_bytes(const ColumnInfo& c) {
  switch (c.type) {
    case Type::STR:
    case Type::BYTES: return c.width;
    case Type::INT32: return 4;
    case Type::BOOL: return 1;
    default: return 8;  // INT64, UINT64, FLOAT64
  }
}

// A group of columns: its name, a line for the README, and its columns in README order.
template <class Src, size_t N>
struct Table {
  std::string_view group, description;
  std::array<Column<Src>, N> columns;
};

// A root attribute as the README lists it.
struct AttrInfo {
  std::string_view name, description;
  Type type;
};

// A root attribute of a file written from Src: a value or an optional one (absent when empty).
template <class Src>
struct RootAttr : AttrInfo {
  void (*write)(const Group& g, const AttrInfo& a, const Src& src);
};

namespace detail {

template <class M>
struct MemberOf;
template <class C, class V>
struct MemberOf<V C::*> {
  using Class = C;
  using Value = V;
};

template <class T>
struct IsVector : std::false_type {};
template <class T>
struct IsVector<std::vector<T>> : std::true_type {};

// A std::array value spreads over a family of columns, one element each.
template <class T>
struct Family {
  static constexpr size_t size = 0;
  using Elem = T;
};
template <class T, size_t N>
struct Family<std::array<T, N>> {
  static constexpr size_t size = N;
  using Elem = T;
};

template <class T>
constexpr const Keys* check_keys(const Keys* keys) {
  if ((Family<T>::size == 0) != (keys == nullptr)) throw Error("HDF5: keys go with std::array columns only");
  if (keys && keys->count != Family<T>::size) throw Error("HDF5: as many keys as array elements");
  return keys;
}

// The datasets of a column: one, or one per key.
size_t datasets(const ColumnInfo& c);
std::string dataset_name(const ColumnInfo& c, size_t k);
std::string dataset_doc(const ColumnInfo& c, size_t k);
// Throws unless a column read has the table's number of rows.
void check_rows(const ColumnInfo& c, size_t k, size_t rows, size_t expected);

// Element k of an array value, or the value itself.
template <class V>
decltype(auto) element(V&& v, size_t k) {
  if constexpr (Family<std::remove_cvref_t<V>>::size)
    return (std::forward<V>(v)[k]);
  else
    return std::forward<V>(v);
}

template <auto M>
struct MemberGet {
  decltype(auto) operator()(const auto& x) const { return (x.*M); }
};

// Dataset k of column c: fixed-length text when the column has a width (fixed_width), else
// the values' own type.
template <class T>
void write_values(const Group& g, const ColumnInfo& c, size_t k, const std::vector<T>& v, const Layout& layout) {
  if constexpr (std::is_same_v<T, std::string>)
    if (c.width) return write_fixed_text(g, dataset_name(c, k), v, c.width, dataset_doc(c, k), layout);
  write_column(g, dataset_name(c, k), v, dataset_doc(c, k), layout);
}

// Row tables: a column of Get(row), or one per key when that is a std::array.
template <class Row, class Get>
void write_rows(const Group& g, const ColumnInfo& c, std::span<const Row> rows, const Layout& layout) {
  using V = std::remove_cvref_t<std::invoke_result_t<Get, const Row&>>;
  for (size_t k = 0; k < datasets(c); ++k) {
    std::vector<typename Family<V>::Elem> v;
    v.reserve(rows.size());
    for (const Row& r : rows) v.push_back(element(Get{}(r), k));
    write_values(g, c, k, v, layout);
  }
}

template <class Row, auto M>
size_t read_rows(const Group& g, const ColumnInfo& c, std::vector<Row>& rows, bool first, RowRange range) {
  using V = typename MemberOf<decltype(M)>::Value;
  for (size_t k = 0; k < datasets(c); ++k) {
    std::vector<typename Family<V>::Elem> v;
    read_column(g, dataset_name(c, k), v, range);
    if (first && k == 0) rows.resize(v.size());
    check_rows(c, k, v.size(), rows.size());
    for (size_t i = 0; i < v.size(); ++i) element(rows[i].*M, k) = v[i];
  }
  return rows.size();
}

// Structs of column vectors: the member vector itself, or one column per key of its arrays.
template <class Cols, auto M>
void write_member(const Group& g, const ColumnInfo& c, const Cols& cols, const Layout& layout) {
  using E = typename MemberOf<decltype(M)>::Value::value_type;
  if constexpr (Family<E>::size == 0) {
    write_values(g, c, 0, cols.*M, layout);
  } else {
    write_rows<E, std::identity>(g, c, cols.*M, layout);
  }
}

template <class Cols, auto M>
size_t read_member(const Group& g, const ColumnInfo& c, Cols& cols, bool, RowRange rows) {
  using E = typename MemberOf<decltype(M)>::Value::value_type;
  if constexpr (Family<E>::size == 0) {
    read_column(g, dataset_name(c, 0), cols.*M, rows);
  } else {
    for (size_t k = 0; k < datasets(c); ++k) {
      std::vector<typename Family<E>::Elem> v;
      read_column(g, dataset_name(c, k), v, rows);
      if (k == 0) (cols.*M).assign(v.size(), E{});
      check_rows(c, k, v.size(), (cols.*M).size());
      for (size_t i = 0; i < v.size(); ++i) (cols.*M)[i][k] = v[i];
    }
  }
  return (cols.*M).size();
}

// A text longer than its column's width: the error of every writer of fixed-width text.
[[noreturn]] void text_too_long(const std::string& dataset, const std::string& text, size_t width);

template <class Cols, auto M, size_t W>
void write_bytes(const Group& g, const ColumnInfo& c, const Cols& cols, const Layout& layout) {
  write_byte_rows(g, dataset_name(c, 0), cols.*M, W, dataset_doc(c, 0), layout);
}

template <class Cols, auto M, size_t W>
size_t read_bytes(const Group& g, const ColumnInfo& c, Cols& cols, bool, RowRange rows) {
  read_byte_rows(g, dataset_name(c, 0), cols.*M, W, rows);
  return (cols.*M).size() / W;
}

template <class T>
struct Unoptional {
  using Type = T;
};
template <class T>
struct Unoptional<std::optional<T>> {
  using Type = T;
};

// An attribute's type from its getter's: text of any kind is str.
template <class R>
using AttrValue = std::conditional_t<std::is_convertible_v<R, std::string_view>, std::string,
                                     typename Unoptional<std::remove_cvref_t<R>>::Type>;

// A member's attribute type: integers and bools widen to int64, as h5py users expect of
// counts and flags; uint64 stays unsigned.
template <class V>
using Widened =
    std::conditional_t<std::is_same_v<V, bool> || (std::is_integral_v<V> && std::is_signed_v<V>), int64_t, V>;

template <class Src, auto M, class T>
void write_member_attr(const Group& g, const AttrInfo& a, const Src& src) {
  set_attr(g, std::string(a.name), T(src.*M));
}

template <class Src, class F, class T>
void write_attr(const Group& g, const AttrInfo& a, const Src& src) {
  auto v = F{}(src);
  if constexpr (std::is_same_v<decltype(v), std::optional<T>>) {
    if (v) set_attr(g, std::string(a.name), *v);
  } else {
    set_attr(g, std::string(a.name), T(v));
  }
}

std::string readme_heading(std::string_view group, std::string_view description);
std::string readme_line(const ColumnInfo& c);
std::string readme_line(const AttrInfo& a);

}  // namespace detail

// A column from a member M: of row structs (Src = std::vector<Row>), or a vector member of a
// struct of column vectors (Src = that struct). A std::array member (or a vector of them)
// gives a family of columns, one per key.
template <auto M>
constexpr auto column(std::string_view name, std::string_view description, const Keys* keys = nullptr) {
  using C = typename detail::MemberOf<decltype(M)>::Class;
  using V = typename detail::MemberOf<decltype(M)>::Value;
  if constexpr (detail::IsVector<V>::value) {
    using E = typename V::value_type;
    using T = typename detail::Family<E>::Elem;
    return Column<C>{{name, description, type_of<T>(), 0, detail::check_keys<E>(keys)},
                     &detail::write_member<C, M>,
                     &detail::read_member<C, M>,
                     &detail::member_tag<M>};
  } else {
    using T = typename detail::Family<V>::Elem;
    return Column<std::vector<C>>{{name, description, type_of<T>(), 0, detail::check_keys<V>(keys)},
                                  &detail::write_rows<C, detail::MemberGet<M>>,
                                  &detail::read_rows<C, M>,
                                  &detail::member_tag<M>};
  }
}

// A column computed from each row by get (a lambda without captures); written, not read.
template <class Row, class F>
constexpr Column<std::vector<Row>> computed(std::string_view name, std::string_view description, F) {
  using T = std::remove_cvref_t<std::invoke_result_t<F, const Row&>>;
  return {{name, description, type_of<T>()}, &detail::write_rows<Row, F>, nullptr, nullptr};
}

// Rows of Width bytes from a flat std::vector<uint8_t> member M of a struct of column
// vectors: a 2-D uint8 dataset.
template <auto M, size_t Width>
constexpr auto byte_rows(std::string_view name, std::string_view description) {
  using C = typename detail::MemberOf<decltype(M)>::Class;
  static_assert(std::is_same_v<typename detail::MemberOf<decltype(M)>::Value, std::vector<uint8_t>>);
  return Column<C>{{name, description, Type::BYTES, Width},
                   &detail::write_bytes<C, M, Width>,
                   &detail::read_bytes<C, M, Width>,
                   &detail::member_tag<M>};
}

// A text column of at most width bytes a row, stored as fixed-length strings
// (h5::write_fixed_text says why); files written before with variable-length strings read
// alike. E.g. h5::fixed_width(h5::column<&Positions::move>("move", "..."), 5).
template <class Src>
constexpr Column<Src> fixed_width(Column<Src> c, size_t width) {
  if (c.type != Type::STR || width == 0) throw Error("HDF5: a fixed width is for text columns");
  c.width = width;
  return c;
}

// A column added to a table after files were written without it: read_table leaves it
// empty in those files, and the reader derives it or does without.
template <class Src>
constexpr Column<Src> since_added(Column<Src> c) {
  c.since_added = true;
  return c;
}

// A table from a braced list of columns, which all read the same Src.
template <class Src, size_t N>
constexpr Table<Src, N> table(std::string_view group, std::string_view description, const Column<Src> (&columns)[N]) {
  return {group, description, std::to_array(columns)};
}

// The name of t's column that holds member M (of the row struct or the struct of columns),
// found at compile time (a table without one does not compile): a reader names a column
// through the table's declaration, never as a literal, so that renaming it is one change.
// E.g. h5::name_of<&Positions::move>(POSITIONS) is "move".
template <auto M, class Src, size_t N>
consteval std::string_view name_of(const Table<Src, N>& t) {
  for (const Column<Src>& c : t.columns)
    if (c.member == &detail::member_tag<M>) return c.name;
  throw Error("HDF5: the table has no column of that member");
}

// The same column's place in t.columns, for a writer that keeps a value per column.
template <auto M, class Src, size_t N>
consteval size_t index_of(const Table<Src, N>& t) {
  for (size_t i = 0; i < N; ++i)
    if (t.columns[i].member == &detail::member_tag<M>) return i;
  throw Error("HDF5: the table has no column of that member");
}

// Creates the table's group in parent and writes every column.
template <class Src, size_t N>
void write_table(const Group& parent, const Table<Src, N>& t, typename Data<Src>::In data) {
  Group g = create_group(parent, t.group);
  for (const Column<Src>& c : t.columns) c.write(g, c, data, Layout{});
}

// A table of rows written as they come: rows wait until batch_rows of them are there, then
// go to the end of the table's datasets (extendible, chunked by batch_rows rows) and leave
// memory, so a table of any length costs one batch. The group and its empty datasets are
// created with the appender; finish() writes the rows still waiting. Throws Error as the
// writes do.
template <class Row, size_t N>
class TableAppender {
 public:
  using Rows = std::vector<Row>;

  TableAppender(const Group& parent, const Table<Rows, N>& t, size_t batch_rows)
      : table_(t), group_(create_group(parent, t.group)), layout_{true, batch_rows} {
    write_waiting();
  }
  void add(Row&& row) {
    waiting_.push_back(std::move(row));
    if (waiting_.size() >= layout_.chunk_rows) write_waiting();
  }
  void finish() { write_waiting(); }

 private:
  void write_waiting() {
    for (const Column<Rows>& c : table_.columns) c.write(group_, c, waiting_, layout_);
    waiting_.clear();
  }

  const Table<Rows, N>& table_;
  Group group_;
  Layout layout_;
  Rows waiting_;
};

// A table of a struct of column vectors written in batches: each write() goes to the end
// of the table's datasets (extendible, chunked by chunk_rows rows), so that a table of
// any length costs one batch of memory. The group and its empty datasets are created
// with the appender. Throws Error as the writes do.
template <class Cols, size_t N>
class ColumnAppender {
 public:
  ColumnAppender(const Group& parent, const Table<Cols, N>& t, size_t chunk_rows, int deflate = Layout{}.deflate)
      : table_(t), group_(create_group(parent, t.group)), layout_{true, chunk_rows, deflate} {
    write(Cols{});
  }
  void write(const Cols& batch) {
    for (const Column<Cols>& c : table_.columns) c.write(group_, c, batch, layout_);
  }

 private:
  const Table<Cols, N>& table_;
  Group group_;
  Layout layout_;
};

// The same datasets as ColumnAppender writes (created alike, so chunked and filtered
// alike), their chunks made by the caller from rows it wrote as the file stores them
// (chunk_row_bytes): encode() a chunk's rows on any thread, several at once (no HDF5 call:
// the deflate runs there, h5_chunk.h), then write() the chunks one at a time, in row
// order, each a whole chunk but the last. Readers find the file as ColumnAppender would
// have left it. A table of families or of variable-length text has no such chunks: the
// constructor throws Error, as the writes do.
template <class Cols, size_t N>
class ChunkAppender {
 public:
  ChunkAppender(const Group& parent, const Table<Cols, N>& t, size_t chunk_rows, int deflate = Layout{}.deflate)
      : group_(create_group(parent, t.group)) {
    const Layout layout{true, chunk_rows, deflate};
    for (const Column<Cols>& c : t.columns) {
      c.write(group_, c, Cols{}, layout);
      const std::string name = detail::dataset_name(c, 0);
      Dataset d{name, chunk_format(group_, name)};
      if (c.keys || !chunk_row_bytes(c) || d.format.element_bytes * d.format.row_elements != chunk_row_bytes(c))
        throw Error("HDF5: column " + name + " cannot be written a chunk at a time");
      datasets_.push_back(std::move(d));
    }
  }
  size_t chunk_rows() const { return datasets_.front().format.chunk_rows; }
  // One a column, in the table's order.
  size_t datasets() const { return datasets_.size(); }
  // Dataset d of a chunk, deflated: its rows are the pieces one after the other (together
  // at most chunk_rows() rows, chunk_row_bytes of the column's each).
  std::vector<uint8_t> encode(size_t d, std::span<const std::span<const uint8_t>> pieces) const {
    const Dataset& ds = datasets_[d];
    const size_t row_bytes = ds.format.element_bytes * ds.format.row_elements;
    // A whole chunk, zeros past the rows (the fill value), as HDF5 stores the last one; in
    // a buffer each thread keeps (deflate_chunk says why).
    thread_local std::vector<uint8_t> raw;
    raw.resize(ds.format.chunk_rows * row_bytes);
    size_t at = 0;
    for (std::span<const uint8_t> p : pieces) {
      if (p.size() % row_bytes || at + p.size() > raw.size())
        throw Error("HDF5: not whole rows of a chunk of " + ds.name);
      std::memcpy(raw.data() + at, p.data(), p.size());
      at += p.size();
    }
    std::memset(raw.data() + at, 0, raw.size() - at);
    return deflate_chunk(raw, ds.format.element_bytes, ds.format.shuffle);
  }
  // Appends a chunk of `rows` rows after the rows written before (whole chunks): each
  // dataset's bytes as encode() made them, in datasets() order.
  void write(size_t rows, std::span<const std::vector<uint8_t>> bytes) {
    if (rows_ % chunk_rows() != 0) throw Error("HDF5: a chunk after the table's last, partial one");
    for (size_t d = 0; d < datasets_.size(); ++d) append_chunk(group_, datasets_[d].name, rows_, rows, bytes[d]);
    rows_ += rows;
  }

 private:
  struct Dataset {
    std::string name;
    ChunkFormat format;
  };

  Group group_;
  std::vector<Dataset> datasets_;
  size_t rows_ = 0;
};

// Reads the table's group into data (empty rows, or a struct of empty columns): every
// column but the computed ones, the since_added ones the file lacks, and those named in
// leave_out (a reader that needs few columns of a big table: they stay empty); of the
// rows in range, every row by default. Throws Error when one is missing or of another
// length than the first read (so that no reader indexes past a short column's end).
template <class Src, size_t N>
void read_table(const Group& parent, const Table<Src, N>& t, Src& data,
                std::span<const std::string_view> leave_out = {}, RowRange rows = {}) {
  Group g = open_group(parent, t.group);
  bool first = true;
  size_t expected = 0;
  for (const Column<Src>& c : t.columns)
    if (c.read && (!c.since_added || has_dataset(g, detail::dataset_name(c, 0))) &&
        std::find(leave_out.begin(), leave_out.end(), c.name) == leave_out.end()) {
      const bool is_first = std::exchange(first, false);
      const size_t read = c.read(g, c, data, is_first, rows);
      if (is_first) expected = read;
      detail::check_rows(c, 0, read, expected);
    }
}

// The table's part of the README: "/group: description", then a line a column,
// "  name (type): description".
template <class Src, size_t N>
std::string readme(const Table<Src, N>& t) {
  std::string s = detail::readme_heading(t.group, t.description);
  for (const ColumnInfo& c : t.columns) s += detail::readme_line(c);
  return s;
}

// A root attribute with its value from get(src) (a lambda without captures), which may
// be a std::optional: the attribute is written only when it has a value.
template <class Src, class F>
constexpr RootAttr<Src> attr(std::string_view name, std::string_view description, F) {
  using T = detail::AttrValue<std::invoke_result_t<F, const Src&>>;
  return {{name, description, type_of<T>()}, &detail::write_attr<Src, F, T>};
}

// The same for an attribute declared for its readers.
template <class Src, class T, class F>
constexpr RootAttr<Src> attr(const Attr<T>& a, F) {
  using R = std::remove_cvref_t<std::invoke_result_t<F, const Src&>>;
  static_assert(std::is_constructible_v<T, R> || std::is_same_v<R, std::optional<T>>, "a value of the declared type");
  return {{a.name, a.description, type_of<T>()}, &detail::write_attr<Src, F, T>};
}

// A root attribute from a member M of Src, widened as Widened says.
template <auto M>
constexpr auto attr(std::string_view name, std::string_view description) {
  using Src = typename detail::MemberOf<decltype(M)>::Class;
  using T = detail::Widened<typename detail::MemberOf<decltype(M)>::Value>;
  return RootAttr<Src>{{name, description, type_of<T>()}, &detail::write_member_attr<Src, M, T>};
}

template <class Src, size_t N>
void write_attrs(const Group& g, const std::array<RootAttr<Src>, N>& attrs, const Src& src) {
  for (const RootAttr<Src>& a : attrs) a.write(g, a, src);
}

// "heading:" then a line an attribute, "  name (type): description".
template <class Src, size_t N>
std::string readme(std::string_view heading, const std::array<RootAttr<Src>, N>& attrs) {
  std::string s = std::string(heading) + ":\n";
  for (const AttrInfo& a : attrs) s += detail::readme_line(a);
  return s;
}

}  // namespace chesshpc::h5
