// drawstats: rows and totals from a small corpus with known endings, the HDF5 file's
// exact contents, and refusal of an unwritable output; the corpus streamed in blocks, read
// plain, gzip, zstd and from standard input alike, and refusals of what cannot be read.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <hdf5.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "jobs/rules/drawstats.h"

using namespace chesshpc;
using chess::Rule;

namespace {

// Game 0: fool's mate. Game 1: knight shuffles to a fivefold repetition (threefold at
// ply 8, fivefold at ply 16). Game 2: an illegal move on line 14 (skipped). Game 3: a
// short draw agreed without any rule firing.
const char* CORPUS =
    "[Event \"a\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n"
    "[Event \"b\"]\n[Result \"1/2-1/2\"]\n\n"
    "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 1/2-1/2\n\n"
    "[Event \"c\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n\n"
    "[Event \"d\"]\n[Result \"1/2-1/2\"]\n\n1. d4 d5 1/2-1/2\n";

int fire(const GameRow& g, Rule r) { return g.first_fire[int(r)]; }

std::string temp_path(const std::string& name) { return testing::TempDir() + name; }

// Text of variable length, or of fixed length (null-padded, as short codes are written).
std::vector<std::string> read_strings(hid_t file, const char* path) {
  hid_t ds = H5Dopen2(file, path, H5P_DEFAULT);
  hid_t space = H5Dget_space(ds);
  hssize_t n = H5Sget_simple_extent_npoints(space);
  hid_t stored = H5Dget_type(ds);
  if (!H5Tis_variable_str(stored)) {
    const size_t width = H5Tget_size(stored);
    std::string flat(size_t(n) * width, '\0');
    H5Dread(ds, stored, H5S_ALL, H5S_ALL, H5P_DEFAULT, flat.data());
    std::vector<std::string> out;
    for (size_t i = 0; i < size_t(n); ++i) out.push_back(flat.substr(i * width, width).c_str());
    H5Tclose(stored), H5Sclose(space), H5Dclose(ds);
    return out;
  }
  H5Tclose(stored);
  hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  H5Tset_cset(type, H5T_CSET_UTF8);
  std::vector<char*> raw(static_cast<size_t>(n));
  H5Dread(ds, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, raw.data());
  std::vector<std::string> out;
  for (const char* p : raw) out.push_back(p ? p : "");  // HDF5 may return "" as a null pointer
  H5Dvlen_reclaim(type, space, H5P_DEFAULT, raw.data());
  H5Tclose(type), H5Sclose(space), H5Dclose(ds);
  return out;
}

std::vector<int32_t> read_ints(hid_t file, const char* path) {
  hid_t ds = H5Dopen2(file, path, H5P_DEFAULT);
  hid_t space = H5Dget_space(ds);
  std::vector<int32_t> out(size_t(H5Sget_simple_extent_npoints(space)));
  H5Dread(ds, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data());
  H5Sclose(space), H5Dclose(ds);
  return out;
}

std::string read_attr(hid_t obj, const char* name) {
  hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
  hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  H5Tset_cset(type, H5T_CSET_UTF8);
  char* value = nullptr;
  H5Aread(a, type, &value);
  std::string s = value ? value : "";
  H5free_memory(value);
  H5Tclose(type), H5Aclose(a);
  return s;
}

// Every dataset of a group, by name, as bytes: text lines, numbers in their native form.
std::map<std::string, std::string> group_contents(hid_t file, const std::string& group) {
  std::map<std::string, std::string> out;
  hid_t g = H5Gopen2(file, group.c_str(), H5P_DEFAULT);
  H5G_info_t info;
  H5Gget_info(g, &info);
  for (hsize_t i = 0; i < info.nlinks; ++i) {
    char name[256];
    H5Lget_name_by_idx(g, ".", H5_INDEX_NAME, H5_ITER_INC, i, name, sizeof name, H5P_DEFAULT);
    std::string path = group + "/" + name, bytes;
    hid_t ds = H5Dopen2(file, path.c_str(), H5P_DEFAULT);
    hid_t type = H5Dget_type(ds);
    if (H5Tget_class(type) == H5T_STRING) {
      for (const std::string& v : read_strings(file, path.c_str())) bytes += v + "\n";
    } else {
      hid_t native = H5Tget_native_type(type, H5T_DIR_ASCEND);
      hid_t space = H5Dget_space(ds);
      bytes.resize(size_t(H5Sget_simple_extent_npoints(space)) * H5Tget_size(native));
      H5Dread(ds, native, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data());
      H5Sclose(space), H5Tclose(native);
    }
    H5Tclose(type), H5Dclose(ds);
    out[name] = bytes;
  }
  H5Gclose(g);
  return out;
}

// The tables of a drawstats file (what the root attributes say of the run aside).
std::map<std::string, std::string> tables(const std::string& path) {
  hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  EXPECT_GE(f, 0) << path;
  std::map<std::string, std::string> out;
  for (const char* group : {"/games", "/rules", "/skipped"})
    for (auto& [name, bytes] : group_contents(f, group)) out[std::string(group) + "/" + name] = bytes;
  H5Fclose(f);
  return out;
}

std::string write_bytes(const std::string& name, const std::string& bytes) {
  std::string path = temp_path(name);
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// text as gzip in two members, as pigz and bgzip write it.
std::string gzip(const std::string& text) {
  std::string out;
  for (std::string_view part :
       {std::string_view(text).substr(0, text.size() / 2), std::string_view(text).substr(text.size() / 2)}) {
    z_stream z{};
    deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    std::string member(deflateBound(&z, uLong(part.size())), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(part.data()));
    z.avail_in = uInt(part.size());
    z.next_out = reinterpret_cast<Bytef*>(member.data());
    z.avail_out = uInt(member.size());
    EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
    member.resize(z.total_out);
    deflateEnd(&z);
    out += member;
  }
  return out;
}

// text as zstd in two frames, each with its checksum (as the zstd tool writes them).
std::string zstd(const std::string& text) {
  std::string out;
  ZSTD_CCtx* c = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
  for (std::string_view part :
       {std::string_view(text).substr(0, text.size() / 2), std::string_view(text).substr(text.size() / 2)}) {
    std::string frame(ZSTD_compressBound(part.size()), '\0');
    size_t n = ZSTD_compress2(c, frame.data(), frame.size(), part.data(), part.size());
    EXPECT_FALSE(ZSTD_isError(n));
    out += frame.substr(0, n);
  }
  ZSTD_freeCCtx(c);
  return out;
}

// The corpus repeated past the 1 MiB read block: 4,000 copies, 16,000 games.
std::string big_corpus() {
  std::string big;
  for (int i = 0; i < 4000; ++i) big += CORPUS + std::string("\n");
  return big;
}

struct Outcome {
  int code;
  std::string out, err;
};

Outcome drawstats(const std::string& pgn, const std::string& out) {
  DrawstatsRequest req;
  req.pgn = pgn, req.out = out, req.quiet = true, req.threads = 2;
  std::ostringstream o, e;
  int code = run_drawstats(req, o, e);
  return {code, o.str(), e.str()};
}

// Runs drawstats with standard input read from the file at path.
Outcome drawstats_from_stdin(const std::string& path, const std::string& out) {
  int saved = dup(STDIN_FILENO), fd = open(path.c_str(), O_RDONLY);
  dup2(fd, STDIN_FILENO);
  close(fd);
  Outcome r = drawstats("-", out);
  dup2(saved, STDIN_FILENO);
  close(saved);
  return r;
}

int lines(const std::string& text) { return int(std::count(text.begin(), text.end(), '\n')); }

}  // namespace

TEST(Drawstats, RowsAndTotals) {
  DrawstatsResult r = compute_drawstats(CORPUS, chess::Ruleset::FIDE, chess::ClaimPolicy::FIRST, 2, nullptr);
  ASSERT_EQ(r.games.size(), 3u);
  ASSERT_EQ(r.skipped.size(), 1u);
  EXPECT_EQ(r.skipped[0].index, 2);
  EXPECT_EQ(r.skipped[0].line, 14);  // the line of the illegal move
  EXPECT_NE(r.skipped[0].message.find("Ke3"), std::string::npos) << r.skipped[0].message;

  const GameRow& mate = r.games[0];
  EXPECT_EQ(mate.index, 0);
  EXPECT_EQ(mate.first_line, 1);
  EXPECT_EQ(mate.result, "0-1");
  EXPECT_EQ(mate.termination, int(Rule::CHECKMATE));
  EXPECT_EQ(mate.termination_ply, 4);
  EXPECT_EQ(mate.plies, 4);
  EXPECT_EQ(fire(mate, Rule::CHECKMATE), 4);
  EXPECT_EQ(fire(mate, Rule::THREEFOLD_REPETITION), -1);

  const GameRow& shuffle = r.games[1];
  EXPECT_EQ(shuffle.index, 1);
  EXPECT_EQ(shuffle.termination, int(Rule::THREEFOLD_REPETITION));
  EXPECT_EQ(shuffle.termination_ply, 8);
  EXPECT_EQ(shuffle.plies, 16);
  EXPECT_EQ(fire(shuffle, Rule::THREEFOLD_REPETITION), 8);
  EXPECT_EQ(fire(shuffle, Rule::FIVEFOLD_REPETITION), 16);
  EXPECT_FALSE(shuffle.perpetual_check);

  const GameRow& quiet = r.games[2];
  EXPECT_EQ(quiet.index, 3);
  EXPECT_EQ(quiet.termination, -1);
  EXPECT_EQ(quiet.termination_ply, -1);
  for (int rule = 0; rule < chess::RULE_NB; ++rule) EXPECT_EQ(quiet.first_fire[rule], -1);

  EXPECT_EQ(r.rules[int(Rule::CHECKMATE)].fired, 1);
  EXPECT_EQ(r.rules[int(Rule::CHECKMATE)].ended, 1);
  EXPECT_EQ(r.rules[int(Rule::CHECKMATE)].median, 4.0);
  EXPECT_EQ(r.rules[int(Rule::FIVEFOLD_REPETITION)].fired, 1);
  EXPECT_EQ(r.rules[int(Rule::FIVEFOLD_REPETITION)].ended, 0);
  EXPECT_TRUE(std::isnan(r.rules[int(Rule::STALEMATE)].median));
  EXPECT_EQ(r.plies, 4 + 16 + 2);
}

// Under the site ruleset repetition ends nothing; its first fire is still recorded.
TEST(Drawstats, SiteRulesetIgnoresRepetitionButRecordsIt) {
  DrawstatsResult r = compute_drawstats(CORPUS, chess::Ruleset::SITE, chess::ClaimPolicy::FIRST, 1, nullptr);
  ASSERT_EQ(r.games.size(), 3u);
  EXPECT_EQ(r.games[1].termination, -1);
  EXPECT_EQ(fire(r.games[1], Rule::THREEFOLD_REPETITION), 8);
  EXPECT_EQ(r.rules[int(Rule::THREEFOLD_REPETITION)].ended, 0);
}

TEST(Drawstats, SameRowsForAnyThreadCount) {
  std::string big;
  for (int i = 0; i < 50; ++i) big += CORPUS + std::string("\n");
  DrawstatsResult one = compute_drawstats(big, chess::Ruleset::FIDE, chess::ClaimPolicy::FIRST, 1, nullptr);
  DrawstatsResult two = compute_drawstats(big, chess::Ruleset::FIDE, chess::ClaimPolicy::FIRST, 2, nullptr);
  ASSERT_EQ(one.games.size(), 150u);
  ASSERT_EQ(one.games.size(), two.games.size());
  for (size_t i = 0; i < one.games.size(); ++i) {
    EXPECT_EQ(one.games[i].index, two.games[i].index);
    EXPECT_EQ(one.games[i].first_fire, two.games[i].first_fire);
  }
  EXPECT_EQ(one.skipped.size(), 50u);
}

TEST(Drawstats, WritesTheHdf5File) {
  std::string pgn = temp_path("corpus.pgn"), out = temp_path("stats.h5");
  std::ofstream(pgn) << CORPUS;
  DrawstatsRequest req;
  req.pgn = pgn, req.out = out, req.quiet = true, req.threads = 2, req.command_line = "chesshpc drawstats test";
  std::ostringstream o, e;
  ASSERT_EQ(run_drawstats(req, o, e), 0) << e.str();
  EXPECT_NE(e.str().find(":14: game 2 skipped"), std::string::npos) << e.str();
  EXPECT_NE(o.str().find("3 games replayed, 1 skipped as malformed"), std::string::npos) << o.str();
  EXPECT_NE(access((out + ".partial").c_str(), F_OK), 0) << "the partial file must be gone";

  hid_t f = H5Fopen(out.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  EXPECT_EQ(read_ints(f, "/games/plies"), (std::vector<int32_t>{4, 16, 2}));
  EXPECT_EQ(read_ints(f, "/games/first_fire_threefold_repetition"), (std::vector<int32_t>{-1, 8, -1}));
  EXPECT_EQ(read_strings(f, "/games/termination"), (std::vector<std::string>{"checkmate", "threefold_repetition", ""}));
  EXPECT_EQ(read_strings(f, "/games/result"), (std::vector<std::string>{"0-1", "1/2-1/2", "1/2-1/2"}));
  EXPECT_EQ(read_strings(f, "/rules/name")[9], "site_thirty_checks");
  EXPECT_EQ(read_ints(f, "/skipped/line"), (std::vector<int32_t>{14}));
  EXPECT_EQ(read_attr(f, "ruleset"), "fide");
  EXPECT_EQ(read_attr(f, "command_line"), "chesshpc drawstats test");
  EXPECT_NE(read_attr(f, "README").find("/games"), std::string::npos);
  H5Fclose(f);
}

namespace {

// The chunk of a 1-D dataset, in rows.
hsize_t chunk_rows(const std::string& path, const char* dataset) {
  hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t ds = H5Dopen2(f, dataset, H5P_DEFAULT), plist = H5Dget_create_plist(ds);
  hsize_t chunk = 0;
  H5Pget_chunk(plist, 1, &chunk);
  H5Pclose(plist), H5Dclose(ds), H5Fclose(f);
  return chunk;
}

}  // namespace

// /games and /skipped are written in batches that leave memory. 150 rows and
// 50 skipped games in batches of 7 rows (22 and 8 writes, the last ones short) give
// exactly the tables of one write, in game order, chunked by the batch.
TEST(Drawstats, RowsWrittenInBatchesAreTheRowsOfOneWrite) {
  std::string text;
  for (int i = 0; i < 50; ++i) text += CORPUS + std::string("\n");
  std::string pgn = write_bytes("batches.pgn", text), batched = temp_path("batched.h5"), whole = temp_path("whole.h5");
  DrawstatsRequest req;
  req.pgn = pgn, req.quiet = true, req.threads = 2;
  std::ostringstream o, e;
  req.out = whole;
  ASSERT_EQ(run_drawstats(req, o, e), 0) << e.str();
  req.out = batched, req.rows_per_write = 7;
  std::ostringstream bo, be;
  ASSERT_EQ(run_drawstats(req, bo, be), 0) << be.str();
  EXPECT_EQ(be.str(), e.str());  // the 50 skipped games' lines, in order
  EXPECT_EQ(lines(be.str()), 50);
  EXPECT_NE(access((batched + ".partial").c_str(), F_OK), 0) << "the partial file must be gone";

  EXPECT_EQ(tables(batched), tables(whole));
  EXPECT_EQ(chunk_rows(batched, "/games/plies"), 7u);
  EXPECT_EQ(chunk_rows(batched, "/skipped/message"), 7u);
  const int copy_lines = lines(CORPUS) + 1;
  std::vector<int32_t> plies, skipped_lines;
  for (int i = 0; i < 50; ++i) {
    plies.insert(plies.end(), {4, 16, 2});
    skipped_lines.push_back(14 + i * copy_lines);
  }
  hid_t f = H5Fopen(batched.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(f, 0);
  EXPECT_EQ(read_ints(f, "/games/plies"), plies);
  EXPECT_EQ(read_ints(f, "/skipped/line"), skipped_lines);
  std::vector<std::string> terminations = read_strings(f, "/games/termination");
  ASSERT_EQ(terminations.size(), 150u);
  EXPECT_EQ(terminations[147], "checkmate");
  EXPECT_EQ(terminations[148], "threefold_repetition");
  hid_t ds = H5Dopen2(f, "/games/index", H5P_DEFAULT);
  std::vector<int64_t> index(150);
  H5Dread(ds, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, index.data());
  H5Dclose(ds);
  EXPECT_EQ(index[148], 4 * 49 + 1);
  EXPECT_EQ(index[149], 4 * 49 + 3);
  hid_t plies_ds = H5Dopen2(f, "/games/plies", H5P_DEFAULT);
  EXPECT_EQ(read_attr(plies_ds, "description"), "moves recorded in the file");
  H5Dclose(plies_ds), H5Fclose(f);
}

TEST(Drawstats, UnwritableOutputIsAnIoErrorAndLeavesNothing) {
  std::string pgn = temp_path("corpus2.pgn");
  std::ofstream(pgn) << CORPUS;
  DrawstatsRequest req;
  req.pgn = pgn, req.out = "/nonexistent-dir/stats.h5", req.quiet = true;
  std::ostringstream o, e;
  EXPECT_EQ(run_drawstats(req, o, e), 4);
  EXPECT_NE(e.str().find("cannot create '/nonexistent-dir/stats.h5.partial'"), std::string::npos) << e.str();
}

TEST(Drawstats, MissingPgnIsAnIoError) {
  DrawstatsRequest req;
  req.pgn = "/nonexistent/games.pgn", req.quiet = true;
  std::ostringstream o, e;
  EXPECT_EQ(run_drawstats(req, o, e), 4);
  EXPECT_NE(e.str().find("cannot read PGN file '/nonexistent/games.pgn'"), std::string::npos);
}

// The corpus is read in blocks; whatever their size (down to a byte) the rows
// are those of the whole text, in order.
TEST(Drawstats, SameRowsForAnyReadBlockSize) {
  std::string text;
  for (int i = 0; i < 20; ++i) text += CORPUS + std::string("\n{ between games }\n");
  DrawstatsResult whole = compute_drawstats(text, chess::Ruleset::FIDE, chess::ClaimPolicy::FIRST, 2, nullptr);
  ASSERT_EQ(whole.games.size(), 60u);
  ASSERT_EQ(whole.skipped.size(), 20u);
  for (size_t block : {1, 7, 64, 333, 4096}) {
    size_t at = 0;
    ReadBytes read = [&](char* buf, size_t n) {
      size_t got = text.copy(buf, n, at);
      at += got;
      return got;
    };
    DrawstatsResult r = compute_drawstats(read, PgnStreamLimits{block, 1 << 20}, chess::Ruleset::FIDE,
                                          chess::ClaimPolicy::FIRST, 2, nullptr);
    ASSERT_EQ(r.games.size(), whole.games.size()) << block;
    for (size_t i = 0; i < r.games.size(); ++i) {
      EXPECT_EQ(r.games[i].index, whole.games[i].index) << block;
      EXPECT_EQ(r.games[i].first_line, whole.games[i].first_line) << block;
      EXPECT_EQ(r.games[i].first_fire, whole.games[i].first_fire) << block;
      EXPECT_EQ(r.games[i].termination, whole.games[i].termination) << block;
    }
    ASSERT_EQ(r.skipped.size(), whole.skipped.size()) << block;
    for (size_t i = 0; i < r.skipped.size(); ++i) {
      EXPECT_EQ(r.skipped[i].index, whole.skipped[i].index) << block;
      EXPECT_EQ(r.skipped[i].line, whole.skipped[i].line) << block;
    }
    EXPECT_EQ(r.plies, whole.plies) << block;
  }
}

// A game longer than the bound ends the reading with its index and line, whether it is
// still open when a block ends (blocks of 64 bytes) or whole in the last block (4 KiB); one
// under the bound reads.
TEST(Drawstats, GameLongerThanTheBoundIsOneError) {
  std::string text = std::string(CORPUS) + "\n[Event \"long\"]\n\n1. e4 {" + std::string(300, 'x') + "} e5 *\n";
  auto run = [&](size_t block, size_t bound) {
    size_t at = 0;
    ReadBytes read = [&](char* buf, size_t n) {
      size_t got = text.copy(buf, n, at);
      at += got;
      return got;
    };
    return compute_drawstats(read, PgnStreamLimits{block, bound}, chess::Ruleset::FIDE, chess::ClaimPolicy::FIRST, 1,
                             nullptr);
  };
  for (size_t block : {64, 4096}) {
    try {
      run(block, 200);
      ADD_FAILURE() << "no GameTooLong with blocks of " << block;
    } catch (const GameTooLong& e) {
      EXPECT_EQ(e.index, 4);
      EXPECT_EQ(e.line, 21);
      EXPECT_EQ(e.bound, 200u);
    }
    EXPECT_EQ(run(block, 400).games.size(), 4u);
  }
}

// The same corpus plain, gzip (two members), zstd (two frames) and on standard input gives
// the same tables, past the 1 MiB read block.
TEST(Drawstats, PlainGzipZstdAndStdinWriteTheSameTables) {
  std::string text = big_corpus();
  ASSERT_GT(text.size(), size_t(1) << 20);
  std::string plain = write_bytes("big.pgn", text), gz = write_bytes("big.pgn.gz", gzip(text)),
              zst = write_bytes("big.pgn.zst", zstd(text));
  Outcome r = drawstats(plain, temp_path("plain.h5"));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("12000 games replayed, 4000 skipped as malformed"), std::string::npos) << r.out;
  std::map<std::string, std::string> expected = tables(temp_path("plain.h5"));
  ASSERT_EQ(expected.size(), 7u + 10u + 6u + 4u);  // games (10 first_fire), rules, skipped
  for (const std::string& pgn : {gz, zst}) {
    Outcome c = drawstats(pgn, temp_path("compressed.h5"));
    ASSERT_EQ(c.code, 0) << pgn << ": " << c.err;
    EXPECT_EQ(lines(c.err), 4000) << pgn;  // the skipped games, one line each
    EXPECT_EQ(tables(temp_path("compressed.h5")), expected) << pgn;
  }
  Outcome s = drawstats_from_stdin(plain, temp_path("stdin.h5"));
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_EQ(tables(temp_path("stdin.h5")), expected);
  EXPECT_NE(s.err.find("chesshpc drawstats: -:14: game 2 skipped"), std::string::npos) << s.err.substr(0, 200);
}

// A compressed corpus cut short, damaged, or not compressed at all: one line naming the
// file, exit 3, no result file, and the corpus left as it was.
TEST(Drawstats, CutOrDamagedCompressedCorpusIsOneLineExitThree) {
  std::string text = big_corpus();
  struct Case {
    std::string name, bytes, words;
  };
  std::string gz = gzip(text), zst = zstd(text);
  auto damaged = [](std::string bytes) {
    for (size_t i = bytes.size() / 3; i < bytes.size() / 3 + 64; ++i) bytes[i] = char(bytes[i] ^ 0x5A);
    return bytes;
  };
  for (const Case& c :
       {Case{"cut.pgn.gz", gz.substr(0, gz.size() / 4), "gzip data are cut short"},
        Case{"cut.pgn.zst", zst.substr(0, zst.size() / 4), "zstd data are cut short"},
        Case{"damaged.pgn.gz", damaged(gz), "gzip data are damaged"},
        Case{"damaged.pgn.zst", damaged(zst), "zstd data are damaged"},
        Case{"plain.pgn.gz", CORPUS, "gzip data are damaged"}, Case{"plain.pgn.zst", CORPUS, "zstd data are damaged"},
        Case{"empty.pgn.gz", "", "gzip data are cut short"}}) {
    std::string pgn = write_bytes(c.name, c.bytes), out = temp_path(c.name + ".h5");
    Outcome r = drawstats(pgn, out);
    EXPECT_EQ(r.code, 3) << c.name << ": " << r.err;
    EXPECT_EQ(r.err.rfind("chesshpc drawstats: PGN file '" + pgn + "' is corrupt: its " + c.words, 0), 0u) << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_FALSE(std::filesystem::exists(out)) << c.name;
    EXPECT_FALSE(std::filesystem::exists(out + ".partial")) << c.name;
    EXPECT_EQ(read_bytes(pgn), c.bytes) << c.name;
  }
}

// A directory given as the corpus read as nothing and exited 0; it is an I/O error.
TEST(Drawstats, DirectoryIsAnIoError) {
  std::string dir = temp_path("corpus-dir");
  std::filesystem::create_directories(dir);
  Outcome r = drawstats(dir, temp_path("dir.h5"));
  EXPECT_EQ(r.code, 4);
  EXPECT_EQ(r.err, "chesshpc drawstats: cannot read PGN file '" + dir + "': it is a directory\n");
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(std::filesystem::exists(temp_path("dir.h5")));
}

// ---- Chess960 games and other variants -----------------------------------------------------

namespace {

// Start 192 (BBQNRKNR): both sides castle O-O, then their knights shuffle to a threefold
// repetition at ply 12 (the position after 2... O-O, at plies 4, 8 and 12).
const char* SHUFFLE_960 = "1. Nf3 Nf6 2. O-O O-O 3. Ng5 Ng4 4. Nf3 Nf6 5. Ng5 Ng4 6. Nf3 Nf6 1/2-1/2\n\n";

std::string game_960(const std::string& variant, const std::string& castling) {
  return "[Event \"960\"]\n[Variant \"" + variant +
         "\"]\n[SetUp \"1\"]\n[FEN \"bbqnrknr/pppppppp/8/8/8/8/PPPPPPPP/BBQNRKNR w " + castling + " - 0 1\"]\n\n" +
         SHUFFLE_960;
}

}  // namespace

// Chess960 under its names (any case, spaces, dashes), with X-FEN or Shredder-FEN, is
// replayed like any game; Crazyhouse, Atomic and Three-check games are skipped, each at
// its Variant tag's line with the variant named, and the corpus goes on.
TEST(Drawstats, Chess960GamesAreReplayedAndOtherVariantsSkipped) {
  std::string corpus = game_960("Chess960", "KQkq");                                 // game 0, lines 1-7
  corpus += "[Event \"zh\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 e5 1-0\n\n";          // game 1, line 8
  corpus += game_960("chess 960", "HEhe");                                           // game 2
  corpus += game_960("Fischer-Random", "KQkq");                                      // game 3
  corpus += "[Event \"x\"]\n[Variant \"Atomic\"]\n\n1. e4 e5 1-0\n\n";               // game 4, line 27
  corpus += game_960("fischerandom", "HEhe");                                        // game 5
  corpus += "[Event \"3c\"]\n[Variant \"Three-check\"]\n\n1. e4 e5 1-0\n\n";         // game 6, line 39
  corpus += "[Event \"std\"]\n[Variant \"Standard\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";  // game 7
  DrawstatsResult r = compute_drawstats(corpus, chess::Ruleset::FIDE, chess::ClaimPolicy::FIRST, 2, nullptr);
  ASSERT_EQ(r.games.size(), 5u);
  for (size_t i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    const GameRow& g = r.games[i];
    EXPECT_EQ(g.index, (std::array<int64_t, 4>{0, 2, 3, 5})[i]);
    EXPECT_EQ(g.plies, 12);
    EXPECT_EQ(g.termination, int32_t(Rule::THREEFOLD_REPETITION));
    EXPECT_EQ(g.termination_ply, 12);
    EXPECT_EQ(fire(g, Rule::THREEFOLD_REPETITION), 12);
    EXPECT_EQ(g.result, "1/2-1/2");
  }
  EXPECT_EQ(r.games[4].index, 7);
  EXPECT_EQ(r.games[4].termination, int32_t(Rule::CHECKMATE));
  ASSERT_EQ(r.skipped.size(), 3u);
  EXPECT_EQ(r.skipped_variants, 3);
  EXPECT_EQ(r.skipped[0].index, 1);
  EXPECT_EQ(r.skipped[0].line, 9);
  EXPECT_EQ(r.skipped[0].variant, "Crazyhouse");
  EXPECT_EQ(r.skipped[0].message, "variant 'Crazyhouse' is not supported (standard chess and Chess960 are)");
  EXPECT_EQ(r.skipped[1].index, 4);
  EXPECT_EQ(r.skipped[1].line, 28);
  EXPECT_EQ(r.skipped[1].variant, "Atomic");
  EXPECT_EQ(r.skipped[2].index, 6);
  EXPECT_EQ(r.skipped[2].line, 40);
  EXPECT_EQ(r.skipped[2].variant, "Three-check");

  // The command: one warning line per skipped game, the count in the summary and the JSON.
  std::string pgn = temp_path("variants.pgn");
  std::ofstream(pgn) << corpus;
  DrawstatsRequest req;
  req.pgn = pgn, req.quiet = true, req.threads = 1;
  std::ostringstream o, e;
  ASSERT_EQ(run_drawstats(req, o, e), 0) << e.str();
  EXPECT_EQ(e.str(), "chesshpc drawstats: " + pgn +
                         ":9: game 1 skipped: variant 'Crazyhouse' is not supported (standard chess and Chess960 "
                         "are)\nchesshpc drawstats: " +
                         pgn +
                         ":28: game 4 skipped: variant 'Atomic' is not supported (standard chess and Chess960 "
                         "are)\nchesshpc drawstats: " +
                         pgn +
                         ":40: game 6 skipped: variant 'Three-check' is not supported (standard chess and "
                         "Chess960 are)\n");
  EXPECT_EQ(o.str().rfind(pgn + ": 5 games replayed, 0 skipped as malformed, 3 as of other variants; 52 plies", 0), 0u)
      << o.str();
  req.json = true;
  std::ostringstream j, je;
  ASSERT_EQ(run_drawstats(req, j, je), 0) << je.str();
  EXPECT_NE(j.str().find("\"games\": 5, \"skipped\": 3, \"plies\": 52, \"skipped_variants\": 3,"), std::string::npos)
      << j.str();
}

// `cat big.pgn.zst | chesshpc drawstats -` works. Standard input has no
// name, so gzip and zstd are told by their first bytes; the tables are those of the plain
// file, and the compressed files are left as they were.
TEST(Drawstats, CompressedStdinIsToldByItsMagicBytes) {
  std::string text = big_corpus();
  std::string gz_bytes = gzip(text), zst_bytes = zstd(text);
  std::string plain = write_bytes("magic.pgn", text), gz = write_bytes("magic-gz", gz_bytes),
              zst = write_bytes("magic-zst", zst_bytes);
  Outcome r = drawstats(plain, temp_path("magic-plain.h5"));
  ASSERT_EQ(r.code, 0) << r.err;
  std::map<std::string, std::string> expected = tables(temp_path("magic-plain.h5"));
  for (const std::string& pgn : {gz, zst}) {
    Outcome s = drawstats_from_stdin(pgn, temp_path("magic-stdin.h5"));
    ASSERT_EQ(s.code, 0) << pgn << ": " << s.err;
    EXPECT_NE(s.out.find("-: 12000 games replayed, 4000 skipped as malformed"), std::string::npos) << s.out;
    EXPECT_EQ(tables(temp_path("magic-stdin.h5")), expected) << pgn;
  }
  EXPECT_EQ(read_bytes(gz), gz_bytes);
  EXPECT_EQ(read_bytes(zst), zst_bytes);
}

// Cut-short compressed data on standard input is refused as a file's would be.
TEST(Drawstats, CutZstdOnStdinIsOneLineExitThree) {
  std::string zst = zstd(big_corpus());
  std::string path = write_bytes("cut-stdin", zst.substr(0, zst.size() / 4));
  Outcome s = drawstats_from_stdin(path, temp_path("cut-stdin.h5"));
  EXPECT_EQ(s.code, 3) << s.err;
  EXPECT_EQ(s.err,
            "chesshpc drawstats: PGN file '-' is corrupt: its zstd data are cut short (the file ends inside "
            "a frame)\n");
  EXPECT_FALSE(std::filesystem::exists(temp_path("cut-stdin.h5")));
}

// Without rows kept (no --out) nothing per game stays, and the totals and quartiles are
// those computed with the rows.
TEST(Drawstats, WithoutRowsTheSameStatistics) {
  std::string big;
  for (int i = 0; i < 50; ++i) big += CORPUS + std::string("\n");
  size_t at = 0;
  ReadBytes read = [&](char* buf, size_t n) {
    size_t got = big.copy(buf, n, at);
    at += got;
    return got;
  };
  struct Drop : DrawstatsSink {
    void game(GameRow&&) override {}
    void skipped(SkippedGame&&) override {}
  } drop;
  DrawstatsResult kept = compute_drawstats(big, chess::Ruleset::FIDE, chess::ClaimPolicy::FIRST, 2, nullptr);
  DrawstatsResult bare = compute_drawstats(read, PgnStreamLimits{333, 1 << 20}, chess::Ruleset::FIDE,
                                           chess::ClaimPolicy::FIRST, 2, nullptr, &drop);
  EXPECT_EQ(bare.games.size(), 0u);
  EXPECT_EQ(bare.skipped.size(), 0u);
  EXPECT_EQ(bare.skipped_games, 50);
  EXPECT_EQ(bare.replayed, 150);
  EXPECT_EQ(kept.replayed, 150);
  EXPECT_EQ(bare.plies, kept.plies);
  EXPECT_EQ(bare.plies, 50 * (4 + 16 + 2));
  for (int rule = 0; rule < chess::RULE_NB; ++rule) {
    const RuleSummary &a = bare.rules[rule], &b = kept.rules[rule];
    EXPECT_EQ(a.fired, b.fired) << rule;
    EXPECT_EQ(a.ended, b.ended) << rule;
    if (std::isnan(b.median)) {
      EXPECT_TRUE(std::isnan(a.q1) && std::isnan(a.median) && std::isnan(a.q3)) << rule;
    } else {
      EXPECT_EQ(a.q1, b.q1) << rule;
      EXPECT_EQ(a.median, b.median) << rule;
      EXPECT_EQ(a.q3, b.q3) << rule;
    }
  }
  EXPECT_EQ(bare.rules[int(Rule::THREEFOLD_REPETITION)].fired, 50);
  EXPECT_EQ(bare.rules[int(Rule::THREEFOLD_REPETITION)].median, 8.0);
}

namespace {

// numpy's default quantile (linear interpolation) over the plies, sorted: the rule the
// counted quartiles must match exactly.
double sorted_quantile(std::vector<int32_t> v, double q) {
  std::sort(v.begin(), v.end());
  double pos = q * double(v.size() - 1);
  size_t lo = size_t(pos), hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - double(lo)) * (v[hi] - v[lo]);
}

}  // namespace

// Quartiles read from per-ply counts equal numpy's over the sorted plies, bit for bit:
// known values ({1,2,3,4}: 1.75, 2.5, 3.25; numpy.quantile agrees), and many games with
// repeated plies, gaps, and rules that never fire.
TEST(RuleTally, QuartilesFromCountsAreThoseOfTheSortedPlies) {
  RuleTally small;
  for (int32_t ply : {4, 1, 3, 2}) {
    std::array<int32_t, chess::RULE_NB> f;
    f.fill(-1);
    f[0] = ply;
    small.add(f, ply == 3 ? 0 : -1);
  }
  RuleSummaries s = small.summaries();
  EXPECT_EQ(s[0].fired, 4);
  EXPECT_EQ(s[0].ended, 1);
  EXPECT_EQ(s[0].q1, 1.75);
  EXPECT_EQ(s[0].median, 2.5);
  EXPECT_EQ(s[0].q3, 3.25);
  EXPECT_TRUE(std::isnan(s[1].median));
  EXPECT_EQ(s[1].fired, 0);

  RuleTally tally;
  std::array<std::vector<int32_t>, chess::RULE_NB> plies;
  uint64_t x = 12345;
  for (int g = 0; g < 10007; ++g) {
    std::array<int32_t, chess::RULE_NB> f;
    for (int rule = 0; rule < chess::RULE_NB; ++rule) {
      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      int32_t ply = int32_t((x >> 33) % 700) - 200;  // about a third never fire
      f[rule] = rule == 1 ? -1 : ply < 0 ? -1 : ply;
      if (f[rule] >= 0) plies[rule].push_back(f[rule]);
    }
    tally.add(f, int32_t(g % chess::RULE_NB));
  }
  RuleSummaries t = tally.summaries();
  for (int rule = 0; rule < chess::RULE_NB; ++rule) {
    EXPECT_EQ(t[rule].fired, int64_t(plies[rule].size())) << rule;
    if (plies[rule].empty()) {
      EXPECT_TRUE(std::isnan(t[rule].q1)) << rule;
      continue;
    }
    EXPECT_EQ(t[rule].q1, sorted_quantile(plies[rule], 0.25)) << rule;
    EXPECT_EQ(t[rule].median, sorted_quantile(plies[rule], 0.5)) << rule;
    EXPECT_EQ(t[rule].q3, sorted_quantile(plies[rule], 0.75)) << rule;
  }
  EXPECT_TRUE(std::isnan(t[1].median));
}
