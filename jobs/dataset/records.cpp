#include "jobs/dataset/records.h"

#include <cmath>
#include <cstring>
#include <iostream>
#include <optional>
#include <sstream>
#include <vector>

#include "core/movegen.h"
#include "core/pack.h"
#include "core/uci.h"
#include "jobs/export/binpack.h"
#include "jobs/io/byte_sink.h"
#include "jobs/io/byte_source.h"
#include "jobs/io/h5.h"
#include "jobs/io/job_common.h"
#include "jobs/selfplay/file.h"
#include "jobs/selfplay/tables.h"

namespace chesshpc {

namespace {

constexpr Format H5_FORMAT = {
    "h5",
    "chesshpc's selfplay HDF5 file: its /positions (what export, rescore and the Python package read)",
    0,
    true,
    false,
    false,
    false,
    nullptr,
    ".h5",
    CARRIES_SIDE | CARRIES_RIGHTS | CARRIES_MOVE | CARRIES_SCORE | CARRIES_RESULT | CARRIES_NO_RESULT | CARRIES_PLY |
        CARRIES_CLOCKS | CARRIES_FULLMOVE,
};

// /positions rows read or written at a time (the file's chunk: 64 K rows).
constexpr size_t H5_BATCH = size_t(1) << 16;

std::string_view without_compression(std::string_view path) {
  return path.substr(0, path.size() - extension_of(compression_of(path)).size());
}

// ByteSource as a std::streambuf, for binpack's reader (which reads a std::istream).
class SourceBuffer : public std::streambuf {
 public:
  explicit SourceBuffer(ByteSource& source) : source_(source), buffer_(size_t(1) << 20) {}
  uint64_t consumed() const { return consumed_ - uint64_t(egptr() - gptr()); }

 protected:
  int_type underflow() override {
    const size_t n = source_.read(buffer_.data(), buffer_.size());
    consumed_ += n;
    setg(buffer_.data(), buffer_.data(), buffer_.data() + n);
    return n ? traits_type::to_int_type(buffer_[0]) : traits_type::eof();
  }

 private:
  ByteSource& source_;
  std::vector<char> buffer_;
  uint64_t consumed_ = 0;
};

// Records of fixed size, or of text ending in format.record_end, out of a ByteSource.
class FlatReader : public RecordReader {
 public:
  FlatReader(const std::string& path, const Format& f) : format_(f), source_(path, std::string(f.name) + " file") {}

  bool next_bytes(std::string_view& out) override {
    const bool got = format_.record_bytes ? fixed(out) : text(out);
    if (got) ++count_;
    return got;
  }
  bool next(DecodedPosition& out) override {
    std::string_view bytes;
    if (!next_bytes(bytes)) return false;
    try {
      if (format_.record_bytes)
        out = format_.read_fixed(reinterpret_cast<const uint8_t*>(bytes.data()));
      else
        out = format_.read_text(bytes.substr(0, bytes.size() - 1));
    } catch (const RecordError& e) {
      throw DatasetError(count_ - 1, e.what());
    }
    return true;
  }
  uint64_t bytes_read() const override { return consumed_; }

 private:
  // Makes at least n bytes available from at_, unless the input ends first.
  void fill(size_t n) {
    if (end_ - at_ >= n) return;
    buffer_.erase(0, at_);
    end_ -= at_, at_ = 0;
    while (end_ < n) {
      buffer_.resize(std::max(buffer_.size(), std::max(n, size_t(1) << 20)));
      const size_t got = source_.read(buffer_.data() + end_, buffer_.size() - end_);
      if (!got) break;
      end_ += got;
    }
  }
  bool fixed(std::string_view& out) {
    const size_t n = format_.record_bytes;
    fill(n);
    if (end_ - at_ == 0) return false;
    if (end_ - at_ < n)
      throw DatasetError(count_, "the file ends inside the record (" + std::to_string(end_ - at_) + " of " +
                                     std::to_string(n) + " bytes)");
    out = std::string_view(buffer_.data() + at_, n);
    at_ += n, consumed_ += n;
    return true;
  }
  // A text record: its lines up to the one that ends it (record_end), blank lines before
  // it skipped; a record longer than 1 MiB is no record of these formats.
  bool text(std::string_view& out) {
    const std::string_view end = format_.record_end;  // "\n", or "\ne\n": a line "e"
    const std::string_view last_line = end.substr(1, end.size() >= 2 ? end.size() - 2 : 0);
    size_t scan = at_;
    for (;;) {
      const char* nl = static_cast<const char*>(std::memchr(buffer_.data() + scan, '\n', end_ - scan));
      if (!nl) {
        const size_t kept = scan - at_;
        if (end_ - at_ > (size_t(1) << 20))
          throw DatasetError(count_, "a record longer than 1 MiB: no " + std::string(format_.name) + " record");
        const size_t before = end_ - at_;
        fill(before + 1);
        scan = at_ + kept;
        if (end_ - at_ == before) {  // the end: a last line without its newline
          if (before == 0) return false;
          buffer_.resize(std::max(buffer_.size(), end_ + 1));
          buffer_[end_++] = '\n';
        }
        continue;
      }
      const size_t line_start = scan, line_end = size_t(nl - buffer_.data());
      scan = line_end + 1;
      std::string_view line(buffer_.data() + line_start, line_end - line_start);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (line.find_first_not_of(" \t") == std::string_view::npos && line_start == at_) {
        consumed_ += scan - at_, at_ = scan;  // blank lines between records
        continue;
      }
      if (!last_line.empty() && line != last_line) continue;
      out = std::string_view(buffer_.data() + at_, scan - at_);
      consumed_ += scan - at_, at_ = scan;
      return true;
    }
  }

