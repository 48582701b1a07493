#include "jobs/io/h5.h"

#include <hdf5.h>
#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <utility>

#include "jobs/io/h5_table.h"
#include "jobs/io/publish.h"
#include "jobs/io/version.h"

namespace chesshpc::h5 {

static_assert(std::is_same_v<hid_t, int64_t>, "Group keeps an hid_t as an int64_t");

namespace {

// No clean-up at exit: HDF5 1.10 leaves a file whose close failed (a full disk) half
// closed, and its atexit handler then crashes on it (SIGSEGV in H5F__close_cb). Every file
// is closed, or abandoned after a failure, before the process ends anyway. Must run before
// any other HDF5 call, hence at static initialisation: only this file calls HDF5.
struct NoCleanupAtExit {
  NoCleanupAtExit() { H5dont_atexit(); }
} no_cleanup_at_exit;

// HDF5 prints its error stack on stderr by default, and in a thread-safe build (Debian's)
// that setting is per thread: every thread turns it off before its first call, and
// failures become one Error line each.
void quiet_this_thread() {
  thread_local const bool quiet = H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr) >= 0;
  (void)quiet;
}

// Why the HDF5 call that just failed on this thread failed: the system's words for the
// errno its file driver recorded ("No space left on device"), else HDF5's innermost
// message. Reads this thread's error stack, so it comes before any other HDF5 call.
std::string failure_cause() {
  struct Found {
    int err = 0;
    std::string innermost;
  } found;
  auto visit = [](unsigned, const H5E_error2_t* e, void* data) -> herr_t {
    auto& f = *static_cast<Found*>(data);
    std::string_view desc = e->desc ? e->desc : "";
    if (size_t at = desc.find("errno = "); at != std::string_view::npos && f.err == 0)
      f.err = std::atoi(e->desc + at + 8);
    if (!desc.empty()) f.innermost = desc.substr(0, desc.find_first_of(",\n"));
    return 0;
  };
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, visit, &found);
  if (found.err > 0) return std::strerror(found.err);
  return found.innermost.empty() ? "HDF5 gave no reason" : found.innermost;
}

// The name of the file that holds obj, or "" when there is none.
std::string file_name(hid_t obj) {
  ssize_t n = obj < 0 ? -1 : H5Fget_name(obj, nullptr, 0);
  if (n <= 0) return "";
  std::string name(size_t(n) + 1, '\0');
  H5Fget_name(obj, name.data(), name.size());
  name.resize(size_t(n));
  return name;
}

// One line for a failed call on the file of `in` (any of its objects; -1: none):
// "cannot write dataset fen in 'p.h5.partial': No space left on device".
[[noreturn]] void fail(hid_t in, const std::string& what) {
  std::string cause = failure_cause();  // first: any other HDF5 call clears the stack
  std::string file = file_name(in);
  throw Error("cannot " + what + (file.empty() ? "" : " in '" + file + "'") + ": " + cause);
}

hid_t check(hid_t id, hid_t in, const std::string& what) {
  if (id < 0) fail(in, what);
  return id;
}

void check_status(herr_t status, hid_t in, const std::string& what) {
  if (status < 0) fail(in, what);
}

}  // namespace

// The one place a Group's id turns back into an hid_t, and an hid_t into a Group.
struct Id {
  static hid_t of(const Group& g) {
    quiet_this_thread();  // a group may be used on another thread than the one that opened it
    return g.id_;
  }
  static Group group(hid_t id) { return Group(id); }
};

