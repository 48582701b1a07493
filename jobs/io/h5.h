// A thin layer over the HDF5 C API for result files that h5py and pandas users read
// without a manual: columns as chunked, compressed, extendible 1-D datasets, text as
// variable-length UTF-8, provenance and documentation as attributes. Only jobs/io sees the
// C API: Group and File hold its ids privately. Result files declare their tables and root
// attributes with jobs/io/h5_table.h, which writes and reads through the functions here.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "jobs/io/provenance.h"

namespace chesshpc::h5 {

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// An open HDF5 file or group: where groups, columns and attributes go (a file stands for
// its root group, as in h5py). Move-only; closed on destruction.
class Group {
 public:
  Group() = default;
  Group(Group&& o) noexcept : id_(o.id_) { o.id_ = -1; }
  Group& operator=(Group&& o) noexcept;
  Group(const Group&) = delete;
  Group& operator=(const Group&) = delete;
  ~Group() { close(); }

 protected:
  explicit Group(int64_t id) : id_(id) {}
  // Closes (once: the id is given up either way); false when HDF5 says the close failed.
  bool close();

 private:
  friend struct Id;  // h5.cpp's bridge to the C API
  int64_t id_ = -1;  // an hid_t (h5.cpp checks that the types agree)
};

// A result file written whole and then published (jobs/io/publish.h): everything goes to
// "PATH.partial", and commit() flushes and publishes it as PATH, so a reader never finds a
// half-written file under the final name; a symbolic link PATH keeps naming the file it
// names, which is written. Without commit() the partial file is removed.
class File : public Group {
 public:
  explicit File(const std::string& path);
  ~File();
  const std::string& path() const { return path_; }
  void commit();

