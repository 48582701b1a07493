#include "jobs/selfplay/file.h"

#include <cstdio>
#include <filesystem>

#include "core/movegen.h"
#include "jobs/io/h5.h"
#include "jobs/io/provenance.h"

namespace fs = std::filesystem;

namespace chesshpc {

namespace {

const char* README =
    "chesshpc selfplay: a batch of games played by engines, game i's opening and randomness derived from (seed, i).\n"
    "/games: one row per game, by game index: game, seed, opening_id, opening, white, black, white_settings, "
    "black_settings (player, limits, options), result (1-0, 0-1, 1/2-1/2, "
    "* for void or error), termination (a rule: checkmate, stalemate, insufficient_material, threefold_repetition, "
    "fivefold_repetition, fifty_moves, seventy_five_moves, site_thirty_moves, site_ten_checks, site_thirty_checks; "
    "or resign, draw_adjudicated, max_length, flag_fall, flag_fall_draw, void, error: ...), start_fen, moves (UCI, "
    "space-separated, book moves first), plies, book_plies, checks_white, checks_black, perpetual_check, "
    "first_fire_RULE (first ply at which RULE's condition held, -1 never; ply 0 is start_fen).\n"
    "/positions: one row per position before a move, in game and ply order: game, ply, fen, packed (32 bytes), "
    "move, best, score_cp (mover's view, NaN if none), mate_in (0 if none), depth, nodes, in_check, book, "
    "halfmove_clock, result (for the mover: 1, 0.5, 0; NaN if none).\n"
    "packed, little-endian: bytes 0-7 occupancy bitboard (a1 = bit 0, h8 = bit 63); bytes 8-23 one 4-bit code per "
    "occupied square in square order, low nibble first (0-5 white P N B R Q K, 6-11 black p n b r q k); byte 24 bit 0 "
    "side to move (1 black), bits 1-4 castling K Q k q; byte 25 en-passant square or 255; bytes 26-27 half-move "
    "clock; bytes 28-29 full-move number; bytes 30-31 zero.\n"
    "/drawstats: one row per rule of both rulesets: name, fired (games where its condition held), ended (games it "
    "ended), first_fire_q1 / median / q3.\n"
    "Read with pandas: pd.DataFrame({k: f['games'][k][:] for k in f['games']}); strings: f['games/result'].asstr()[:].";

const char* PART = "selfplay-part";

void set_identity(hid_t file, const SelfplayRequest& req) {
  h5::set_attr(file, "identity", req.identity());
  h5::set_attr(file, "rules_version", int64_t(chess::RULES_VERSION));
}

// The first key=value of `ours` that differs in `theirs`.
std::string first_difference(const std::string& theirs, const std::string& ours) {
  auto fields = [](const std::string& s) {
    std::vector<std::string> out;
    for (size_t a = 0, b; a <= s.size(); a = b + 1) {
      b = s.find(';', a);
      if (b == std::string::npos) b = s.size();
      out.push_back(s.substr(a, b - a));
    }
    return out;
  };
  std::vector<std::string> t = fields(theirs), o = fields(ours);
  for (size_t i = 0; i < std::max(t.size(), o.size()); ++i) {
    std::string a = i < t.size() ? t[i] : "", b = i < o.size() ? o[i] : "";
    if (a != b) return "its " + (a.empty() ? "(nothing)" : a) + ", this run's " + (b.empty() ? "(nothing)" : b);
  }
  return "";
}

}  // namespace

SelfplayStore::SelfplayStore(std::string path, const SelfplayRequest& req) : path_(std::move(path)), req_(req) {}

bool SelfplayStore::unfinished() const {
  std::error_code ec;
  return fs::is_directory(parts_dir(), ec);
}

SelfplayTables SelfplayStore::load_parts() const {
  SelfplayTables all;
  std::vector<fs::path> parts;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(parts_dir(), ec))
    if (e.path().extension() == ".h5") parts.push_back(e.path());
  std::sort(parts.begin(), parts.end());
  for (const fs::path& p : parts) {
    h5::Handle f = h5::open_read(p.string());
    if (!h5::has_attr(f.id(), "job") || h5::read_string_attr(f.id(), "job") != PART)
      throw ResumeError("cannot resume from '" + p.string() + "': it is not a part of a chesshpc selfplay batch");
    if (h5::read_int_attr(f.id(), "rules_version") != chess::RULES_VERSION)
      throw ResumeError("cannot resume from '" + p.string() + "': it was played under another rules version");
    std::string theirs = h5::read_string_attr(f.id(), "identity");
    if (theirs != req_.identity())
      throw ResumeError("cannot resume from '" + parts_dir() +
                        "': it holds another batch: " + first_difference(theirs, req_.identity()));
    all.append(read_selfplay_tables(f.id()));
  }
  return all;
}

void SelfplayStore::write_part(const SelfplayTables& t) {
  std::error_code ec;
  fs::create_directories(parts_dir(), ec);
  if (ec) throw h5::Error("cannot create '" + parts_dir() + "': " + ec.message());
  // Numbered after the parts already there, so that a resumed batch adds to them.
  if (next_part_ == 0)
    for (const auto& e : fs::directory_iterator(parts_dir(), ec)) {
      int n = -1;
      if (std::sscanf(e.path().filename().c_str(), "part-%d.h5", &n) == 1) next_part_ = std::max(next_part_, n + 1);
    }
  char name[32];
  std::snprintf(name, sizeof name, "/part-%06d.h5", next_part_++);
  h5::File file(parts_dir() + name);
  write_selfplay_tables(file.id(), t);
  h5::set_attr(file.id(), "job", std::string(PART));
  set_identity(file.id(), req_);
  file.commit();
}

size_t SelfplayStore::finish(SelfplayTables& all, const std::string& started, int threads, int ranks) {
  all.sort_by_game();
  size_t dropped = req_.dedup ? all.dedup_positions() : 0;
  h5::File file(path_);
  write_selfplay_tables(file.id(), all);
  Provenance p;
  p.command_line = req_.command_line;
  p.started = started;
  p.finished = utc_now();
  p.threads = threads;
  p.ranks = ranks;
  p.readme = README;
  h5::write_provenance(file.id(), p);
  h5::set_attr(file.id(), "job", std::string("selfplay"));
  set_identity(file.id(), req_);
  h5::set_attr(file.id(), "seed", uint64_t(req_.seed));
  h5::set_attr(file.id(), "games", int64_t(all.games.size()));
  h5::set_attr(file.id(), "positions", int64_t(all.positions.size()));
  h5::set_attr(file.id(), "duplicates_dropped", int64_t(dropped));
  file.commit();
  std::error_code ec;
  fs::remove_all(parts_dir(), ec);
  return dropped;
}

}  // namespace chesshpc
