// rescore of every format's records: the same searches as of the HDF5 file of the same
// positions, OUT in IN's format read back record for record with the new scores (binpack's
// chains kept), OUT compressed by its name, and an output format that cannot hold the
// input refused before any search.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/uci.h"
#include "jobs/dataset/records.h"
#include "jobs/io/h5.h"
#include "jobs/io/job_common.h"
#include "jobs/selfplay/file.h"
#include "tests/decompress.h"
#include "tests/run_command.h"

using namespace chesshpc;

namespace {

std::vector<DecodedPosition> read_records(const std::string& path) {
  std::vector<DecodedPosition> out;
  std::unique_ptr<RecordReader> r = RecordReader::open(path, *format_of_path(path));
  for (DecodedPosition d; r->next(d);) out.push_back(d);
  return out;
}

PositionColumns read_positions(const std::string& path) { return read_selfplay_tables(h5::open_read(path)).positions; }

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// Two games of the built-in search, in every format that rescore reads, made once.
class Rescored : public testing::TestWithParam<const char*> {
 protected:
  static void SetUpTestSuite() {
    dir_ = testing::TempDir() + "rescore-" + std::to_string(getpid()) + "/";
    std::filesystem::create_directories(dir_);
    ASSERT_EQ(run("selfplay --games 2 --nodes 300 --max-plies 40 --out " + path("games.h5") + " --quiet").code, 0);
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(dir_); }
  static std::string path(const std::string& name) { return dir_ + name; }
  static testing_support::CommandResult run(const std::string& args) {
    return testing_support::run_command(std::string(CHESSHPC_BIN) + " " + args,
                                        dir_ + "err-" + std::to_string(getpid()) + ".txt");
  }
  static testing_support::CommandResult rescore(const std::string& in, const std::string& out) {
    return run("rescore " + in + " --out " + out + " --depth 3 --threads 2 --quiet");
  }
  static std::string dir_;
};
std::string Rescored::dir_;

// IN of each format, and the HDF5 file convert makes of IN (the same positions: bullet's
// boards as White to move, EPD's without moves): rescored at depth 3, the same best moves,
// scores, depths and node counts; OUT in IN's format holds IN's records, each with the
// score the search gave, the played move and the result kept.
TEST_P(Rescored, AsTheHdf5FileOfTheSamePositionsAndInItsOwnFormat) {
  const std::string ext = GetParam();
  const std::string in = path("in." + ext), same = path("in-" + ext + ".h5");
  ASSERT_EQ(run("convert " + path("games.h5") + " " + in + " --quiet").code, 0);
  ASSERT_EQ(run("convert " + in + " " + same + " --quiet").code, 0);
  const std::string ref = path("ref-" + ext + ".h5"), layout = path("out-" + ext + ".h5"), own = path("out." + ext);
  for (const auto& [from, to] : {std::pair(same, ref), std::pair(in, layout), std::pair(in, own)}) {
    const testing_support::CommandResult r = rescore(from, to);
    ASSERT_EQ(r.code, 0) << from << " -> " << to << ": " << r.err;
  }
  const PositionColumns a = read_positions(ref), b = read_positions(layout);
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(a.packed, b.packed);
  EXPECT_EQ(a.best, b.best);
  EXPECT_EQ(a.mate_in, b.mate_in);
  EXPECT_EQ(a.depth, b.depth);
  EXPECT_EQ(a.nodes, b.nodes);
  for (size_t i = 0; i < a.size(); ++i)
    EXPECT_TRUE(a.score_cp[i] == b.score_cp[i] || (std::isnan(a.score_cp[i]) && std::isnan(b.score_cp[i]))) << i;

  const std::vector<DecodedPosition> before = read_records(in), after = read_records(own);
  ASSERT_EQ(before.size(), a.size());
  ASSERT_EQ(after.size(), before.size());
  size_t scores_changed = 0;
  for (size_t i = 0; i < after.size(); ++i) {
    EXPECT_EQ(after[i].pos.fen(), before[i].pos.fen()) << i;
    EXPECT_EQ(after[i].wdl, before[i].wdl) << i;
    EXPECT_EQ(after[i].ply, before[i].ply) << i;
    EXPECT_EQ(after[i].move, before[i].move) << i;
    EXPECT_EQ(after[i].score, stockfish_score(a.score_cp[i], a.mate_in[i])) << i;
    scores_changed += after[i].score != before[i].score;
  }
  // selfplay searched 300 nodes a move, rescore to depth 3: most scores are new.
  EXPECT_GT(scores_changed, after.size() / 2);
}

INSTANTIATE_TEST_SUITE_P(EveryFormat, Rescored, testing::Values("plain", "bin", "binpack", "bullet", "txt", "epd"),
                         [](const testing::TestParamInfo<const char*>& p) { return std::string(p.param); });

// A binpack rescored into a binpack keeps its chains: the played moves stay, so each game
// is one chain again, its stem's count of continuation plies the game's length less one.
TEST_F(Rescored, BinpackChainsAreKept) {
  const std::string in = path("chains.binpack"), out = path("chains-out.binpack");
  ASSERT_EQ(run("convert " + path("games.h5") + " " + in + " --quiet").code, 0);
  ASSERT_EQ(rescore(in, out).code, 0);
  const PositionColumns games = read_positions(path("games.h5"));
  const size_t first_game = size_t(std::count(games.game.begin(), games.game.end(), games.game[0]));
  for (const std::string& file : {in, out}) {
    std::ifstream f(file, std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(f), {}};
    // "BINP", the chunk's size, the first chain's 32-byte stem, its count (big-endian).
    ASSERT_GT(bytes.size(), 42u);
    EXPECT_EQ(size_t(uint8_t(bytes[40])) << 8 | uint8_t(bytes[41]), first_game - 1) << file;
  }
}

// OUT named .gz or .zst: gzip's or zstd's bytes, which decompress (zlib, libzstd) to the
// uncompressed OUT's exactly, and read back record for record; no checkpoint is left.
TEST_F(Rescored, CompressedOutputIsTheUncompressedOnesBytes) {
  for (const std::string ext : {"plain", "binpack", "epd"}) {
    const std::string in = path("z-in." + ext), out = path("z-out." + ext);
    ASSERT_EQ(run("convert " + path("games.h5") + " " + in + " --quiet").code, 0);
    ASSERT_EQ(rescore(in, out).code, 0);
    const std::string bytes = read_bytes(out);
    const std::string gz = out + ".gz", zst = out + ".zst";
    for (const std::string& to : {gz, zst}) {
      const testing_support::CommandResult r = rescore(in, to);
      ASSERT_EQ(r.code, 0) << to << ": " << r.err;
      EXPECT_FALSE(std::filesystem::exists(to + ".checkpoint")) << to;
    }
    EXPECT_TRUE(testing_support::is_gzip(read_bytes(gz))) << gz;
    EXPECT_EQ(testing_support::gunzip(read_bytes(gz)), bytes) << gz;
    EXPECT_TRUE(testing_support::is_zstd(read_bytes(zst))) << zst;
    EXPECT_EQ(testing_support::unzstd(read_bytes(zst)), bytes) << zst;
    const std::vector<DecodedPosition> plain = read_records(out), back = read_records(zst);
    ASSERT_EQ(back.size(), plain.size());
    for (size_t i = 0; i < back.size(); ++i) {
      EXPECT_EQ(back[i].pos.fen(), plain[i].pos.fen()) << i;
      EXPECT_EQ(back[i].score, plain[i].score) << i;
      EXPECT_EQ(back[i].move, plain[i].move) << i;
    }
  }
}

// An output format that cannot hold the input is refused before any search: one line, exit
// 3, no OUT and no checkpoint.
TEST_F(Rescored, OutputFormatThatCannotHoldTheInputIsRefused) {
  const std::string epd = path("no-result.epd"), out = path("no-result.plain");
  std::ofstream(epd) << "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc 0; fmvn 1;\n"
                        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 0; fmvn 1;\n";
  const testing_support::CommandResult r = rescore(epd, out);
  EXPECT_EQ(r.code, EXIT_INPUT);
  EXPECT_EQ(r.err, "chesshpc rescore: '" + out + "' is plain, which holds no position without a game result, and '" +
                       epd + "' record 0 has none\n");
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_FALSE(std::filesystem::exists(out + ".checkpoint"));
  // The same positions into EPD (which holds "no result") or the HDF5 layout are rescored.
  for (const std::string& to : {path("no-result-out.epd"), path("no-result-out.h5")})
    EXPECT_EQ(rescore(epd, to).code, 0) << to;
  const std::vector<DecodedPosition> back = read_records(path("no-result-out.epd"));
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[1].pos.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  EXPECT_NE(back[1].score, VALUE_NONE);
  EXPECT_EQ(back[1].wdl, WDL_NONE);
}

}  // namespace
