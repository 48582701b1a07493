#include "jobs/selfplay/options.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

#include "core/quote.h"
#include "core/search_tt.h"
#include "jobs/rules/options.h"

namespace chesshpc {

namespace {

constexpr double MAX_CLOCK_SECONDS = 86400;

// What bounds each move: exactly one of nodes, depth, movetime and a clock.
std::vector<OptionSpec> move_limit_options() {
  return {{"nodes", "N", "search nodes per move"},
          {"depth", "D", "search depth per move"},
          {"movetime", "MS", "milliseconds per move"},
          {"tc", "[MOVES/]BASE+INC",
           "a clock per game in seconds, e.g. 10+0.1, or BASE for every MOVES moves, 40/60 (flag falls end games)"}};
}

// One number of --tc: digits with at most one decimal point, at least one digit, and no
// sign, exponent or space, so that "1+", "+1", "-1+0" and "1++1" are refused rather than
// read as far as they go.
std::optional<double> clock_seconds(std::string_view text) {
  if (text.empty() || text.find_first_not_of("0123456789.") != std::string_view::npos ||
      text.find_first_of("0123456789") == std::string_view::npos || text.find('.') != text.rfind('.'))
    return std::nullopt;
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value > MAX_CLOCK_SECONDS) return std::nullopt;
  return value;
}

// --tc [MOVES/]BASE+INC in seconds (+INC may be left out): BASE above 0, INC 0 or more,
// both at most a day; cutechess's minutes:seconds for BASE too (1:30+1); MOVES, 1 to 10000,
// the moves of each period, BASE added again after each (40/60). what: the option as the
// user wrote it ("--tc", "tc=").
TimeControl read_clock(const std::string& what, const std::string& given) {
  std::string text = given;
  int moves = 0;
  if (const size_t slash = text.find('/'); slash != std::string::npos) {
    const std::string count = text.substr(0, slash);
    auto [end, ec] = std::from_chars(count.data(), count.data() + count.size(), moves);
    if (count.empty() || ec != std::errc() || end != count.data() + count.size() || moves < 1 || moves > 10000)
      throw UsageError(what + " takes MOVES/BASE+INC with MOVES a whole number from 1 to 10000, not " +
                       chess::quoted(given));
    text = text.substr(slash + 1);
  }
  std::optional<double> minutes;
  if (const size_t colon = text.find(':'); colon != std::string::npos && colon < text.find('+')) {
    minutes = clock_seconds(std::string_view(text).substr(0, colon));
    text = text.substr(colon + 1);
    if (!minutes) text = "";
  }
  const size_t plus = text.find('+');
  std::optional<double> base = clock_seconds(std::string_view(text).substr(0, plus));
  const std::optional<double> inc =
      plus == std::string::npos ? std::optional(0.0) : clock_seconds(std::string_view(text).substr(plus + 1));
  if (base && minutes) base = *base + 60 * *minutes;
  if (!base || !inc || !(*base > 0) || *base > MAX_CLOCK_SECONDS)
    throw UsageError(what + " takes BASE+INC in seconds (BASE above 0, each at most 86400), e.g. 10+0.1, not " +
                     chess::quoted(given));
  return {long(*base * 1000), long(*inc * 1000), moves};
}

// The limits opt gives (any of --nodes, --depth, --movetime and --tc, checked), into
// limits and clock. Returns how many were given.
int read_move_limits(const Options& opt, MoveLimits& limits, TimeControl& clock) {
  limits.nodes = opt.get_int("nodes", 0, 1, 2000000000);
  limits.depth = opt.get_int("depth", 0, 1, 100);
  limits.movetime_ms = opt.get_int("movetime", 0, 1, 86400000);
  if (auto tc = opt.get("tc")) clock = read_clock(opt.named("tc"), *tc);
  return opt.has("nodes") + opt.has("depth") + opt.has("movetime") + opt.has("tc");
}

// Who plays: the built-in search or external UCI engines.
std::vector<OptionSpec> player_options() {
  return {
      OptionSpec{"white", "PLAYER", "the player with White in even games: chesshpc or uci:COMMAND (default: chesshpc)"},
      {"black", "PLAYER", "the other player (default: chesshpc); colours swap in odd games"},
      {"uci-options", "N=V,...", "setoption for external engines, e.g. Threads=1,Hash=16"},
      {"engine", "K=V...",
       "a player as fastchess and cutechess-cli name it, KEY=VALUE..., given twice (the first and the second "
       "player, instead of --white and --black): cmd=chesshpc|COMMAND|uci:COMMAND (a command is a UCI engine), "
       "name=NAME, proto=uci, args=ARGS (the command's arguments), dir=DIR (where it runs), nodes=N, depth=D (or "
       "plies=D), movetime=MS, "
       "st=SECONDS, tc=[MOVES/]BASE+INC, timemargin=MS (together they override the batch's --nodes ... --tc; nodes= "
       "or depth= may go with tc=), option.NAME=VALUE (setoption, after --uci-options), restart=off",
       true},
      {"variation", "F",
       "node limits vary by up to F (a fraction) either way at each move, drawn from (seed, game), so that "
       "game pairs differ; 0: exact limits (default: 0.25)"},
      {"timeout", "S",
       "seconds an external engine has for uciok and each readyok, and beyond its move's time (movetime or the "
       "clock; none for nodes and depth) for its bestmove, before it counts as hung: the game is an error and the "
       "engine restarted (default: 10)"}};
}

// chesshpc, or uci:COMMAND with the --uci-options; what: the option that named it.
// bare: a command without uci: is an engine too (--engine's cmd=, as fastchess reads it).
PlayerSpec read_player_command(const Options& opt, const std::string& text, const std::string& what,
                               bool bare = false) {
  PlayerSpec p;
  if (text == "chesshpc") return p;
  const bool prefixed = text.rfind("uci:", 0) == 0;
  if ((!prefixed && !bare) || text.size() == (prefixed ? 4 : 0))
    throw UsageError(what + " must be chesshpc or uci:COMMAND, not " + chess::quoted(text));
  p.command = prefixed ? text.substr(4) : text;
  std::string list = opt.get("uci-options", "");
  for (size_t a = 0, b; a < list.size(); a = b + 1) {
    b = list.find(',', a);
    if (b == std::string::npos) b = list.size();
    std::string item = list.substr(a, b - a);
    size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError("--uci-options takes NAME=VALUE,..., not " + chess::quoted(item));
    p.options.push_back({item.substr(0, eq), item.substr(eq + 1)});
  }
  return p;
}

// KEY=VALUE arguments of a list option (--engine, --sprt) read as options of their own
// ("nodes=5000" as "--nodes=5000"), so that their values are checked as options are.
Options read_keys(const std::string& what, const std::vector<std::string>& items, const std::vector<OptionSpec>& keys) {
  std::vector<std::string> args;
  for (const std::string& item : items) {
    if (item.find('=') == std::string::npos || item[0] == '=')
      throw UsageError(what + " takes KEY=VALUE arguments, not " + chess::quoted(item));
    args.push_back("--" + item);
  }
  return Options("selfplay " + what, args, keys, 0, OptionStyle::KEYS);
}

// The keys of one --engine but its option.NAME=VALUE.
// proto=, st=, plies=, restart=, args= and timemargin= are fastchess's and cutechess-cli's.
const std::vector<OptionSpec> ENGINE_KEYS = {{"cmd", "PLAYER", ""},  {"name", "NAME", ""},     {"proto", "uci", ""},
                                             {"nodes", "N", ""},     {"depth", "D", ""},       {"plies", "D", ""},
                                             {"movetime", "MS", ""}, {"st", "SECONDS", ""},    {"tc", "BASE+INC", ""},
                                             {"restart", "off", ""}, {"timemargin", "MS", ""}, {"args", "ARGS", ""},
                                             {"dir", "DIR", ""}};

// st=SECONDS (fastchess's and cutechess-cli's movetime) in milliseconds.
long read_seconds_per_move(const Options& keys) {
  const double seconds = keys.get_double("st", 0, 0.001, 86400);
  return long(seconds * 1000 + 0.5);
}

// The two players, each with its limits: --engine's own, or the batch's.
void read_players(const Options& opt, SelfplayRequest& req, int limits_given) {
  std::vector<std::vector<std::string>> engines = opt.lists("engine");
  if (engines.empty()) {
    req.first = read_player_command(opt, opt.get("white", "chesshpc"), "--white");
    req.second = read_player_command(opt, opt.get("black", "chesshpc"), "--black");
  } else {
    if (engines.size() != 2) throw UsageError("--engine must be given twice: the first player and the second");
    if (opt.has("white") || opt.has("black"))
      throw UsageError("--engine replaces --white and --black: give one or the other");
    req.first = read_engine(opt, engines[0]), req.second = read_engine(opt, engines[1]);
  }
  if ((!req.first.own_limits || !req.second.own_limits) && limits_given != 1)
    throw UsageError("selfplay needs one of --nodes, --depth, --movetime or --tc");
}

// --sprt elo0=E0 elo1=E1 alpha=A beta=B model=M (any left out keeps its default). The
// normalized model's Elo is kept within +-200: from about 300 on, fishtest's estimate under
// the t-value constraint no longer converges on few pairs.
std::optional<SprtSpec> read_sprt(const Options& opt) {
  std::vector<std::vector<std::string>> lists = opt.lists("sprt");
  if (lists.empty()) return std::nullopt;
  Options keys =
      read_keys("--sprt", lists.back(),
                {{"elo0", "E", ""}, {"elo1", "E", ""}, {"alpha", "A", ""}, {"beta", "B", ""}, {"model", "M", ""}});
  SprtSpec s;
  const std::string model = keys.get("model", elo_model_name(s.model));
  if (model != "normalized" && model != "logistic")
    throw UsageError("--sprt model= takes normalized or logistic, not " + chess::quoted(model));
  s.model = model == "logistic" ? EloModel::LOGISTIC : EloModel::NORMALIZED;
  const double most = s.model == EloModel::LOGISTIC ? 2000 : 200;
  s.elo0 = keys.get_double("elo0", s.elo0, -most, most), s.elo1 = keys.get_double("elo1", s.elo1, -most, most);
  s.alpha = keys.get_double("alpha", s.alpha, 1e-9, 0.5), s.beta = keys.get_double("beta", s.beta, 1e-9, 0.5);
  if (s.elo0 >= s.elo1) throw UsageError("--sprt needs elo0 below elo1");
  return s;
}

// Where games start: a book, walked in order or shuffled, and random plies after it.
std::vector<OptionSpec> opening_options() {
  return {
      {"book", "FILE", "openings: an EPD or PGN book; each line played twice, colours swapped"},
      {"book-order", "sequential|random", "walk the book in order or in a seeded random order (default: sequential)"},
      {"book-start", "N", "start at the book's line N, the first 1 (default: 1)"},
      {"book-plies", "N", "play at most N plies of each PGN line (default: all)"},
      {"random-plies", "N", "random legal plies after the book line (default: 0)"},
      {"variant", "standard|chess960|dfrc",
       "chess960, dfrc: each game pair starts from a start position drawn from (seed, pair) (default: standard)"}};
}

void read_openings(const Options& opt, SelfplayRequest& req) {
  req.book = opt.get("book", "");
  std::string order = opt.get("book-order", "sequential");
  if (order != "sequential" && order != "random")
    throw UsageError("--book-order must be sequential or random, not " + chess::quoted(order));
  req.book_order = order == "random" ? BookOrder::RANDOM : BookOrder::SEQUENTIAL;
  req.random_plies = opt.get_int("random-plies", 0, 0, 200);
  req.book_start = opt.get_int("book-start", 1, 1, 2000000000);
  req.book_plies = opt.get_int("book-plies", -1, 0, 10000);
  if ((opt.has("book-start") || opt.has("book-plies")) && req.book.empty())
    throw UsageError(std::string(opt.has("book-start") ? "--book-start" : "--book-plies") + " needs --book FILE");
  std::string variant = opt.get("variant", "standard");
  std::optional<Variant> v = variant_from_name(variant);
  if (!v) throw UsageError("--variant must be standard, chess960 or dfrc, not '" + variant + "'");
  req.variant = *v;
  // A book's positions are standard chess's and a variant's start is drawn: one start per
  // game pair, so the two cannot both decide it.
  if (req.variant != Variant::STANDARD && !req.book.empty())
    throw UsageError("--book cannot be combined with --variant " + variant +
                     ": the variant draws each game pair's start position (add --random-plies for variety)");
}

// When the scores end a game early: resign and draw adjudication, and a ply limit.
std::vector<OptionSpec> adjudication_options() {
  return {{"resign-score", "CP", "adjudicate a loss when a side's score stays at or below -CP (default: off)"},
          {"resign-moves", "N", "...for N consecutive moves (default: 3)"},
          {"resign-one-sided", "", "...without the winner's score agreeing (default: both sides agree)"},
          {"draw-score", "CP", "adjudicate a draw when both scores stay within CP (default: off)"},
          {"draw-moves", "N", "...for N consecutive moves of each side (default: 8)"},
          {"draw-after", "MOVE", "...from move MOVE on (default: 40)"},
          {"max-plies", "N", "adjudicate a draw at N plies (default: off)"},
          {"adjudicate-as", "chesshpc|fastchess",
           "whose rules these follow: fastchess resigns a side right after its move, counts a draw's plies from the "
           "start and breaks them at a capture or pawn move, and asks --draw-after when it adjudicates; fastchess "
           "command lines choose fastchess (default: chesshpc)"}};
}

Adjudication read_adjudication(const Options& opt) {
  Adjudication a;
  a.resign_score = opt.get_int("resign-score", 0, 1, 100000);
  a.resign_moves = opt.get_int("resign-moves", a.resign_moves, 1, 1000);
  a.resign_two_sided = !opt.has("resign-one-sided");
  a.draw_score = opt.get_int("draw-score", 0, 1, 100000);
  a.draw_moves = opt.get_int("draw-moves", a.draw_moves, 1, 1000);
  a.draw_after_move = opt.get_int("draw-after", a.draw_after_move, 1, 10000);
  a.max_plies = opt.get_int("max-plies", 0, 1, 100000);
  const std::string rules = opt.get("adjudicate-as", "chesshpc");
  if (rules != "chesshpc" && rules != "fastchess")
    throw UsageError("--adjudicate-as takes chesshpc or fastchess, not " + chess::quoted(rules));
  a.rules = rules == "fastchess" ? AdjudicationRules::FASTCHESS : AdjudicationRules::CHESSHPC;
  return a;
}

}  // namespace

