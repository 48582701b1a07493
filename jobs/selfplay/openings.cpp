#include "jobs/selfplay/openings.h"

#include <cstdio>
#include <fstream>
#include <numeric>
#include <sstream>

#include "core/game.h"
#include "core/movegen.h"
#include "core/pgn.h"
#include "core/quote.h"
#include "core/random.h"
#include "core/san.h"
#include "core/uci.h"
#include "jobs/io/job_common.h"

namespace chesshpc {

namespace {

constexpr uint64_t BOOK_STREAM = 1, PLIES_STREAM = 2, VARIANT_STREAM = 4;  // 3: the game's play

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// "FEN4 [halfmove fullmove] [opcodes...]": the clocks count only when both are numbers.
std::string epd_fen(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> w;
  for (std::string word; in >> word;) w.push_back(word);
  if (w.size() < 4) return line;
  std::string fen = w[0] + " " + w[1] + " " + w[2] + " " + w[3];
  auto number = [](const std::string& s) {
    return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
  };
  if (w.size() >= 6 && number(w[4]) && number(w[5])) return fen + " " + w[4] + " " + w[5];
  return fen + " 0 1";
}

// Every line of a line-oriented book, blank lines and '#' comments skipped, read by
// `parse`; a BookError names the file and the line.
template <typename Parse>
std::vector<BookLine> read_lines(const std::string& path, std::istream& in, Parse parse) {
  std::vector<BookLine> book;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    try {
      book.push_back(parse(line));
    } catch (const std::exception& e) {
      throw BookError(path + ":" + std::to_string(number) + ": " + e.what());
    }
  }
  return book;
}

BookLine epd_line(const std::string& line) { return {line, chess::Position::from_fen(epd_fen(line)), {}}; }

// A line of UCI moves from the start position ("e2e4 e7e5 g1f3"), as data/openings.txt.
BookLine uci_line(const std::string& line) {
  BookLine b{line, chess::Position::start(), {}};
  chess::Position pos = b.start;
  std::istringstream words(line);
  for (std::string w; words >> w;) {
    std::optional<chess::Move> m = chess::parse_uci(pos, w);
    if (!m) throw std::runtime_error(chess::quoted(w) + " is not a legal move here");
    b.moves.push_back(*m);
    pos = pos.after(*m);
  }
  return b;
}

bool looks_like_uci_moves(const std::string& text) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    line = trim(line);
    if (line.empty() || line[0] == '#') continue;
    return line.size() >= 4 && line[0] >= 'a' && line[0] <= 'h' && line[1] >= '1' && line[1] <= '8' && line[2] >= 'a' &&
           line[2] <= 'h' && line[3] >= '1' && line[3] <= '8';
  }
  return false;
}

std::vector<BookLine> read_pgn_book(const std::string& path, const std::string& text) {
  std::vector<BookLine> book;
  for (const chess::PgnChunk& chunk : chess::split_pgn(text)) {
    chess::PgnGame game;
    chess::PgnError error;
    if (!chess::parse_pgn_game(chunk, game, error))
      throw BookError(path + ":" + std::to_string(error.line) + ": " + error.message);
    std::string san;
    chess::Position pos = game.start;
    for (chess::Move m : game.moves) {
      if (!san.empty()) san += ' ';
      san += chess::to_san(pos, m);
      pos = pos.after(m);
    }
    book.push_back({san, game.start, game.moves});
  }
  return book;
}

// 64-bit FNV-1a as 16 hex digits: to tell two versions of a file apart, not against an
// adversary.
std::string fnv1a_hex(std::string_view bytes) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : bytes) h = (h ^ c) * 0x100000001b3ULL;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
  return hex;
}

bool game_over(const chess::Position& start, const std::vector<chess::Move>& moves) {
  chess::Game g(start);
  for (chess::Move m : moves) g.play(m);
  return g.over();
}

}  // namespace