namespace {

// A type, dataspace, property list, dataset or attribute id, closed on destruction.
class Handle {
 public:
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  Handle(Handle&& o) noexcept : id_(std::exchange(o.id_, -1)), close_(o.close_) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  hid_t id() const { return id_; }
  // Closes now and throws on failure, naming the file of `in`: a dataset's close writes
  // the chunks still cached, which fails on a full disk as a write does.
  void close(hid_t in, const std::string& what) {
    if (close_(std::exchange(id_, -1)) < 0) fail(in, what);
  }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

Handle string_type() {
  Handle t(check(H5Tcopy(H5T_C_S1), -1, "create a string type"), H5Tclose);
  H5Tset_size(t.id(), H5T_VARIABLE);
  H5Tset_cset(t.id(), H5T_CSET_UTF8);
  return t;
}

Handle fixed_string_type(size_t width) {
  Handle t(check(H5Tcopy(H5T_C_S1), -1, "create a string type"), H5Tclose);
  H5Tset_size(t.id(), width);
  H5Tset_strpad(t.id(), H5T_STR_NULLPAD);
  return t;
}

Handle bool_type() {
  Handle t(check(H5Tenum_create(H5T_NATIVE_INT8), -1, "create a bool type"), H5Tclose);
  int8_t no = 0, yes = 1;
  H5Tenum_insert(t.id(), "FALSE", &no);
  H5Tenum_insert(t.id(), "TRUE", &yes);
  return t;
}

void scalar_attr(hid_t obj, const std::string& name, hid_t type, const void* value) {
  Handle space(check(H5Screate(H5S_SCALAR), obj, "create a scalar dataspace"), H5Sclose);
  Handle a(
      check(H5Acreate2(obj, name.c_str(), type, space.id(), H5P_DEFAULT, H5P_DEFAULT), obj, "create attribute " + name),
      H5Aclose);
  check_status(H5Awrite(a.id(), type, value), obj, "write attribute " + name);
}

void string_attr(hid_t obj, const std::string& name, const std::string& value) {
  Handle t = string_type();
  const char* p = value.c_str();
  scalar_attr(obj, name, t.id(), &p);
}

// A chunked, deflated dataset of `rows` rows of `cols` elements of type (1-D when cols is
// 0), extendible in rows, chunked by chunk_rows rows.
Handle create_rows(hid_t in, const std::string& name, hid_t type, size_t rows, size_t cols, size_t chunk_rows,
                   const std::string& doc, int deflate) {
  int rank = cols ? 2 : 1;
  hsize_t dims[2] = {rows, cols}, maxdims[2] = {H5S_UNLIMITED, cols}, chunk[2] = {chunk_rows, cols};
  Handle space(check(H5Screate_simple(rank, dims, maxdims), in, "create a dataspace for " + name), H5Sclose);
  Handle plist(check(H5Pcreate(H5P_DATASET_CREATE), in, "create a property list"), H5Pclose);
  H5Pset_chunk(plist.id(), rank, chunk);
  // Shuffling bytes by their place in an element helps numbers compress, and hurts text:
  // 199 K FENs as fixed-length text deflate to 2.1 MB unshuffled, 4.1 MB shuffled.
  if (H5Tget_class(type) != H5T_STRING || H5Tis_variable_str(type) > 0) H5Pset_shuffle(plist.id());
  H5Pset_deflate(plist.id(), unsigned(deflate));
  Handle ds(check(H5Dcreate2(in, name.c_str(), type, space.id(), H5P_DEFAULT, plist.id(), H5P_DEFAULT), in,
                  "create dataset " + name),
            H5Dclose);
  if (!doc.empty()) string_attr(ds.id(), "description", doc);
  return ds;
}

// A transfer property list whose type-conversion buffer holds `elements` elements of the
// larger of the memory and the file type, from 64 KB (HDF5 asks for more than one element
// of some conversions: "temporary buffer max size is too small") up to HDF5's default of
// 1 MB: HDF5 allocates and zeroes the whole buffer at every read or write that converts
// (variable-length strings), so with the default a table of a few rows cleared 1 MB a
// string column (rescore's OUT of 16 positions in selfplay's layout: 32 MB of fresh pages,
// some 0.1 s of CPU).
Handle transfer_for(hid_t ds, hid_t mem_type, size_t elements) {
  constexpr size_t LEAST = size_t(64) << 10, HDF5_DEFAULT = size_t(1) << 20;
  Handle file_type(check(H5Dget_type(ds), ds, "read a dataset's type"), H5Tclose);
  const size_t per = std::max(H5Tget_size(mem_type), H5Tget_size(file_type.id()));
  const size_t least = std::max(per, LEAST);
  Handle plist(check(H5Pcreate(H5P_DATASET_XFER), ds, "create a transfer property list"), H5Pclose);
  const size_t bytes = std::clamp(elements * per, least, std::max(least, HDF5_DEFAULT));
  check_status(H5Pset_buffer(plist.id(), bytes, nullptr, nullptr), ds, "size a transfer's buffer");
  return plist;
}

// Writes `rows` rows of `cols` elements (1-D when cols is 0) as layout says: a new dataset
// chunked by up to whole_chunk_rows rows, or the end of the extendible one.
void write_rows(const Group& parent, const std::string& name, hid_t type, size_t rows, size_t cols,
                size_t whole_chunk_rows, const void* data, const std::string& doc, const Layout& layout) {
  const hid_t in = Id::of(parent);
  const std::string what = "write dataset " + name;
  const bool exists = layout.append && H5Lexists(in, name.c_str(), H5P_DEFAULT) > 0;
  Handle ds =
      exists ? Handle(check(H5Dopen2(in, name.c_str(), H5P_DEFAULT), in, "open dataset " + name), H5Dclose)
      : layout.append
          ? create_rows(in, name, type, 0, cols, std::max<size_t>(layout.chunk_rows, 1), doc, layout.deflate)
          : create_rows(in, name, type, rows, cols, std::clamp<size_t>(rows, 1, whole_chunk_rows), doc, layout.deflate);
  hsize_t at = 0;
  if (layout.append) {
    Handle space(check(H5Dget_space(ds.id()), in, "read the shape of " + name), H5Sclose);
    hsize_t dims[2] = {0, 0};
    H5Sget_simple_extent_dims(space.id(), dims, nullptr);
    at = dims[0];
    hsize_t grown[2] = {at + rows, cols};
    if (rows) check_status(H5Dset_extent(ds.id(), grown), in, "extend dataset " + name);
  }
  if (rows) {
    int rank = cols ? 2 : 1;
    hsize_t start[2] = {at, 0}, count[2] = {rows, cols};
    Handle file_space(check(H5Dget_space(ds.id()), in, "read the shape of " + name), H5Sclose);
    check_status(H5Sselect_hyperslab(file_space.id(), H5S_SELECT_SET, start, nullptr, count, nullptr), in, what);
    Handle mem_space(check(H5Screate_simple(rank, count, nullptr), in, "create a dataspace for " + name), H5Sclose);
    Handle transfer = transfer_for(ds.id(), type, rows * std::max<size_t>(cols, 1));
    check_status(H5Dwrite(ds.id(), type, mem_space.id(), file_space.id(), transfer.id(), data), in, what);
  }
  ds.close(in, what);
}

Handle open_dataset(hid_t in, const std::string& name) {
  return Handle(check(H5Dopen2(in, name.c_str(), H5P_DEFAULT), in, "open dataset " + name), H5Dclose);
}

void write_1d(const Group& parent, const std::string& name, hid_t type, size_t n, const void* data,
              const std::string& doc, const Layout& layout) {
  write_rows(parent, name, type, n, 0, 65536, data, doc, layout);
}

}  // namespace

ChunkFormat chunk_format(const Group& g, const std::string& name) {
  const hid_t in = Id::of(g);
  Handle ds = open_dataset(in, name);
  Handle type(check(H5Dget_type(ds.id()), in, "read the type of " + name), H5Tclose);
  Handle plist(check(H5Dget_create_plist(ds.id()), in, "read the layout of " + name), H5Pclose);
  hsize_t chunk[2] = {0, 1};
  const int rank = H5Pget_chunk(plist.id(), 2, chunk);
  if (rank < 1) fail(in, "read the chunks of " + name);
  unsigned flags = 0;
  size_t n = 0;
  const bool shuffle =
      H5Pget_filter_by_id2(plist.id(), H5Z_FILTER_SHUFFLE, &flags, &n, nullptr, 0, nullptr, nullptr) >= 0;
  H5Eclear2(H5E_DEFAULT);  // a filter not found leaves an error on the stack
  return {H5Tget_size(type.id()), rank == 2 ? size_t(chunk[1]) : 1, size_t(chunk[0]), shuffle};
}

void append_chunk(const Group& g, const std::string& name, size_t at, size_t rows, std::span<const uint8_t> bytes) {
  const hid_t in = Id::of(g);
  const std::string what = "write dataset " + name;
  Handle ds = open_dataset(in, name);
  Handle space(check(H5Dget_space(ds.id()), in, "read the shape of " + name), H5Sclose);
  hsize_t dims[2] = {0, 0};
  H5Sget_simple_extent_dims(space.id(), dims, nullptr);
  if (dims[0] != at) throw Error("HDF5: a chunk of " + name + " at row " + std::to_string(at) + ", not at its end");
  dims[0] = at + rows;
  check_status(H5Dset_extent(ds.id(), dims), in, "extend dataset " + name);
  hsize_t offset[2] = {at, 0};
  check_status(H5Dwrite_chunk(ds.id(), H5P_DEFAULT, 0, offset, bytes.size(), bytes.data()), in, what);
  ds.close(in, what);
}

Group& Group::operator=(Group&& o) noexcept {
  if (this != &o) {
    close();
    id_ = std::exchange(o.id_, -1);
  }
  return *this;
}

// A file's id closes as a file, a group's as a group. The id is given up either way: after
// a failed close HDF5 1.10 has freed the file, and a second close would crash.
bool Group::close() {
  if (id_ < 0) return true;
  hid_t id = std::exchange(id_, -1);
  return (H5Iget_type(id) == H5I_FILE ? H5Fclose(id) : H5Gclose(id)) >= 0;
}

File::File(const std::string& path) : path_(publish_target(path)), partial_(path_ + ".partial") {
  quiet_this_thread();
  // A close while a group or dataset of the file is still open fails (rather than leave
  // the file open until that object closes): commit() would sync and publish a file that
  // HDF5 still writes to after it.
  Handle access(check(H5Pcreate(H5P_FILE_ACCESS), -1, "create a file access property list"), H5Pclose);
  H5Pset_fclose_degree(access.id(), H5F_CLOSE_SEMI);
  hid_t id = H5Fcreate(partial_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.id());
  if (id < 0) {
    std::string cause = failure_cause();
    std::remove(partial_.c_str());  // HDF5 may have made it before it failed (a full disk)
    throw Error("cannot create '" + partial_ + "': " + cause);
  }
  Group::operator=(Id::group(id));
}

// Without commit() the partial file goes, whatever HDF5 managed to write of it: on a full
// disk that gives the space back.
File::~File() {
  if (committed_) return;
  close();
  std::remove(partial_.c_str());
}

void File::commit() {
  // The flush writes what HDF5 still caches, and the close the file's last metadata: a
  // failure of either is a failed write.
  if (H5Fflush(Id::of(*this), H5F_SCOPE_GLOBAL) < 0 || !close())
    throw Error("cannot write '" + partial_ + "': " + failure_cause());
  if (const std::string why = publish(partial_, path_); !why.empty()) throw Error(why);
  committed_ = true;
}

std::string write_error(const std::function<void()>& write) {
  try {
    write();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

Group open_read(const std::string& path) {
  quiet_this_thread();
  hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (id < 0) throw Error("cannot open '" + path + "' as an HDF5 file");
  return Id::group(id);
}

Group create_group(const Group& parent, std::string_view name) {
  std::string n(name);
  const hid_t in = Id::of(parent);
  return Id::group(check(H5Gcreate2(in, n.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), in, "create group " + n));
}

Group open_group(const Group& parent, std::string_view name) {
  std::string n(name);
  const hid_t in = Id::of(parent);
  return Id::group(check(H5Gopen2(in, n.c_str(), H5P_DEFAULT), in, "open group " + n));
}

void write_column(const Group& g, const std::string& name, const std::vector<int32_t>& v, const std::string& doc,
                  const Layout& layout) {
  write_1d(g, name, H5T_NATIVE_INT32, v.size(), v.data(), doc, layout);
}
void write_column(const Group& g, const std::string& name, const std::vector<int64_t>& v, const std::string& doc,
                  const Layout& layout) {
  write_1d(g, name, H5T_NATIVE_INT64, v.size(), v.data(), doc, layout);
}
void write_column(const Group& g, const std::string& name, const std::vector<uint64_t>& v, const std::string& doc,
                  const Layout& layout) {
  write_1d(g, name, H5T_NATIVE_UINT64, v.size(), v.data(), doc, layout);
}
void write_column(const Group& g, const std::string& name, const std::vector<double>& v, const std::string& doc,
                  const Layout& layout) {
  write_1d(g, name, H5T_NATIVE_DOUBLE, v.size(), v.data(), doc, layout);
}
void write_column(const Group& g, const std::string& name, const std::vector<std::string>& v, const std::string& doc,
                  const Layout& layout) {
  std::vector<const char*> ptrs;
  ptrs.reserve(v.size());
  for (const auto& s : v) ptrs.push_back(s.c_str());
  Handle t = string_type();
  write_1d(g, name, t.id(), v.size(), ptrs.data(), doc, layout);
}
void write_fixed_text(const Group& g, const std::string& name, const std::vector<std::string>& v, size_t width,
                      const std::string& doc, const Layout& layout) {
  std::vector<char> flat(v.size() * width, '\0');
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i].size() > width) detail::text_too_long(name, v[i], width);
    std::copy(v[i].begin(), v[i].end(), flat.begin() + long(i * width));
  }
  Handle t = fixed_string_type(width);
  write_1d(g, name, t.id(), v.size(), flat.data(), doc, layout);
}
void write_column(const Group& g, const std::string& name, const std::vector<bool>& v, const std::string& doc,
                  const Layout& layout) {
  std::vector<int8_t> bytes(v.begin(), v.end());
  Handle t = bool_type();
  write_1d(g, name, t.id(), bytes.size(), bytes.data(), doc, layout);
}