PlayerSpec read_engine(const Options& opt, const std::vector<std::string>& items) {
  std::vector<std::string> rest;
  std::vector<std::pair<std::string, std::string>> options;
  for (const std::string& item : items) {
    size_t eq = item.find('=');
    if (item.rfind("option.", 0) == 0 && eq != std::string::npos && eq > 7)
      options.push_back({item.substr(7, eq - 7), item.substr(eq + 1)});
    else
      rest.push_back(item);
  }
  Options keys = read_keys("--engine", rest, ENGINE_KEYS);
  if (!keys.has("cmd")) throw UsageError("--engine needs cmd=chesshpc or cmd=COMMAND");
  if (keys.get("proto", "uci") != "uci")
    throw UsageError("--engine proto= takes uci, not " + chess::quoted(*keys.get("proto")));
  if (keys.get("restart", "off") != "off")
    throw UsageError("--engine restart= takes off (an engine restarts only after a game it failed), not " +
                     chess::quoted(*keys.get("restart")));
  PlayerSpec p = read_player_command(opt, *keys.get("cmd"), "--engine cmd=", true);
  if (auto dir = keys.get("dir")) {
    // The engine runs there, and a relative cmd= is found from there, as fastchess does.
    if (p.command.empty()) throw UsageError("--engine dir= is for an engine's command, not chesshpc");
    std::error_code ec;
    if (!std::filesystem::is_directory(*dir, ec))
      throw UsageError("--engine dir= " + chess::quoted(*dir) + " is not a directory");
    p.dir = *dir;
  }
  if (auto args = keys.get("args")) {
    if (p.command.empty()) throw UsageError("--engine args= is for an engine's command, not chesshpc");
    // Words of the command line, as split_command_line splits it (quotes keep spaces).
    if (!args->empty()) p.command += " " + *args;
  }
  if (p.command.empty() && !options.empty())
    throw UsageError("--engine option." + options.front().first + " is for uci: engines, not chesshpc");
  // A later value of an option replaces the earlier one. (No structured binding: clang
  // before 16 cannot capture one in the lambda.)
  for (const auto& option : options) {
    auto same =
        std::find_if(p.options.begin(), p.options.end(), [&](const auto& o) { return o.first == option.first; });
    if (same != p.options.end())
      same->second = option.second;
    else
      p.options.push_back(option);
  }
  p.name = keys.get("name", "");
  const int given = read_move_limits(keys, p.limits, p.clock) + keys.has("plies") + keys.has("st");
  if (keys.has("plies")) p.limits.depth = keys.get_int("plies", 0, 1, 100);
  if (keys.has("st")) p.limits.movetime_ms = read_seconds_per_move(keys);
  // A clock may have a node or a depth limit beside it (fastchess sends both); a fixed
  // time per move replaces a clock.
  const int per_move = given - keys.has("tc");
  if (per_move > 1 || (keys.has("tc") && (keys.has("movetime") || keys.has("st"))))
    throw UsageError(
        "--engine takes one of nodes=, depth= (plies=), movetime= and st=, and tc= beside nodes= or depth= (each "
        "side has one limit per move, and a clock)");
  if (keys.has("timemargin")) {
    if (!keys.has("tc")) throw UsageError("--engine timemargin= goes with tc= (the time a flag may run below zero)");
    p.clock.margin_ms = keys.get_int("timemargin", 0, 0, 86400000);
  }
  p.own_limits = given > 0;
  return p;
}

