#include "jobs/perft/file_common.h"

#include <algorithm>
#include <filesystem>

#include "core/movegen.h"
#include "core/threads.h"
#include "jobs/io/job_common.h"
#include "jobs/io/provenance.h"

namespace chesshpc::perft_file {

std::string hosts(const std::vector<RankLoad>& load) {
  std::vector<std::string> hosts;
  for (const RankLoad& l : load)
    if (std::find(hosts.begin(), hosts.end(), l.host) == hosts.end()) hosts.push_back(l.host);
  std::string joined;
  for (const std::string& h : hosts) joined += (joined.empty() ? "" : ",") + h;
  return joined;
}

std::string ending_readme() {
  std::string s = h5::readme(DIVIDE) + h5::readme(RANKS) + "Root attributes of every perft file:\n";
  for (const h5::AttrInfo& a : OPENING) s += h5::detail::readme_line(a);
  for (const h5::AttrInfo& a : ENDING) s += h5::detail::readme_line(a);
  return s +
         "The total in Python: int(f.attrs['total']) or (int(f.attrs['total_hi']) << 64) | int(f.attrs['total_lo']).\n";
}

void write_ending(h5::File& file, const Ending& e, const std::string& readme) {
  h5::write_table(file, RANKS, e.load);
  Provenance p =
      finished_provenance(e.req.command_line, e.started, chess::resolve_threads(e.req.threads), e.ranks, readme);
  if (!e.total) p.finished = "";  // a checkpoint: unfinished
  h5::write_provenance(file, p);
  h5::write_attrs(file, ENDING, e);
  file.commit();
}

chess::u128 write_divide(const h5::Group& file, const std::vector<chess::Move>& moves,
                         const std::vector<chess::u128>& divide, bool chess960) {
  std::vector<DivideRow> rows;
  chess::u128 total = 0;
  for (size_t i = 0; i < divide.size(); ++i) rows.push_back({moves[i], divide[i], chess960}), total += divide[i];
  h5::write_table(file, DIVIDE, rows);
  return total;
}

namespace {

// Why f, which holds no job_name, cannot be resumed: the other perft file with the option
// that resumes it, or any other file.
std::string not_this_job(const h5::Group& f, const std::string& path, const char* job_name) {
  const std::string cannot = "cannot resume from '" + path + "': ";
  if (h5::is_job(f, DEDUP_JOB))
    return cannot + "it is a deduplicated perft file: resume it with --dedup-ply " +
           std::to_string(h5::read_attr(f, DEDUP_PLY));
  if (h5::is_job(f, SPLIT_JOB))
    return cannot + "it is a perft file without deduplication: resume it without --dedup-ply";
  return cannot + "it is not a chesshpc " + job_name + " file";
}

}  // namespace

void require_same_root(const h5::Group& f, const std::string& path, const char* job_name, const std::string& fen,
                       int depth) {
  if (!h5::is_job(f, job_name)) throw ResumeError(not_this_job(f, path, job_name));
  require_same(path, "FEN", h5::read_attr(f, FEN), fen);
  require_same(path, "depth", h5::read_attr(f, DEPTH), int64_t(depth));
  require_same(path, "rules version", h5::read_attr(f, h5::RULES_VERSION), int64_t(chess::RULES_VERSION));
  auto keys = [](uint64_t seed) {
    return std::string(seed == chess::zobrist::VERIFY_SEED ? "the verification set (--verify-keys)"
                                                           : "the default set");
  };
  require_same(path, "Zobrist key set", keys(h5::read_attr(f, ZOBRIST_SEED)), keys(chess::zobrist::seed()));
}

bool holds_unfinished(const std::string& path, const char* job_name) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return false;
  try {
    h5::Group f = h5::open_read(path);
    return h5::is_job(f, job_name) && h5::has_attr(f, COMPLETE) && h5::read_attr(f, COMPLETE) == 0;
  } catch (const h5::Error&) {
    return false;
  }
}

int write_or_say(const std::function<void()>& write, std::ostream& err) {
  return say_unwritten("perft", h5::write_error(write), "", err);
}

std::string kept_note(const std::string& path) {
  return "'" + path + "' keeps the last checkpoint (--resume continues from it)";
}

int open_result_file(const PerftRequest& req, std::ostream& err, const std::function<void()>& read,
                     bool (*unfinished)(const std::string& path), const std::function<void()>& first_write) {
  if (req.resume) {
    if (std::error_code ec; !std::filesystem::exists(req.out, ec)) {
      err << "chesshpc perft: cannot resume: there is no '" << req.out << "' (start the job without --resume)\n";
      return EXIT_INPUT;
    }
    try {
      read();
    } catch (const std::exception& e) {  // ResumeError or h5::Error
      err << "chesshpc perft: " << e.what() << "\n";
      return EXIT_INPUT;
    }
  } else if (!req.force && unfinished(req.out)) {
    err << "chesshpc perft: '" << req.out << "' holds an unfinished run: add --resume to continue it, "
        << "or --force to start again\n";
    return EXIT_USAGE;
  }
  return write_or_say(first_write, err);
}

}  // namespace chesshpc::perft_file
