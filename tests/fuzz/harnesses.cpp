#include "tests/fuzz/harnesses.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/pgn.h"
#include "core/position.h"
#include "core/san.h"
#include "core/uci.h"
#include "jobs/perft/epd.h"
#include "jobs/uci/server.h"
#include "tests/reference/slow_chess.h"

namespace chesshpc::fuzz {

namespace {

using chess::FenStyle;
using chess::Move;
using chess::Position;

// A round trip that disagrees: said with the input's context, then abort, which libFuzzer
// and GoogleTest both report as a failure of this input.
void require(bool ok, const std::string& what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz check failed: %s\n", what.c_str());
  std::abort();
}

// The parser's own error is an answer; anything else escaping is a bug the caller reports.
template <class Read>
auto read_or_die(const std::string& text, const std::string& what, Read read) {
  try {
    return read();
  } catch (const std::exception& e) {
    require(false, what + " '" + text + "' written by chesshpc does not read back: " + e.what());
    throw;  // not reached
  }
}

std::vector<std::string> lines_of(std::string_view data) {
  std::vector<std::string> lines;
  std::istringstream in{std::string(data)};
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The position read back from its own FEN in both conventions, and the legal moves
// against the independent reference (standard chess only: the reference has no Chess960).
void check_position(const Position& pos) {
  const std::string xfen = pos.fen(FenStyle::XFEN), shredder = pos.fen(FenStyle::SHREDDER);
  require(pos.key() == pos.compute_key(), "incremental key differs from the computed one in " + xfen);
  Position again = read_or_die(xfen, "X-FEN", [&] { return Position::from_fen(xfen, pos.is_chess960()); });
  require(again == pos && again.fen() == xfen, "X-FEN round trip of " + xfen + " gives " + again.fen());
  // Shredder-FEN names rooks by file, which only Chess960 reading takes (also for a
  // classical position), so the flag may differ; nothing else may.
  Position by_file = read_or_die(shredder, "Shredder-FEN", [&] { return Position::from_fen(shredder, true); });
  require(by_file.fen(FenStyle::SHREDDER) == shredder && by_file.fen() == xfen && by_file.key() == pos.key(),
          "Shredder-FEN round trip of " + shredder + " gives " + by_file.fen(FenStyle::SHREDDER));
  chess::MoveList moves = chess::legal_moves(pos);
  require(int(moves.size()) == chess::count_legal(pos), "legal_moves and count_legal differ in " + xfen);
  if (pos.is_chess960()) return;
  std::set<std::string> core, slow;
  for (Move m : moves) core.insert(chess::to_uci(m));
  for (const std::string& m : reference::legal_moves_uci(reference::from_fen(xfen))) slow.insert(m);
  require(core == slow, "legal moves differ from the reference's in " + xfen);
}

std::string written(const chess::PgnGame& game) { return chess::write_pgn(game); }

// The one game of a text write_pgn wrote.
chess::PgnGame reread(const std::string& text) {
  std::vector<chess::PgnChunk> chunks = chess::split_pgn(text);
  require(chunks.size() == 1, "write_pgn's text splits into " + std::to_string(chunks.size()) + " games:\n" + text);
  chess::PgnGame game;
  chess::PgnError error;
  require(chess::parse_pgn_game(chunks[0], game, error),
          "write_pgn's text does not read: " + error.what() + "\n" + text);
  return game;
}

// Tokens as the server splits a line (std::istream's whitespace).
std::vector<std::string> tokens_of(const std::string& line) {
  std::vector<std::string> tokens;
  std::istringstream in(line);
  for (std::string t; in >> t;) tokens.push_back(t);
  return tokens;
}

constexpr const char* GO_BOUND = " nodes 2000";
constexpr long MAX_FUZZ_HASH_MB = 8;
constexpr int MAX_FUZZ_PERFT_DEPTH = 3;

// "go perft ...": Stockfish's divide, which answers with "Nodes searched: N" (or a
// refusal), never a bestmove.
bool is_go_perft(const std::vector<std::string>& tokens) {
  return tokens.size() >= 2 && tokens[0] == "go" && tokens[1] == "perft";
}

// The line the server gets: every search bounded, every table small. Numbers in a
// setoption line above the cap become the cap (a 64 GB table would end the run, not find
// a bug, and a large one would only slow it).
std::string bounded(const std::string& line) {
  std::vector<std::string> tokens = tokens_of(line);
  if (tokens.empty()) return line;
  if (is_go_perft(tokens)) {  // a depth above the cap becomes the cap; anything else as it is
    const bool deep = tokens.size() == 3 && !tokens[2].empty() && tokens[2].size() < 10 &&
                      std::all_of(tokens[2].begin(), tokens[2].end(), [](char c) { return c >= '0' && c <= '9'; }) &&
                      std::stol(tokens[2]) > MAX_FUZZ_PERFT_DEPTH;
    return deep ? "go perft " + std::to_string(MAX_FUZZ_PERFT_DEPTH) : line;
  }
  if (tokens[0] == "go") return line + GO_BOUND;
  if (tokens[0] != "setoption") return line;
  std::string out;
  for (std::string& t : tokens) {
    if (!t.empty() && std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
        (t.size() > 1 || std::stol(t) > MAX_FUZZ_HASH_MB))
      t = std::to_string(MAX_FUZZ_HASH_MB);
    out += (out.empty() ? "" : " ") + t;
  }
  return out;
}

}  // namespace

bool fen(std::string_view data) {
  Position pos;
  try {
    pos = Position::from_any_fen(data);
  } catch (const chess::FenError&) {
    return false;
  }
  check_position(pos);
  return true;
}

bool move(std::string_view data) {
  std::vector<std::string> lines = lines_of(data);
  Position pos;
  try {
    pos = Position::from_any_fen(lines.empty() || lines[0].empty() ? "startpos" : lines[0]);
  } catch (const chess::FenError&) {
    return false;
  }
  bool read = false;
  for (size_t i = 1; i < lines.size(); ++i) {
    std::optional<Move> m = chess::parse_move(pos, lines[i]);
    chess::SanError error;
    std::optional<Move> san = chess::parse_san(pos, lines[i], error);
    require(san.has_value() == (error == chess::SanError::NONE), "parse_san's error disagrees on '" + lines[i] + "'");
    if (!m) continue;
    const std::string fen = pos.fen();
    require(chess::legal_moves(pos).contains(*m), "'" + lines[i] + "' read as an illegal move in " + fen);
    const std::string as_san = chess::to_san(pos, *m), as_uci = chess::to_uci(*m, pos.is_chess960());
    require(chess::parse_san(pos, as_san) == m, "SAN '" + as_san + "' does not read back in " + fen);
    require(chess::parse_uci(pos, as_uci) == m, "UCI '" + as_uci + "' does not read back in " + fen);
    pos.do_move(*m);
    read = true;
  }
  return read;
}

bool pgn(std::string_view data) {
  bool read = false;
  chess::PgnGame game;
  chess::PgnError error;
  for (const chess::PgnChunk& chunk : chess::split_pgn(data)) {
    if (!chess::parse_pgn_game(chunk, game, error)) continue;
    const std::string text = written(game);
    chess::PgnGame again = reread(text);
    require(again.start == game.start && again.moves == game.moves && again.result == game.result,
            "the game write_pgn wrote reads back differently:\n" + text);
    require(written(again) == text, "write_pgn of the game read back differs:\n" + text);
    read = true;
  }
  return read;
}

bool epd(std::string_view data) {
  std::istringstream in{std::string(data)};
  chesshpc::EpdFile file = chesshpc::read_epd(in);
  int previous = 0;
  for (const chesshpc::EpdLine& line : file.lines) {
    require(line.line_number > previous, "EPD positions out of line order");
    previous = line.line_number;
    Position pos = read_or_die(line.fen, "EPD position", [&] { return Position::from_any_fen(line.fen); });
    require(pos.fen() == line.fen, "EPD position " + line.fen + " reads back as " + pos.fen());
    require(!line.expected.empty(), "EPD position without a count: " + line.fen);
  }
  require(file.lines.size() + file.errors.size() <= lines_of(data).size(), "more EPD entries than lines");
  return !file.lines.empty() && file.errors.empty();
}

bool uci(std::string_view data) {
  std::string commands;
  int searches = 0, perfts = 0;
  for (const std::string& line : lines_of(data)) {
    std::vector<std::string> tokens = tokens_of(line);
    if (!tokens.empty() && tokens[0] == "quit") break;
    if (is_go_perft(tokens))
      ++perfts;
    else if (!tokens.empty() && tokens[0] == "go")
      ++searches;
    commands += bounded(line) + "\n";
  }
  std::ostringstream out;
  std::istringstream in(commands);
  require(chesshpc::run_uci_server(in, out) == 0, "the UCI loop did not end with exit 0");
  int bestmoves = 0, refused = 0, complaints = 0, counted = 0, perfts_refused = 0;
  for (const std::string& line : lines_of(out.str())) {
    bestmoves += line.starts_with("bestmove ");
    refused += line == "info string a search is running; send stop first";
    complaints += line.starts_with("info string ");
    counted += line.starts_with("Nodes searched: ");
    perfts_refused += line.starts_with("info string go perft needs a depth");
  }
  require(bestmoves == searches - refused, std::to_string(searches) + " searches started, " + std::to_string(refused) +
                                               " refused, but " + std::to_string(bestmoves) + " bestmoves:\n" +
                                               out.str());
  require(counted + perfts_refused == perfts, std::to_string(perfts) + " go perft, but " + std::to_string(counted) +
                                                  " counts and " + std::to_string(perfts_refused) + " refusals:\n" +
                                                  out.str());
  return complaints == 0;
}

}  // namespace chesshpc::fuzz
