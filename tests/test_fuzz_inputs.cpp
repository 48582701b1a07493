// Every input of the fuzz harnesses' seed corpus (tests/fuzz/corpus/<harness>) and every
// input a fuzzer or a bug found (tests/fuzz/regressions/<harness>) replayed through the
// same harness code as libFuzzer runs, in the normal build: a crash or a failed round
// trip aborts the test. Two positions that crashed are among the regressions.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/position.h"
#include "jobs/perft/epd.h"
#include "tests/fuzz/harnesses.h"

namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs harness over every file of corpus/<name> and regressions/<name>: at least
// min_inputs files, some accepted (a harness that refused everything would fuzz nothing
// past its parser's first check) and, with some_refused, some refused.
template <class Harness>
void expect_replayed(const std::string& name, Harness harness, int min_inputs, bool some_refused) {
  int inputs = 0, accepted = 0;
  for (const char* kind : {"corpus", "regressions"}) {
    fs::path dir = fs::path(CHESSHPC_FUZZ_INPUTS) / kind / name;
    if (!fs::is_directory(dir)) continue;
    for (const fs::directory_entry& file : fs::directory_iterator(dir)) {
      SCOPED_TRACE(file.path().string());
      ++inputs;
      accepted += harness(read_file(file.path()));
    }
  }
  EXPECT_GE(inputs, min_inputs);
  EXPECT_GT(accepted, 0);
  if (some_refused) {
    EXPECT_LT(accepted, inputs);
  }
}

std::string regression(const std::string& name) {
  return read_file(fs::path(CHESSHPC_FUZZ_INPUTS) / "regressions" / name);
}

}  // namespace

TEST(FuzzInputs, FenCorpusAndRegressionsReplay) { expect_replayed("fen", chesshpc::fuzz::fen, 16, true); }
TEST(FuzzInputs, MoveCorpusAndRegressionsReplay) { expect_replayed("move", chesshpc::fuzz::move, 5, true); }
TEST(FuzzInputs, PgnCorpusAndRegressionsReplay) { expect_replayed("pgn", chesshpc::fuzz::pgn, 4, true); }
TEST(FuzzInputs, EpdCorpusAndRegressionsReplay) { expect_replayed("epd", chesshpc::fuzz::epd, 4, true); }
TEST(FuzzInputs, UciCorpusAndRegressionsReplay) { expect_replayed("uci", chesshpc::fuzz::uci, 4, true); }

// 24 queens and more than 218 legal moves overflowed the move list; 24 pawns a
// side (a selfplay book line) overflowed the 32 packed bytes of a position. Both are now
// refused as material no game can reach, in the placement field.
TEST(FuzzInputs, QueensAndPawnsThatCrashedAreRefusedFens) {
  for (const char* name : {"fen/24-queens", "fen/48-pawns-book-line"}) {
    const std::string text = regression(name);
    SCOPED_TRACE(text);
    EXPECT_FALSE(chesshpc::fuzz::fen(text));
    try {
      chess::Position::from_any_fen(text);
      ADD_FAILURE() << "accepted";
    } catch (const chess::FenError& e) {
      EXPECT_EQ(e.field(), 1) << e.what();
    }
  }
}

TEST(FuzzInputs, PawnsBookLineIsOneEpdError) {
  const std::string text = regression("epd/48-pawns-book-line");
  EXPECT_FALSE(chesshpc::fuzz::epd(text));
  std::istringstream in(text);
  chesshpc::EpdFile file = chesshpc::read_epd(in);
  EXPECT_EQ(file.lines.size(), 0u);
  ASSERT_EQ(file.errors.size(), 1u);
  EXPECT_EQ(file.errors[0].line_number, 1);
  EXPECT_NE(file.errors[0].message.find("pawns"), std::string::npos) << file.errors[0].message;
}
