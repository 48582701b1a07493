// The dataset commands: convert between every pair of formats and back, record for record
// on the fields both carry; --validate naming a damaged record; shuffle keeping the
// records, the same for one seed at any memory bound, with several runs and merge
// passes; interleave's proportions; stats' counts on a file written by hand; outputs
// named .gz and .zst written compressed, and their write errors.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>
#include <algorithm>
#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include "core/random.h"
#include "core/uci.h"
#include "jobs/dataset/records.h"
#include "jobs/dataset/run.h"
#include "jobs/io/byte_sink.h"
#include "jobs/io/job_common.h"
#include "tests/decompress.h"
#include "tests/run_command.h"
#include "tests/selfplay_dataset.h"

using namespace chesshpc;

namespace {

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

void write_bytes(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

const Format& format(std::string_view name) { return *dataset_format(name); }

// Converts in (of format from) to out (of format to): the exit code and stderr.
std::pair<int, std::string> convert(const std::string& in, std::string_view from, const std::string& out,
                                    std::string_view to, bool validate = false) {
  ConvertRequest req;
  req.quiet = true;
  req.in = {in, &format(from)};
  req.out = {out, &format(to)};
  req.validate = validate;
  std::ostringstream o, e;
  const int code = run_convert(req, o, e);
  return {code, e.str()};
}

std::vector<DecodedPosition> read_records(const std::string& path, std::string_view name) {
  std::vector<DecodedPosition> out;
  std::unique_ptr<RecordReader> r = RecordReader::open(path, format(name));
  DecodedPosition d;
  while (r->next(d)) out.push_back(d);
  return out;
}

// What a record holds of the fields `carries` names, as text: equal text, equal fields.
std::string project(const DecodedPosition& d, unsigned carries) {
  chess::Position pos = d.pos;
  std::string fen = pos.fen();
  std::string s;
  const bool flip = !(carries & CARRIES_SIDE) && pos.side_to_move() == chess::BLACK;
  // Without the side to move, the board as the mover sees it (bullet's): the FEN of the
  // position with colours swapped and ranks flipped, which reads the same for both.
  std::string placement = fen.substr(0, fen.find(' '));
  if (flip) {
    std::string ranks[8];
    std::istringstream in(placement);
    for (int i = 0; i < 8; ++i) std::getline(in, ranks[i], '/');
    placement.clear();
    for (int i = 7; i >= 0; --i) {
      for (char& c : ranks[i]) c = std::isupper(c) ? char(std::tolower(c)) : char(std::toupper(c));
      placement += ranks[i] + (i ? "/" : "");
    }
  }
  std::istringstream f(fen);
  std::string board, side, rights, ep, rule50, fullmove;
  f >> board >> side >> rights >> ep >> rule50 >> fullmove;
  s += placement;
  if (carries & CARRIES_SIDE) s += " " + side;
  if (carries & CARRIES_RIGHTS) s += " " + rights + " " + ep;
  if (carries & CARRIES_CLOCKS) s += " hm " + rule50;
  if (carries & CARRIES_FULLMOVE) s += " fm " + fullmove;
  if (carries & CARRIES_MOVE) s += " move " + chess::to_uci(d.move);
  if (carries & CARRIES_SCORE) s += " score " + std::to_string(d.score);
  if (carries & CARRIES_RESULT) s += " wdl " + std::to_string(int(d.wdl));
  if (carries & CARRIES_PLY) s += " ply " + std::to_string(d.ply >= 0 ? d.ply : game_ply(d.pos));
  return s;
}

constexpr std::string_view FORMATS[] = {"plain", "bin", "binpack", "bullet", "bullet-text", "epd", "h5"};

// The dataset in every format, made once: FORMAT's file is dir + "all." + FORMAT.
class Converted : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    // A directory of this process's own: ctest runs the suite's tests as processes at once.
    dir_ = testing::TempDir() + "convert-" + std::to_string(getpid()) + "/";
    std::filesystem::create_directories(dir_);
    const std::string h5 = make_dataset("convert-" + std::to_string(getpid()) + "/source.h5");
    for (std::string_view f : FORMATS) {
      const std::string out = file(f);
      std::filesystem::remove(out);
      ASSERT_EQ(convert(h5, "h5", out, f).first, EXIT_OK) << f;
    }
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(dir_); }
  static std::string file(std::string_view f, const std::string& stem = "all.") { return dir_ + stem + std::string(f); }
  static std::string dir_;
};
std::string Converted::dir_;

