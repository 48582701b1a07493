#include "jobs/selfplay/game_bytes.h"

#include <cstring>
#include <stdexcept>
#include <string>

#include "core/uci.h"
#include "jobs/io/byte_codec.h"

namespace chesshpc {

namespace {

enum : uint8_t { HAS_SCORE = 1, HAS_MATE = 2, BOOK = 4 };

chess::Move move_from(const chess::Position& pos, const std::string& uci) {
  if (auto m = chess::parse_uci(pos, uci)) return *m;
  throw std::runtime_error("game records hold an illegal move '" + uci + "'");
}

}  // namespace

std::vector<char> encode_games(const std::vector<GameRecord>& games, const std::string& stopped) {
  ByteWriter w;
  w.put(uint32_t(games.size()));
  for (const GameRecord& g : games) {
    w.put(g.index), w.put(g.opening.id), w.put(g.opening.text), w.put(g.opening.start.fen());
    w.put(uint8_t(g.opening.variant)), w.put(g.opening.start_number);
    const bool chess960 = g.opening.start.is_chess960();
    w.put(g.white), w.put(g.black), w.put(g.white_settings), w.put(g.black_settings), w.put(g.seed);
    w.put(uint8_t(g.result)), w.put(uint8_t(g.ending)), w.put(g.termination);
    w.put(uint32_t(g.plies.size()));
    chess::Position pos = g.opening.start;
    for (const PlyRecord& p : g.plies) {
      w.put(chess::to_uci(p.move, chess960)), w.put(chess::to_uci(p.best, chess960));
      w.put(uint8_t((p.score_cp ? HAS_SCORE : 0) | (p.mate_in ? HAS_MATE : 0) | (p.book ? BOOK : 0)));
      w.put(int32_t(p.score_cp.value_or(0))), w.put(int32_t(p.mate_in.value_or(0)));
      w.put(int32_t(p.depth)), w.put(p.nodes), w.put(p.time_ms);
      pos = pos.after(p.move);
    }
    for (int f : g.first_fire) w.put(int32_t(f));
    w.put(uint8_t(g.perpetual_check)), w.put(int32_t(g.checks[0])), w.put(int32_t(g.checks[1]));
    w.put(g.search_seconds);
  }
  if (!stopped.empty()) w.put(stopped);  // after the games: a unit played whole ends there
  return w.take();
}

std::vector<GameRecord> decode_games(const std::vector<char>& bytes, std::string* stopped) {
  ByteReader r(bytes, "truncated game records");
  std::vector<GameRecord> games(r.get<uint32_t>());
  for (GameRecord& g : games) {
    g.index = r.get<uint64_t>();
    g.opening.id = r.get<int64_t>();
    g.opening.text = r.text();
    std::string start = r.text();
    g.opening.variant = Variant(r.get<uint8_t>());
    g.opening.start_number = r.get<int64_t>();
    g.opening.start = variant_position(start, g.opening.variant);
    g.white = r.text(), g.black = r.text();
    g.white_settings = r.text(), g.black_settings = r.text();
    g.seed = r.get<uint64_t>();
    g.result = chess::Result(r.get<uint8_t>()), g.ending = Ending(r.get<uint8_t>());
    g.termination = r.text();
    g.plies.resize(r.get<uint32_t>());
    chess::Position pos = g.opening.start;
    for (PlyRecord& p : g.plies) {
      p.move = move_from(pos, r.text());
      std::string best = r.text();
      uint8_t flags = r.get<uint8_t>();
      int32_t score = r.get<int32_t>(), mate = r.get<int32_t>();
      p.best = flags & BOOK ? p.move : move_from(pos, best);
      if (flags & HAS_SCORE) p.score_cp = score;
      if (flags & HAS_MATE) p.mate_in = mate;
      p.book = flags & BOOK;
      p.depth = r.get<int32_t>(), p.nodes = r.get<uint64_t>(), p.time_ms = r.get<int32_t>();
      if (p.book) g.opening.moves.push_back(p.move);
      pos = pos.after(p.move);
    }
    for (int& f : g.first_fire) f = r.get<int32_t>();
    g.perpetual_check = r.get<uint8_t>();
    g.checks[0] = r.get<int32_t>(), g.checks[1] = r.get<int32_t>();
    g.search_seconds = r.get<double>();
  }
  std::string why = r.done() ? "" : r.text();
  if (!r.done()) throw std::runtime_error("trailing bytes after game records");
  if (stopped) *stopped = why;
  return games;
}

}  // namespace chesshpc
