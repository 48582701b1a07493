// What the two perft result files share (file.h: one row per split-depth unit;
// dedup_file.h: one row per bucket of the dedup ply): the divide of a complete run, the
// per-rank load, the root attributes --resume checks, and the checks of them (with
// jobs/io/resume.h's require_same).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/int128.h"
#include "core/movegen.h"  // RULES_VERSION
#include "core/types.h"
#include "core/uci.h"
#include "core/zobrist.h"
#include "jobs/io/h5.h"
#include "jobs/io/h5_table.h"
#include "jobs/io/job_common.h"
#include "jobs/io/rank_load.h"
#include "jobs/io/resume.h"
#include "jobs/perft/request.h"
#include "jobs/perft/units.h"

namespace chesshpc {
namespace perft_file {

// A root move and the paths through it: a row of /divide.
struct DivideRow {
  chess::Move move;
  chess::u128 nodes;
  bool chess960 = false;  // castling written king-takes-rook
};

inline constexpr auto DIVIDE =
    h5::table("divide", "complete files only: one row per root move; nodes = nodes_hi * 2**64 + nodes_lo",
              {
                  h5::computed<DivideRow>("move", "root move (UCI)",
                                          [](const DivideRow& d) { return chess::to_uci(d.move, d.chess960); }),
                  h5::computed<DivideRow>("nodes", "paths through the move, exact decimal",
                                          [](const DivideRow& d) { return chess::to_string(d.nodes); }),
                  h5::computed<DivideRow>("nodes_hi", "high 64 bits of nodes",
                                          [](const DivideRow& d) { return uint64_t(d.nodes >> 64); }),
                  h5::computed<DivideRow>("nodes_lo", "low 64 bits of nodes",
                                          [](const DivideRow& d) { return uint64_t(d.nodes); }),
              });

inline constexpr auto RANKS =
    h5::table("ranks",
              "one row per run and rank, every run of the job; a stopped run's rows are its time until the stop, a "
              "unit in flight then counted as idle",
              {
                  h5::column<&RankLoad::run>("run", "run of the job"),
                  h5::column<&RankLoad::rank>("rank", "MPI rank"),
                  h5::column<&RankLoad::host>("host", "host the rank ran on"),
                  h5::column<&RankLoad::busy>("busy_seconds", "time counting units"),
                  h5::column<&RankLoad::idle>("idle_seconds", "time waiting for work or results"),
              });

// The job attributes of the two files: split into units (file.h), deduplicated
// (dedup_file.h).
inline constexpr const char* SPLIT_JOB = "perft";
inline constexpr const char* DEDUP_JOB = "perft_dedup";

// The root attributes --resume reads.
inline constexpr h5::Attr<std::string> FEN{"fen", "the root position"};
inline constexpr h5::Attr<int64_t> DEPTH{"depth", "plies counted from the root"};
inline constexpr h5::Attr<int64_t> SPLIT_DEPTH{"split_depth", "plies from the root to the units"};
inline constexpr h5::Attr<int64_t> COMPLETE{"complete", "1 when every unit is done, else 0"};
inline constexpr h5::Attr<std::string> TOTAL{"total", "complete files only: the total, exact decimal text"};
inline constexpr h5::Attr<int64_t> RUNS{"runs", "runs of the job so far: 1, then 2 after the first --resume, ..."};
inline constexpr h5::Attr<int64_t> DEDUP_PLY{"dedup_ply", "plies from the root to the deduplicated positions"};
inline constexpr int64_t RULES_VERSION_OF_BUILD = chess::RULES_VERSION;
inline constexpr h5::Attr<uint64_t> ZOBRIST_SEED{
    "zobrist_seed", "seed of the Zobrist keys: the default set, or the verification set (--verify-keys)"};

// Every host of every run, comma-separated, in order of first appearance.
std::string hosts(const std::vector<RankLoad>& load);

// What both files begin their root attributes with: which job, from where, how deep.
struct Opening {
  const char* job;
  const PerftPlan& plan;
};

inline constexpr auto OPENING = std::to_array({
    h5::attr<Opening>(h5::JOB, [](const Opening& s) { return s.job; }),
    h5::attr<Opening>(FEN, [](const Opening& s) { return s.plan.root.fen(); }),
    h5::attr<Opening>(DEPTH, [](const Opening& s) { return int64_t(s.plan.depth); }),
    h5::attr<Opening>(SPLIT_DEPTH, [](const Opening& s) { return int64_t(s.plan.split_depth); }),
    h5::attr<Opening>(h5::RULES_VERSION, [](const Opening&) { return int64_t(RULES_VERSION_OF_BUILD); }),
});

// What both files end with: the per-rank load, the provenance, and the root attributes
// after each file's own (ENDING).
struct Ending {
  const PerftRequest& req;
  const std::vector<RankLoad>& load;
  std::optional<chess::u128> total;  // complete files only
  const std::string& started;
  int ranks = 1;     // of this run
  int this_run = 0;  // 0 first, 1 after the first --resume, ...
};

inline constexpr auto ENDING = std::to_array({
    h5::attr<Ending>(COMPLETE, [](const Ending& s) { return int64_t(s.total.has_value()); }),
    h5::attr<Ending>(RUNS, [](const Ending& s) { return int64_t(s.this_run + 1); }),
    h5::attr<Ending>("hash_bytes", "perft table size (--hash); 0: no table",
                     [](const Ending& s) { return uint64_t(s.req.hash_bytes); }),
    h5::attr<Ending>("hosts", "every host of every run, comma-separated, in order of first appearance",
                     [](const Ending& s) { return hosts(s.load); }),
    h5::attr<Ending>(ZOBRIST_SEED, [](const Ending&) { return uint64_t(chess::zobrist::seed()); }),
    h5::attr<Ending>(
        TOTAL, [](const Ending& s) { return s.total ? std::optional(chess::to_string(*s.total)) : std::nullopt; }),
    h5::attr<Ending>("total_hi", "complete files only: high 64 bits of the total",
                     [](const Ending& s) { return s.total ? std::optional(uint64_t(*s.total >> 64)) : std::nullopt; }),
    h5::attr<Ending>("total_lo", "complete files only: low 64 bits of the total",
                     [](const Ending& s) { return s.total ? std::optional(uint64_t(*s.total)) : std::nullopt; }),
});

// The README's end: /divide, /ranks, the OPENING and ENDING attributes, and how to read
// the total.
std::string ending_readme();

// Writes /ranks, the provenance (readme as its README), the ENDING attributes, and commits
// the file: the last step of a write, after the file's own tables and attributes.
void write_ending(h5::File& file, const Ending& e, const std::string& readme);

// Writes /divide (castling as Chess960 writes it when chess960); returns the total.
chess::u128 write_divide(const h5::Group& file, const std::vector<chess::Move>& moves,
                         const std::vector<chess::u128>& divide, bool chess960);

// Throws ResumeError unless f holds job_name from this FEN, at this depth, with this
// build's rules version and Zobrist key set. A file of the other perft job is named as
// what it is, with the option that resumes it.
void require_same_root(const h5::Group& f, const std::string& path, const char* job_name, const std::string& fen,
                       int depth);

// Whether path holds a job_name file whose complete attribute is 0.
bool holds_unfinished(const std::string& path, const char* job_name);

// A unit job's checkpoint(): a writer of a snapshot of results, run outside the driver's
// lock; none without a file.
template <class File, class Results>
std::function<uint64_t()> checkpoint_writer(const std::optional<File>& file, const Results& results) {
  if (!file) return {};
  return [&file, snapshot = results] {
    file->write(snapshot);
    return uint64_t(snapshot.count_done());
  };
}

// Runs write; an h5::Error is said on err and gives EXIT_IO. Returns an ExitCode.
int write_or_say(const std::function<void()>& write, std::ostream& err);

// What a perft file keeps when a write after the first failed: "'p.h5' keeps the last
// checkpoint (--resume continues from it)".
std::string kept_note(const std::string& path);

// A unit job's end: the last write of results to file (if it keeps one), then print() of
// the result whether or not the file could be written, then the one line saying why it
// could not and that the file keeps the last checkpoint. Returns an ExitCode.
template <class File, class Results>
int write_last_and_print(const std::optional<File>& file, const Results& results, const PerftRequest& req,
                         const std::function<void()>& print, std::ostream& err) {
  std::string unwritten = file ? h5::write_error([&] { file->write(results); }) : "";
  print();
  return say_unwritten("perft", unwritten, kept_note(req.out), err);
}

// A unit job's open() of req.out: with --resume, read() it (which throws ResumeError or
// h5::Error: EXIT_INPUT); without, refuse a file where unfinished(path) (EXIT_USAGE); then
// first_write(), so that an unwritable file fails now and not after hours (EXIT_IO).
// Returns an ExitCode, after saying why it is not EXIT_OK.
int open_result_file(const PerftRequest& req, std::ostream& err, const std::function<void()>& read,
                     bool (*unfinished)(const std::string& path), const std::function<void()>& first_write);

}  // namespace perft_file
}  // namespace chesshpc