  const Format& format_;
  ByteSource source_;
  std::string buffer_;
  size_t at_ = 0, end_ = 0;
  uint64_t consumed_ = 0;
};

DecodedPosition decoded_of(const binpack::Entry& e) {
  DecodedPosition d;
  d.pos = e.pos, d.move = e.move, d.score = e.score, d.ply = e.ply;
  d.wdl = e.result > 0 ? WDL_WIN : e.result < 0 ? WDL_LOSS : WDL_DRAW;
  return d;
}

class BinpackReader : public RecordReader {
 public:
  explicit BinpackReader(const std::string& path)
      : source_(path, "binpack file"), buffer_(source_), stream_(&buffer_), chunks_(stream_) {}
  bool next(DecodedPosition& out) override {
    while (at_ == entries_.size()) {
      entries_.clear(), at_ = 0;
      try {
        if (!chunks_.next([this](const binpack::Entry& e) { entries_.push_back(decoded_of(e)); })) return false;
      } catch (const binpack::FormatError& e) {
        throw DatasetError(count_ + entries_.size(), e.what());
      }
    }
    out = entries_[at_++];
    ++count_;
    return true;
  }
  uint64_t bytes_read() const override { return buffer_.consumed(); }

 private:
  ByteSource source_;
  SourceBuffer buffer_;
  std::istream stream_;
  binpack::ChunkReader chunks_;
  std::vector<DecodedPosition> entries_;
  size_t at_ = 0;
};

// Stockfish's scale back to /positions' score_cp and mate_in (stockfish_score's inverse).
void set_score(PositionColumns& p, int score) {
  double cp = std::nan("");
  int mate = 0;
  if (score > MAX_CP_SCORE && score <= VALUE_MATE)
    mate = (VALUE_MATE - score + 1) / 2;
  else if (score < -MAX_CP_SCORE && score >= -VALUE_MATE)
    mate = -std::max((VALUE_MATE + score) / 2, 1);
  else if (std::abs(score) <= MAX_CP_SCORE)
    cp = score;
  p.score_cp.push_back(cp);
  p.mate_in.push_back(mate);
}

template <auto M>
constexpr std::string_view column_name() {
  return h5::name_of<M>(SELFPLAY_POSITIONS);
}

class H5Reader : public RecordReader {
 public:
  explicit H5Reader(const std::string& path) {
    if (std::ifstream in(path); !unreadable_input(path, in).empty())
      throw ReadError(EXIT_IO, "cannot read '" + path + "': " + unreadable_input(path, in));
    try {
      file_ = h5::open_read(path);
      if (!has_selfplay_tables(file_)) throw DatasetError(0, "'" + path + "' is not a chesshpc selfplay file");
      rows_ = selfplay_position_rows(file_);
    } catch (const h5::Error& e) {
      throw DatasetError(0, e.what());
    }
  }
  bool next(DecodedPosition& out) override {
    if (count_ == rows_) return false;
    if (count_ == first_ + batch_.size()) load();
    const size_t k = size_t(count_ - first_);
    try {
      out.pos = chess::unpack_checked(batch_.packed.data() + 32 * k);
    } catch (const chess::FenError& e) {
      throw DatasetError(count_, "packed is no legal position: " + std::string(e.what()));
    }
    const std::string& m = batch_.move[k];
    if (m == "0000" || m.empty()) {
      out.move = chess::Move::none();
    } else if (const std::optional<chess::Move> move = decode_move(out.pos, m)) {
      out.move = *move;
    } else {
      throw DatasetError(count_, "move '" + m + "' names no move of its position");
    }
    out.score = stockfish_score(batch_.score_cp[k], batch_.mate_in[k]);
    out.wdl = batch_.wdl.empty() ? wdl_of(batch_.result[k]) : Wdl(batch_.wdl[k]);
    out.ply = batch_.ply[k];
    ++count_;
    return true;
  }
  // The packed positions' bytes: what the file holds of a record beside its scalars.
  uint64_t bytes_read() const override { return count_ * 32; }