// A -> B -> A gives A's records back on every field both carry, the records B cannot hold
// (no score for bullet's, no result) left out; where B carries all A carries, A's bytes.
TEST_F(Converted, EveryPairRoundTripsRecordForRecord) {
  for (std::string_view a : FORMATS) {
    const std::vector<DecodedPosition> original = read_records(file(a), a);
    ASSERT_GT(original.size(), 1000u) << a;
    for (std::string_view b : FORMATS) {
      if (a == b) continue;
      const std::string there = file(b, "pair." + std::string(a) + "."), back = there + ".back";
      std::filesystem::remove(there), std::filesystem::remove(back);
      ASSERT_EQ(convert(file(a), a, there, b).first, EXIT_OK) << a << " -> " << b;
      ASSERT_EQ(convert(there, b, back, a).first, EXIT_OK) << b << " -> " << a;
      const std::vector<DecodedPosition> returned = read_records(back, a);
      const unsigned both = format(a).carries & format(b).carries;
      std::vector<std::string> expected, got;
      for (const DecodedPosition& d : original) {
        if (!RecordWriter::skip_reason(format(b), d)) expected.push_back(project(d, both));
      }
      for (const DecodedPosition& d : returned) got.push_back(project(d, both));
      ASSERT_EQ(got.size(), expected.size()) << a << " -> " << b << " -> " << a;
      for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], expected[i]) << a << " -> " << b << " record " << i;
      const unsigned lost = format(a).carries & ~format(b).carries & ~CARRIES_NO_RESULT;
      if (!lost && a != "h5" && expected.size() == original.size()) {
        EXPECT_EQ(read_bytes(back), read_bytes(file(a))) << a << " -> " << b << " -> " << a;
      }
    }
  }
}

// What the pairs that lose nothing give byte for byte, named: the list above computes it,
// this pins it.
TEST_F(Converted, LosslessPairsGiveTheSameBytes) {
  for (auto [a, b] : {std::pair{"bin", "plain"},
                      {"plain", "bin"},
                      {"binpack", "plain"},
                      {"bullet", "binpack"},
                      {"bullet-text", "plain"},
                      {"epd", "h5"},
                      {"bin", "h5"}}) {
    const std::string there = file(b, "lossless." + std::string(a) + "."), back = there + ".back";
    std::filesystem::remove(there), std::filesystem::remove(back);
    ASSERT_EQ(convert(file(a), a, there, b).first, EXIT_OK);
    ASSERT_EQ(convert(there, b, back, a).first, EXIT_OK);
    EXPECT_EQ(read_bytes(back), read_bytes(file(a))) << a << " -> " << b << " -> " << a;
  }
}

TEST_F(Converted, ValidateNamesTheFirstImpossibleRecordAndExits3) {
  std::string bytes = read_bytes(file("bin"));
  const std::string fen = read_records(file("bin"), "bin")[100].pos.fen();
  bytes[40 * 100 + 34] = char(0xFF), bytes[40 * 100 + 35] = char(0xFF);  // the move: h8 to ... castling
  const std::string damaged = file("bin", "damaged_move."), out = file("plain", "damaged_move.");
  write_bytes(damaged, bytes);
  std::filesystem::remove(out);
  const auto [code, err] = convert(damaged, "bin", out, "plain", true);
  EXPECT_EQ(code, EXIT_INPUT);
  EXPECT_EQ(err, "chesshpc convert: '" + damaged + "' record 100: move h8c8 is not legal in " + fen + "\n");
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_FALSE(std::filesystem::exists(out + ".partial"));
  // Without --validate the move is taken as its squares say.
  EXPECT_EQ(convert(damaged, "bin", out, "plain").first, EXIT_OK);
}