std::vector<BookLine> read_book(const std::string& path, std::string* digest) {
  std::ifstream in(path, std::ios::binary);
  if (const std::string why = unreadable_input(path, in); !why.empty())
    throw BookError("cannot read book '" + path + "': " + why);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse_book(path, buffer.str(), digest);
}

std::vector<BookLine> parse_book(const std::string& path, const std::string& text, std::string* digest) {
  if (digest) *digest = fnv1a_hex(text);
  size_t first = text.find_first_not_of(" \t\r\n");
  bool pgn = path.size() >= 4 && path.compare(path.size() - 4, 4, ".pgn") == 0;
  pgn = pgn || (first != std::string::npos && text[first] == '[');
  std::istringstream lines(text);
  std::vector<BookLine> book = pgn                          ? read_pgn_book(path, text)
                               : looks_like_uci_moves(text) ? read_lines(path, lines, uci_line)
                                                            : read_lines(path, lines, epd_line);
  if (book.empty()) throw BookError("book '" + path + "' has no line");
  return book;
}

std::optional<Variant> variant_from_name(std::string_view name) {
  for (int v = 0; v < int(std::size(VARIANT_NAMES)); ++v)
    if (VARIANT_NAMES[v] == name) return Variant(v);
  return std::nullopt;
}

chess::Position variant_position(const std::string& fen, Variant v) {
  return chess::Position::from_fen(fen, v != Variant::STANDARD);
}

chess::Position numbered_start(Variant v, int64_t number) {
  if (v == Variant::DFRC)
    return chess::Position::from_fen("dfrc:" + std::to_string(number / 960) + "," + std::to_string(number % 960));
  return chess::Position::from_fen("chess960:" + std::to_string(number));
}

Opening opening_for(const OpeningSpec& spec, uint64_t game) {
  const uint64_t pair = game / 2;
  Opening o;
  o.id = -1;
  o.start = chess::Position::start();
  o.variant = spec.variant;
  if (spec.variant != Variant::STANDARD) {
    chess::Random rng = chess::stream(spec.seed, pair, VARIANT_STREAM);
    o.start_number = int64_t(rng.below(960));
    if (spec.variant == Variant::DFRC) o.start_number = o.start_number * 960 + int64_t(rng.below(960));
    o.start = numbered_start(spec.variant, o.start_number);
  }
  if (spec.book) {
    const auto& book = *spec.book;
    size_t index = pair % book.size();
    if (spec.order == BookOrder::RANDOM) {
      // One seeded permutation of the book, walked pair by pair: every line is used once
      // before any is used twice.
      std::vector<size_t> perm(book.size());
      std::iota(perm.begin(), perm.end(), size_t(0));
      chess::Random rng = chess::stream(spec.seed, 0, BOOK_STREAM);
      for (size_t i = perm.size(); i > 1; --i) std::swap(perm[i - 1], perm[rng.below(i)]);
      index = perm[index];
    }
    o.id = int64_t(index);
    o.text = book[index].text;
    o.start = book[index].start;
    o.moves = book[index].moves;
  }
  if (spec.random_plies > 0) {
    chess::Random rng = chess::stream(spec.seed, pair, PLIES_STREAM);
    const std::vector<chess::Move> base = o.moves;
    for (int attempt = 0;; ++attempt) {
      o.moves = base;
      chess::Position pos = o.start;
      for (chess::Move m : base) pos = pos.after(m);
      for (int i = 0; i < spec.random_plies; ++i) {
        chess::MoveList legal = chess::legal_moves(pos);
        if (legal.size() == 0) break;
        chess::Move m = legal[rng.below(legal.size())];
        o.moves.push_back(m);
        pos = pos.after(m);
      }
      if (!game_over(o.start, o.moves) || attempt == 1000) break;
    }
    if (!o.text.empty()) o.text += ' ';
    o.text += '+';
    o.text += std::to_string(spec.random_plies);
    o.text += " random plies";
  }
  return o;
}

}  // namespace chesshpc
