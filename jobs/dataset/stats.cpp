// chesshpc stats: what a dataset holds, in one pass: the distributions of piece count,
// ply, score, result and game phase, and the share of positions seen before in the file.
// Text tables, JSON, and with --out an HDF5 file (job "stats") that chesshpc-report shows.
#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cstdio>
#include <vector>

#include "jobs/dataset/print.h"
#include "jobs/dataset/records.h"
#include "jobs/dataset/run.h"
#include "jobs/io/h5.h"
#include "jobs/io/h5_table.h"
#include "jobs/io/job_common.h"
#include "jobs/io/json.h"
#include "jobs/io/progress.h"

namespace chesshpc {

namespace {

// One bin of a distribution: its label, its range's low end (the value itself for
// one-value bins) and the records in it.
struct Bin {
  std::string label;
  int64_t from = 0;
  uint64_t count = 0;
};

// Every distribution's table has these columns, declared once.
constexpr auto distribution_table(std::string_view group, std::string_view description) {
  return h5::table(group, description,
                   {
                       h5::column<&Bin::label>("label", "the bin as the text report names it"),
                       h5::column<&Bin::from>("from", "the bin's value, or its range's low end"),
                       h5::column<&Bin::count>("count", "records in the bin"),
                   });
}

// The game phase as Stockfish's classical evaluation weighs material: knights and bishops
// 1, rooks 2, queens 4, capped at 24 (the start position; 0: pawns and kings only).
constexpr int MAX_PHASE = 24;
int game_phase(const chess::Position& pos) {
  using namespace chess;
  const int phase = popcount(pos.pieces(KNIGHT) | pos.pieces(BISHOP)) + 2 * popcount(pos.pieces(ROOK)) +
                    4 * popcount(pos.pieces(QUEEN));
  return std::min(phase, MAX_PHASE);
}

// Plies in bins of PLY_BIN, the last open-ended; scores in bins of SCORE_BIN centipawns
// within +-SCORE_RANGE, then beyond, mates and none.
constexpr int PLY_BIN = 10, PLY_BINS = 30;
constexpr int SCORE_BIN = 100, SCORE_RANGE = 1000;

// The distributions, in the order the report shows them.
struct Distributions {
  std::array<uint64_t, 33> pieces{};
  std::array<uint64_t, PLY_BINS + 1> ply{};
  // below -SCORE_RANGE, the 2 * SCORE_RANGE / SCORE_BIN bins, above, mated, mating, none
  std::array<uint64_t, 2 * SCORE_RANGE / SCORE_BIN + 5> score{};
  std::array<uint64_t, 4> wdl{};  // loss, draw, win, none
  std::array<uint64_t, MAX_PHASE + 1> phase{};
  uint64_t records = 0, duplicates = 0;
};

constexpr std::string_view WDL_LABELS[] = {"loss", "draw", "win", "none"};

size_t score_bin(int score) {
  constexpr size_t inner = 2 * SCORE_RANGE / SCORE_BIN;
  if (score == VALUE_NONE) return inner + 4;
  if (score > MAX_CP_SCORE) return inner + 3;
  if (score < -MAX_CP_SCORE) return inner + 2;
  if (score < -SCORE_RANGE) return 0;
  if (score >= SCORE_RANGE) return inner + 1;
  return size_t(1 + (score + SCORE_RANGE) / SCORE_BIN);
}

// The keys of the positions seen (Zobrist keys: pieces, side, castling, en passant; the
// clocks aside), in open addressing kept at most half full. Two positions of one key, one
// in 2^64 a pair, would count as one.
class KeySet {
 public:
  bool insert(uint64_t key) {
    if (key == 0) key = 1;  // 0 marks an empty slot
    if (2 * (size_ + 1) > slots_.size()) grow();
    const size_t mask = slots_.size() - 1;
    for (size_t i = size_t(key * 0x9E3779B97F4A7C15ULL) & mask;; i = (i + 1) & mask) {
      if (slots_[i] == key) return false;
      if (!slots_[i]) {
        slots_[i] = key, ++size_;
        return true;
      }
    }
  }

