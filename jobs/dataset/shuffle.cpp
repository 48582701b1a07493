// chesshpc shuffle: the records of a file in a random order in bounded memory.
//
// Each record gets a 64-bit key from (seed, its index in the file) and the output is the
// records sorted by key (the index breaks ties): a permutation that depends on the seed
// alone, not on --memory. Records are read into a buffer of --memory bytes (their bytes and
// 16 a record for key and offset); a full buffer is sorted and written as a run to the
// temporary directory, each record after its key (and its length, for text). A file that
// fits is sorted in memory and written out at once. The runs are then merged by key, up
// to MAX_FAN_IN at a time with a buffer of --memory / (runs + 1) each; more runs take
// more passes, each merging groups into longer runs.
//
// Records move as the file's own bytes where a format's records are (plain, bin, bullet,
// bullet-text, epd: has_own_records), so the output holds the input's bytes exactly,
// reordered. binpack and h5 records, and any input shuffled into another format (--to),
// are decoded and move as 40 bytes (the packed position, move, score, ply, result), and
// are written again at the end: a binpack's chains are broken by the shuffle, so each
// position starts a chain of its own (about 34 bytes a position instead of 2.5).
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <queue>

#include "core/pack.h"
#include "core/random.h"
#include "jobs/dataset/print.h"
#include "jobs/dataset/records.h"
#include "jobs/dataset/run.h"
#include "jobs/io/job_common.h"
#include "jobs/io/progress.h"

namespace chesshpc {

namespace fs = std::filesystem;

namespace {

// Runs merged at once: more would leave each too small a buffer.
constexpr size_t MAX_FAN_IN = 64;
// The smallest read buffer a run gets in a merge.
constexpr size_t MIN_RUN_BUFFER = size_t(64) << 10;

// A decoded record in SHUFFLE_RECORD_BYTES: core/pack's 32 bytes, then little-endian the
// move (Stockfish's 16 bits), the score (int16), the ply (uint16; 0xFFFF none) and the
// result (int8, WDL_NONE as 2).
constexpr size_t SHUFFLE_RECORD_BYTES = 40;

std::string encode_shuffle_record(const DecodedPosition& d) {
  std::string out(SHUFFLE_RECORD_BYTES, '\0');
  const chess::PackedPosition packed = chess::pack(d.pos);
  std::memcpy(out.data(), packed.data(), packed.size());
  const uint16_t fields[3] = {d.move.raw(), uint16_t(int16_t(d.score)), uint16_t(d.ply < 0 ? 0xFFFF : d.ply)};
  for (int i = 0; i < 3; ++i) out[32 + 2 * i] = char(fields[i] & 0xFF), out[33 + 2 * i] = char(fields[i] >> 8);
  out[38] = char(int8_t(d.wdl));
  return out;
}

DecodedPosition decode_shuffle_record(std::string_view bytes) {
  const auto* b = reinterpret_cast<const uint8_t*>(bytes.data());
  auto u16 = [b](int at) { return uint16_t(b[at] | b[at + 1] << 8); };
  DecodedPosition d;
  d.pos = chess::unpack_checked(b);
  d.move = move_of_stockfish(u16(32));
  d.score = int16_t(u16(34));
  d.ply = u16(36) == 0xFFFF ? -1 : u16(36);
  d.wdl = Wdl(int8_t(b[38]));
  return d;
}

uint64_t record_key(uint64_t seed, uint64_t index) { return chess::stream(seed, index, 0x5348554646ULL).next(); }

// The temporary directory, removed with everything in it when this ends.
class TempDir {
 public:
  explicit TempDir(const std::string& parent) {
    std::string templ = (fs::path(parent.empty() ? "." : parent) / "chesshpc-shuffle-XXXXXX").string();
    if (!mkdtemp(templ.data())) throw std::ios_base::failure("cannot create a directory in '" + parent + "'");
    path_ = templ;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string file(uint64_t n) const { return path_ + "/run-" + std::to_string(n); }

 private:
  std::string path_;
};

// A run on disk: records sorted by key, each as key (8 bytes), then its length (4 bytes)
// when records vary in size, then its bytes. Runs are plain even for an output named .gz
// or .zst: each is written and read once a pass, and its random keys and shuffled records
// compress poorly, so a compressor would cost more CPU than the disk it saves.
struct Run {
  std::string path;
  uint64_t records = 0;
};

class RunWriter {
 public:
  RunWriter(const std::string& path, size_t buffer) : buffer_(buffer) {
    out_.rdbuf()->pubsetbuf(buffer_.data(), std::streamsize(buffer_.size()));
    out_.open(path, std::ios::binary | std::ios::trunc);
    if (!out_) throw std::ios_base::failure("cannot write '" + path + "'");
  }
  void add(uint64_t key, std::string_view bytes, bool sized) {
    out_.write(reinterpret_cast<const char*>(&key), 8);
    if (sized) {
      const uint32_t n = uint32_t(bytes.size());
      out_.write(reinterpret_cast<const char*>(&n), 4);
    }
    out_.write(bytes.data(), std::streamsize(bytes.size()));
    bytes_ += 8 + (sized ? 4 : 0) + bytes.size();
  }
  uint64_t finish(const std::string& path) {
    out_.close();
    if (!out_) throw std::ios_base::failure("cannot write '" + path + "'");
    return bytes_;
  }

