// chesshpc interleave: N files into one, in proportion to their records, seeded.
//
// Each output record comes from input i with probability (records i has left) / (records
// all have left), drawn from (seed, output index): every interleaving of the inputs'
// records (each input's in its order) is equally likely, each input spreads evenly over
// the output, and all end together. The records are counted first: by the file's size for
// uncompressed fixed-size records (bin, bullet), by a pass over the file for the others.
// Records move as the file's own bytes when every input and the output are one format
// that has them (has_own_records); otherwise (binpack, h5, inputs of several formats) they
// are decoded and written again in the output's format (a binpack's chains are broken
// where the inputs alternate).
#include <chrono>
#include <filesystem>

#include "core/random.h"
#include "jobs/dataset/print.h"
#include "jobs/dataset/records.h"
#include "jobs/dataset/run.h"
#include "jobs/io/byte_sink.h"
#include "jobs/io/job_common.h"
#include "jobs/io/progress.h"

namespace chesshpc {

namespace {

uint64_t count_records(const DatasetFile& f) {
  if (f.format->record_bytes && compression_of(f.path) == Compression::NONE && f.path != "-") {
    std::error_code ec;
    const uintmax_t size = std::filesystem::file_size(f.path, ec);
    if (!ec && size % f.format->record_bytes == 0) return size / f.format->record_bytes;
  }
  std::unique_ptr<RecordReader> r = RecordReader::open(f.path, *f.format);
  if (has_own_records(*f.format)) {
    std::string_view bytes;
    while (r->next_bytes(bytes)) {
    }
  } else {
    DecodedPosition d;
    while (r->next(d)) {
    }
  }
  return r->count();
}

class Interleave {
 public:
  Interleave(const InterleaveRequest& req, std::ostream& err) : req_(req), err_(err) {
    native_ = has_own_records(*req.out.format);
    for (const DatasetFile& f : req.in) native_ = native_ && f.format == req.out.format;
  }

  int run(std::ostream& out) {
    const auto start = std::chrono::steady_clock::now();
    DatasetSummary s;
    s.command = "interleave", s.in = req_.in, s.out = req_.out;
    std::vector<uint64_t> left;
    uint64_t total = 0;
    for (const DatasetFile& f : req_.in) {
      current_ = f.path;
      left.push_back(count_records(f));
      total += left.back();
    }
    std::vector<std::unique_ptr<RecordReader>> in;
    for (const DatasetFile& f : req_.in) in.push_back(RecordReader::open(f.path, *f.format));
    std::unique_ptr<RecordWriter> writer = RecordWriter::open(req_.out.path, *req_.out.format, req_.command_line);
    chess::Random rng = chess::stream(req_.seed, 0, 0x494E544CULL);
    {
      Progress progress(err_, "interleave", !req_.quiet, req_.progress_interval, "Mrecords/s");
      progress.set_unit_name("records");
      progress.add_total(total);
      for (uint64_t remaining = total; remaining; --remaining) {
        uint64_t pick = rng.below(remaining);
        size_t i = 0;
        while (pick >= left[i]) pick -= left[i++];
        --left[i];
        current_ = req_.in[i].path;
        copy_one(*in[i], *writer, s);
        progress.done(1, 1);
      }
    }
    for (size_t i = 0; i < in.size(); ++i) {
      current_ = req_.in[i].path;
      std::string_view bytes;
      DecodedPosition d;
      if (native_ ? in[i]->next_bytes(bytes) : in[i]->next(d))
        throw DatasetError(in[i]->count() - 1, "the file has more records than counted: it changed while read");
      s.read += in[i]->count();
      s.bytes_read += in[i]->bytes_read();
    }
    if (const std::string error = writer->commit(); !error.empty()) {
      err_ << "chesshpc interleave: " << error << "\n";
      return EXIT_IO;
    }
    s.bytes_written = writer->bytes_written();
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    print_summary(s, req_.json, out, err_);
    return EXIT_OK;
  }

  // The input being read, for the message of a record that does not read.
  const std::string& current() const { return current_; }

 private:
  void copy_one(RecordReader& r, RecordWriter& w, DatasetSummary& s) {
    std::string_view bytes;
    DecodedPosition d;
    if (!(native_ ? r.next_bytes(bytes) : r.next(d)))
      throw DatasetError(r.count(), "the file has fewer records than counted: it changed while read");
    if (native_) {
      w.add_bytes(bytes);
    } else if (const char* why = RecordWriter::skip_reason(*req_.out.format, d)) {
      ++s.left_out[why];
      return;
    } else {
      w.add(d, r.count() - 1);
    }
    ++s.written;
  }

  const InterleaveRequest& req_;
  std::ostream& err_;
  bool native_ = false;
  std::string current_;
};

}  // namespace

int run_interleave(const InterleaveRequest& req, std::ostream& out, std::ostream& err) {
  Interleave job(req, err);
  return run_guarded("interleave", job.current(), err, [&] { return job.run(out); });
}

}  // namespace chesshpc
