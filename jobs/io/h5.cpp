#include "jobs/io/h5.h"

#include <fcntl.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "jobs/io/version.h"

namespace chesshpc::h5 {

namespace {

// HDF5 prints its own error stack to stderr by default; we report errors ourselves.
struct Quiet {
  Quiet() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }
} quiet;

hid_t check(hid_t id, const std::string& what) {
  if (id < 0) throw Error("HDF5: cannot " + what);
  return id;
}

void check(herr_t status, const std::string& what, int) {
  if (status < 0) throw Error("HDF5: cannot " + what);
}

Handle string_type() {
  Handle t(check(H5Tcopy(H5T_C_S1), "create a string type"), H5Tclose);
  H5Tset_size(t.id(), H5T_VARIABLE);
  H5Tset_cset(t.id(), H5T_CSET_UTF8);
  return t;
}

Handle bool_type() {
  Handle t(check(H5Tenum_create(H5T_NATIVE_INT8), "create a bool type"), H5Tclose);
  int8_t no = 0, yes = 1;
  H5Tenum_insert(t.id(), "FALSE", &no);
  H5Tenum_insert(t.id(), "TRUE", &yes);
  return t;
}

// A chunked, deflated dataset of `rows` rows of `cols` elements of type (1-D when cols
// is 0), extendible in rows, chunked by up to `chunk_rows` rows.
void write_rows(hid_t parent, const std::string& name, hid_t type, size_t rows, size_t cols, size_t chunk_rows,
                const void* data, const std::string& doc) {
  int rank = cols ? 2 : 1;
  hsize_t dims[2] = {rows, cols}, maxdims[2] = {H5S_UNLIMITED, cols};
  hsize_t chunk[2] = {std::clamp<hsize_t>(rows, 1, chunk_rows), cols};
  Handle space(check(H5Screate_simple(rank, dims, maxdims), "create a dataspace for " + name), H5Sclose);
  Handle plist(check(H5Pcreate(H5P_DATASET_CREATE), "create a property list"), H5Pclose);
  H5Pset_chunk(plist.id(), rank, chunk);
  H5Pset_shuffle(plist.id());
  H5Pset_deflate(plist.id(), 4);
  Handle ds(check(H5Dcreate2(parent, name.c_str(), type, space.id(), H5P_DEFAULT, plist.id(), H5P_DEFAULT),
                  "create dataset " + name),
            H5Dclose);
  if (rows) check(H5Dwrite(ds.id(), type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), "write dataset " + name, 0);
  if (!doc.empty()) set_attr(ds.id(), "description", doc);
}

void write_1d(hid_t parent, const std::string& name, hid_t type, size_t n, const void* data, const std::string& doc) {
  write_rows(parent, name, type, n, 0, 65536, data, doc);
}

}  // namespace

Handle& Handle::operator=(Handle&& o) noexcept {
  if (this != &o) {
    reset();
    id_ = o.id_, close_ = o.close_;
    o.id_ = -1;
  }
  return *this;
}

void Handle::reset() {
  if (id_ >= 0 && close_) close_(id_);
  id_ = -1;
}