 private:
  std::vector<char> buffer_;
  std::ofstream out_;
  uint64_t bytes_ = 0;
};

class RunReader {
 public:
  RunReader(const Run& run, size_t buffer, size_t fixed) : buffer_(buffer), fixed_(fixed), left_(run.records) {
    in_.rdbuf()->pubsetbuf(buffer_.data(), std::streamsize(buffer_.size()));
    in_.open(run.path, std::ios::binary);
    if (!in_) throw std::ios_base::failure("cannot read '" + run.path + "'");
  }
  // The next record into key and bytes; false at the run's end.
  bool next() {
    if (!left_) return false;
    --left_;
    uint32_t n = uint32_t(fixed_);
    in_.read(reinterpret_cast<char*>(&key), 8);
    if (!fixed_) in_.read(reinterpret_cast<char*>(&n), 4);
    bytes.resize(n);
    in_.read(bytes.data(), n);
    if (!in_) throw std::ios_base::failure("a run of the shuffle ends early: the disk lost it");
    read_ += 8 + (fixed_ ? 0 : 4) + n;
    return true;
  }
  uint64_t key = 0;
  std::string bytes;
  uint64_t read_ = 0;

 private:
  std::vector<char> buffer_;
  std::ifstream in_;
  size_t fixed_;
  uint64_t left_;
};

class Shuffle {
 public:
  Shuffle(const ShuffleRequest& req, std::ostream& err)
      : req_(req),
        err_(err),
        native_(has_own_records(*req.in.format) && req.in.format == req.out.format),
        fixed_(native_ ? req.in.format->record_bytes : SHUFFLE_RECORD_BYTES) {}

  int run(std::ostream& out) {
    const auto start = std::chrono::steady_clock::now();
    std::unique_ptr<RecordReader> reader = RecordReader::open(req_.in.path, *req_.in.format);
    s_.command = "shuffle", s_.in = {req_.in}, s_.out = req_.out;
    std::optional<TempDir> temp;
    std::vector<Run> runs;
    // Reserved once, so that the buffer never grows by copying (twice the bound for a moment).
    const size_t per_record = 16 + (fixed_ ? fixed_ : 48);
    data_.reserve(req_.memory - std::min(req_.memory, req_.memory / per_record * 16));
    keys_.reserve(req_.memory / per_record);
    {
      Progress progress(err_, "shuffle: reading", !req_.quiet, req_.progress_interval, "Mrecords/s");
      progress.set_unit_name("records");
      std::string scratch;
      for (;;) {
        std::string_view bytes;
        if (native_) {
          if (!reader->next_bytes(bytes)) break;
        } else {
          DecodedPosition d;
          if (!reader->next(d)) break;
          if (const char* why = RecordWriter::skip_reason(*req_.out.format, d)) {
            ++s_.left_out[why];
            continue;
          }
          scratch = encode_shuffle_record(d);
          bytes = scratch;
        }
        if (data_.size() + bytes.size() + 16 * (keys_.size() + 1) > req_.memory && !keys_.empty()) {
          if (!temp) temp.emplace(req_.tmp_dir.empty() ? fs::path(req_.out.path).parent_path().string() : req_.tmp_dir);
          runs.push_back(write_run(temp->file(runs.size())));
        }
        keys_.push_back({record_key(req_.seed, reader->count() - 1), uint64_t(data_.size()) << 24 | bytes.size()});
        data_.append(bytes);
        progress.done(1, 1);
      }
    }
    s_.read = reader->count();
    s_.bytes_read = reader->bytes_read();
    reader.reset();
    writer_ = RecordWriter::open(req_.out.path, *req_.out.format, req_.command_line);
    if (runs.empty()) {
      sort_buffer();
      for (size_t i = 0; i < keys_.size(); ++i) emit(record_at(i));
    } else {
      runs.push_back(write_run(temp->file(runs.size())));
      s_.runs = runs.size();
      release_buffer();
      merge_all(runs, *temp);
    }
    if (const std::string error = writer_->commit(); !error.empty()) {
      err_ << "chesshpc shuffle: " << error << "\n";
      return EXIT_IO;
    }
    s_.bytes_written = writer_->bytes_written();
    s_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    print_summary(s_, req_.json, out, err_);
    return EXIT_OK;
  }

