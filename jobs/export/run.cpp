#include "jobs/export/run.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <vector>

#include "core/pack.h"
#include "jobs/export/pgn.h"
#include "jobs/export/position_set.h"
#include "jobs/io/byte_sink.h"
#include "jobs/io/h5.h"
#include "jobs/io/job_common.h"
#include "jobs/io/progress.h"
#include "jobs/selfplay/file.h"

namespace chesshpc {

namespace {

// Why a position was left out: the filters in ExportFilters' order, then what a format
// cannot hold.
enum Skip : uint8_t { PLIES, BOOK, IN_CHECK, CAPTURE, MATE, MAX_SCORE, REPEATED, NO_RESULT, NO_SCORE, SKIP_NB };
constexpr const char* SKIP_NAMES[SKIP_NB] = {
    "in the first plies",    "book",           "in check", "capture", "mate", "above --max-score", "repeated",
    "without a game result", "without a score"};

// Where the records go: the stream the command prints on (standard output), or FILE.partial
// published as FILE when complete, gzip or zstd when its name ends in .gz or .zst
// (jobs/io/byte_sink.h). The first write that fails is kept (the rest are dropped) and
// commit() says it; PGN's writer writes through stream(), whose buffer hands the file a
// block at a time.
class Sink : private std::streambuf {
 public:
  Sink(const std::string& path, std::ostream& out) : out_(&out) {
    if (path.empty()) return;
    try {
      file_.emplace(path);
    } catch (const WriteError& e) {
      error_ = e.what();
    }
    block_.resize(1 << 20);
    setp(block_.data(), block_.data() + block_.size());
    file_stream_.emplace(static_cast<std::streambuf*>(this));
    out_ = &*file_stream_;
  }
  // "" when the file is open (or there is none), else why not.
  const std::string& error() const { return error_; }
  std::ostream& stream() { return *out_; }
  // Writes buffer out when it is big enough (or always) and empties it.
  void flush(std::string& buffer, bool always = false) {
    if (buffer.size() < (1 << 20) && !always) return;
    if (file_)
      write_file(buffer);
    else
      out_->write(buffer.data(), std::streamsize(buffer.size()));
    bytes_ += buffer.size();
    buffer.clear();
  }
  size_t bytes() const { return bytes_; }
  // "" when every byte is written (and the file is in place), else why not.
  std::string commit() {
    out_->flush();
    if (!file_) return *out_ ? "" : "cannot write to standard output";
    if (!error_.empty()) return error_;
    try {
      file_->commit();
    } catch (const WriteError& e) {
      error_ = e.what();
    }
    return error_;
  }

 private:
  void write_file(std::string_view bytes) {
    if (!error_.empty()) return;
    try {
      file_->write(bytes);
    } catch (const WriteError& e) {
      error_ = e.what();
    }
  }
  // stream()'s block, full or flushed, to the file.
  int sync() override {
    write_file(std::string_view(pbase(), size_t(pptr() - pbase())));
    setp(block_.data(), block_.data() + block_.size());
    return error_.empty() ? 0 : -1;
  }
  int_type overflow(int_type c) override {
    if (sync() != 0) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) sputc(traits_type::to_char_type(c));
    return traits_type::not_eof(c);
  }