void write_byte_rows(const Group& g, const std::string& name, const std::vector<uint8_t>& flat, size_t cols,
                     const std::string& doc, const Layout& layout) {
  write_rows(g, name, H5T_NATIVE_UINT8, flat.size() / cols, cols, 8192, flat.data(), doc, layout);
}

namespace {

Handle open_attr(const Group& obj, const std::string& name) {
  const hid_t in = Id::of(obj);
  return Handle(check(H5Aopen(in, name.c_str(), H5P_DEFAULT), in, "open attribute " + name), H5Aclose);
}

Handle open_dataset(const Group& parent, const std::string& name) {
  const hid_t in = Id::of(parent);
  return Handle(check(H5Dopen2(in, name.c_str(), H5P_DEFAULT), in, "open dataset " + name), H5Dclose);
}

// The dataset's dimensions, after checking it has `rank` of them.
std::vector<hsize_t> dims_of(const Handle& ds, const std::string& name, int rank, const char* what) {
  Handle space(check(H5Dget_space(ds.id()), ds.id(), "read the shape of " + name), H5Sclose);
  if (H5Sget_simple_extent_ndims(space.id()) != rank) throw Error("HDF5: dataset " + name + " is not " + what);
  std::vector<hsize_t> dims(size_t(rank), 0);
  H5Sget_simple_extent_dims(space.id(), dims.data(), nullptr);
  return dims;
}

// Reads rows (clipped to the dataset's) of a dataset of `cols` elements a row (1-D when cols
// is 0) in memory type `type` into out, `per` elements of T an element.
template <typename T>
void read_range(const Handle& ds, const std::string& name, hid_t type, size_t cols, RowRange rows, std::vector<T>& out,
                size_t per) {
  const std::vector<hsize_t> dims = dims_of(ds, name, cols ? 2 : 1, cols ? "a table of rows" : "a column");
  if (cols && dims[1] != cols)
    throw Error("HDF5: dataset " + name + " has rows of " + std::to_string(dims[1]) + " bytes");
  const size_t first = std::min<size_t>(rows.first, dims[0]), n = std::min<size_t>(rows.count, dims[0] - first);
  const size_t width = std::max<size_t>(cols, 1);
  out.assign(n * width * per, T{});
  if (!n) return;
  const int rank = cols ? 2 : 1;
  hsize_t start[2] = {first, 0}, count[2] = {n, cols};
  Handle file_space(check(H5Dget_space(ds.id()), ds.id(), "read the shape of " + name), H5Sclose);
  check_status(H5Sselect_hyperslab(file_space.id(), H5S_SELECT_SET, start, nullptr, count, nullptr), ds.id(),
               "select rows of " + name);
  Handle mem_space(check(H5Screate_simple(rank, count, nullptr), ds.id(), "create a dataspace for " + name), H5Sclose);
  Handle transfer = transfer_for(ds.id(), type, n * width);
  check_status(H5Dread(ds.id(), type, mem_space.id(), file_space.id(), transfer.id(), out.data()), ds.id(),
               "read dataset " + name);
}

// The 1-D dataset's elements in memory type `type`, each `per` elements of T.
template <typename T>
void read_1d(const Group& parent, const std::string& name, hid_t type, std::vector<T>& out, RowRange rows,
             size_t per = 1) {
  read_range(open_dataset(parent, name), name, type, 0, rows, out, per);
}

// The width of a dataset of fixed-length strings; 0 for any other type.
size_t fixed_text_width(const Group& parent, const std::string& name) {
  Handle ds = open_dataset(parent, name);
  Handle t(check(H5Dget_type(ds.id()), ds.id(), "read the type of " + name), H5Tclose);
  if (H5Tget_class(t.id()) != H5T_STRING || H5Tis_variable_str(t.id()) > 0) return 0;
  return H5Tget_size(t.id());
}

}  // namespace

