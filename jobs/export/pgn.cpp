#include "jobs/export/pgn.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "core/pgn.h"
#include "core/uci.h"
#include "jobs/io/job_common.h"

namespace chesshpc {

namespace {

// The PGN standard's Termination values for chesshpc's endings.
std::string pgn_termination(const std::string& t) {
  if (t == "resign" || t == "draw_adjudicated" || t == "max_length") return "adjudication";
  if (t == "flag_fall" || t == "flag_fall_draw") return "time forfeit";
  if (t == "void" || t.rfind("error", 0) == 0) return "abandoned";
  return "normal";
}

// Appends printf's text to s, however long: a buffer of a fixed size is what a damaged
// score (1e300 centipawns) once overran.
[[gnu::format(printf, 2, 3)]] void append_printf(std::string& s, const char* format, ...) {
  va_list args, again;
  va_start(args, format);
  va_copy(again, args);
  const int n = std::vsnprintf(nullptr, 0, format, args);
  va_end(args);
  const size_t at = s.size();
  s.resize(at + size_t(std::max(n, 0)) + 1);
  std::vsnprintf(s.data() + at, s.size() - at, format, again);
  va_end(again);
  s.pop_back();  // vsnprintf's terminating zero
}

// Row `row`'s comment: score/depth, then the time when the file has it, then the nodes. The
// score as cutechess and fastchess write it: pawns with a sign unless 0 ("+0.35", "0.00"),
// a mate as the plies to it ("+M5": mate in 3 moves, "-M4": mated in 2).
std::string move_comment(const PositionColumns& p, size_t row) {
  std::string s;
  const int mate = p.mate_in[row];
  if (mate)
    append_printf(s, "%sM%lld/%d", mate > 0 ? "+" : "-", mate > 0 ? 2LL * mate - 1 : -2LL * mate, p.depth[row]);
  else if (std::fabs(p.score_cp[row]) < 0.5)
    append_printf(s, "0.00/%d", p.depth[row]);
  else
    append_printf(s, "%+.2f/%d", p.score_cp[row] / 100, p.depth[row]);
  if (row < p.time_ms.size()) append_printf(s, " %.3fs", double(p.time_ms[row]) / 1000);
  append_printf(s, " %llun", (unsigned long long)p.nodes[row]);
  return s;
}

// " tc=10000+100ms" in a player's settings as PGN's TimeControl "10+0.1", " tc=40/60000+0ms"
// as "40/60+0"; "" without one.
std::string time_control(const std::string& settings) {
  long base = 0, inc = 0;
  int moves = 0;
  size_t at = settings.find(" tc=");
  if (at == std::string::npos) return "";
  std::string text = settings.substr(at + 4);
  if (std::sscanf(text.c_str(), "%d/", &moves) == 1 && text.find('/') < text.find('+'))
    text = text.substr(text.find('/') + 1);
  else
    moves = 0;
  if (std::sscanf(text.c_str(), "%ld+%ldms", &base, &inc) != 2) return "";
  auto seconds = [](long ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", double(ms) / 1000);
    return std::string(buf);
  };
  return (moves ? std::to_string(moves) + "/" : "") + seconds(base) + "+" + seconds(inc);
}

// Milliseconds as h:mm:ss, as cutechess writes GameDuration.
std::string duration(long ms) {
  const long s = ms / 1000;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%02ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  return buf;
}

// "2026-11-29T16:45:20Z" -> "2026.11.29"
std::string pgn_date(const std::string& iso) {
  if (iso.size() < 10) return "????.??.??";
  return iso.substr(0, 4) + "." + iso.substr(5, 2) + "." + iso.substr(8, 2);
}

// A game the file holds wrongly: what names it ("game 3: ..."), for export's one line.
struct BadGame : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string game_name(const GameColumns& g, size_t i) { return "game " + std::to_string(g.game[i]); }

// Game i's variant and start position from /games/variant and /games/start_fen. Throws
// BadGame.
Variant read_start(const GameColumns& g, size_t i, chess::Position& start) {
  const std::optional<Variant> variant = variant_from_name(g.variant[i]);
  if (!variant) throw BadGame(game_name(g, i) + ": unknown variant '" + g.variant[i] + "'");
  try {
    start = variant_position(g.start_fen[i], *variant);
  } catch (const chess::FenError& e) {
    throw BadGame(game_name(g, i) + ": " + e.what());
  }
  return *variant;
}

// Game i's tags before GameDuration (which its moves give), in write_pgn's order.
std::vector<std::pair<std::string, std::string>> game_tags(const SelfplayFileData& data, size_t i, Variant variant,
                                                           const chess::Position& start) {
  const GameColumns& g = data.tables.games;
  std::vector<std::pair<std::string, std::string>> tags = {{"Event", "chesshpc selfplay"},
                                                           {"Site", data.host},
                                                           {"Date", pgn_date(data.started)},
                                                           {"Round", std::to_string(g.game[i] + 1)},
                                                           {"White", g.white[i]},
                                                           {"Black", g.black[i]},
                                                           {"Result", g.result[i]},
                                                           {"Termination", pgn_termination(g.termination[i])},
                                                           {"TerminationDetail", g.termination[i]},
                                                           {"PlyCount", std::to_string(g.plies[i])}};
  if (!g.opening[i].empty()) tags.push_back({"Opening", g.opening[i]});
  const std::string white_tc = time_control(g.white_settings[i]), black_tc = time_control(g.black_settings[i]);
  if (white_tc == black_tc && !white_tc.empty()) tags.push_back({"TimeControl", white_tc});
  if (white_tc != black_tc) {
    if (!white_tc.empty()) tags.push_back({"WhiteTimeControl", white_tc});
    if (!black_tc.empty()) tags.push_back({"BlackTimeControl", black_tc});
  }
  if (variant != Variant::STANDARD) {
    // "Chess960" for DFRC too: PGN readers (lichess, Arena, CuteChess, python-chess) know
    // no DFRC tag, and Chess960's castling rule, from the FEN's rooks, is DFRC's. The FEN
    // (X-FEN) is written even for the classical start, where castling is Chess960's.
    tags.push_back({"Variant", "Chess960"});
    tags.push_back({"FEN", start.fen()});
  }
  return tags;
}

// Game i's moves into pgn (from pgn.start), each with its /positions row's comment when
// it has a row: the moves come from /games/moves, since with --dedup /positions lacks the
// rows of positions seen before, so its moves are not the game's. row: the first row not
// before game i (rows are in game order, like games), left past the game's last. Returns
// the players' time when every move has its row and the file keeps time, else nothing.
// Throws BadGame on a move that is not legal or a count of moves that is not /games/plies.
std::optional<long> read_moves(const SelfplayTables& t, size_t i, size_t& row, chess::PgnGame& pgn) {
  const GameColumns& g = t.games;
  const PositionColumns& p = t.positions;
  for (; row < p.size() && p.game[row] < g.game[i]; ++row) {
  }
  chess::Position pos = pgn.start;
  std::istringstream moves(g.moves[i]);
  int ply = 0, rows = 0;
  long time_ms = 0;
  for (std::string text; moves >> text; ++ply) {
    std::optional<chess::Move> m = chess::parse_uci(pos, text);
    if (!m) throw BadGame(game_name(g, i) + " ply " + std::to_string(ply) + ": illegal move " + text);
    for (; row < p.size() && p.game[row] == g.game[i] && p.ply[row] < ply; ++row) {
    }
    const bool has_row = row < p.size() && p.game[row] == g.game[i] && p.ply[row] == ply;
    const bool scored = has_row && !p.book[row] && (p.mate_in[row] || !std::isnan(p.score_cp[row]));
    rows += has_row;
    if (has_row && row < p.time_ms.size()) time_ms += p.time_ms[row];
    pgn.moves.push_back(*m);
    pgn.comments.push_back(scored ? move_comment(p, row) : "");
    pos = pos.after(*m);
  }
  if (ply != g.plies[i])
    throw BadGame(game_name(g, i) + ": " + std::to_string(ply) + " moves, but its plies say " +
                  std::to_string(g.plies[i]));
  if (rows == ply && !p.time_ms.empty()) return time_ms;
  return std::nullopt;
}

// Game i as PGN; row as read_moves moves it. Throws BadGame.
chess::PgnGame game_pgn(const SelfplayFileData& data, size_t i, size_t& row) {
  chess::PgnGame pgn;
  const Variant variant = read_start(data.tables.games, i, pgn.start);
  pgn.tags = game_tags(data, i, variant, pgn.start);
  pgn.result = data.tables.games.result[i];
  if (const std::optional<long> time_ms = read_moves(data.tables, i, row, pgn))
    pgn.tags.push_back({"GameDuration", duration(*time_ms)});
  return pgn;
}

}  // namespace

int write_pgn(const SelfplayFileData& data, std::ostream& out, std::ostream& err) {
  size_t row = 0;
  try {
    for (size_t i = 0; i < data.tables.games.size(); ++i) out << chess::write_pgn(game_pgn(data, i, row));
  } catch (const BadGame& e) {
    err << "chesshpc export: " << e.what() << "\n";
    return EXIT_INPUT;
  }
  return EXIT_OK;
}

}  // namespace chesshpc