  std::optional<ByteSink> file_;
  std::vector<char> block_;
  std::optional<std::ostream> file_stream_;
  std::ostream* out_;
  std::string error_;
  size_t bytes_ = 0;
};

// The name of the /positions column that holds member M of PositionColumns, as selfplay
// declares it (jobs/selfplay/tables.h).
template <auto M>
constexpr std::string_view positions_column() {
  return h5::name_of<M>(SELFPLAY_POSITIONS);
}

// "/positions row 12", as messages name a row of the file.
std::string row_name(size_t row) {
  std::string s = "/";  // appended piecewise: GCC 12 warns falsely (-Wrestrict) on chains of operator+
  s.append(SELFPLAY_POSITIONS.group).append(" row ").append(std::to_string(row));
  return s;
}

// The /positions columns a position format does without: most of the reading time is
// HDF5's, and its variable-length text costs most. The FEN is written from the packed
// position (as selfplay wrote the column: 51 ms of 200 K FENs read against 30 ms written);
// best and result serve only to derive is_capture and wdl in a file written before them.
std::vector<std::string_view> unread_columns(const h5::Group& file) {
  using P = PositionColumns;
  std::vector<std::string_view> unread = {positions_column<&P::depth>(), positions_column<&P::nodes>(),
                                          positions_column<&P::halfmove>(), positions_column<&P::time_ms>(),
                                          positions_column<&P::fen>()};
  const h5::Group positions = h5::open_group(file, SELFPLAY_POSITIONS.group);
  if (h5::has_dataset(positions, std::string(positions_column<&P::is_capture>())))
    unread.push_back(positions_column<&P::best>());
  if (h5::has_dataset(positions, std::string(positions_column<&P::wdl>())))
    unread.push_back(positions_column<&P::result>());
  return unread;
}

// "" when row i of p, the file's /positions row `row`, is one export can trust: a score
// within its column's range, a packed position that FEN reading would accept; else the
// line that says why not.
std::string bad_row(const PositionColumns& p, size_t i, size_t row) {
  if (const double cp = p.score_cp[i];
      !std::isnan(cp) && !(cp >= SCORE_CP_MIN && cp <= SCORE_CP_MAX && cp == std::trunc(cp))) {
    char text[32];
    *std::to_chars(text, text + sizeof text - 1, cp).ptr = 0;
    return row_name(row) + ": " + std::string(positions_column<&PositionColumns::score_cp>()) + " " + text +
           " is out of its range: NaN (no score) or a whole number from " + std::to_string(int64_t(SCORE_CP_MIN)) +
           " to " + std::to_string(int64_t(SCORE_CP_MAX));
  }
  try {
    chess::unpack_checked(p.packed.data() + 32 * i);
  } catch (const chess::FenError& e) {
    return row_name(row) + ": " + std::string(positions_column<&PositionColumns::packed>()) +
           " is no legal position: " + e.what();
  }
  return "";
}

// Checks rows first, first + 1, ... of the file, held in p: EXIT_OK, or EXIT_INPUT after
// naming the first bad one, before a record of them is written.
int check_rows(const PositionColumns& p, size_t first, std::ostream& err) {
  for (size_t i = 0; i < p.size(); ++i)
    if (const std::string bad = bad_row(p, i, first + i); !bad.empty()) {
      err << "chesshpc export: " << bad << "\n";
      return EXIT_INPUT;
    }
  return EXIT_OK;
}

// Puts what the sink holds in place: EXIT_OK, or EXIT_IO after saying why not.
int commit(Sink& sink, std::ostream& err) {
  const std::string error = sink.commit();
  if (error.empty()) return EXIT_OK;
  err << "chesshpc export: " << error << "\n";
  return EXIT_IO;
}

// The reason row i is left out, or SKIP_NB when it is written.
Skip skip_reason(const PositionColumns& p, size_t i, int score, const ExportFilters& f, const Format& format) {
  if (p.wdl[i] == WDL_NONE) return NO_RESULT;
  if (const std::optional<int> why = filtered_out(p, i, score, f)) return Skip(*why);
  if (format.needs_score && score == VALUE_NONE) return NO_SCORE;
  return SKIP_NB;
}

// "1234 of 1500 positions written as bin (49360 bytes, 40.0 a position); left out: 100 book"
std::string summary(const Format& format, size_t rows, size_t written, size_t bytes, const size_t (&skipped)[SKIP_NB]) {
  std::string s = std::to_string(written) + " of " + std::to_string(rows) + " positions written as " +
                  std::string(format.name) + " (" + std::to_string(bytes) + " bytes";
  if (written) {
    char per[32];
    std::snprintf(per, sizeof per, ", %.1f a position", double(bytes) / double(written));
    s += per;
  }
  s += ")";
  const char* sep = "; left out: ";
  for (int k = 0; k < SKIP_NB; ++k)
    if (skipped[k]) s += sep + std::to_string(skipped[k]) + " " + SKIP_NAMES[k], sep = ", ";
  return s;
}

// One export's state across the batches of rows.
class PositionExport {
 public:
  PositionExport(const ExportRequest& req, size_t rows, Sink& sink, std::ostream& err)
      : req_(req),
        format_(*req.format),
        sink_(sink),
        err_(err),
        writer_(format_.make()),
        seen_(req.filters.dedup ? rows : 0) {}