void set_attr(const Group& obj, const std::string& name, const std::string& value) {
  string_attr(Id::of(obj), name, value);
}
void set_attr(const Group& obj, const std::string& name, int64_t value) {
  scalar_attr(Id::of(obj), name, H5T_NATIVE_INT64, &value);
}
void set_attr(const Group& obj, const std::string& name, uint64_t value) {
  scalar_attr(Id::of(obj), name, H5T_NATIVE_UINT64, &value);
}
void set_attr(const Group& obj, const std::string& name, double value) {
  scalar_attr(Id::of(obj), name, H5T_NATIVE_DOUBLE, &value);
}

bool has_attr(const Group& obj, const std::string& name) { return H5Aexists(Id::of(obj), name.c_str()) > 0; }

bool has_dataset(const Group& g, const std::string& name) {
  return H5Lexists(Id::of(g), name.c_str(), H5P_DEFAULT) > 0;
}

void read_attr(const Group& obj, const std::string& name, std::string& out) {
  Handle a = open_attr(obj, name);
  Handle t = string_type();
  char* p = nullptr;
  check_status(H5Aread(a.id(), t.id(), &p), a.id(), "read attribute " + name + " as text");
  out = p ? p : "";
  H5free_memory(p);
}

void read_attr(const Group& obj, const std::string& name, int64_t& out) {
  Handle a = open_attr(obj, name);
  check_status(H5Aread(a.id(), H5T_NATIVE_INT64, &out), a.id(), "read attribute " + name + " as an integer");
}