TEST_F(Converted, ARecordThatDoesNotReadIsNamedWithOrWithoutValidate) {
  std::string bytes = read_bytes(file("bin"));
  bytes[40 * 7 + 38] = 7;  // game_result
  const std::string damaged = file("bin", "damaged_result."), out = file("epd", "damaged_result.");
  write_bytes(damaged, bytes);
  EXPECT_EQ(
      convert(damaged, "bin", out, "epd"),
      std::pair(int(EXIT_INPUT), "chesshpc convert: '" + damaged + "' record 7: game_result 7 is not -1, 0 or 1\n"));
  write_bytes(damaged, read_bytes(file("bin")).substr(0, 40 * 25 + 1));
  EXPECT_EQ(convert(damaged, "bin", out, "epd"),
            std::pair(int(EXIT_INPUT), "chesshpc convert: '" + damaged +
                                           "' record 25: the file ends inside the record (1 of 40 bytes)\n"));
  std::string plain = read_bytes(file("plain"));
  plain.replace(plain.find("score", plain.find("\ne\n", plain.find("\ne\n") + 1)), 5, "scone");  // record 2
  const std::string bad_plain = file("plain", "damaged_key.");
  write_bytes(bad_plain, plain);
  const auto [code, err] = convert(bad_plain, "plain", out, "epd", true);
  EXPECT_EQ(code, EXIT_INPUT);
  EXPECT_EQ(err.substr(0, err.find(": line")), "chesshpc convert: '" + bad_plain + "' record 2");
}

// A bullet board is built from its bitboards and checked as a FEN is: the mover's king made
// a queen is a named record, its king squares not the board's kings another.
TEST_F(Converted, DamagedBulletBoardIsANamedRecord) {
  const std::string original = read_bytes(file("bullet"));
  const std::string damaged = file("bullet", "damaged_king."), out = file("epd", "damaged_king.");
  constexpr size_t RECORD = 5, AT = 32 * RECORD;
  std::string bytes = original;
  uint64_t occupied = 0;
  for (int i = 0; i < 8; ++i) occupied |= uint64_t(uint8_t(bytes[AT + size_t(i)])) << (8 * i);
  const unsigned king = uint8_t(bytes[AT + 27]);
  const int idx = std::popcount(occupied & ((uint64_t(1) << king) - 1));
  char& nibbles = bytes[AT + 8 + size_t(idx / 2)];
  nibbles = char((uint8_t(nibbles) & ~(7u << (4 * (idx & 1)))) | (4u << (4 * (idx & 1))));  // a queen
  write_bytes(damaged, bytes);
  EXPECT_EQ(convert(damaged, "bullet", out, "epd"),
            std::pair(int(EXIT_INPUT), "chesshpc convert: '" + damaged + "' record " + std::to_string(RECORD) +
                                           ": position: bad FEN: piece placement: white has 0 kings, not 1\n"));
  bytes = original;
  bytes[AT + 27] = char(king ^ 1);
  write_bytes(damaged, bytes);
  EXPECT_EQ(
      convert(damaged, "bullet", out, "epd"),
      std::pair(int(EXIT_INPUT), "chesshpc convert: '" + damaged + "' record " + std::to_string(RECORD) +
                                     ": the king squares " + std::to_string(king ^ 1) + " and " +
                                     std::to_string(uint8_t(bytes[AT + 28])) + " are not the kings' of the board\n"));
}

// The records of a file of fixed-size records, as a sorted list.
std::vector<std::string> sorted_records(const std::string& bytes, size_t size) {
  std::vector<std::string> out;
  for (size_t at = 0; at < bytes.size(); at += size) out.push_back(bytes.substr(at, size));
  std::sort(out.begin(), out.end());
  return out;
}

// Shuffles in (of format f) to out with the seed and memory bound: exit code and the
// --json summary.
std::pair<int, std::string> shuffle(const std::string& in, std::string_view f, const std::string& out, uint64_t seed,
                                    size_t memory) {
  ShuffleRequest req;
  req.quiet = true, req.json = true;
  req.in = {in, &format(f)};
  req.out = {out, &format(f)};
  req.seed = seed;
  req.memory = memory;
  std::filesystem::remove(out);
  std::ostringstream o, e;
  const int code = run_shuffle(req, o, e);
  return {code, o.str() + e.str()};
}

uint64_t json_count(const std::string& json, const std::string& key) {
  const size_t at = json.find("\"" + key + "\": ");
  return at == std::string::npos ? UINT64_MAX : std::stoull(json.substr(at + key.size() + 4));
}