  // Messages name rows of this file: its path first when there are several.
  void set_file(const std::string& path) { where_ = req_.paths.size() > 1 ? "'" + path + "': " : ""; }

  // Writes the batch's rows, row i of it being /positions row first + i: EXIT_OK, or
  // EXIT_INPUT after saying why not.
  int add(const PositionColumns& p, size_t first) {
    for (size_t i = 0; i < p.size(); ++i) {
      const int score = stockfish_score(p.score_cp[i], p.mate_in[i]);
      Skip why = skip_reason(p, i, score, req_.filters, format_);
      const uint8_t* packed = p.packed.data() + 32 * i;
      if (why == SKIP_NB && req_.filters.dedup && !seen_.insert(position_key(packed))) why = REPEATED;
      if (why != SKIP_NB) {
        ++skipped_[why];
        continue;
      }
      ExportPosition e{chess::unpack_trusted(packed), chess::Move::none(), {}, p.move[i], score, Wdl(p.wdl[i])};
      if (format_.needs_fen) e.fen = fen_ = e.pos.fen();
      if (format_.standard_only && e.pos.is_chess960()) {
        err_ << "chesshpc export: " << format_.name << " holds standard chess only, and " << where_
             << row_name(first + i) << " is a Chess960 position (plain, bullet and epd write Chess960)\n";
        return EXIT_INPUT;
      }
      const std::optional<chess::Move> m = decode_move(e.pos, e.move_uci);
      if (!m) {
        err_ << "chesshpc export: " << where_ << row_name(first + i) << ": "
             << positions_column<&PositionColumns::move>() << " " << p.move[i] << " names no move of its position\n";
        return EXIT_INPUT;
      }
      e.move = *m;
      writer_->add(e, buffer_);
      ++written_;
      sink_.flush(buffer_);
    }
    return EXIT_OK;
  }

  // Writes what the format keeps to the end and puts the file in place; the summary line.
  int finish(size_t rows) {
    writer_->finish(buffer_);
    sink_.flush(buffer_, true);
    if (int code = commit(sink_, err_); code != EXIT_OK) return code;
    err_ << "chesshpc export: " << summary(format_, rows, written_, sink_.bytes(), skipped_) << "\n";
    return EXIT_OK;
  }