 private:
  // A record in the buffer: its key, and its offset (40 bits) and length (24 bits).
  struct Keyed {
    uint64_t key, where;
    uint64_t offset() const { return where >> 24; }
    size_t length() const { return size_t(where & 0xFFFFFF); }
  };

  void sort_buffer() {
    // Ties (one in 2^64) keep file order: the sort is stable.
    std::stable_sort(keys_.begin(), keys_.end(), [](const Keyed& a, const Keyed& b) { return a.key < b.key; });
  }
  std::string_view record_at(size_t i) const {
    return std::string_view(data_).substr(keys_[i].offset(), keys_[i].length());
  }

  Run write_run(const std::string& path) {
    sort_buffer();
    RunWriter w(path, std::max(MIN_RUN_BUFFER, std::min<size_t>(req_.memory / 8, size_t(8) << 20)));
    for (size_t i = 0; i < keys_.size(); ++i) w.add(keys_[i].key, record_at(i), !fixed_);
    s_.temp_written += w.finish(path);
    Run r{path, keys_.size()};
    data_.clear(), keys_.clear();
    return r;
  }
  void release_buffer() {
    std::string().swap(data_);
    std::vector<Keyed>().swap(keys_);
  }

  void emit(std::string_view bytes) {
    if (native_) {
      writer_->add_bytes(bytes);
    } else {
      writer_->add(decode_shuffle_record(bytes), s_.written);
    }
    ++s_.written;
  }

  // Merges every run into the output, in passes of at most fan_in runs.
  void merge_all(std::vector<Run> runs, const TempDir& temp) {
    // A buffer of MIN_RUN_BUFFER at least a run, and one for the output; two runs at least.
    const size_t fan_in = std::clamp<size_t>(req_.memory / MIN_RUN_BUFFER, 3, MAX_FAN_IN + 1) - 1;
    uint64_t next_name = runs.size();
    while (runs.size() > fan_in) {
      std::vector<Run> merged;
      for (size_t first = 0; first < runs.size(); first += fan_in) {
        const std::vector<Run> group(runs.begin() + long(first),
                                     runs.begin() + long(std::min(runs.size(), first + fan_in)));
        const std::string path = temp.file(next_name++);
        RunWriter w(path, req_.memory / (group.size() + 1));
        const uint64_t records = merge(group, [&](uint64_t key, std::string_view b) { w.add(key, b, !fixed_); });
        s_.temp_written += w.finish(path);
        for (const Run& r : group) fs::remove(r.path);
        merged.push_back({path, records});
      }
      runs = std::move(merged);
      ++s_.merge_passes;
    }
    ++s_.merge_passes;
    merge(runs, [&](uint64_t, std::string_view b) { emit(b); });
  }

  // The runs' records in key order (a run's first in ties: runs hold consecutive parts of
  // the file, in order), each given to f.
  template <class F>
  uint64_t merge(const std::vector<Run>& runs, F&& f) {
    std::vector<std::unique_ptr<RunReader>> in;
    for (const Run& r : runs) in.push_back(std::make_unique<RunReader>(r, req_.memory / (runs.size() + 1), fixed_));
    using Head = std::pair<uint64_t, size_t>;  // key, run
    std::priority_queue<Head, std::vector<Head>, std::greater<Head>> heads;
    for (size_t i = 0; i < in.size(); ++i)
      if (in[i]->next()) heads.push({in[i]->key, i});
    uint64_t n = 0;
    while (!heads.empty()) {
      const size_t i = heads.top().second;
      heads.pop();
      f(in[i]->key, in[i]->bytes);
      ++n;
      if (in[i]->next()) heads.push({in[i]->key, i});
    }
    for (const auto& r : in) s_.temp_read += r->read_;
    return n;
  }

  const ShuffleRequest& req_;
  std::ostream& err_;
  const bool native_;
  const size_t fixed_;  // the records' size, 0 for text
  DatasetSummary s_;
  std::string data_;
  std::vector<Keyed> keys_;
  std::unique_ptr<RecordWriter> writer_;
};

}  // namespace

int run_shuffle(const ShuffleRequest& req, std::ostream& out, std::ostream& err) {
  return run_guarded("shuffle", req.in.path, err, [&] { return Shuffle(req, err).run(out); });
}

}  // namespace chesshpc
