#include "jobs/selfplay/export.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "core/pgn.h"
#include "core/uci.h"
#include "jobs/io/h5.h"
#include "jobs/io/job_common.h"
#include "jobs/selfplay/file.h"
#include "jobs/selfplay/tables.h"

namespace chesshpc {

namespace {

// The PGN standard's Termination values for chesshpc's endings.
std::string pgn_termination(const std::string& t) {
  if (t == "resign" || t == "draw_adjudicated" || t == "max_length") return "adjudication";
  if (t == "flag_fall" || t == "flag_fall_draw") return "time forfeit";
  if (t == "void" || t.rfind("error", 0) == 0) return "abandoned";
  return "normal";
}

std::string score_comment(double cp, int mate, int depth) {
  char buf[48];
  if (mate)
    std::snprintf(buf, sizeof buf, "%sM%d/%d", mate > 0 ? "+" : "-", std::abs(mate), depth);
  else
    std::snprintf(buf, sizeof buf, "%+.2f/%d", cp / 100, depth);
  return buf;
}

// "2026-11-29T16:45:20Z" -> "2026.11.29"
std::string pgn_date(const std::string& iso) {
  if (iso.size() < 10) return "????.??.??";
  return iso.substr(0, 4) + "." + iso.substr(5, 2) + "." + iso.substr(8, 2);
}

}  // namespace

int export_pgn(const std::string& path, std::ostream& out, std::ostream& err) {
  SelfplayTables t;
  std::string date, site;
  try {
    h5::Group f = h5::open_read(path);
    if (!h5::is_job(f, SELFPLAY_JOB)) {
      err << "chesshpc export: '" << path << "' is not a chesshpc selfplay file\n";
      return EXIT_INPUT;
    }
    t = read_selfplay_tables(f);
    date = pgn_date(h5::read_attr(f, h5::STARTED));
    site = h5::read_attr(f, h5::HOST);
  } catch (const h5::Error& e) {
    err << "chesshpc export: " << e.what() << "\n";
    return EXIT_INPUT;
  }
  const GameColumns& g = t.games;
  const PositionColumns& p = t.positions;
  size_t row = 0;  // positions are in game order, like games
  for (size_t i = 0; i < g.size(); ++i) {
    chess::PgnGame pgn;
    const std::optional<Variant> variant = variant_from_name(g.variant[i]);
    if (!variant) {
      err << "chesshpc export: game " << g.game[i] << ": unknown variant '" << g.variant[i] << "'\n";
      return EXIT_INPUT;
    }
    try {
      pgn.start = variant_position(g.start_fen[i], *variant);
    } catch (const chess::FenError& e) {
      err << "chesshpc export: game " << g.game[i] << ": " << e.what() << "\n";
      return EXIT_INPUT;
    }
    pgn.tags = {{"Event", "chesshpc selfplay"},
                {"Site", site},
                {"Date", date},
                {"Round", std::to_string(g.game[i] + 1)},
                {"White", g.white[i]},
                {"Black", g.black[i]},
                {"Result", g.result[i]},
                {"Termination", pgn_termination(g.termination[i])},
                {"TerminationDetail", g.termination[i]},
                {"PlyCount", std::to_string(g.plies[i])}};
    if (!g.opening[i].empty()) pgn.tags.push_back({"Opening", g.opening[i]});
    if (*variant != Variant::STANDARD) {
      // "Chess960" for DFRC too: PGN readers (lichess, Arena, CuteChess, python-chess) know
      // no DFRC tag, and Chess960's castling rule, from the FEN's rooks, is DFRC's. The FEN
      // (X-FEN) is written even for the classical start, where castling is Chess960's.
      pgn.tags.push_back({"Variant", "Chess960"});
      pgn.tags.push_back({"FEN", pgn.start.fen()});
    }
    pgn.result = g.result[i];
    // The moves come from /games/moves: with --dedup, /positions lacks the rows of positions
    // seen before, so its moves are not the game's. A ply's score comes from its row, when
    // the row is there.
    for (; row < p.size() && p.game[row] < g.game[i]; ++row) {
    }
    chess::Position pos = pgn.start;
    std::istringstream moves(g.moves[i]);
    int ply = 0;
    for (std::string text; moves >> text; ++ply) {
      std::optional<chess::Move> m = chess::parse_uci(pos, text);
      if (!m) {
        err << "chesshpc export: game " << g.game[i] << " ply " << ply << ": illegal move " << text << "\n";
        return EXIT_INPUT;
      }
      for (; row < p.size() && p.game[row] == g.game[i] && p.ply[row] < ply; ++row) {
      }
      const bool has_row = row < p.size() && p.game[row] == g.game[i] && p.ply[row] == ply;
      const bool scored = has_row && !p.book[row] && (p.mate_in[row] || !std::isnan(p.score_cp[row]));
      pgn.moves.push_back(*m);
      pgn.comments.push_back(scored ? score_comment(p.score_cp[row], p.mate_in[row], p.depth[row]) : "");
      pos = pos.after(*m);
    }
    if (ply != g.plies[i]) {
      err << "chesshpc export: game " << g.game[i] << ": " << ply << " moves, but its plies say " << g.plies[i] << "\n";
      return EXIT_INPUT;
    }
    out << chess::write_pgn(pgn);
  }
  return EXIT_OK;
}

}  // namespace chesshpc