 private:
  void load() {
    using P = PositionColumns;
    static constexpr std::string_view UNREAD[] = {column_name<&P::fen>(),        column_name<&P::best>(),
                                                  column_name<&P::depth>(),      column_name<&P::nodes>(),
                                                  column_name<&P::halfmove>(),   column_name<&P::time_ms>(),
                                                  column_name<&P::in_check>(),   column_name<&P::book>(),
                                                  column_name<&P::is_capture>(), column_name<&P::gives_check>()};
    first_ = count_;
    try {
      batch_ = read_selfplay_positions(file_, UNREAD, {size_t(first_), H5_BATCH});
    } catch (const h5::Error& e) {
      throw DatasetError(count_, e.what());
    }
  }
  h5::Group file_;
  uint64_t rows_ = 0, first_ = 0;
  PositionColumns batch_;
};

// The writers' ExportPosition of a record, with the text it points to.
class ExportRecord {
 public:
  ExportRecord(const DecodedPosition& d, bool with_fen) {
    if (with_fen) fen_ = d.pos.fen();
    move_ = d.move.is_none() ? "0000" : chess::to_uci(d.move, d.pos.is_chess960());
    e_ = {d.pos, d.move, fen_, move_, d.score, d.wdl};
  }
  ExportRecord(const ExportRecord&) = delete;
  const ExportPosition& get() const { return e_; }

 private:
  std::string fen_, move_;
  ExportPosition e_;
};

// Export's writers into a published file, compressed as its name says (jobs/io/byte_sink.h),
// or standard output.
class FlatWriter : public RecordWriter {
 public:
  FlatWriter(const std::string& path, const Format& f) : format_(f), writer_(f.make()), sink_(path) {}
  void add(const DecodedPosition& d, uint64_t index) override {
    if (format_.standard_only && d.pos.is_chess960())
      throw DatasetError(index,
                         std::string(format_.name) + " holds standard chess only, and this is a Chess960 position");
    const ExportRecord r(d, format_.needs_fen);
    try {
      writer_->add(r.get(), buffer_);
    } catch (const std::invalid_argument& e) {
      throw DatasetError(index, e.what());
    }
    flush(false);
  }
  void add_bytes(std::string_view bytes) override {
    buffer_.append(bytes);
    flush(false);
  }
  std::string commit() override {
    try {
      writer_->finish(buffer_);
      flush(true);
      sink_.commit();
    } catch (const WriteError& e) {
      return e.what();
    }
    return "";
  }
  uint64_t bytes_written() const override { return sink_.bytes_in() + buffer_.size(); }

 private:
  // Hands the sink a block at a time (a MiB): a write call, or an encoder's call, a block.
  void flush(bool always) {
    if (buffer_.size() < (size_t(1) << 20) && !always) return;
    sink_.write(buffer_);
    buffer_.clear();
  }
  const Format& format_;
  std::unique_ptr<PositionWriter> writer_;
  ByteSink sink_;
  std::string buffer_;
};

// selfplay's /positions, appended a batch at a time (the columns that need a search,
// depth, nodes and time_ms, are 0; best is the move; book is false), with an empty /games.
class H5Writer : public RecordWriter {
 public:
  H5Writer(const std::string& path, const std::string& command_line) : file_(path), started_(utc_now()) {
    command_line_ = command_line;
    positions_ = h5::create_group(file_, SELFPLAY_POSITIONS.group);
  }
  void add(const DecodedPosition& d, uint64_t) override {
    const int ply = d.ply >= 0 ? d.ply : game_ply(d.pos);
    if (!rows_ || ply != last_ply_ + 1) ++game_;
    last_ply_ = ply;
    append_position_row(d, game_ - 1, batch_);
    ++rows_;
    if (batch_.size() == H5_BATCH) write_batch();
  }
  std::string commit() override {
    return h5::write_error([&] {
      write_batch();
      positions_ = h5::Group();  // closed before the file is
      write_game_tables(file_, GameColumns{});
      h5::write_provenance(
          file_, finished_provenance(command_line_, started_, 1, 1,
                                     "chesshpc convert: positions of a training-data file in selfplay's /positions "
                                     "layout (/games is empty: the games are not known; game counts runs of "
                                     "consecutive plies).\n" +
                                         selfplay_tables_readme()));
      h5::set_attr(file_, std::string(h5::JOB.name), std::string(SELFPLAY_JOB));
      h5::set_attr(file_, "positions", int64_t(rows_));
      file_.commit();
    });
  }
  uint64_t bytes_written() const override { return rows_ * 32; }

