// drawstats: replays a PGN corpus under a ruleset and records, for every game, how it
// would have ended and the first ply at which each draw rule's condition held; writes
// the per-game rows and per-rule totals to HDF5 and prints a summary.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "core/game.h"
#include "core/pgn.h"
#include "jobs/io/options.h"
#include "jobs/rules/request.h"
#include "jobs/rules/rule_stats.h"

namespace chesshpc {

struct DrawstatsRequest : CorpusRun {
  std::string out;  // HDF5 file; empty: no file
  // Rows of /games and /skipped written at once (and the datasets' chunk): what memory
  // holds of them. Not an option: tests set it small to write many batches.
  size_t rows_per_write = size_t(1) << 16;
};

// One game of the corpus, replayed.
struct GameRow {
  int64_t index = 0;         // 0-based, in file order
  int32_t first_line = 0;    // where the game starts in the file
  std::string result;        // the PGN Result tag (the termination marker if there is no tag)
  int32_t termination = -1;  // the Rule that ends it under the ruleset, -1 if none
  int32_t termination_ply = -1;
  int32_t plies = 0;  // moves recorded in the file
  bool perpetual_check = false;
  std::array<int32_t, chess::RULE_NB> first_fire{};
};

struct SkippedGame {
  int64_t index;
  int32_t line;
  std::string message;
  std::string variant;  // the Variant tag of a game of a variant not read; empty for a malformed game
};

struct DrawstatsResult {
  int64_t replayed = 0;          // games replayed: the rows of /games
  int64_t skipped_games = 0;     // games not replayed: the rows of /skipped
  int64_t skipped_variants = 0;  // of those, the games of a variant not read (the rest are malformed)
  RuleSummaries rules;
  int64_t plies = 0;
  double seconds = 0;
  // The rows, when compute_drawstats is given no sink for them.
  std::vector<GameRow> games;
  std::vector<SkippedGame> skipped;
};

// Where each game's outcome goes, in stream order, as the games are replayed (one call
// at a time, on any thread): a row per game replayed, one per game not replayed.
class DrawstatsSink {
 public:
  virtual ~DrawstatsSink() = default;
  virtual void game(GameRow&& row) = 0;
  virtual void skipped(SkippedGame&& game) = 0;
};

// How a PGN stream is read: in blocks of block_bytes, each block's whole games replayed
// while the next is read, so that memory holds a few blocks whatever the corpus's size.
// A game's text may take at most game_bytes (a longer one ends the reading: GameTooLong).
struct PgnStreamLimits {
  size_t block_bytes = size_t(1) << 20;
  size_t game_bytes = size_t(16) << 20;
};

// The game at line `line` (index games before it) runs past PgnStreamLimits::game_bytes.
struct GameTooLong {
  int64_t index;
  int line;
  size_t bound;
};

// Fills buf with up to n bytes of the stream and returns how many, fewer only at its end.
using ReadBytes = std::function<size_t(char* buf, size_t n)>;

// A batch of whole games of a PGN stream, as read_pgn_games hands it out: game() for each
// of its games, from several threads at once (each game once, i its place in the batch,
// index its place in the stream), then deliver(), one batch at a time, in stream order;
// then, for what deliver() left to do (positions deflates its file's chunks), encode() on
// any thread, several batches at once, and last written(), one batch at a time, in
// stream order.
class PgnBatchWork {
 public:
  virtual ~PgnBatchWork() = default;
  virtual void game(size_t i, const chess::PgnChunk& chunk, int64_t index) = 0;
  virtual void deliver() = 0;
  virtual void encode() {}
  virtual void written() {}
};

// The corpus reader under drawstats, for every command that reads PGN corpora: the stream
// cut into batches of whole games (in blocks of limits.block_bytes while the batches before
// are worked on, so that memory holds a few blocks whatever the corpus's size), a work made
// for each batch (make, with its game count, in stream order), its games on `threads`
// threads. progress gets each batch's games as its total. Throws GameTooLong, and what
// read and the works throw.
void read_pgn_games(const ReadBytes& read, const PgnStreamLimits& limits, int threads, class Progress* progress,
                    const std::function<std::unique_ptr<PgnBatchWork>(size_t games)>& make);

// Parses and replays every game of the stream, in parallel; rows come in stream order
// whatever the thread count, and the same whatever the block size. The per-rule
// statistics are gathered as games finish; each row goes to sink, or without one to the
// result's vectors: with a sink nothing per game stays in memory. Throws GameTooLong,
// and what read and sink throw.
DrawstatsResult compute_drawstats(const ReadBytes& read, const PgnStreamLimits& limits, chess::Ruleset ruleset,
                                  chess::ClaimPolicy claims, int threads, class Progress* progress,
                                  DrawstatsSink* sink = nullptr);
// The same over a text in memory.
DrawstatsResult compute_drawstats(const std::string& pgn_text, chess::Ruleset ruleset, chess::ClaimPolicy claims,
                                  int threads, class Progress* progress);

int run_drawstats(const DrawstatsRequest& req, std::ostream& out, std::ostream& err);

}  // namespace chesshpc
