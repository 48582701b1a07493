// chesshpc convert: a dataset file in another format, record for record, with --validate
// stopping at the first record no game can have.
#include <chrono>

#include "core/movegen.h"
#include "core/uci.h"
#include "jobs/dataset/print.h"
#include "jobs/dataset/records.h"
#include "jobs/dataset/run.h"
#include "jobs/io/job_common.h"
#include "jobs/io/progress.h"

namespace chesshpc {

namespace {

// "" when the record is possible, else why not: what --validate checks beyond what every
// reader checks (a position FEN reading accepts). A move that is not legal in its
// position, a score outside Stockfish's scale, a result the position contradicts (the
// mover mated but not lost, stalemated but not drawn).
std::string impossible(const DecodedPosition& d) {
  const chess::MoveList moves = chess::legal_moves(d.pos);
  if (!d.move.is_none() && !moves.contains(d.move))
    return "move " + chess::to_uci(d.move, d.pos.is_chess960()) + " is not legal in " + d.pos.fen();
  if (d.score != VALUE_NONE && (d.score > VALUE_MATE || d.score < -VALUE_MATE))
    return "score " + std::to_string(d.score) + " is outside Stockfish's scale (-32000 to 32000, 32002 for none)";
  if (moves.empty() && d.wdl != WDL_NONE) {
    const bool mated = d.pos.in_check();
    if (mated && d.wdl != WDL_LOSS) return "the mover is mated in " + d.pos.fen() + " but the result is not a loss";
    if (!mated && d.wdl != WDL_DRAW)
      return "the mover is stalemated in " + d.pos.fen() + " but the result is not a draw";
  }
  return "";
}

int convert(const ConvertRequest& req, std::ostream& out, std::ostream& err) {
  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<RecordReader> reader = RecordReader::open(req.in.path, *req.in.format);
  std::unique_ptr<RecordWriter> writer = RecordWriter::open(req.out.path, *req.out.format, req.command_line);
  DatasetSummary s;
  s.command = "convert", s.in = {req.in}, s.out = req.out;
  {
    Progress progress(err, "convert", !req.quiet, req.progress_interval, "Mrecords/s");
    progress.set_unit_name("records");
    DecodedPosition d;
    while (reader->next(d)) {
      const uint64_t index = reader->count() - 1;
      if (req.validate)
        if (const std::string why = impossible(d); !why.empty()) throw DatasetError(index, why);
      if (const char* why = RecordWriter::skip_reason(*req.out.format, d)) {
        ++s.left_out[why];
      } else {
        writer->add(d, index);
        ++s.written;
      }
      progress.done(1, 1);
    }
  }
  s.read = reader->count();
  s.bytes_read = reader->bytes_read();
  if (const std::string error = writer->commit(); !error.empty()) {
    err << "chesshpc convert: " << error << "\n";
    return EXIT_IO;
  }
  s.bytes_written = writer->bytes_written();
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  print_summary(s, req.json, out, err);
  return EXIT_OK;
}

}  // namespace

int run_convert(const ConvertRequest& req, std::ostream& out, std::ostream& err) {
  return run_guarded("convert", req.in.path, err, [&] { return convert(req, out, err); });
}

}  // namespace chesshpc
