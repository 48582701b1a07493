#include "jobs/perft/dedup_job.h"

#include <chrono>
#include <cstring>
#include <stdexcept>

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

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

// The request's depths: 1 <= K <= L < D; K defaults to L - 2 (at least 1), shallow enough
// that planning is instant, deep enough that every rank has units to expand.
int DedupPerft::check(const chess::Position& root, int ranks, std::ostream& say) {
  const int ply = req_.dedup_ply;
  if (ply < 1 || ply >= req_.depth) {
    say << "chesshpc perft: --dedup-ply must be at least 1 and below --depth\n";
    return EXIT_USAGE;
  }
  const int split = req_.split_depth ? req_.split_depth : std::max(1, ply - 2);
  if (split > ply) {
    say << "chesshpc perft: with --dedup-ply, --split-depth must not exceed it\n";
    return EXIT_USAGE;
  }
  plan_ = plan_units(root, req_.depth, split);
  if (plan_.units.size() < size_t(ranks) && ply > split)
    say << "chesshpc perft: note: " << plan_.units.size() << " units for " << ranks
        << " ranks: some ranks expand nothing (a deeper --split-depth shares phase A out)\n";
  return EXIT_OK;
}

// Rank 0 (with --resume): the buckets its file marks done, as one byte each, shared with
// every rank so that phase A drops their records before routing them. A file that cannot
// be read gives none here: open() then says why.
std::vector<char> DedupPerft::done_on_file(Exchange& ex) const {
  std::vector<char> done(DEDUP_BUCKETS, 0);
  if (ex.rank() == 0 && req_.resume && !req_.out.empty()) try {
      BucketResults r = read_dedup_file(req_.out, {plan_, req_.dedup_ply});
      for (size_t b = 0; b < DEDUP_BUCKETS; ++b) done[b] = r.done(b);
    } catch (const std::exception&) {
    }
  std::vector<Payload> to(size_t(ex.size()));
  if (ex.rank() == 0) to.assign(to.size(), done);
  std::vector<Payload> from = ex.all_to_all(std::move(to));
  return from[0].size() == DEDUP_BUCKETS ? from[0] : std::vector<char>(DEDUP_BUCKETS, 0);
}

void DedupPerft::print_plan(std::ostream& err) const {
  // perft(L) bounds the records to route: every ply-L path makes at most one.
  chess::PerftTable small(size_t(16) << 20);
  const uint64_t paths = chess::perft::count(plan_.root, req_.dedup_ply, &small);
  err << "chesshpc perft: plan: depth " << plan_.depth << ", dedup ply " << req_.dedup_ply << ", split depth "
      << plan_.split_depth << ": " << plan_.units.size() << " units expanded over " << ranks_.size << " ranks, "
      << DEDUP_BUCKETS << " buckets counted on their owners; at most " << paths << " records of " << sizeof(DedupRecord)
      << " bytes to route (perft " << req_.dedup_ply << "), table "
      << (counting_.table ? counting_.table->bytes() >> 20 : 0) << " MB per rank\n";
}

int DedupPerft::plan(const Ranks& ranks, std::ostream& err) {
  ranks_ = ranks;
  std::ostream nowhere(nullptr);  // every rank checks the request; rank 0 alone says why not
  std::ostream& say = ranks.root() ? err : nowhere;
  std::optional<chess::Position> root = read_position(req_.fen, "perft", say);
  if (!root) return EXIT_INPUT;
  if (int status = check(*root, ranks.size, say); status != EXIT_OK) return status;
  counting_ = RankCounting(req_);
  if (ranks.root() && !req_.quiet) print_plan(err);
  SoloExchange alone;
  Exchange& ex = ranks.exchange ? *ranks.exchange : alone;
  const auto t0 = std::chrono::steady_clock::now();
  shard_ = expand_and_route(plan_, req_.dedup_ply, ex, done_on_file(ex));
  phase_a_seconds_ = since(t0);
  if (ranks.root() && !req_.quiet)
    err << "chesshpc perft: phase A: " << phase_a_seconds_ << " s, " << shard_.rounds << " rounds; rank 0 sent "
        << shard_.records_sent << " records and owns " << shard_.positions.size() << " unique positions\n";
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
  UnitJobInfo i = unit_job_info("perft", req_, req_, req_.command_line);
  i.items = "buckets";
  i.total_items = DEDUP_BUCKETS;
  i.items_to_do = DEDUP_BUCKETS - results_.count_done();
  return i;
}

Payload DedupPerft::compute(size_t bucket) {
  if (bucket % size_t(ranks_.size) != size_t(ranks_.rank))
    throw std::logic_error("perft dedup: bucket " + std::to_string(bucket) + " belongs to another rank");
  const std::vector<uint32_t>& mine = shard_.buckets[bucket];
  const int depth = plan_.depth - req_.dedup_ply;
  const std::vector<uint64_t> counts = counting_.count_each(
      mine.size(), depth, [&](size_t i) -> const chess::Position& { return shard_.positions[mine[i]]; });
  std::vector<chess::u128> sums(plan_.root_moves.size(), 0);
  for (size_t i = 0; i < mine.size(); ++i)
    for (const auto& [root, paths] : shard_.paths_of(mine[i])) sums[root] += chess::u128(paths) * counts[i];
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

std::function<uint64_t()> DedupPerft::checkpoint() { return perft_file::checkpoint_writer(file_, results_); }

chess::u128 DedupPerft::total() const { return sum(divide()); }

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
  add_run(report, run, results_.this_run, results_.load);
  return perft_file::write_last_and_print(
      file_, results_, req_,
      [&] {
        print_unit_run(req_, plan_.root, plan_.root_moves, divide(), run.seconds, counting_.threads, out, report);
      },
      err);
}

}  // namespace chesshpc
