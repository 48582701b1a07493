#include "jobs/perft/dedup_job.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <type_traits>

#include "core/perft_table.h"
#include "jobs/io/byte_size.h"
#include "jobs/io/progress.h"
#include "jobs/perft/options.h"

namespace chesshpc {

namespace {

// A bucket's result as it travels: positions, root moves, then a u128 sum per root move.
Payload encode(uint64_t positions, const std::vector<chess::u128>& sums) {
  const uint64_t head[2] = {positions, sums.size()};
  Payload bytes(sizeof head + sums.size() * sizeof(chess::u128));
  std::memcpy(bytes.data(), head, sizeof head);
  if (!sums.empty()) std::memcpy(bytes.data() + sizeof head, sums.data(), sums.size() * sizeof(chess::u128));
  return bytes;
}

uint64_t decode(const Payload& bytes, std::vector<chess::u128>& sums) {
  uint64_t head[2] = {0, 0};
  if (bytes.size() < sizeof head) throw std::runtime_error("perft dedup: a bucket's result is truncated");
  std::memcpy(head, bytes.data(), sizeof head);
  if (bytes.size() != sizeof head + head[1] * sizeof(chess::u128))
    throw std::runtime_error("perft dedup: a bucket's result has the wrong size");
  sums.resize(head[1]);
  if (head[1]) std::memcpy(sums.data(), bytes.data() + sizeof head, head[1] * sizeof(chess::u128));
  return head[0];
}

constexpr size_t MIN_TABLE = 16 * MB;  // below this a table is not worth having
// The table a rank gets by default, per position of ply L it counts (as estimated), up to
// what memory leaves. Phase B's transpositions one ply below L stay within a bucket (whole
// groups of one waiting side), but those through a capture (a piece taken at L + 1 against
// one taken earlier) join two buckets anywhere in the rank's order, and only a table that
// still holds the first when the second comes finds them. perft(9) at L = 6 on 2 ranks
// (4.7 M positions a rank) counted 111.3 M depth-2 subtrees with 16 MB a rank, 101.6 M
// with 128 MB and 99.4 M with 1 GB, against 96.4 M unique (the rest cross ranks); 128 MB
// took the least CPU there (71-74 s, against 78 s with 512 MB and 88 s with 2 GB, 13 s of
// it first touches: 2026-12-04, loaded machine). At perft(10) a rank counts ten times the
// positions, and 128 MB is what 16 MB is to perft(9) (bench/README.md, "Phase B's table
// by the rank's positions"). --hash sets any size.
constexpr double TABLE_BYTES_PER_POSITION = 32;

// Bytes per rank for the positions of plies L - 1 and L (an owner's share with 10% to
// spare, as buckets are not all of one size) and the routing buffers (three, each at most
// a round's bytes, and small levels fill less): the routing's peak.
size_t positions_bytes(const std::vector<double>& unique, int ply, int ranks) {
  const double owned = (1.1 * unique[size_t(ply)] + unique[size_t(ply - 1)]) / ranks;
  const size_t positions = size_t(owned * DEDUP_BYTES_PER_POSITION);
  return positions + std::min(3 * DEDUP_ROUND_BYTES, positions);
}

// Bytes per rank for the positions of ply L alone: what phase B holds beside the table
// (ply L - 1 and the buffers are freed when the routing ends, and nothing touches the
// table's pages before phase B).
size_t counting_bytes(const std::vector<double>& unique, int ply, int ranks) {
  return size_t(1.1 * unique[size_t(ply)] / ranks * DEDUP_BYTES_PER_POSITION);
}

}  // namespace

// The deepest ply L <= D - 3 (L <= D - 2 for depths below 4) whose positions fit in memory
// with room for a table, or 0. Why not D - 2, one ply deeper: phase B then has no table
// to use, and routing the ten times as many positions of the deeper ply costs more than
// the table, whose transpositions one ply below L stay on one rank (Bucketing::WaitingSide):
// perft(9) took 265 s at L = 7 and 139 s at L = 6 on one rank here.
int DedupPerft::auto_ply(const std::vector<double>& unique, int ranks) const {
  for (int ply = std::max(1, req_.depth - (req_.depth >= 4 ? 3 : 2)); ply >= 1; --ply) {
    const size_t need = std::max(positions_bytes(unique, ply, ranks),
                                 counting_bytes(unique, ply, ranks) + (req_.depth - ply > 2 ? MIN_TABLE : 0));
    if (need <= req_.memory_bytes) return ply;
  }
  return 0;
}

// Checks the request's depths (1 <= K <= L < D; K defaults to min(L, 3): every level below
// K is routed, and the plan of K = 3, 5,362 units from the start position, is instant) and
// the memory per rank: with --memory the positions and the table must fit. After
// unique_ is estimated and, with --dedup-ply auto, the ply chosen.
int DedupPerft::check(int ranks, std::ostream& say) const {
  if (auto_ply_ && !req_.dedup_ply) {
    say << "chesshpc perft: --memory " << format_size(req_.memory_bytes) << " per rank holds no dedup ply: even ply 1 "
        << "needs more (give more memory)\n";
    return EXIT_USAGE;
  }
  const int ply = req_.dedup_ply;
  if (ply < 1 || ply >= req_.depth) {
    say << "chesshpc perft: --dedup-ply must be at least 1 and below --depth\n";
    return EXIT_USAGE;
  }
  if (split_depth() > ply) {
    say << "chesshpc perft: with --dedup-ply, --split-depth must not exceed it\n";
    return EXIT_USAGE;
  }
  const bool table = req_.depth - ply > 2;
  if (!table && req_.hash_bytes) {
    say << "chesshpc perft: --dedup-ply " << ply << " of --depth " << req_.depth << " counts subtrees of depth "
        << req_.depth - ply << " once each, with no table: drop --hash\n";
    return EXIT_USAGE;
  }
  if (req_.memory_bytes) {
    const size_t positions = positions_bytes(unique_, ply, ranks);
    const size_t need = std::max(
        positions, counting_bytes(unique_, ply, ranks) + (table ? std::max(table_bytes(ranks), MIN_TABLE) : 0));
    if (need > req_.memory_bytes) {
      say << "chesshpc perft: the plan needs about " << format_size(need) << " per rank (" << format_size(positions)
          << " for about " << uint64_t(unique_[size_t(ply)] / ranks) << " positions at ply " << ply
          << (table ? " and a table" : "") << "), over --memory " << format_size(req_.memory_bytes)
          << ": use a shallower --dedup-ply, more ranks, or more memory\n";
      return EXIT_USAGE;
    }
  }
  return EXIT_OK;
}

int DedupPerft::split_depth() const { return req_.split_depth ? req_.split_depth : std::min(req_.dedup_ply, 3); }

// The table each rank gets: --hash's size; else, with --memory and subtrees deep enough
// for a table, TABLE_BYTES_PER_POSITION a position of ply L the rank counts (at least
// MIN_TABLE), up to what ply L's positions leave, rounded down to a power of two (the
// sizes measured above: perft(10)'s 2 ranks with --memory 8G get 1 GB each, not the
// 1440 MB the positions leave); else none. For a checked request.
size_t DedupPerft::table_bytes(int ranks) const {
  const bool table = req_.depth - req_.dedup_ply > 2;
  const size_t counting = counting_bytes(unique_, req_.dedup_ply, ranks);
  if (req_.hash_bytes || !table || req_.memory_bytes <= counting) return req_.hash_bytes;
  const size_t want = std::max(MIN_TABLE, size_t(TABLE_BYTES_PER_POSITION * unique_[size_t(req_.dedup_ply)] / ranks));
  return std::bit_floor(chess::PerftTable::size_for(std::min(req_.memory_bytes - counting, want)));
}

// Rank 0: every rank's rows of phase A, rank by rank (elsewhere: none).
std::vector<LevelTraffic> DedupPerft::gather_levels(const std::vector<LevelTraffic>& mine, Exchange& ex) {
  static_assert(std::is_trivially_copyable_v<LevelTraffic>);
  std::vector<Payload> to(size_t(ex.size()));
  to[0].resize(mine.size() * sizeof(LevelTraffic));
  if (!mine.empty()) std::memcpy(to[0].data(), mine.data(), to[0].size());
  std::vector<LevelTraffic> all;
  const std::vector<Payload> from = ex.all_to_all(std::move(to));
  for (size_t r = 0; ex.rank() == 0 && r < from.size(); ++r)
    for (size_t at = 0; at + sizeof(LevelTraffic) <= from[r].size(); at += sizeof(LevelTraffic)) {
      LevelTraffic t;
      std::memcpy(&t, from[r].data() + at, sizeof t);
      t.rank = int32_t(r);
      all.push_back(t);
    }
  return all;
}

// Rank 0's done buckets (from open(): the file's, with --resume), one byte each, on every
// rank, so that phase A drops their records before routing them.
std::vector<char> DedupPerft::done_buckets(Exchange& ex) const {
  std::vector<char> done(DEDUP_BUCKETS, 0);
  for (size_t b = 0; ex.rank() == 0 && b < DEDUP_BUCKETS; ++b) done[b] = results_.done(b);
  std::vector<Payload> to(size_t(ex.size()));
  if (ex.rank() == 0) to.assign(to.size(), done);
  std::vector<Payload> from = ex.all_to_all(std::move(to));
  return from[0].size() == DEDUP_BUCKETS ? from[0] : std::vector<char>(DEDUP_BUCKETS, 0);
}

void DedupPerft::print_plan(std::ostream& err) const {
  const int ply = req_.dedup_ply;
  err << "chesshpc perft: plan: depth " << plan_.depth << ", dedup ply " << ply << ": levels " << plan_.split_depth
      << " to " << ply << " routed over " << ranks_.size << " ranks, about " << uint64_t(unique_[size_t(ply)])
      << " unique positions at ply " << ply << " (estimated), "
      << format_size(positions_bytes(unique_, ply, ranks_.size)) << " per rank for positions, table "
      << format_size(counting_.table ? counting_.table->bytes() : 0) << " per rank";
  if (req_.memory_bytes) err << " (--memory " << format_size(req_.memory_bytes) << ")";
  err << "; then perft " << plan_.depth - ply << " of each in " << DEDUP_BUCKETS << " buckets on their owners\n";
}

void DedupPerft::print_level(const LevelTraffic& t, std::ostream& err) const {
  err << "chesshpc perft: ply " << t.ply << ": " << t.unique << " unique positions on rank 0, " << t.records_sent
      << " records (" << format_size(t.bytes_sent) << ") sent in " << t.rounds << " rounds, " << t.seconds << " s ("
      << t.exchange_seconds << " s exchanging, " << t.merge_seconds << " s merging what came)\n";
}

int DedupPerft::plan(const Ranks& ranks, std::ostream& err) {
  ranks_ = ranks;
  std::ostream nowhere(nullptr);  // every rank checks the request; rank 0 alone says why not
  std::ostream& say = ranks.root() ? err : nowhere;
  std::optional<chess::Position> root = read_perft_root(req_, say);
  if (!root) return EXIT_INPUT;
  unique_ = estimate_unique(*root, auto_ply_ ? std::max(1, req_.depth - 2) : std::clamp(req_.dedup_ply, 1, 19));
  if (auto_ply_) req_.dedup_ply = auto_ply(unique_, ranks.size);
  if (int status = check(ranks.size, say); status != EXIT_OK) return status;
  // What the request left to the plan, filled once it is checked.
  req_.hash_bytes = table_bytes(ranks.size);
  plan_ = plan_units(*root, req_.depth, split_depth());
  if (plan_.root_moves.size() > 256) {
    say << "chesshpc perft: --dedup-ply takes positions with at most 256 legal moves\n";
    return EXIT_INPUT;
  }
  // Subtrees of depth 2 are counted once each, so a table would only be written.
  counting_ = RankCounting(req_, plan_.depth - req_.dedup_ply > 2);
  if (ranks.root() && !req_.quiet) print_plan(err);
  return EXIT_OK;
}

// Phase A, after open(), so that a run killed while routing leaves a file to resume. It
// is recomputed on resume rather than saved: the shards are the size of the run's memory
// (gigabytes per rank for perft(9) and beyond) and take about as long to write and read
// back as to route again, and a shard saved per rank would tie the file to the rank count.
int DedupPerft::prepare(const Ranks& ranks, std::ostream& err) {
  SoloExchange alone;
  Exchange& ex = ranks.exchange ? *ranks.exchange : alone;
  const bool talk = ranks.root() && !req_.quiet;
  RouteOptions options;
  options.skip = done_buckets(ex);
  // Progress while a level is routed, as phase B's: rank 0's share of the level before it
  // expanded (the ranks own about equal shares).
  std::optional<Progress> routing;
  options.on_level = [&](const LevelTraffic& t) {
    routing.reset();
    if (talk) print_level(t, err);
  };
  if (talk) {
    options.on_expand = [&](int ply, uint64_t positions) {
      routing.emplace(err, "perft: routing ply " + std::to_string(ply), true, req_.progress_interval, "positions/s");
      routing->set_unit_name("positions of ply " + std::to_string(ply - 1) + " expanded on rank 0");
      routing->add_total(positions);
    };
    options.expanded = [&] { routing->done(1, 1); };
  }
  if (ranks.stop_signal) options.stop = [&ranks] { return ranks.stop_signal() != 0; };
  try {
    shard_ = expand_and_route(plan_, req_.dedup_ply, ex, options);
  } catch (const RoutingStopped&) {
    return EXIT_STOPPED;
  }
  levels_ = gather_levels(shard_.traffic, ex);
  for (LevelTraffic t : levels_) t.run = results_.this_run, results_.levels.push_back(t);
  return EXIT_OK;
}

// The buckets an earlier run recorded (with --resume), and a first write of the file.
int DedupPerft::open(const std::string& started, std::ostream& err) {
  if (req_.out.empty()) return EXIT_OK;
  const DedupLayout layout{plan_, req_.dedup_ply};
  return perft_file::open_result_file(
      req_, err, [this, layout] { results_ = read_dedup_file(req_.out, layout); }, holds_unfinished_dedup,
      [this, layout, &started] {
        file_.emplace(req_.out, req_, layout, started, ranks_.size);
        file_->write(results_);
      });
}

UnitJobInfo DedupPerft::info() const {
  UnitJobInfo i =
      unit_job_info("perft", req_, req_, resume_command_line(req_, plan_.split_depth, auto_ply_ ? req_.dedup_ply : 0));
  i.items = "buckets";
  i.total_items = DEDUP_BUCKETS;
  i.items_to_do = DEDUP_BUCKETS - results_.count_done();
  return i;
}

Payload DedupPerft::compute(size_t bucket) {
  if (shard_.owner.at(bucket) != uint32_t(ranks_.rank))
    throw std::logic_error("perft dedup: bucket " + std::to_string(bucket) + " belongs to another rank");
  const std::vector<uint32_t>& mine = shard_.buckets[bucket];
  const int depth = plan_.depth - req_.dedup_ply;
  const bool keyed = counting_.table != nullptr;
  const chess::CastlingSetup setup = plan_.root.castling_setup();
  // Each position's slot loaded a few positions ahead: the slots of a bucket lie all over
  // the level's table, gigabytes at ply 7.
  constexpr size_t AHEAD = 8;
  for (size_t i = 0; i < std::min(AHEAD, mine.size()); ++i) shard_.level.prefetch_slot(mine[i]);
  std::vector<std::pair<chess::BoardCode, uint32_t>> codes(mine.size());
  for (size_t i = 0; i < mine.size(); ++i) {
    if (i + AHEAD < mine.size()) shard_.level.prefetch_slot(mine[i + AHEAD]);
    codes[i] = {shard_.level.code(mine[i]), uint32_t(i)};
  }
  // Counted in the order of their codes (colours, then the piece planes), not of their
  // slots (hash order): consecutive positions then share most of their pieces, as a
  // depth-first walk's do, and the counting's branch predictors and caches meet similar
  // boards one after another. perft(9) on one rank, L = 6: phase B 56.0 s -> 52.0 s busy
  // (median of 3 interleaved runs each; bench/README.md, "The quiet machine at 0.19.0").
  std::sort(codes.begin(), codes.end(), [](const auto& a, const auto& b) {
    const chess::BoardCode &x = a.first, &y = b.first;
    for (int k : {3, 0, 1, 2})
      if (x.q[k] != y.q[k]) return x.q[k] < y.q[k];
    return x.state < y.state;
  });
  const std::vector<uint64_t> counts = counting_.count_each(
      mine.size(), depth, [&](size_t i) { return chess::decode(codes[i].first, keyed, setup); },
      /*unique=*/true);
  std::vector<chess::u128> sums(plan_.root_moves.size(), 0);
  for (size_t i = 0; i < mine.size(); ++i)
    shard_.level.for_each_path(mine[codes[i].second],
                               [&](unsigned root, uint64_t paths) { sums[root] += chess::u128(paths) * counts[i]; });
  return encode(mine.size(), sums);
}

Recorded DedupPerft::record(size_t bucket, Payload&& result, double seconds, int rank) {
  std::vector<chess::u128> sums;
  const uint64_t positions = decode(result, sums);
  const chess::u128 nodes = sum(sums);
  results_.divide[bucket] = std::move(sums);
  results_.positions[bucket] = positions, results_.seconds[bucket] = seconds, results_.rank[bucket] = rank;
  results_.run[bucket] = results_.this_run;
  return {1, uint64_t(std::min<chess::u128>(nodes, ~uint64_t(0)))};
}

// The nodes this run counted are the sums of the buckets it recorded (their nps); the
// others came from the file.
int DedupPerft::finish(const UnitRun& run, std::ostream& out, std::ostream& err) {
  UnitRunReport report;
  report.split_depth = plan_.split_depth, report.dedup_ply = req_.dedup_ply, report.units = long(DEDUP_BUCKETS);
  for (size_t b = 0; b < DEDUP_BUCKETS; ++b) {
    const bool now = results_.run[b] == results_.this_run;
    report.units_resumed += !now;
    for (size_t m = 0; now && m < results_.divide[b].size(); ++m) report.nodes_counted += results_.divide[b][m];
  }
  report.routing_seconds.assign(size_t(ranks_.size), 0), report.exchange_seconds.assign(size_t(ranks_.size), 0);
  report.bytes_sent.assign(size_t(ranks_.size), 0), report.bytes_received.assign(size_t(ranks_.size), 0);
  for (const LevelTraffic& t : levels_) {
    const size_t r = size_t(t.rank);
    report.routing_seconds[r] += t.seconds, report.exchange_seconds[r] += t.exchange_seconds;
    report.bytes_sent[r] += t.bytes_sent, report.bytes_received[r] += t.bytes_received;
    if (t.ply == req_.dedup_ply) report.unique_positions += t.unique;
  }
  return finish_run(run, report, out, err);
}

}  // namespace chesshpc
