#include "jobs/selfplay/file.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>

#include "core/movegen.h"
#include "jobs/io/h5.h"
#include "jobs/io/h5_table.h"
#include "jobs/io/provenance.h"

namespace fs = std::filesystem;

namespace chesshpc {

namespace {

constexpr std::string_view PART = "selfplay-part";  // the job attribute of a checkpoint part

// What the root attributes are written from.
struct Root {
  const SelfplayRequest& req;
  std::string_view job;
  size_t games = 0, positions = 0, dropped = 0;
  Pentanomial pairs;
  const PairSequence* sprt = nullptr;  // with --sprt
  MatchStats match;                    // the first player's games
  std::pair<std::string, std::string> names;
};

// A pentanomial count's attribute.
template <size_t I>
constexpr auto pair_count(std::string_view name, std::string_view description) {
  return h5::attr<Root>(name, description, [](const Root& s) { return int64_t(s.pairs.counts[I]); });
}

// An SPRT attribute: absent without --sprt.
template <class F>
constexpr auto sprt_attr(std::string_view name, std::string_view description, F) {
  return h5::attr<Root>(name, description, [](const Root& s) {
    using V = std::invoke_result_t<F, const PairSequence&>;
    return s.sprt ? std::optional<V>(F{}(*s.sprt)) : std::nullopt;
  });
}

constexpr h5::Attr<std::string> IDENTITY{
    "identity", "the batch's settings and its book's hash, key=value;...: a batch resumes only from parts of the same"};

// The root attributes of the file and of its checkpoint parts alike.
constexpr auto BATCH = std::to_array({
    h5::attr<Root>(h5::JOB, [](const Root& s) { return s.job; }),
    h5::attr<Root>(IDENTITY, [](const Root& s) { return s.req.identity(); }),
    h5::attr<Root>(h5::RULES_VERSION, [](const Root&) { return int64_t(chess::RULES_VERSION); }),
});

// The file's root attributes: the batch's, then its totals.
constexpr auto ROOT = [] {
  constexpr auto totals = std::to_array({
      h5::attr<Root>("seed", "the batch's seed (--seed)", [](const Root& s) { return uint64_t(s.req.seed); }),
      h5::attr<Root>("games", "games played: the rows of /games", [](const Root& s) { return int64_t(s.games); }),
      h5::attr<Root>("positions", "positions kept: the rows of /positions",
                     [](const Root& s) { return int64_t(s.positions); }),
      h5::attr<Root>("duplicates_dropped", "positions dropped as repeats of earlier ones (--dedup)",
                     [](const Root& s) { return int64_t(s.dropped); }),
      h5::attr<Root>("pairs", "game pairs (games 2k and 2k + 1: one opening, colours swapped) with both results",
                     [](const Root& s) { return int64_t(s.pairs.pairs()); }),
      h5::attr<Root>("first_player", "the first player's name (White in even games), as /games gives it",
                     [](const Root& s) { return s.names.first; }),
      h5::attr<Root>("second_player", "the second player's name", [](const Root& s) { return s.names.second; }),
      h5::attr<Root>("first_player_wins", "games the first player won",
                     [](const Root& s) { return int64_t(s.match.wins); }),
      h5::attr<Root>("first_player_draws", "games the first player drew",
                     [](const Root& s) { return int64_t(s.match.draws); }),
      h5::attr<Root>("first_player_losses", "games the first player lost",
                     [](const Root& s) { return int64_t(s.match.losses); }),
      pair_count<0>("pairs_LL", "pairs the first player (White in even games) lost twice"),
      pair_count<1>("pairs_LD", "pairs the first player lost once and drew once"),
      pair_count<2>("pairs_DD+WL", "pairs the first player drew twice, or won one and lost one"),
      pair_count<3>("pairs_WD", "pairs the first player won once and drew once"),
      pair_count<4>("pairs_WW", "pairs the first player won twice"),
      h5::attr<Root>("elo",
                     "the first player's logistic Elo over the second, from the pairs' mean score (+-inf at a "
                     "score of 1 or 0)",
                     [](const Root& s) { return pair_score(s.pairs).elo; }),
      h5::attr<Root>("elo_low", "...its 95% score interval's low end (Wilson's for pairs: see the README)",
                     [](const Root& s) { return pair_score(s.pairs).elo_low; }),
      h5::attr<Root>("elo_high", "...and high end", [](const Root& s) { return pair_score(s.pairs).elo_high; }),
      sprt_attr("sprt", "--sprt: elo0, elo1, alpha, beta, model (normalized or logistic Elo)",
                [](const PairSequence& q) { return q.spec().text(); }),
      sprt_attr("llr", "--sprt: fishtest's log-likelihood ratio over the first sprt_pairs pairs",
                [](const PairSequence& q) { return q.llr(); }),
      sprt_attr("lower", "--sprt: log(beta / (1 - alpha)), below which H0 is accepted",
                [](const PairSequence& q) { return q.spec().lower(); }),
      sprt_attr("upper", "--sprt: log((1 - beta) / alpha), above which H1 is accepted",
                [](const PairSequence& q) { return q.spec().upper(); }),
      sprt_attr("decision", "--sprt: H0, H1, or none (the batch ended undecided)",
                [](const PairSequence& q) { return std::string(sprt_decision_name(q.decision())); }),
      sprt_attr("sprt_pairs", "--sprt: the pairs the test counted, in game order (the file's games once decided)",
                [](const PairSequence& q) { return int64_t(q.pairs()); }),
  });
  std::array<h5::RootAttr<Root>, BATCH.size() + totals.size()> all{};
  std::copy(totals.begin(), totals.end(), std::copy(BATCH.begin(), BATCH.end(), all.begin()));
  return all;
}();

std::string readme() {
  return "chesshpc selfplay: a batch of games played by engines, game i's opening and randomness derived from "
         "(seed, i).\n" +
         selfplay_tables_readme() + h5::readme("Root attributes", ROOT) +
         "Plies count from start_fen (ply 0). termination is a rule (a RULE of first_fire_RULE) or resign, "
         "draw_adjudicated, max_length, flag_fall, "
         "flag_fall_draw, void, or 'error: ' and what failed.\n"
         "packed, little-endian: bytes 0-7 occupancy bitboard (a1 = bit 0, h8 = bit 63); bytes 8-23 one 4-bit code "
         "per occupied square in square order, low nibble first (0-5 white P N B R Q K, 6-11 black p n b r q k); byte "
         "24 bit 0 side to move (1 black), bits 1-4 castling K Q k q; byte 25 en-passant square or 255; bytes 26-27 "
         "half-move clock; bytes 28-29 full-move number; bytes 30-31 zero.\n"
         "Read with pandas: pd.DataFrame({k: f['games'][k][:] for k in f['games']}); strings: "
         "f['games/result'].asstr()[:].\n";
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

bool has_selfplay_tables(const h5::Group& file) {
  return h5::is_job(file, SELFPLAY_JOB) || (h5::has_attr(file, TABLES) && h5::read_attr(file, TABLES) == SELFPLAY_JOB);
}

SelfplayStore::SelfplayStore(std::string path, const SelfplayRequest& req) : path_(std::move(path)), req_(req) {}

bool SelfplayStore::unfinished() const {
  std::error_code ec;
  return fs::is_directory(parts_dir(), ec);
}

void SelfplayStore::remove_parts() const {
  std::error_code ec;
  fs::remove_all(parts_dir(), ec);
}

SelfplayTables SelfplayStore::load_parts(std::ostream* set_aside) const {
  SelfplayTables all;
  std::vector<fs::path> parts;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(parts_dir(), ec))
    if (e.path().extension() == ".h5") parts.push_back(e.path());
  std::sort(parts.begin(), parts.end());
  for (const fs::path& p : parts) {
    SelfplayTables games;
    try {
      h5::Group f = h5::open_read(p.string());
      if (!h5::is_job(f, PART))
        throw ResumeError("cannot resume from '" + p.string() + "': it is not a part of a chesshpc selfplay batch");
      if (h5::read_attr(f, h5::RULES_VERSION) != chess::RULES_VERSION)
        throw ResumeError("cannot resume from '" + p.string() + "': it was played under another rules version");
      std::string theirs = h5::read_attr(f, IDENTITY);
      if (theirs != req_.identity())
        throw ResumeError("cannot resume from '" + parts_dir() +
                          "': it holds another batch: " + first_difference(theirs, req_.identity()));
      games = read_selfplay_tables(f);
    } catch (const h5::Error& e) {
      // Parts are published whole (h5::File), but a crash of the machine or a copy cut
      // short can still leave one broken; what it held is played again.
      if (!set_aside) throw;
      fs::path aside = p.string() + ".unreadable";
      fs::rename(p, aside, ec);
      if (ec) throw h5::Error("cannot set aside the unreadable part '" + p.string() + "': " + ec.message());
      *set_aside << "chesshpc selfplay: " << e.what() << ": set aside as '" << aside.filename().string()
                 << "', its games are played again\n";
      continue;
    }
    all.append(games);
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
  write_selfplay_tables(file, t);
  h5::write_attrs(file, BATCH, Root{req_, PART, 0, 0, 0, {}, nullptr, {}, {}});
  file.commit();
}

size_t SelfplayStore::finish(SelfplayTables& all, const std::string& started, int threads, int ranks,
                             const PairSequence* sprt) {
  all.sort_by_game();
  size_t dropped = req_.dedup ? all.dedup_positions() : 0;
  h5::File file(path_);
  write_selfplay_tables(file, all);
  h5::write_provenance(file, finished_provenance(req_.command_line, started, threads, ranks, readme()));
  const MatchStats match = match_stats(all.games.game, all.games.result);
  h5::write_attrs(file, ROOT,
                  Root{req_, SELFPLAY_JOB, all.games.size(), all.positions.size(), dropped, match.penta, sprt, match,
                       player_names(all.games)});
  file.commit();
  remove_parts();
  return dropped;
}

}  // namespace chesshpc