TEST_F(Converted, ShuffleKeepsTheRecordsAndIsTheSameForOneSeedAtAnyMemory) {
  const std::string in = file("bin"), bytes = read_bytes(in);
  ASSERT_GT(bytes.size(), 4 * (size_t(16) << 10));
  const std::string small = file("bin", "shuffled_small."), large = file("bin", "shuffled_large."),
                    other = file("bin", "shuffled_other.");
  // 16 KB: the file is over four times the bound; runs of ~290 records, merged two at a time.
  const auto [code, json] = shuffle(in, "bin", small, 7, size_t(16) << 10);
  ASSERT_EQ(code, EXIT_OK) << json;
  EXPECT_GE(json_count(json, "runs"), 4u) << json;
  EXPECT_GE(json_count(json, "merge_passes"), 3u) << json;
  EXPECT_EQ(json_count(json, "records_read"), bytes.size() / 40);
  EXPECT_EQ(json_count(json, "bytes_read"), bytes.size());
  // Every pass writes and reads each record once as key (8 bytes) and record (40).
  EXPECT_EQ(json_count(json, "temp_bytes_written"), json_count(json, "merge_passes") * 48 * (bytes.size() / 40));
  EXPECT_EQ(json_count(json, "temp_bytes_read"), json_count(json, "temp_bytes_written"));
  ASSERT_EQ(shuffle(in, "bin", large, 7, size_t(1) << 30).first, EXIT_OK);
  ASSERT_EQ(shuffle(in, "bin", other, 8, size_t(16) << 10).first, EXIT_OK);
  const std::string a = read_bytes(small);
  EXPECT_EQ(sorted_records(a, 40), sorted_records(bytes, 40));
  EXPECT_NE(a, bytes);
  EXPECT_EQ(a, read_bytes(large));
  EXPECT_NE(a, read_bytes(other));
  EXPECT_EQ(sorted_records(read_bytes(other), 40), sorted_records(bytes, 40));
  // No run is left behind.
  for (const auto& e : std::filesystem::directory_iterator(dir_))
    EXPECT_EQ(e.path().filename().string().find("chesshpc-shuffle-"), std::string::npos) << e.path();
}

// Text records move whole; binpack's entries are decoded and each written as a chain.
TEST_F(Converted, ShuffleOfTextAndBinpackKeepsEveryRecord) {
  for (std::string_view f : {"plain", "epd", "binpack"}) {
    const std::string out = file(f, "shuffled.");
    ASSERT_EQ(shuffle(file(f), f, out, 3, size_t(16) << 10).first, EXIT_OK) << f;
    std::vector<std::string> before, after;
    for (const DecodedPosition& d : read_records(file(f), f)) before.push_back(project(d, format(f).carries));
    for (const DecodedPosition& d : read_records(out, f)) after.push_back(project(d, format(f).carries));
    EXPECT_NE(before, after) << f;
    std::sort(before.begin(), before.end()), std::sort(after.begin(), after.end());
    EXPECT_EQ(before, after) << f;
  }
}

TEST_F(Converted, InterleaveTakesEachFileInProportionToItsRecords) {
  const std::string bytes = read_bytes(file("bin"));
  const size_t n = bytes.size() / 40, na = n / 4;
  const std::string a = file("bin", "part_a."), b = file("bin", "part_b."), out = file("bin", "interleaved.");
  write_bytes(a, bytes.substr(0, 40 * na));
  write_bytes(b, bytes.substr(40 * na));
  InterleaveRequest req;
  req.quiet = true;
  req.in = {{a, &format("bin")}, {b, &format("bin")}};
  req.out = {out, &format("bin")};
  req.seed = 1;
  std::filesystem::remove(out);
  std::ostringstream o, e;
  ASSERT_EQ(run_interleave(req, o, e), EXIT_OK) << e.str();
  const std::string mixed = read_bytes(out);
  ASSERT_EQ(mixed.size(), bytes.size());
  // Each file's records in their order; a's spread over the output a quarter in each quarter.
  std::vector<std::string> from_a, from_b;
  size_t a_in_quarter[4] = {};
  const std::string part_a = bytes.substr(0, 40 * na);
  for (size_t i = 0; i < n; ++i) {
    const std::string r = mixed.substr(40 * i, 40);
    const bool is_a = from_a.size() < na && r == part_a.substr(40 * from_a.size(), 40);
    (is_a ? from_a : from_b).push_back(r);
    if (is_a) ++a_in_quarter[4 * i / n];
  }
  EXPECT_EQ(from_a.size(), na);
  EXPECT_EQ(from_b.size(), n - na);
  for (size_t q = 0; q < 4; ++q) {
    EXPECT_GT(a_in_quarter[q], na / 4 - na / 10) << q;
    EXPECT_LT(a_in_quarter[q], na / 4 + na / 10) << q;
  }
  const std::string again = file("bin", "interleaved_again."), other = file("bin", "interleaved_other.");
  req.out.path = again;
  ASSERT_EQ(run_interleave(req, o, e), EXIT_OK);
  EXPECT_EQ(read_bytes(again), mixed);
  req.out.path = other, req.seed = 2;
  ASSERT_EQ(run_interleave(req, o, e), EXIT_OK);
  EXPECT_NE(read_bytes(other), mixed);
}