 private:
  void grow() {
    std::vector<uint64_t> old(std::max<size_t>(1024, 2 * slots_.size()));
    old.swap(slots_);
    size_ = 0;
    for (uint64_t k : old)
      if (k) insert(k);
  }
  std::vector<uint64_t> slots_;
  size_t size_ = 0;
};

std::vector<Bin> bins(const Distributions& d, int which) {
  std::vector<Bin> out;
  auto add = [&](std::string label, int64_t from, uint64_t n) { out.push_back({std::move(label), from, n}); };
  switch (which) {
    case 0:
      for (int n = 2; n <= 32; ++n) add(std::to_string(n), n, d.pieces[size_t(n)]);
      break;
    case 1:
      for (int b = 0; b < PLY_BINS; ++b)
        add(std::to_string(b * PLY_BIN) + "-" + std::to_string(b * PLY_BIN + PLY_BIN - 1), b * PLY_BIN,
            d.ply[size_t(b)]);
      add(std::to_string(PLY_BINS * PLY_BIN) + "+", PLY_BINS * PLY_BIN, d.ply[PLY_BINS]);
      break;
    case 2: {
      constexpr size_t inner = 2 * SCORE_RANGE / SCORE_BIN;
      add("< " + std::to_string(-SCORE_RANGE), -MAX_CP_SCORE, d.score[0]);
      for (size_t b = 0; b < inner; ++b) {
        const int lo = -SCORE_RANGE + int(b) * SCORE_BIN;
        add(std::to_string(lo) + ".." + std::to_string(lo + SCORE_BIN - 1), lo, d.score[b + 1]);
      }
      add(">= " + std::to_string(SCORE_RANGE), SCORE_RANGE, d.score[inner + 1]);
      add("mated", -VALUE_MATE, d.score[inner + 2]);
      add("mating", VALUE_MATE, d.score[inner + 3]);
      add("none", VALUE_NONE, d.score[inner + 4]);
      break;
    }
    case 3:
      for (int w = 0; w < 4; ++w) add(std::string(WDL_LABELS[w]), w - 1, d.wdl[size_t(w)]);
      break;
    default:
      for (int p = 0; p <= MAX_PHASE; ++p) add(std::to_string(p), p, d.phase[size_t(p)]);
  }
  return out;
}

constexpr auto PIECES = distribution_table("pieces", "records by the number of pieces on the board, kings included");
constexpr auto PLY = distribution_table("ply",
                                        "records by the game's ply, in bins of 10 (the format's own ply, else "
                                        "the full-move number's)");
constexpr auto SCORE = distribution_table(
    "score", "records by score (centipawns, mover's view) in bins of 100 within +-1000, then beyond, mates, none");
constexpr auto WDL = distribution_table("wdl", "records by the game's result for the mover (from: -1, 0, 1; 2 none)");
constexpr auto PHASE = distribution_table(
    "phase", "records by game phase: knights and bishops 1, rooks 2, queens 4, at most 24 (the start position)");
// The tables in Distributions' order, with the names the text and JSON give them.
constexpr std::string_view NAMES[] = {"pieces", "ply", "score", "wdl", "phase"};

struct Root {
  const StatsRequest& req;
  const Distributions& d;
};
constexpr auto ROOT = std::to_array({
    h5::attr<Root>(h5::JOB, [](const Root&) { return std::string("stats"); }),
    h5::attr<Root>("input", "the dataset file described", [](const Root& r) { return r.req.in.path; }),
    h5::attr<Root>("format", "its format", [](const Root& r) { return std::string(r.req.in.format->name); }),
    h5::attr<Root>("records", "records in the file", [](const Root& r) { return int64_t(r.d.records); }),
    h5::attr<Root>("duplicates", "records whose position (pieces, side, castling, en passant) an earlier one has",
                   [](const Root& r) { return int64_t(r.d.duplicates); }),
});

void write_file(const StatsRequest& req, const Distributions& d, const std::string& started) {
  h5::File file(req.out);
  h5::write_table(file, PIECES, bins(d, 0));
  h5::write_table(file, PLY, bins(d, 1));
  h5::write_table(file, SCORE, bins(d, 2));
  h5::write_table(file, WDL, bins(d, 3));
  h5::write_table(file, PHASE, bins(d, 4));
  h5::write_provenance(
      file, finished_provenance(req.command_line, started, 1, 1,
                                "chesshpc stats: the distributions of a dataset file's records.\n" +
                                    h5::readme(PIECES) + h5::readme(PLY) + h5::readme(SCORE) + h5::readme(WDL) +
                                    h5::readme(PHASE) + h5::readme("Root attributes", ROOT)));
  h5::write_attrs(file, ROOT, Root{req, d});
  file.commit();
}

std::string share(uint64_t n, uint64_t of) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f%%", of ? 100.0 * double(n) / double(of) : 0.0);
  return text;
}

void print_text(const StatsRequest& req, const Distributions& d, std::ostream& out) {
  out << req.in.path << " (" << req.in.format->name << "): " << plural(d.records, "record") << ", "
      << plural(d.duplicates, "duplicate") << " (" << share(d.duplicates, d.records) << ")\n";
  for (int t = 0; t < 5; ++t) {
    out << "\n" << NAMES[t] << "\n";
    for (const Bin& b : bins(d, t)) {
      if (!b.count) continue;
      std::string label = "  " + b.label;
      label.resize(std::max<size_t>(label.size() + 1, 16), ' ');
      std::string count = std::to_string(b.count);
      count.insert(0, count.size() < 12 ? 12 - count.size() : 0, ' ');
      out << label << count << "  " << share(b.count, d.records) << "\n";
    }
  }
}

void print_json(const StatsRequest& req, const Distributions& d, std::ostream& out) {
  JsonObject o;
  o.add("input", req.in.path).add("format", req.in.format->name);
  o.add("records", (unsigned long long)d.records).add("duplicates", (unsigned long long)d.duplicates);
  for (int t = 0; t < 5; ++t) {
    std::string rows = "[";
    for (const Bin& b : bins(d, t))
      rows.append(rows.size() > 1 ? "," : "")
          .append(JsonObject()
                      .add("label", b.label)
                      .add("from", long(b.from))
                      .add("count", (unsigned long long)b.count)
                      .str());
    o.raw(NAMES[t], rows + "]");
  }
  out << o.str() << "\n";
}

int stats(const StatsRequest& req, std::ostream& out, std::ostream& err) {
  const std::string started = utc_now();
  std::unique_ptr<RecordReader> reader = RecordReader::open(req.in.path, *req.in.format);
  Distributions d;
  KeySet seen;
  {
    Progress progress(err, "stats", !req.quiet, req.progress_interval, "Mrecords/s");
    progress.set_unit_name("records");
    DecodedPosition r;
    while (reader->next(r)) {
      ++d.pieces[size_t(chess::popcount(r.pos.pieces()))];
      const int ply = r.ply >= 0 ? r.ply : game_ply(r.pos);
      ++d.ply[size_t(std::min(ply / PLY_BIN, PLY_BINS))];
      ++d.score[score_bin(r.score)];
      ++d.wdl[r.wdl == WDL_NONE ? 3 : size_t(r.wdl + 1)];
      ++d.phase[size_t(game_phase(r.pos))];
      if (!seen.insert(r.pos.compute_key())) ++d.duplicates;
      progress.done(1, 1);
    }
  }
  d.records = reader->count();
  if (req.json)
    print_json(req, d, out);
  else
    print_text(req, d, out);
  if (!req.out.empty()) {
    if (const std::string error = h5::write_error([&] { write_file(req, d, started); }); !error.empty())
      return say_unwritten("stats", error, "", err);
  }
  return EXIT_OK;
}

}  // namespace

int run_stats(const StatsRequest& req, std::ostream& out, std::ostream& err) {
  return run_guarded("stats", req.in.path, err, [&] { return stats(req, out, err); });
}

}  // namespace chesshpc