 private:
  void write_batch() {
    for (const auto& c : SELFPLAY_POSITIONS.columns) c.write(positions_, c, batch_, h5::Layout{true, H5_BATCH});
    batch_ = PositionColumns{};
  }
  h5::File file_;
  h5::Group positions_;
  std::string started_, command_line_;
  PositionColumns batch_;
  uint64_t rows_ = 0, game_ = 0;
  int last_ply_ = 0;
};

}  // namespace

void append_position_row(const DecodedPosition& d, uint64_t game, PositionColumns& p) {
  p.game.push_back(game);
  p.ply.push_back(d.ply >= 0 ? d.ply : game_ply(d.pos));
  p.fen.push_back(d.pos.fen());
  const chess::PackedPosition packed = chess::pack(d.pos);
  p.packed.insert(p.packed.end(), packed.begin(), packed.end());
  p.move.push_back(d.move.is_none() ? "0000" : chess::to_uci(d.move, d.pos.is_chess960()));
  p.best.push_back(p.move.back());
  set_score(p, d.score);
  p.depth.push_back(0), p.nodes.push_back(0), p.time_ms.push_back(0);
  p.in_check.push_back(d.pos.in_check());
  p.book.push_back(false);
  p.halfmove.push_back(d.pos.rule50());
  p.result.push_back(d.wdl == WDL_WIN ? 1.0 : d.wdl == WDL_DRAW ? 0.5 : d.wdl == WDL_LOSS ? 0.0 : std::nan(""));
  p.is_capture.push_back(!d.move.is_none() && captures_or_promotes(d.pos, d.move));
  p.gives_check.push_back(!d.move.is_none() && d.pos.gives_check(d.move));
  p.wdl.push_back(d.wdl);
}

const Format& h5_format() { return H5_FORMAT; }

const Format* dataset_format(std::string_view name) {
  if (name == H5_FORMAT.name) return &H5_FORMAT;
  const Format* f = find_format(name);
  return f && f->make ? f : nullptr;
}

const Format* format_of_path(std::string_view path) {
  path = without_compression(path);
  if (path.ends_with(".hdf5")) return &H5_FORMAT;
  for (const Format& f : formats())
    if (f.make && path.ends_with(f.extension)) return &f;
  return path.ends_with(H5_FORMAT.extension) ? &H5_FORMAT : nullptr;
}

std::string unwritable_name(std::string_view path, const Format& f) {
  const Compression c = compression_of(path);
  if (&f != &H5_FORMAT || c == Compression::NONE) return "";
  // Appended piecewise: GCC 12 warns falsely (-Wrestrict) on chains of operator+.
  std::string s = "'";
  s.append(path).append("' names an HDF5 file, which is not written as ");
  s.append(c == Compression::GZIP ? "gzip" : "zstd").append(" (HDF5 deflates its chunks inside): name it without ");
  return s.append(extension_of(c));
}

std::string dataset_format_names() {
  std::string s;
  for (const Format& f : formats())
    if (f.make) s.append(s.empty() ? "" : "|").append(f.name);
  return s.append("|").append(H5_FORMAT.name);
}

bool has_own_records(const Format& f) { return f.read_fixed || f.read_text; }

DatasetError::DatasetError(uint64_t index, const std::string& why)
    : std::runtime_error("record " + std::to_string(index) + ": " + why), index_(index) {}

std::unique_ptr<RecordReader> RecordReader::open(const std::string& path, const Format& format) {
  if (&format == &H5_FORMAT) return std::make_unique<H5Reader>(path);
  if (has_own_records(format)) return std::make_unique<FlatReader>(path, format);
  return std::make_unique<BinpackReader>(path);
}

bool RecordReader::next_bytes(std::string_view&) {
  throw std::logic_error("next_bytes: this format's records are not the file's own bytes");
}

std::unique_ptr<RecordWriter> RecordWriter::open(const std::string& path, const Format& format,
                                                 const std::string& command_line) {
  if (&format == &H5_FORMAT) return std::make_unique<H5Writer>(path, command_line);
  return std::make_unique<FlatWriter>(path, format);
}

const char* RecordWriter::skip_reason(const Format& f, const DecodedPosition& d) {
  if (f.needs_score && d.score == VALUE_NONE) return "without a score";
  if (!(f.carries & CARRIES_NO_RESULT) && d.wdl == WDL_NONE) return "without a game result";
  return nullptr;
}

void RecordWriter::add_bytes(std::string_view) {
  throw std::logic_error("add_bytes: this format's records are not the file's own bytes");
}

}  // namespace chesshpc
