// Exact distributed deduplication of deep perft (issue 13), phase A: every rank expands its
// share of the split-depth units to the dedup ply L and routes each record (the position
// at ply L, a root move, the paths from that root move) to the rank that owns the
// position's bucket, where records of one position merge exactly. Phase B then counts
// each unique position once, on its owner (jobs/perft/dedup_job.h).
//
// Buckets are a fixed number (DEDUP_BUCKETS), independent of the rank count: progress
// recorded per bucket survives a resume on any number of ranks, and bucket b lives on
// rank b % ranks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "core/position.h"
#include "jobs/io/exchange.h"
#include "jobs/perft/units.h"

namespace chesshpc {

constexpr size_t DEDUP_BUCKETS = 4096;

// The bucket of a position: the top bits of its key times an odd constant, so that
// buckets do not depend on the low key bits the perft table indexes by.
inline size_t dedup_bucket(chess::Key key) { return size_t((key * 0x9E3779B97F4A7C15ULL) >> 52); }
static_assert(DEDUP_BUCKETS == size_t(1) << 12);

// A record as it travels between ranks: the bytes of this struct.
struct DedupRecord {
  chess::Position pos;
  uint16_t root = 0;   // root move index
  uint64_t paths = 0;  // paths from that root move to pos
};

// This rank's unique positions at the dedup ply, each with its paths per root move, and
// per bucket the positions in it (only the buckets this rank owns are non-empty).
struct DedupShard {
  using Path = std::pair<uint16_t, uint64_t>;  // (root move, paths from it)
  std::vector<chess::Position> positions;
  std::vector<Path> paths;                     // position i's: [path_begin[i], path_begin[i + 1])
  std::vector<uint32_t> path_begin;            // positions.size() + 1 offsets
  std::vector<std::vector<uint32_t>> buckets;  // per bucket: indices into positions
  uint64_t records_sent = 0;                   // after the local pre-merge
  uint64_t records_received = 0;
  int rounds = 0;  // all-to-all rounds
  std::span<const Path> paths_of(size_t i) const {
    return {paths.data() + path_begin[i], paths.data() + path_begin[i + 1]};
  }
};

// Collective over ex: expands units u with u % ex.size() == ex.rank() of plan from its split
// depth to ply dedup_ply (split_depth <= dedup_ply), drops the records of buckets b with
// skip[b] (done by an earlier run; skip empty: none), and routes the rest in rounds of at
// most about round_records records per rank (checked between units). Positions merge by full identity
// (chess::same_position: pieces, side, castling and legal en-passant rights), never by key
// alone. Multiplicities are 64-bit per (position, root move): enough while the paths from
// one root move to one position stay under 2^64 (any depth a run can reach).
DedupShard expand_and_route(const PerftPlan& plan, int dedup_ply, Exchange& ex, const std::vector<char>& skip = {},
                            size_t round_records = size_t(1) << 19);

}  // namespace chesshpc