TEST(Stats, CountsOfAFileWrittenByHand) {
  const std::string path = testing::TempDir() + "stats.epd";
  write_bytes(path,
              "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc 0; fmvn 1; ce 35; c9 \"1-0\";\n"
              "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc 0; fmvn 1; ce -20; c9 \"1/2-1/2\";\n"
              "4k3/8/8/8/8/8/8/4K2Q b - - hmvc 3; fmvn 40; ce 31990; c9 \"1-0\";\n"
              "4k3/8/8/8/8/8/3R4/4K3 w - - hmvc 0; fmvn 61; c9 \"0-1\";\n");
  StatsRequest req;
  req.quiet = true;
  req.in = {path, &format("epd")};
  std::ostringstream out, err;
  ASSERT_EQ(run_stats(req, out, err), EXIT_OK) << err.str();
  EXPECT_EQ(out.str(), path +
                           " (epd): 4 records, 1 duplicate (25.00%)\n"
                           "\npieces\n"
                           "  3                        2  50.00%\n"
                           "  32                       2  50.00%\n"
                           "\nply\n"
                           "  0-9                      2  50.00%\n"
                           "  70-79                    1  25.00%\n"
                           "  120-129                  1  25.00%\n"
                           "\nscore\n"
                           "  -100..-1                 1  25.00%\n"
                           "  0..99                    1  25.00%\n"
                           "  mating                   1  25.00%\n"
                           "  none                     1  25.00%\n"
                           "\nwdl\n"
                           "  loss                     2  50.00%\n"
                           "  draw                     1  25.00%\n"
                           "  win                      1  25.00%\n"
                           "\nphase\n"
                           "  2                        1  25.00%\n"
                           "  4                        1  25.00%\n"
                           "  24                       2  50.00%\n");
}

// The commands as a user runs them: the format by the file's name, the exit codes.
testing_support::CommandResult chesshpc(const std::string& args, const std::string& name) {
  return testing_support::run_command(std::string(CHESSHPC_BIN) + " " + args, testing::TempDir() + name + ".err");
}

TEST_F(Converted, CommandLineTellsFormatsByNameAndSaysErrorsInOneLine) {
  const std::string in = file("bin"), out = dir_ + "cli.epd";
  std::filesystem::remove(out);
  testing_support::CommandResult r = chesshpc("convert " + in + " " + out + " --quiet", "cli_convert");
  EXPECT_EQ(r.code, EXIT_OK) << r.err;
  EXPECT_EQ(read_bytes(out).substr(0, 10), read_bytes(file("epd")).substr(0, 10));
  r = chesshpc("convert " + in + " " + out + " --quiet", "cli_exists");
  EXPECT_EQ(r.code, EXIT_USAGE);
  EXPECT_EQ(r.err, "chesshpc: '" + out + "' exists: add --force to overwrite it\nsee 'chesshpc convert --help'\n");
  r = chesshpc("convert " + in + " " + in + ".x --quiet", "cli_unknown");
  EXPECT_EQ(r.code, EXIT_USAGE);
  EXPECT_EQ(r.err.substr(0, r.err.find('\n')),
            "chesshpc: cannot tell the format of '" + in +
                ".x' by its name: give --to plain|bin|binpack|bullet|bullet-text|epd|h5");
  std::string bytes = read_bytes(in);
  bytes[40 * 3 + 38] = 9;
  write_bytes(dir_ + "cli_bad.bin", bytes);
  r = chesshpc("convert " + dir_ + "cli_bad.bin --to plain --validate", "cli_bad");
  EXPECT_EQ(r.code, EXIT_INPUT);
  EXPECT_EQ(r.err, "chesshpc convert: '" + dir_ + "cli_bad.bin' record 3: game_result 9 is not -1, 0 or 1\n");
  r = chesshpc("shuffle " + in + " " + dir_ + "cli_shuffled.bin --memory 0.5M --force", "cli_memory");
  EXPECT_EQ(r.code, EXIT_USAGE);
  r = chesshpc("stats " + file("h5") + " --json --quiet", "cli_stats");
  EXPECT_EQ(r.code, EXIT_OK) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find(", \"pieces\"")),
            "{\"input\": \"" + file("h5") + "\", \"format\": \"h5\", \"records\": " +
                std::to_string(read_records(file("h5"), "h5").size()) + ", \"duplicates\": " +
                std::to_string(json_count(chesshpc("stats " + file("bin") + " --json --quiet", "cli_stats_bin").out,
                                          "duplicates")));
}