const CommandOptions SELFPLAY_OPTIONS = command_options(
    "selfplay",
    {
        {"games", "N", "games to play, 1 to 10000000 (required)"},
        {"seed", "S", "the batch's seed: game i's opening and randomness derive from (S, i) (default: 1)"},
        move_limit_options(),
        player_options(),
        opening_options(),
        ruleset_options("the games"),
        adjudication_options(),
        OptionSpec{
            "sprt", "elo0=E0 elo1=E1 alpha=A beta=B model=normalized|logistic",
            "stop once fishtest's SPRT over game pairs decides H0 (elo0) or H1 (elo1) for the first player; the file "
            "keeps the pairs up to the decision (defaults: 0 5 0.05 0.05 normalized; normalized Elo within +-200, "
            "logistic within +-2000)",
            true},
        {"temperature", "T", "chesshpc: sample moves by softmax over root scores at temperature T (pawns)"},
        {"sample-plies", "N", "...in the first N plies of the game (default: 0, no sampling)"},
        hash_option("chesshpc: transposition table per search, cleared every game; a bare number is MB; the table "
                    "is the largest power of two that fits (default: 2M)"),
        {"games-per-unit", "N", "games in one unit of the task farm (default: 2)"},
        threads_option("games played at once by each rank"),
        out_option("write games, positions and draw statistics to HDF5"),
        {"pgn-out", "FILE", "write the games as PGN to FILE too (as chesshpc export --format pgn writes them)"},
        {"pgn-append", "", "...after the games FILE holds, if it exists (fastchess's -pgnout append=true)"},
        resume_option("continue the batch recorded in FILE.h5.parts"),
        force_option(),
        with_out_option("dedup", "", "write each position once (the first in game order)"),
        checkpoint_option("save finished games this often (default: 5, longer if saving took over 2%)"),
        reporting_options("print the summary as one JSON object"),
    },
    "usage: chesshpc selfplay --games N (--nodes N | --depth D | --movetime MS | --tc BASE+INC) "
    "[--seed S] [--out FILE.h5] [options]\n"
    "       chesshpc selfplay -engine cmd=ENGINE name=A -engine cmd=ENGINE name=B -each nodes=1000 -rounds N -repeat "
    "[-openings file=BOOK] [-pgnout file=F] [-sprt ...]\n"
    "         (fastchess's and cutechess-cli's options, as they write them; docs/selfplay.md lists them)\n");

