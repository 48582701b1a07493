#include "jobs/perft/dedup_file.h"

#include <algorithm>
#include <array>
#include <optional>

#include "core/movegen.h"
#include "core/threads.h"
#include "jobs/io/provenance.h"
#include "jobs/perft/dedup.h"

namespace chesshpc {

using namespace perft_file;

namespace {

constexpr const char* JOB_NAME = DEDUP_JOB;

// A bucket and what is known of it: a row of /buckets.
struct BucketRow {
  uint64_t positions = 0;
  std::string nodes;
  double seconds = 0;
  int32_t rank = -1, run = -1;
  bool done = false;
};

constexpr auto BUCKETS = h5::table(
    "buckets",
    "one row per bucket of the dedup ply (a position's bucket: the top 14 bits of its placing hash, "
    "jobs/perft/dedup.h)",
    {
        h5::column<&BucketRow::positions>("positions",
                                          "unique positions of the bucket at the dedup ply (0 until done)"),
        h5::column<&BucketRow::nodes>("nodes", "the bucket's share of the total, exact decimal (0 until done)"),
        h5::column<&BucketRow::seconds>("seconds", "time to count the bucket"),
        h5::column<&BucketRow::rank>("rank", "rank that counted it (its owner after balancing)"),
        h5::column<&BucketRow::run>("run",
                                    "run of the job that counted it: 0 first, 1 after the first --resume; -1 not yet"),
        h5::column<&BucketRow::done>("done", "counted (its sums are final)"),
    });

// A done bucket's sum for one root move: a row of /bucket_divide.
struct BucketDivideRow {
  int64_t bucket = 0;
  int32_t root = 0;
  uint64_t nodes_hi = 0, nodes_lo = 0;
};

constexpr auto BUCKET_DIVIDE =
    h5::table("bucket_divide", "one row per done bucket and root move with a non-zero sum",
              {
                  h5::column<&BucketDivideRow::bucket>("bucket", "row of /buckets"),
                  h5::column<&BucketDivideRow::root>("root", "root move, in the order of /divide (legal-move order)"),
                  h5::column<&BucketDivideRow::nodes_hi>("nodes_hi",
                                                         "high 64 bits of the sum over the bucket's positions of "
                                                         "paths from the root move x perft(depth - dedup_ply)"),
                  h5::column<&BucketDivideRow::nodes_lo>("nodes_lo", "low 64 bits of that sum"),
              });

constexpr auto LEVELS = h5::table(
    "levels", "phase A, routing level by level: one row per run, rank and ply from the split depth to dedup_ply",
    {
        h5::column<&LevelTraffic::run>("run", "run of the job: 0 first, 1 after the first --resume"),
        h5::column<&LevelTraffic::rank>("rank", "MPI rank"),
        h5::column<&LevelTraffic::ply>("ply", "plies from the root"),
        h5::column<&LevelTraffic::unique>("unique", "unique positions of the ply the rank owns"),
        h5::column<&LevelTraffic::children>("children",
                                            "positions the rank generated for the ply (children of the positions it "
                                            "owned one ply up, or its units at the split depth), before merging"),
        h5::column<&LevelTraffic::records_sent>("records_sent", "positions sent to other ranks, one record each"),
        h5::column<&LevelTraffic::records_received>("records_received", "records received from other ranks"),
        h5::column<&LevelTraffic::bytes_sent>("bytes_sent", "bytes of the records sent"),
        h5::column<&LevelTraffic::bytes_received>("bytes_received", "bytes of the records received"),
        h5::column<&LevelTraffic::rounds>("rounds", "rounds of all-to-all exchange"),
        h5::column<&LevelTraffic::seconds>("seconds", "time for the ply: expanding, routing and merging"),
        h5::column<&LevelTraffic::exchange_seconds>("exchange_seconds",
                                                    "part of it inside the exchange (waiting for the slowest rank "
                                                    "included)"),
        h5::column<&LevelTraffic::merge_seconds>("merge_seconds", "part of it merging the records other ranks sent"),
    });

// Which hash places positions in buckets: a file of another cannot be resumed.
constexpr const char* BUCKET_HASH_NAME = "waiting_side_v2";
constexpr h5::Attr<std::string> BUCKET_HASH{"bucket_hash",
                                            "how positions map to buckets (waiting_side_v2: top 14 bits of "
                                            "BoardCode::hash of the pieces of the side not to move, "
                                            "jobs/perft/dedup.h)"};

constexpr h5::Attr<int64_t> BUCKET_COUNT{"buckets", "buckets of the dedup ply: the rows of /buckets"};

constexpr h5::Attr<int64_t> BUCKETS_DONE{"buckets_done", "buckets counted so far"};

struct Root {
  DedupLayout layout;
  const BucketResults& r;
};

constexpr auto ROOT = std::to_array({
    h5::attr<Root>(DEDUP_PLY, [](const Root& s) { return int64_t(s.layout.dedup_ply); }),
    h5::attr<Root>(BUCKET_COUNT, [](const Root& s) { return int64_t(s.r.run.size()); }),
    h5::attr<Root>(BUCKET_HASH, [](const Root&) { return std::string(BUCKET_HASH_NAME); }),
    h5::attr<Root>(BUCKETS_DONE, [](const Root& s) { return int64_t(s.r.count_done()); }),
});

std::string readme() {
  return "chesshpc perft, deduplicated: routed level by level over the ranks, the unique positions dedup_ply plies "
         "below the root, in buckets by a hash of their board codes, each bucket counted on one rank.\n" +
         h5::readme(BUCKETS) + h5::readme(BUCKET_DIVIDE) + h5::readme(LEVELS) +
         h5::readme("Root attributes of this file", ROOT) + ending_readme();
}

void write_buckets(const h5::Group& file, const BucketResults& r) {
  std::vector<BucketRow> rows;
  std::vector<BucketDivideRow> divide;
  for (size_t b = 0; b < r.run.size(); ++b) {
    rows.push_back({r.positions[b], chess::to_string(sum(r.divide[b])), r.seconds[b], r.rank[b], r.run[b], r.done(b)});
    for (size_t m = 0; r.done(b) && m < r.divide[b].size(); ++m)
      if (chess::u128 n = r.divide[b][m]) divide.push_back({int64_t(b), int32_t(m), uint64_t(n >> 64), uint64_t(n)});
  }
  h5::write_table(file, BUCKETS, rows);
  h5::write_table(file, BUCKET_DIVIDE, divide);
  h5::write_table(file, LEVELS, r.levels);
}

}  // namespace

size_t BucketResults::count_done() const {
  return size_t(std::count_if(run.begin(), run.end(), [](int r) { return r >= 0; }));
}

std::vector<chess::u128> BucketResults::merged(size_t root_moves) const {
  std::vector<chess::u128> divide(root_moves, 0);
  for (size_t b = 0; b < run.size(); ++b)
    for (size_t m = 0; done(b) && m < divide.size() && m < this->divide[b].size(); ++m) divide[m] += this->divide[b][m];
  return divide;
}

DedupFile::DedupFile(std::string path, const PerftRequest& req, DedupLayout layout, std::string started, int ranks)
    : path_(std::move(path)), started_(std::move(started)), ranks_(ranks), req_(req), layout_(layout) {}

void DedupFile::write(const BucketResults& r) const {
  h5::File file(path_);
  write_buckets(file, r);
  std::optional<chess::u128> total;  // complete files only
  const PerftPlan& plan = layout_.plan;
  if (r.count_done() == r.run.size())
    total = write_divide(file, plan.root_moves, r.merged(plan.root_moves.size()), plan.root.is_chess960());
  h5::write_attrs(file, OPENING, {JOB_NAME, plan});
  h5::write_attrs(file, ROOT, {layout_, r});
  write_ending(file, {req_, r.load, total, started_, ranks_, r.this_run}, readme());
}

namespace {

// Throws ResumeError unless what r read from the file agrees with what the file says of
// it a second time: each done bucket's nodes (/buckets) with its sums (/bucket_divide),
// the buckets done with buckets_done, and a complete file's total with their sum.
void require_consistent(const h5::Group& f, const std::string& path, const std::vector<BucketRow>& rows,
                        const BucketResults& r) {
  const std::string cannot = "cannot resume from '" + path + "': ";
  chess::u128 total = 0;
  for (size_t b = 0; b < rows.size(); ++b) {
    if (!r.done(b)) continue;
    const chess::u128 sums = sum(r.divide[b]);
    if (const std::optional<chess::u128> nodes = chess::parse_u128(rows[b].nodes); nodes != sums)
      throw ResumeError(cannot + "bucket " + std::to_string(b) + "'s rows of /bucket_divide sum to " +
                        chess::to_string(sums) + ", but its nodes in /buckets are " + rows[b].nodes);
    total += sums;
  }
  if (const int64_t said = h5::read_attr(f, BUCKETS_DONE); said != int64_t(r.count_done()))
    throw ResumeError(cannot + "its buckets_done is " + std::to_string(said) + ", but /buckets has " +
                      std::to_string(r.count_done()) + " done");
  if (!h5::read_attr(f, COMPLETE)) return;
  if (const std::string said = h5::read_attr(f, TOTAL); said != chess::to_string(total))
    throw ResumeError(cannot + "its total is " + said + ", but its buckets sum to " + chess::to_string(total));
}

}  // namespace

BucketResults read_dedup_file(const std::string& path, DedupLayout layout) {
  h5::Group f = h5::open_read(path);
  require_same_root(f, path, JOB_NAME, layout.plan.root.fen(), layout.plan.depth);
  require_same(path, "dedup ply", h5::read_attr(f, DEDUP_PLY), int64_t(layout.dedup_ply));
  require_same(path, "split depth", h5::read_attr(f, SPLIT_DEPTH), int64_t(layout.plan.split_depth));
  require_same(path, "number of buckets", h5::read_attr(f, BUCKET_COUNT), int64_t(DEDUP_BUCKETS));
  require_same(path, "bucket hash", h5::read_attr(f, BUCKET_HASH), std::string(BUCKET_HASH_NAME));
  std::vector<BucketRow> rows;
  std::vector<BucketDivideRow> divide;
  h5::read_table(f, BUCKETS, rows);
  h5::read_table(f, BUCKET_DIVIDE, divide);
  require_same(path, "number of bucket rows", rows.size(), DEDUP_BUCKETS);
  BucketResults r(DEDUP_BUCKETS);
  r.this_run = int(h5::read_attr(f, RUNS));
  const size_t roots = layout.plan.root_moves.size();
  for (size_t b = 0; b < rows.size(); ++b)
    if (rows[b].done)
      r.divide[b].assign(roots, 0), r.positions[b] = rows[b].positions, r.seconds[b] = rows[b].seconds,
                                    r.rank[b] = rows[b].rank, r.run[b] = rows[b].run;
  for (const BucketDivideRow& d : divide) {
    if (d.bucket < 0 || size_t(d.bucket) >= rows.size() || !r.done(size_t(d.bucket)) || d.root < 0 ||
        size_t(d.root) >= roots)
      throw ResumeError("cannot resume from '" + path + "': /bucket_divide names a bucket or root move it lacks");
    chess::u128& n = r.divide[size_t(d.bucket)][size_t(d.root)];
    if (n)
      throw ResumeError("cannot resume from '" + path + "': /bucket_divide holds bucket " + std::to_string(d.bucket) +
                        "'s root move " + std::to_string(d.root) + " twice");
    n = chess::u128(d.nodes_hi) << 64 | d.nodes_lo;
  }
  require_consistent(f, path, rows, r);
  h5::read_table(f, RANKS, r.load);
  h5::read_table(f, LEVELS, r.levels);
  return r;
}

bool holds_unfinished_dedup(const std::string& path) { return holds_unfinished(path, JOB_NAME); }

}  // namespace chesshpc