 private:
  const ExportRequest& req_;
  const Format& format_;
  Sink& sink_;
  std::ostream& err_;
  std::unique_ptr<PositionWriter> writer_;
  PositionSet seen_;
  size_t skipped_[SKIP_NB] = {}, written_ = 0;
  std::string buffer_, fen_, where_;
};

// The rows of every file, batch by batch, into one output.
int export_positions(const ExportRequest& req, const std::vector<h5::Group>& files, Sink& sink, Progress& progress,
                     std::ostream& err) {
  std::vector<size_t> rows(files.size());
  std::vector<std::vector<std::string_view>> unread(files.size());
  for (size_t k = 0; k < files.size(); ++k) {
    try {
      rows[k] = selfplay_position_rows(files[k]), unread[k] = unread_columns(files[k]);
    } catch (const h5::Error& e) {
      err << "chesshpc export: " << e.what() << "\n";
      return EXIT_INPUT;
    }
  }
  size_t all_rows = 0;
  for (size_t n : rows) all_rows += n;
  PositionExport out(req, all_rows, sink, err);
  const size_t batch = std::max<size_t>(req.batch_rows, 1);
  for (size_t k = 0; k < files.size(); ++k) {
    out.set_file(req.paths[k]);
    for (size_t first = 0; first < rows[k]; first += batch) {
      PositionColumns p;
      try {
        p = read_selfplay_positions(files[k], unread[k], {first, batch});
        if (int code = check_rows(p, first, err); code != EXIT_OK) return code;
        derive_filter_columns(p, first);
      } catch (const h5::Error& e) {
        err << "chesshpc export: " << e.what() << "\n";
        return EXIT_INPUT;
      }
      if (int code = out.add(p, first); code != EXIT_OK) return code;
      progress.done(0, p.size());
    }
    progress.done(1, 0);
    if (files.size() > 1) progress.report();
  }
  progress.finish();
  return out.finish(all_rows);
}

// Opens a selfplay file for reading, or says why not: EXIT_OK, EXIT_IO (unreadable) or
// EXIT_INPUT (not a selfplay file).
int open_selfplay(const std::string& path, h5::Group& f, std::ostream& err) {
  if (std::ifstream in(path); !unreadable_input(path, in).empty()) {
    err << "chesshpc export: cannot read '" << path << "': " << unreadable_input(path, in) << "\n";
    return EXIT_IO;
  }
  try {
    f = h5::open_read(path);
    if (!has_selfplay_tables(f)) {
      err << "chesshpc export: '" << path << "' is not a chesshpc selfplay file\n";
      return EXIT_INPUT;
    }
  } catch (const h5::Error& e) {
    err << "chesshpc export: " << e.what() << "\n";
    return EXIT_INPUT;
  }
  return EXIT_OK;
}

// One file's games as PGN on the sink.
int export_games(const h5::Group& f, Sink& sink, std::ostream& err) {
  SelfplayFileData data;
  try {
    data.tables = read_selfplay_tables(f);
    if (int code = check_rows(data.tables.positions, 0, err); code != EXIT_OK) return code;
    data.started = h5::read_attr(f, h5::STARTED);
    data.host = h5::read_attr(f, h5::HOST);
  } catch (const h5::Error& e) {
    err << "chesshpc export: " << e.what() << "\n";
    return EXIT_INPUT;
  }
  return write_pgn(data, sink.stream(), err);
}

}  // namespace

std::optional<int> filtered_out(const PositionColumns& p, size_t i, int score, const ExportFilters& f) {
  if (p.ply[i] < f.skip_plies) return PLIES;
  if (f.skip_book && p.book[i]) return BOOK;
  if (f.skip_in_check && p.in_check[i]) return IN_CHECK;
  if (f.skip_capture && p.is_capture[i]) return CAPTURE;
  if (f.skip_mate && p.mate_in[i]) return MATE;
  if (f.max_score && score != VALUE_NONE && std::abs(score) > *f.max_score) return MAX_SCORE;
  return std::nullopt;
}

// Every input is opened and checked before anything is written: a bad one among many
// leaves no output.
int run_export(const ExportRequest& req, std::ostream& out, std::ostream& err) {
  std::vector<h5::Group> files(req.paths.size());
  for (size_t k = 0; k < files.size(); ++k)
    if (int code = open_selfplay(req.paths[k], files[k], err); code != EXIT_OK) return code;
  Sink sink(req.out, out);
  if (!sink.error().empty()) {
    err << "chesshpc export: " << sink.error() << "\n";
    return EXIT_IO;
  }
  Progress progress(err, "export", !req.quiet, req.progress_interval, "positions/s");
  progress.set_unit_name("files");
  progress.add_total(files.size());
  if (req.format->make) return export_positions(req, files, sink, progress, err);
  for (const h5::Group& f : files) {
    if (int code = export_games(f, sink, err); code != EXIT_OK) return code;
    progress.done(1, 0);
    if (files.size() > 1) progress.report();
  }
  progress.finish();
  return commit(sink, err);
}

}  // namespace chesshpc