 private:
  std::string path_, partial_;
  bool committed_ = false;
};

// Runs write; returns "" when it worked, else the Error's line ("cannot write dataset fen in
// 'p.h5.partial': No space left on device"): for a job that prints what it computed before
// it says that its file could not be written.
std::string write_error(const std::function<void()>& write);

// An existing file, read-only, as its root group.
Group open_read(const std::string& path);
Group create_group(const Group& parent, std::string_view name);
Group open_group(const Group& parent, std::string_view name);

// Where a write puts its rows. Whole (the default): a new dataset of exactly these rows,
// chunked by up to 64 K rows (8 K for byte rows). Appended: the end of the dataset of that
// name, which the first write creates (empty, extendible, chunked by chunk_rows rows), so
// that a table of any length is written in batches that then leave memory; the data read
// back are those of one whole write.
struct Layout {
  bool append = false;
  size_t chunk_rows = 0;  // appended only
  // zlib's level for a dataset the write creates: 4 by default; a writer of millions of
  // rows a second takes 1 (`positions` spent 57% of its time deflating at 4, and at 1 40%
  // of a run a third shorter).
  int deflate = 4;
};

// 1-D columns. doc becomes the dataset's "description" attribute. Booleans are HDF5's enum
// {FALSE, TRUE}, which h5py reads as numpy bool.
void write_column(const Group& g, const std::string& name, const std::vector<int32_t>& v, const std::string& doc,
                  const Layout& layout = {});
void write_column(const Group& g, const std::string& name, const std::vector<int64_t>& v, const std::string& doc,
                  const Layout& layout = {});
void write_column(const Group& g, const std::string& name, const std::vector<uint64_t>& v, const std::string& doc,
                  const Layout& layout = {});
void write_column(const Group& g, const std::string& name, const std::vector<double>& v, const std::string& doc,
                  const Layout& layout = {});
void write_column(const Group& g, const std::string& name, const std::vector<std::string>& v, const std::string& doc,
                  const Layout& layout = {});
void write_column(const Group& g, const std::string& name, const std::vector<bool>& v, const std::string& doc,
                  const Layout& layout = {});
// Short text of at most `width` bytes a row (UCI moves) as fixed-length, null-padded ASCII
// strings, which h5py reads as numpy bytes (dtype S<width>; .asstr() gives str). Reading
// 200 K of them takes 4.5 ms where variable-length strings take 39 ms: a variable-length
// string is a lookup in HDF5's global heap and an allocation each. Throws Error on a longer
// string.
void write_fixed_text(const Group& g, const std::string& name, const std::vector<std::string>& v, size_t width,
                      const std::string& doc, const Layout& layout = {});
// A 2-D uint8 dataset of rows of `cols` bytes (flat holds them row after row), chunked by rows.
void write_byte_rows(const Group& g, const std::string& name, const std::vector<uint8_t>& flat, size_t cols,
                     const std::string& doc, const Layout& layout = {});

// How an appended dataset's chunks are stored, read from the file, for a writer that makes
// them on its own threads (h5_chunk.h, ChunkAppender): the bytes of an element, elements a
// row (1 for a 1-D dataset), rows a chunk, and whether the shuffle filter comes before
// deflate in its pipeline.
struct ChunkFormat {
  size_t element_bytes = 0, row_elements = 1, chunk_rows = 0;
  bool shuffle = false;
};
ChunkFormat chunk_format(const Group& g, const std::string& name);
// Writes one chunk of an appended dataset as the caller made it (shuffled when the format
// says, then deflated: h5::deflate_chunk) at row `at`, the dataset's end and a multiple of
// its chunk's rows; `rows` of it count (a whole chunk but at the end, where the bytes still
// hold a whole chunk). HDF5 stores the bytes as they are: no filter runs here.
void append_chunk(const Group& g, const std::string& name, size_t at, size_t rows, std::span<const uint8_t> bytes);

// The read side, for resuming from a file this program wrote. Every reader throws Error
// naming what is missing or of the wrong shape. Text reads from variable-length and
// fixed-length strings alike.
// rows: the rows read, every row by default; a range past the end reads what there is, so
// that a table of any length is read a batch at a time.
struct RowRange {
  size_t first = 0, count = SIZE_MAX;
};
void read_column(const Group& g, const std::string& name, std::vector<int32_t>& out, RowRange rows = {});
void read_column(const Group& g, const std::string& name, std::vector<int64_t>& out, RowRange rows = {});
void read_column(const Group& g, const std::string& name, std::vector<uint64_t>& out, RowRange rows = {});
void read_column(const Group& g, const std::string& name, std::vector<double>& out, RowRange rows = {});
void read_column(const Group& g, const std::string& name, std::vector<std::string>& out, RowRange rows = {});
void read_column(const Group& g, const std::string& name, std::vector<bool>& out, RowRange rows = {});
void read_byte_rows(const Group& g, const std::string& name, std::vector<uint8_t>& flat, size_t cols,
                    RowRange rows = {});
// The rows of a dataset (its first dimension).
size_t rows_of(const Group& g, const std::string& name);
// Whether g has a dataset (or any link) of that name.
bool has_dataset(const Group& g, const std::string& name);

// Scalar attributes.
void set_attr(const Group& obj, const std::string& name, const std::string& value);
void set_attr(const Group& obj, const std::string& name, int64_t value);
void set_attr(const Group& obj, const std::string& name, uint64_t value);
void set_attr(const Group& obj, const std::string& name, double value);
bool has_attr(const Group& obj, const std::string& name);
void read_attr(const Group& obj, const std::string& name, std::string& out);
void read_attr(const Group& obj, const std::string& name, int64_t& out);
void read_attr(const Group& obj, const std::string& name, uint64_t& out);

// A root attribute that readers read back: its name, type and meaning in one place.
// Writers list it with a value (h5_table.h's attr), so it is written, read and documented
// under the same name.
template <class T>
struct Attr {
  std::string_view name, description;
};

template <class T>
bool has_attr(const Group& obj, const Attr<T>& a) {
  return has_attr(obj, std::string(a.name));
}

template <class T>
T read_attr(const Group& obj, const Attr<T>& a) {
  T v{};
  read_attr(obj, std::string(a.name), v);
  return v;
}

// Root attributes that several result files have.
inline constexpr Attr<std::string> JOB{"job", "the command that wrote the file; readers check it first"};
inline constexpr Attr<std::string> HOST{"host", "host of rank 0"};
inline constexpr Attr<std::string> STARTED{"started", "when the job started, ISO 8601 UTC"};
inline constexpr Attr<int64_t> RULES_VERSION{
    "rules_version", "version of the move rules of the build; a job is resumed only under the same version"};

// Whether obj's "job" attribute is there and says job.
bool is_job(const Group& obj, std::string_view job);

// Provenance on the root: program, version, git commit, command line, host, start and end
// time (ISO 8601, UTC), threads, ranks, and the README: p.readme (the file's tables and
// attributes) followed by the provenance attributes' own documentation.
void write_provenance(const Group& file, const Provenance& p);

}  // namespace chesshpc::h5