void read_attr(const Group& obj, const std::string& name, uint64_t& out) {
  Handle a = open_attr(obj, name);
  check_status(H5Aread(a.id(), H5T_NATIVE_UINT64, &out), a.id(), "read attribute " + name + " as an integer");
}

void read_column(const Group& g, const std::string& name, std::vector<int32_t>& out, RowRange rows) {
  read_1d(g, name, H5T_NATIVE_INT32, out, rows);
}
void read_column(const Group& g, const std::string& name, std::vector<int64_t>& out, RowRange rows) {
  read_1d(g, name, H5T_NATIVE_INT64, out, rows);
}
void read_column(const Group& g, const std::string& name, std::vector<uint64_t>& out, RowRange rows) {
  read_1d(g, name, H5T_NATIVE_UINT64, out, rows);
}
void read_column(const Group& g, const std::string& name, std::vector<double>& out, RowRange rows) {
  read_1d(g, name, H5T_NATIVE_DOUBLE, out, rows);
}

void read_column(const Group& g, const std::string& name, std::vector<std::string>& out, RowRange rows) {
  if (size_t width = fixed_text_width(g, name)) {
    std::vector<char> flat;
    Handle t = fixed_string_type(width);
    read_1d(g, name, t.id(), flat, rows, width);
    out.resize(flat.size() / width);
    for (size_t i = 0; i < out.size(); ++i) {
      const char* p = flat.data() + i * width;
      out[i].assign(p, std::find(p, p + width, '\0'));
    }
    return;
  }
  Handle t = string_type();
  std::vector<char*> ptrs;
  read_1d(g, name, t.id(), ptrs, rows);
  out.clear();
  for (char* p : ptrs) out.push_back(p ? p : ""), H5free_memory(p);
}