// --- compressed outputs ---

// A compressed file's bytes through its library (zlib, libzstd), its magic bytes checked:
// gzip's for a name ending in .gz, zstd's for .zst.
std::string decompressed(const std::string& path) {
  const std::string bytes = read_bytes(path);
  if (path.ends_with(".gz")) {
    EXPECT_TRUE(testing_support::is_gzip(bytes)) << path;
    return testing_support::gunzip(bytes);
  }
  EXPECT_TRUE(testing_support::is_zstd(bytes)) << path;
  return testing_support::unzstd(bytes);
}

constexpr std::string_view FLAT_FORMATS[] = {"plain", "bin", "binpack", "bullet", "bullet-text", "epd"};
constexpr std::string_view COMPRESSIONS[] = {".gz", ".zst"};

// convert IN OUT.gz (OUT.zst): gzip's (zstd's) bytes, which decompress to the uncompressed
// OUT's exactly; convert reads them back record for record (the same bytes again).
TEST_F(Converted, CompressedOutputsDecompressToTheUncompressedBytesAndReadBack) {
  for (std::string_view f : FLAT_FORMATS) {
    for (std::string_view ext : COMPRESSIONS) {
      const std::string out = file(f, "compressed.") + std::string(ext), back = file(f, "decompressed.");
      std::filesystem::remove(out), std::filesystem::remove(back);
      ASSERT_EQ(convert(file("h5"), "h5", out, f).first, EXIT_OK) << out;
      EXPECT_EQ(decompressed(out), read_bytes(file(f))) << out;
      ASSERT_EQ(convert(out, f, back, f).first, EXIT_OK) << out;
      EXPECT_EQ(read_bytes(back), read_bytes(file(f))) << out;
    }
  }
  // Text compresses: plain to a fifth of its size at most.
  EXPECT_LT(std::filesystem::file_size(file("plain", "compressed.") + ".gz"),
            std::filesystem::file_size(file("plain")) / 5);
}

// shuffle and interleave into OUT.gz (OUT.zst) write the bytes they write into OUT: the
// shuffle's runs stay plain, only the output is compressed.
TEST_F(Converted, ShuffleAndInterleaveWriteCompressedOutputs) {
  const std::string bytes = read_bytes(file("bin"));
  const std::string a = file("bin", "cpart_a."), b = file("bin", "cpart_b.");
  write_bytes(a, bytes.substr(0, 40 * 300));
  write_bytes(b, bytes.substr(40 * 300));
  for (std::string_view f : {"bin", "plain"}) {
    const std::string shuffled = file(f, "cshuffled.");
    // 16 KB: several runs and merge passes.
    ASSERT_EQ(shuffle(file(f), f, shuffled, 7, size_t(16) << 10).first, EXIT_OK) << f;
    ASSERT_NE(read_bytes(shuffled), read_bytes(file(f))) << f;
    for (std::string_view ext : COMPRESSIONS) {
      const std::string out = shuffled + std::string(ext);
      const auto [code, json] = shuffle(file(f), f, out, 7, size_t(16) << 10);
      ASSERT_EQ(code, EXIT_OK) << json;
      EXPECT_GE(json_count(json, "runs"), 4u) << json;
      EXPECT_EQ(decompressed(out), read_bytes(shuffled)) << out;
    }
  }
  InterleaveRequest req;
  req.quiet = true;
  req.in = {{a, &format("bin")}, {b, &format("bin")}};
  req.seed = 1;
  std::ostringstream o, e;
  const std::string mixed = file("bin", "cinterleaved.");
  req.out = {mixed, &format("bin")};
  std::filesystem::remove(mixed);
  ASSERT_EQ(run_interleave(req, o, e), EXIT_OK) << e.str();
  ASSERT_EQ(read_bytes(mixed).size(), bytes.size());
  for (std::string_view ext : COMPRESSIONS) {
    req.out = {mixed + std::string(ext), &format("bin")};
    std::filesystem::remove(req.out.path);
    ASSERT_EQ(run_interleave(req, o, e), EXIT_OK) << e.str();
    EXPECT_EQ(decompressed(req.out.path), read_bytes(mixed)) << req.out.path;
  }
  for (const auto& entry : std::filesystem::directory_iterator(dir_))
    EXPECT_EQ(entry.path().filename().string().find("chesshpc-shuffle-"), std::string::npos) << entry.path();
}

