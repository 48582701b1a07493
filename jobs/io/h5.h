// A thin layer over the HDF5 C API for result files that h5py and pandas users read
// without a manual: columns as chunked, compressed, extendible 1-D datasets, text as
// variable-length UTF-8, provenance and documentation as attributes.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "jobs/io/provenance.h"

namespace chesshpc::h5 {

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// An HDF5 handle closed on destruction.
class Handle {
 public:
  Handle() = default;
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  Handle(Handle&& o) noexcept : id_(o.id_), close_(o.close_) { o.id_ = -1; }
  Handle& operator=(Handle&& o) noexcept;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { reset(); }
  void reset();
  hid_t id() const { return id_; }

 private:
  hid_t id_ = -1;
  herr_t (*close_)(hid_t) = nullptr;
};

// A result file written whole and then published: everything goes to "PATH.partial", and
// commit() flushes, fsyncs and renames it to PATH, so a reader never finds a half-written
// file under the final name. Without commit() the partial file is removed.
class File {
 public:
  explicit File(const std::string& path);
  ~File();
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  hid_t id() const { return file_.id(); }
  const std::string& path() const { return path_; }
  void commit();

 private:
  std::string path_, partial_;
  Handle file_;
  bool committed_ = false;
};

Handle create_group(hid_t parent, const std::string& name);

// 1-D columns. doc becomes the dataset's "description" attribute.
void write_column(hid_t parent, const std::string& name, const std::vector<int32_t>& v, const std::string& doc);
void write_column(hid_t parent, const std::string& name, const std::vector<int64_t>& v, const std::string& doc);
void write_column(hid_t parent, const std::string& name, const std::vector<uint64_t>& v, const std::string& doc);
void write_column(hid_t parent, const std::string& name, const std::vector<double>& v, const std::string& doc);
void write_column(hid_t parent, const std::string& name, const std::vector<std::string>& v, const std::string& doc);
// A 2-D uint8 dataset of rows of `cols` bytes (flat holds them row after row), chunked by rows.
void write_byte_rows(hid_t parent, const std::string& name, const std::vector<uint8_t>& flat, size_t cols,
                     const std::string& doc);
// Booleans as HDF5's enum {FALSE, TRUE}, which h5py reads as numpy bool.
void write_bool_column(hid_t parent, const std::string& name, const std::vector<bool>& v, const std::string& doc);

void set_attr(hid_t obj, const std::string& name, const std::string& value);
void set_attr(hid_t obj, const std::string& name, int64_t value);
void set_attr(hid_t obj, const std::string& name, uint64_t value);
void set_attr(hid_t obj, const std::string& name, double value);

// The read side, for resuming from a file this program wrote. Every reader throws Error
// naming what is missing or of the wrong shape.
Handle open_read(const std::string& path);
Handle open_group(hid_t parent, const std::string& name);
bool has_attr(hid_t obj, const std::string& name);
std::string read_string_attr(hid_t obj, const std::string& name);
int64_t read_int_attr(hid_t obj, const std::string& name);
uint64_t read_uint_attr(hid_t obj, const std::string& name);
void read_column(hid_t parent, const std::string& name, std::vector<int32_t>& out);
void read_column(hid_t parent, const std::string& name, std::vector<int64_t>& out);
void read_column(hid_t parent, const std::string& name, std::vector<uint64_t>& out);
void read_column(hid_t parent, const std::string& name, std::vector<double>& out);
void read_column(hid_t parent, const std::string& name, std::vector<std::string>& out);
void read_bool_column(hid_t parent, const std::string& name, std::vector<bool>& out);
void read_byte_rows(hid_t parent, const std::string& name, std::vector<uint8_t>& flat, size_t cols);

// Provenance on the root: program, version, git commit, command line, host, start and
// end time (ISO 8601, UTC), threads, and the file's schema in a "README" attribute.
void write_provenance(hid_t file, const Provenance& p);

}  // namespace chesshpc::h5