void read_column(const Group& g, const std::string& name, std::vector<bool>& out, RowRange rows) {
  Handle t = bool_type();
  std::vector<int8_t> bytes;
  read_1d(g, name, t.id(), bytes, rows);
  out.assign(bytes.begin(), bytes.end());
}

void read_byte_rows(const Group& g, const std::string& name, std::vector<uint8_t>& flat, size_t cols, RowRange rows) {
  read_range(open_dataset(g, name), name, H5T_NATIVE_UINT8, cols, rows, flat, 1);
}

size_t rows_of(const Group& g, const std::string& name) {
  Handle ds = open_dataset(g, name);
  Handle space(check(H5Dget_space(ds.id()), ds.id(), "read the shape of " + name), H5Sclose);
  if (H5Sget_simple_extent_ndims(space.id()) < 1) throw Error("HDF5: dataset " + name + " has no rows");
  hsize_t dims[H5S_MAX_RANK];
  H5Sget_simple_extent_dims(space.id(), dims, nullptr);
  return dims[0];
}

bool is_job(const Group& obj, std::string_view job) { return has_attr(obj, JOB) && read_attr(obj, JOB) == job; }

namespace {

// The provenance attributes, as write_provenance writes them and the README lists them.
constexpr auto PROVENANCE = std::to_array({
    attr<Provenance>("program", "chesshpc", [](const Provenance&) { return "chesshpc"; }),
    attr<Provenance>("version", "chesshpc's version", [](const Provenance&) { return CHESSHPC_VERSION; }),
    attr<Provenance>("git_commit", "the commit the program was built from",
                     [](const Provenance&) { return CHESSHPC_GIT_COMMIT; }),
    attr<&Provenance::command_line>("command_line", "the command that wrote the file"),
    attr<Provenance>(HOST, [](const Provenance&) { return host_name(); }),
    attr<Provenance>(STARTED, [](const Provenance& p) { return p.started; }),
    attr<&Provenance::finished>("finished", "when it finished, ISO 8601 UTC; '' while unfinished"),
    attr<&Provenance::threads>("threads", "threads of each rank"),
    attr<&Provenance::ranks>("ranks", "MPI ranks"),
    attr<&Provenance::readme>("README", "this text"),
});

}  // namespace

void write_provenance(const Group& file, const Provenance& p) {
  Provenance with_readme = p;
  with_readme.readme += readme("Provenance (on every chesshpc result file)", PROVENANCE);
  write_attrs(file, PROVENANCE, with_readme);
}

}  // namespace chesshpc::h5