// A compressed OUT that is a symbolic link: the encoder's bytes go to the file the link
// names (OUT.partial beside the link, renamed over the target), and the link stays a link,
// whether its target is there yet or not.
TEST_F(Converted, CompressedOutputThroughASymbolicLinkWritesTheFileItNames) {
  std::filesystem::create_directories(dir_ + "linked");
  for (std::string_view ext : COMPRESSIONS) {
    const std::string link = dir_ + "link.plain" + std::string(ext), target = "linked/t.plain" + std::string(ext);
    std::filesystem::remove(link), std::filesystem::remove(dir_ + target);
    std::filesystem::create_symlink(target, link);
    for (const char* force : {"", " --force"}) {
      testing_support::CommandResult r =
          chesshpc("convert " + file("h5") + " " + link + " --quiet" + force, "cli_link");
      ASSERT_EQ(r.code, EXIT_OK) << r.err;
      EXPECT_TRUE(std::filesystem::is_symlink(link)) << link;
      EXPECT_EQ(decompressed(dir_ + target), read_bytes(file("plain"))) << link;
    }
  }
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir_ + "linked"), {}), 2);
}

// The encoders on a full device: the first write that reaches it, or the end, is one
// WriteError naming the file and the system's reason, and nothing after it is written.
TEST(ByteSink, FullDeviceIsOneWriteError) {
  std::string text;
  for (int i = 0; i < 200000; ++i)
    text += "fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 " + std::to_string(i) + "\n";
  for (Compression c : {Compression::NONE, Compression::GZIP, Compression::ZSTD}) {
    const int fd = ::open("/dev/full", O_WRONLY | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    std::string error;
    {
      ByteSink sink(fd, c, "/dev/full");
      try {
        for (size_t at = 0; at < text.size(); at += size_t(1) << 20)
          sink.write(std::string_view(text).substr(at, size_t(1) << 20));
        sink.commit();
      } catch (const WriteError& e) {
        error = e.what();
      }
      EXPECT_EQ(sink.bytes_out(), 0u);
      EXPECT_THROW(sink.write("more"), WriteError);
    }
    ::close(fd);
    EXPECT_EQ(error, "cannot write '/dev/full': No space left on device") << int(c);
  }
}

// Past a GiB of input igzip starts a new gzip member (its counts are 32-bit, and a
// member's trailer holds its size modulo 2^32): zlib reads two members, and their bytes
// are the input's in order. Streamed both ways, so memory stays small.
TEST(ByteSink, GzipStartsANewMemberEveryGiB) {
  const std::string path = testing::TempDir() + "members-" + std::to_string(getpid()) + ".gz";
  constexpr std::string_view LINE = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n";
  std::string block(size_t(1) << 20, '\0');
  for (size_t i = 0; i < block.size(); ++i) block[i] = LINE[i % LINE.size()];
  const uint64_t blocks = 1024 + 5, total = blocks * block.size();
  {
    ByteSink sink(path);
    for (uint64_t k = 0; k < blocks; ++k) sink.write(block);
    sink.commit();
    EXPECT_EQ(sink.bytes_in(), total);
    EXPECT_EQ(sink.bytes_out(), std::filesystem::file_size(path));
  }
  std::ifstream in(path, std::ios::binary);
  z_stream z{};
  ASSERT_EQ(inflateInit2(&z, 15 + 16), Z_OK);
  std::vector<char> compressed(size_t(1) << 16), out(size_t(1) << 16);
  uint64_t at = 0, members = 0, mismatches = 0;
  for (int rc = Z_OK;;) {
    if (z.avail_in == 0 && in) {
      in.read(compressed.data(), std::streamsize(compressed.size()));
      z.next_in = reinterpret_cast<Bytef*>(compressed.data());
      z.avail_in = uInt(in.gcount());
    }
    if (rc == Z_STREAM_END) {
      if (z.avail_in == 0) break;
      inflateReset(&z);
    }
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = uInt(out.size());
    rc = inflate(&z, Z_NO_FLUSH);
    if (rc == Z_BUF_ERROR && z.avail_in == 0 && !in) break;  // cut inside a member: `at` tells
    ASSERT_TRUE(rc == Z_OK || rc == Z_STREAM_END) << rc << " at " << at;
    members += rc == Z_STREAM_END;
    for (size_t i = 0, n = out.size() - z.avail_out; i < n; ++i, ++at) mismatches += out[i] != block[at % block.size()];
  }
  inflateEnd(&z);
  std::filesystem::remove(path);
  EXPECT_EQ(at, total);
  EXPECT_EQ(mismatches, 0u);
  EXPECT_EQ(members, 2u);
}

// The command line's errors of a compressed output: an HDF5 file named .h5.gz refused
// before any work (exit 2); standard output on a full device and a file past the size
// limit a write may reach (ulimit -f: EFBIG, as a quota) one line each, exit 4, with no
// OUT and no OUT.partial left.
TEST_F(Converted, CompressedOutputErrorsAreOneLine) {
  const std::string in = file("bin"), h5 = dir_ + "cli.h5.gz";
  testing_support::CommandResult r = chesshpc("convert " + in + " " + h5 + " --quiet", "cli_h5gz");
  EXPECT_EQ(r.code, EXIT_USAGE);
  EXPECT_EQ(r.err, "chesshpc: '" + h5 +
                       "' names an HDF5 file, which is not written as gzip (HDF5 deflates its chunks inside): name it "
                       "without .gz\nsee 'chesshpc convert --help'\n");
  EXPECT_FALSE(std::filesystem::exists(h5));
  r = chesshpc("convert " + in + " --to plain --quiet >/dev/full", "cli_full");
  EXPECT_EQ(r.code, EXIT_IO);
  EXPECT_EQ(r.err, "chesshpc convert: cannot write to standard output: No space left on device\n");
  for (std::string_view ext : COMPRESSIONS) {
    const std::string out = dir_ + "cli_limit.plain" + std::string(ext);
    r = testing_support::run_command(
        "trap '' XFSZ; ulimit -f 8; exec " + std::string(CHESSHPC_BIN) + " convert " + in + " " + out + " --quiet",
        testing::TempDir() + "cli_limit.err");
    EXPECT_EQ(r.code, EXIT_IO) << r.err;
    EXPECT_EQ(r.err, "chesshpc convert: cannot write '" + out + "': File too large\n");
    EXPECT_FALSE(std::filesystem::exists(out));
    EXPECT_FALSE(std::filesystem::exists(out + ".partial"));
  }
}

// Damaged files: each format's file with seeded bytes overwritten, read to the end. Every
// record reads or is named by a DatasetError; nothing else is thrown, and nothing crashes.
TEST_F(Converted, DamagedBytesAreNamedRecordsNeverACrash) {
  chess::Random rng(11);
  for (std::string_view f : {"plain", "bin", "binpack", "bullet", "bullet-text", "epd"}) {
    const std::string original = read_bytes(file(f)), damaged = file(f, "noise.");
    size_t named = 0;
    for (int trial = 0; trial < 40; ++trial) {
      std::string bytes = original.substr(0, std::min<size_t>(original.size(), 4000));
      for (int k = 0; k < 1 + trial % 8; ++k) bytes[rng.below(bytes.size())] = char(rng.next());
      if (trial % 5 == 0) bytes.resize(rng.below(bytes.size()));
      write_bytes(damaged, bytes);
      try {
        read_records(damaged, f);
      } catch (const DatasetError& e) {
        ++named;
        EXPECT_EQ(std::string(e.what()).rfind("record " + std::to_string(e.index()) + ": ", 0), 0u) << e.what();
      }
    }
    EXPECT_GT(named, 0u) << f;
  }
}

}  // namespace