SelfplayRequest selfplay_request(const Options& opt, const std::string& command_line) {
  SelfplayRequest req;
  if (!opt.has("games")) throw UsageError("selfplay needs --games N");
  req.games = opt.get_u64("games", 0);
  if (req.games == 0) throw UsageError("--games must be 1 or more");
  if (req.games > MAX_GAMES)
    throw UsageError("--games must be at most " + std::to_string(MAX_GAMES) +
                     " (rank 0 keeps every game of a batch in memory); play more as several batches with other --seed");
  req.seed = opt.get_u64("seed", 1);
  const int limits_given = read_move_limits(opt, req.limits, req.clock);
  if (limits_given > 1) throw UsageError("selfplay needs one of --nodes, --depth, --movetime or --tc");
  read_players(opt, req, limits_given);
  req.variation = opt.get_double("variation", DEFAULT_VARIATION, 0, 0.5);
  req.engine_timeout = opt.get_double("timeout", UCI_HANDSHAKE_SECONDS, 0.01, 86400);
  req.sprt = read_sprt(opt);
  read_openings(opt, req);
  read_ruleset_choice(opt, req);
  req.adjudication = read_adjudication(opt);
  req.temperature = opt.get_double("temperature", 0, 0, 100);
  req.sample_plies = opt.get_int("sample-plies", 0, 0, 1000);
  // What each search's table allocates (a power of two), as the games' settings record it.
  req.hash_bytes = chess::SearchTT::size_for(read_hash_size(opt, req.hash_bytes, "16M or 1G"));
  req.games_per_unit = opt.get_int("games-per-unit", 0, 1, 1000000);
  req.threads = read_threads(opt);
  read_result_file(opt, req, {"dedup"});
  if (auto pgn = opt.get("pgn-out")) {
    std::error_code ec;
    if (!opt.has("pgn-append") || !std::filesystem::exists(*pgn, ec))
      check_output_path("pgn-out", *pgn, opt);
    else if (!std::filesystem::is_regular_file(*pgn, ec))
      throw UsageError("--pgn-append continues a PGN file, and " + chess::quoted(*pgn) + " is not a regular file");
    req.pgn_out = *pgn;
  } else if (opt.has("pgn-append")) {
    throw UsageError("--pgn-append goes with --pgn-out FILE");
  }
  req.dedup = opt.has("dedup");
  read_reporting(opt, req);
  req.command_line = command_line;
  return req;
}

}  // namespace chesshpc