File::File(const std::string& path) : path_(path), partial_(path + ".partial") {
  hid_t id = H5Fcreate(partial_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (id < 0) throw Error("cannot create '" + partial_ + "' (is the directory there and writable?)");
  file_ = Handle(id, H5Fclose);
}

File::~File() {
  if (committed_) return;
  file_.reset();
  std::remove(partial_.c_str());
}

void File::commit() {
  check(H5Fflush(file_.id(), H5F_SCOPE_GLOBAL), "flush " + partial_, 0);
  file_.reset();
  int fd = open(partial_.c_str(), O_RDONLY);
  if (fd < 0 || fsync(fd) != 0) {
    if (fd >= 0) close(fd);
    throw Error("cannot sync '" + partial_ + "': " + std::strerror(errno));
  }
  close(fd);
  if (std::rename(partial_.c_str(), path_.c_str()) != 0)
    throw Error("cannot rename '" + partial_ + "' to '" + path_ + "': " + std::strerror(errno));
  committed_ = true;
}

Handle create_group(hid_t parent, const std::string& name) {
  return Handle(check(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "create group " + name),
                H5Gclose);
}

void write_column(hid_t parent, const std::string& name, const std::vector<int32_t>& v, const std::string& doc) {
  write_1d(parent, name, H5T_NATIVE_INT32, v.size(), v.data(), doc);
}
void write_column(hid_t parent, const std::string& name, const std::vector<int64_t>& v, const std::string& doc) {
  write_1d(parent, name, H5T_NATIVE_INT64, v.size(), v.data(), doc);
}
void write_column(hid_t parent, const std::string& name, const std::vector<uint64_t>& v, const std::string& doc) {
  write_1d(parent, name, H5T_NATIVE_UINT64, v.size(), v.data(), doc);
}
void write_column(hid_t parent, const std::string& name, const std::vector<double>& v, const std::string& doc) {
  write_1d(parent, name, H5T_NATIVE_DOUBLE, v.size(), v.data(), doc);
}
void write_column(hid_t parent, const std::string& name, const std::vector<std::string>& v, const std::string& doc) {
  std::vector<const char*> ptrs;
  ptrs.reserve(v.size());
  for (const auto& s : v) ptrs.push_back(s.c_str());
  Handle t = string_type();
  write_1d(parent, name, t.id(), v.size(), ptrs.data(), doc);
}
void write_byte_rows(hid_t parent, const std::string& name, const std::vector<uint8_t>& flat, size_t cols,
                     const std::string& doc) {
  write_rows(parent, name, H5T_NATIVE_UINT8, flat.size() / cols, cols, 8192, flat.data(), doc);
}

void write_bool_column(hid_t parent, const std::string& name, const std::vector<bool>& v, const std::string& doc) {
  std::vector<int8_t> bytes(v.begin(), v.end());
  Handle t = bool_type();
  write_1d(parent, name, t.id(), bytes.size(), bytes.data(), doc);
}

namespace {

void scalar_attr(hid_t obj, const std::string& name, hid_t type, const void* value) {
  Handle space(check(H5Screate(H5S_SCALAR), "create a scalar dataspace"), H5Sclose);
  Handle a(check(H5Acreate2(obj, name.c_str(), type, space.id(), H5P_DEFAULT, H5P_DEFAULT), "create attribute " + name),
           H5Aclose);
  check(H5Awrite(a.id(), type, value), "write attribute " + name, 0);
}

}  // namespace

void set_attr(hid_t obj, const std::string& name, const std::string& value) {
  Handle t = string_type();
  const char* p = value.c_str();
  scalar_attr(obj, name, t.id(), &p);
}

void set_attr(hid_t obj, const std::string& name, int64_t value) { scalar_attr(obj, name, H5T_NATIVE_INT64, &value); }
void set_attr(hid_t obj, const std::string& name, uint64_t value) { scalar_attr(obj, name, H5T_NATIVE_UINT64, &value); }
void set_attr(hid_t obj, const std::string& name, double value) { scalar_attr(obj, name, H5T_NATIVE_DOUBLE, &value); }

Handle open_read(const std::string& path) {
  hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (id < 0) throw Error("cannot open '" + path + "' as an HDF5 file");
  return Handle(id, H5Fclose);
}

Handle open_group(hid_t parent, const std::string& name) {
  return Handle(check(H5Gopen2(parent, name.c_str(), H5P_DEFAULT), "open group " + name), H5Gclose);
}

bool has_attr(hid_t obj, const std::string& name) { return H5Aexists(obj, name.c_str()) > 0; }

namespace {

Handle open_attr(hid_t obj, const std::string& name) {
  return Handle(check(H5Aopen(obj, name.c_str(), H5P_DEFAULT), "open attribute " + name), H5Aclose);
}

// The dataset's elements in memory type `type`, after checking it is 1-D; returns n.
Handle open_1d(hid_t parent, const std::string& name, size_t& n) {
  Handle ds(check(H5Dopen2(parent, name.c_str(), H5P_DEFAULT), "open dataset " + name), H5Dclose);
  Handle space(check(H5Dget_space(ds.id()), "read the shape of " + name), H5Sclose);
  hsize_t dims[1] = {0};
  if (H5Sget_simple_extent_ndims(space.id()) != 1) throw Error("HDF5: dataset " + name + " is not a column");
  H5Sget_simple_extent_dims(space.id(), dims, nullptr);
  n = dims[0];
  return ds;
}

template <typename T>
void read_1d(hid_t parent, const std::string& name, hid_t type, std::vector<T>& out) {
  size_t n = 0;
  Handle ds = open_1d(parent, name, n);
  out.assign(n, T{});
  if (n) check(H5Dread(ds.id(), type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()), "read dataset " + name, 0);
}

}  // namespace

std::string read_string_attr(hid_t obj, const std::string& name) {
  Handle a = open_attr(obj, name);
  Handle t = string_type();
  char* p = nullptr;
  check(H5Aread(a.id(), t.id(), &p), "read attribute " + name + " as text", 0);
  std::string s = p ? p : "";
  H5free_memory(p);
  return s;
}

int64_t read_int_attr(hid_t obj, const std::string& name) {
  Handle a = open_attr(obj, name);
  int64_t v = 0;
  check(H5Aread(a.id(), H5T_NATIVE_INT64, &v), "read attribute " + name + " as an integer", 0);
  return v;
}

uint64_t read_uint_attr(hid_t obj, const std::string& name) {
  Handle a = open_attr(obj, name);
  uint64_t v = 0;
  check(H5Aread(a.id(), H5T_NATIVE_UINT64, &v), "read attribute " + name + " as an integer", 0);
  return v;
}

void read_column(hid_t parent, const std::string& name, std::vector<int32_t>& out) {
  read_1d(parent, name, H5T_NATIVE_INT32, out);
}
void read_column(hid_t parent, const std::string& name, std::vector<int64_t>& out) {
  read_1d(parent, name, H5T_NATIVE_INT64, out);
}
void read_column(hid_t parent, const std::string& name, std::vector<uint64_t>& out) {
  read_1d(parent, name, H5T_NATIVE_UINT64, out);
}
void read_column(hid_t parent, const std::string& name, std::vector<double>& out) {
  read_1d(parent, name, H5T_NATIVE_DOUBLE, out);
}

void read_column(hid_t parent, const std::string& name, std::vector<std::string>& out) {
  Handle t = string_type();
  std::vector<char*> ptrs;
  read_1d(parent, name, t.id(), ptrs);
  out.clear();
  for (char* p : ptrs) out.push_back(p ? p : ""), H5free_memory(p);
}

void read_byte_rows(hid_t parent, const std::string& name, std::vector<uint8_t>& flat, size_t cols) {
  Handle ds(check(H5Dopen2(parent, name.c_str(), H5P_DEFAULT), "open dataset " + name), H5Dclose);
  Handle space(check(H5Dget_space(ds.id()), "read the shape of " + name), H5Sclose);
  hsize_t dims[2] = {0, 0};
  if (H5Sget_simple_extent_ndims(space.id()) != 2) throw Error("HDF5: dataset " + name + " is not a table of rows");
  H5Sget_simple_extent_dims(space.id(), dims, nullptr);
  if (dims[1] != cols) throw Error("HDF5: dataset " + name + " has rows of " + std::to_string(dims[1]) + " bytes");
  flat.assign(dims[0] * cols, 0);
  if (dims[0]) check(H5Dread(ds.id(), H5T_NATIVE_UINT8, H5S_ALL, H5S_ALL, H5P_DEFAULT, flat.data()), "read " + name, 0);
}

void read_bool_column(hid_t parent, const std::string& name, std::vector<bool>& out) {
  Handle t = bool_type();
  std::vector<int8_t> bytes;
  read_1d(parent, name, t.id(), bytes);
  out.assign(bytes.begin(), bytes.end());
}

void write_provenance(hid_t file, const Provenance& p) {
  set_attr(file, "program", std::string("chesshpc"));
  set_attr(file, "version", std::string(CHESSHPC_VERSION));
  set_attr(file, "git_commit", std::string(CHESSHPC_GIT_COMMIT));
  set_attr(file, "command_line", p.command_line);
  set_attr(file, "host", host_name());
  set_attr(file, "started", p.started);
  set_attr(file, "finished", p.finished);
  set_attr(file, "threads", int64_t(p.threads));
  set_attr(file, "ranks", int64_t(p.ranks));
  set_attr(file, "README", p.readme);
}

}  // namespace chesshpc::h5
