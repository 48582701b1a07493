// The option layer without a process: the parser, the shared groups, and each job's
// request builder, with the exact values and messages a user meets.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/threads.h"
#include "core/zobrist.h"
#include "jobs/bench/options.h"
#include "jobs/dataset/options.h"
#include "jobs/export/options.h"
#include "jobs/io/byte_size.h"
#include "jobs/io/options.h"
#include "jobs/io/publish.h"
#include "jobs/perft/options.h"
#include "jobs/rescore/options.h"
#include "jobs/rules/options.h"
#include "jobs/selfplay/options.h"

namespace chesshpc {
namespace {

using Args = std::vector<std::string>;

// "--a 1 --b" as {"--a", "1", "--b"}, for arguments without spaces.
Args words(const std::string& text) {
  Args out;
  std::istringstream in(text);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// The message of the Error f throws; "" when it throws none.
template <class Error, class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

template <class F>
std::string usage_error(F f) {
  return error_of<UsageError>(f);
}

const std::vector<OptionSpec> TABLE = {
    {"depth", "D", "plies"}, {"quiet", "", "no progress"}, {"rate", "X", "a number"}, {"games", "N", "many"}};

Options parse(const Args& args, size_t max_positional = 0) { return Options("test", args, TABLE, max_positional); }

std::string parse_error(const Args& args, size_t max_positional = 0) {
  return usage_error([&] { parse(args, max_positional); });
}

std::vector<std::string> names(const std::vector<OptionSpec>& table) {
  std::vector<std::string> out;
  for (const OptionSpec& s : table) out.push_back(s.name);
  return out;
}

// --- The parser ---

TEST(OptionParser, UnknownOptionIsNamedWithTheCommand) {
  // The closest option is offered when one is a typo away (a swap of two letters is one).
  EXPECT_EQ(parse_error({"--dpeth", "3"}), "unknown option --dpeth for 'test' (did you mean --depth?)");
  EXPECT_EQ(parse_error({"--dpeth=3"}), "unknown option --dpeth for 'test' (did you mean --depth?)");
}

TEST(OptionParser, MissingValueNamesTheValue) {
  EXPECT_EQ(parse_error({"--quiet", "--depth"}), "--depth needs a value (D)");
}

TEST(OptionParser, ValueAfterSpaceOrEquals) {
  Options opt = parse({"--depth", "7", "--rate=0.5"});
  EXPECT_EQ(opt.get("depth"), "7");
  EXPECT_EQ(opt.get("rate"), "0.5");
  EXPECT_FALSE(opt.has("quiet"));
  EXPECT_EQ(opt.get("quiet"), std::nullopt);
  EXPECT_EQ(opt.get("quiet", "none"), "none");
  // An empty value is given all the same; the next argument is a value whatever it looks like.
  EXPECT_EQ(parse({"--depth="}).get("depth"), "");
  EXPECT_EQ(parse({"--depth", "--quiet"}).get("depth"), "--quiet");
  EXPECT_EQ(parse({"--depth", "1", "--depth", "2"}).get("depth"), "2");
}

// A list option (selfplay's --engine): every argument up to the next option, each
// occurrence kept; "--engine=a b" starts its list after the equals sign.
TEST(OptionParser, ListOptionTakesArgumentsUpToTheNextOptionEachTime) {
  const std::vector<OptionSpec> table = {{"engine", "K=V...", "a player", true}, {"quiet", "", "no progress"}};
  Options opt("test", {"--engine", "name=A", "nodes=5", "--quiet", "--engine=cmd=x", "y"}, table);
  EXPECT_EQ(opt.lists("engine"), (std::vector<std::vector<std::string>>{{"name=A", "nodes=5"}, {"cmd=x", "y"}}));
  EXPECT_EQ(opt.get("engine"), "cmd=x y");
  EXPECT_TRUE(opt.has("quiet"));
  EXPECT_TRUE(opt.lists("quiet").empty());
  EXPECT_EQ(usage_error([&] { Options("test", {"--engine", "--quiet"}, table); }), "--engine needs a value (K=V...)");
}

TEST(OptionParser, FlagRefusesAValue) {
  EXPECT_TRUE(parse({"--quiet"}).has("quiet"));
  EXPECT_EQ(parse({"--quiet"}).get("quiet"), "");
  EXPECT_EQ(parse_error({"--quiet=1"}), "--quiet takes no value");
}

TEST(OptionParser, GetIntWithinItsRange) {
  EXPECT_EQ(parse({}).get_int("depth", -1, 1, 20), -1);  // the fallback need not be in range
  EXPECT_EQ(parse({"--depth", "1"}).get_int("depth", 0, 1, 20), 1);
  EXPECT_EQ(parse({"--depth", "20"}).get_int("depth", 0, 1, 20), 20);
  for (const char* bad : {"0", "21", "x", "3x", "", "+3", " 3", "2.0", "99999999999"})
    EXPECT_EQ(usage_error([&] {
                parse({"--depth", bad}).get_int("depth", 0, 1, 20);
              }),
              std::string("--depth must be a whole number from 1 to 20, not '") + bad + "'");
}

TEST(OptionParser, GetU64TakesEveryUnsigned64BitNumber) {
  EXPECT_EQ(parse({}).get_u64("games", 9), 9u);
  EXPECT_EQ(parse({"--games", "0"}).get_u64("games", 9), 0u);
  EXPECT_EQ(parse({"--games", "18446744073709551615"}).get_u64("games", 0), UINT64_MAX);
  for (const char* bad : {"-1", "18446744073709551616", "1e3", "x"})
    EXPECT_EQ(usage_error([&] {
                parse({"--games", bad}).get_u64("games", 0);
              }),
              std::string("--games must be a whole number from 0 to 2^64 - 1, not '") + bad + "'");
}

TEST(OptionParser, GetDoubleWithinItsRange) {
  EXPECT_EQ(parse({}).get_double("rate", 0, 0.01, 86400), 0);
  EXPECT_EQ(parse({"--rate", "0.01"}).get_double("rate", 0, 0.01, 86400), 0.01);
  EXPECT_EQ(parse({"--rate", "1e3"}).get_double("rate", 0, 0.01, 86400), 1000);
  EXPECT_EQ(parse({"--rate", "86400"}).get_double("rate", 0, 0.01, 86400), 86400);
  for (const char* bad : {"0", "0.001", "86401", "nan", "inf", "x", "1s"})
    EXPECT_EQ(usage_error([&] {
                parse({"--rate", bad}).get_double("rate", 0, 0.01, 86400);
              }),
              std::string("--rate must be a number from 0.01 to 86400, not '") + bad + "'");
}

TEST(OptionParser, PositionalArgumentsUpToTheLimit) {
  EXPECT_EQ(parse_error({"file"}), "unexpected argument 'file' for 'test'");
  Options one = parse({"--quiet", "a.pgn", "--depth", "2"}, 1);
  EXPECT_EQ(one.positional(), Args{"a.pgn"});
  EXPECT_EQ(parse_error({"a.pgn", "b.pgn"}, 1), "unexpected argument 'b.pgn' for 'test'");
  // Only "--name" is an option: "--" and "-x" are arguments.
  EXPECT_EQ(parse({"--"}, 1).positional(), Args{"--"});
  EXPECT_EQ(parse({"-x"}, 1).positional(), Args{"-x"});
}

TEST(OptionParser, HelpTextAlignsHelpAtColumn24) {
  EXPECT_EQ(Options::help_text({{"depth", "D", "plies"}, {"q", "", "quiet"}}),
            "  --depth D             plies\n"
            "  --q                   quiet\n");
  // A name too long for the column pushes its help two spaces further.
  EXPECT_EQ(Options::help_text({{"book-order", "sequential|random", "walk"}, {"twenty-two-characters", "", "x"}}),
            "  --book-order sequential|random  walk\n"
            "  --twenty-two-characters  x\n");
}

// --- Tables and shared groups ---

TEST(OptionGroups, CommandOptionsListsRowsThenHelp) {
  CommandOptions c = command_options("cmd", {{"a", "", "A"}, reporting_options("J")}, "usage: cmd\n", 1);
  EXPECT_EQ(c.command, "cmd");
  EXPECT_EQ(c.max_positional, 1u);
  EXPECT_EQ(names(c.table), (Args{"a", "json", "quiet", "progress", "help"}));
  EXPECT_EQ(c.help, "usage: cmd\n" + Options::help_text(c.table));
  EXPECT_EQ(c.table.back().help, "show this help");
  EXPECT_EQ(c.parse({"x", "--a"}).positional(), Args{"x"});
  EXPECT_EQ(usage_error([&] { c.parse({"--b"}); }), "unknown option --b for 'cmd'");
}

TEST(OptionGroups, ReportingReadsJsonQuietAndProgress) {
  CommandOptions c = command_options("cmd", {reporting_options("print JSON")}, "");
  EXPECT_EQ(Options::help_text(c.table),
            "  --json                print JSON\n"
            "  --quiet               no progress on stderr\n"
            "  --progress SECONDS    seconds between progress reports (default: 1 on a terminal, 10 otherwise)\n"
            "  --help                show this help\n");
  Reporting none;
  read_reporting(c.parse({}), none);
  EXPECT_FALSE(none.json);
  EXPECT_FALSE(none.quiet);
  EXPECT_EQ(none.progress_interval, 0);
  Reporting all;
  read_reporting(c.parse({"--json", "--quiet", "--progress", "2.5"}), all);
  EXPECT_TRUE(all.json);
  EXPECT_TRUE(all.quiet);
  EXPECT_EQ(all.progress_interval, 2.5);
  EXPECT_TRUE(read_json(c.parse({"--json"})));
  EXPECT_EQ(usage_error([&] {
              read_reporting(c.parse({"--progress", "0"}), all);
            }),
            "--progress must be a number from 0.01 to 86400, not '0'");
}

TEST(OptionGroups, ThreadsDefaultToEveryCore) {
  OptionSpec tbb = threads_option();
  EXPECT_EQ(tbb.name, "threads");
  EXPECT_EQ(tbb.value_name, "N");
  EXPECT_EQ(tbb.help, "TBB threads (default, and the most that run: every core this process may use)");
  EXPECT_EQ(threads_option("games at once", "T").help,
            "games at once (default, and the most that run: every core this process may use)");
  CommandOptions c = command_options("cmd", {tbb}, "");
  EXPECT_EQ(read_threads(c.parse({})), 0);
  EXPECT_EQ(read_threads(c.parse({"--threads", "1"})), 1);
  EXPECT_EQ(usage_error([&] {
              read_threads(c.parse({"--threads", "0"}));
            }),
            "--threads must be a whole number from 1 to 4096, not '0'");
}

TEST(OptionGroups, HashTakesASize) {
  CommandOptions c = command_options("cmd", {hash_option("table")}, "");
  EXPECT_EQ(c.table[0].value_name, "SIZE");
  EXPECT_EQ(read_hash_size(c.parse({}), 123, "1M"), 123u);
  EXPECT_EQ(read_hash_size(c.parse({"--hash", "512M"}), 0, "1M"), size_t(512) << 20);
  EXPECT_EQ(read_hash_size(c.parse({"--hash=64"}), 0, "1M"), size_t(64) << 20);
  for (const char* bad : {"0", "12Q", "", "-1M"})
    EXPECT_EQ(usage_error([&] {
                read_hash_size(c.parse({"--hash", bad}), 0, "16M or 1G");
              }),
              std::string("--hash takes a size like 16M or 1G (a bare number is MB), not '") + bad + "'");
}

TEST(OptionGroups, ResultFileNeedsOutForResumeAndCheckpoint) {
  EXPECT_EQ(resume_option("continue").help, "with --out: continue");
  EXPECT_EQ(checkpoint_option("save").value_name, "SECONDS");
  EXPECT_EQ(out_option("file").value_name, "FILE.h5");
  CommandOptions c = command_options(
      "cmd", {out_option("file"), resume_option("r"), checkpoint_option("c"), with_out_option("dedup", "", "d")}, "");
  ResultFile none;
  read_result_file(c.parse({}), none);
  EXPECT_EQ(none.out, "");
  EXPECT_FALSE(none.resume);
  EXPECT_EQ(none.checkpoint_interval, 0);
  EXPECT_EQ(read_out(c.parse({}), "bench.h5"), "bench.h5");

  ResultFile all;
  read_result_file(c.parse({"--out", "f.h5", "--resume", "--checkpoint", "30"}), all);
  EXPECT_EQ(all.out, "f.h5");
  EXPECT_TRUE(all.resume);
  EXPECT_EQ(all.checkpoint_interval, 30);

  auto error = [&](const Args& args, std::initializer_list<std::string_view> also) {
    return usage_error([&] {
      ResultFile r;
      read_result_file(c.parse(args), r, also);
    });
  };
  EXPECT_EQ(error({"--resume"}, {}), "--resume and --checkpoint go with --out FILE.h5");
  EXPECT_EQ(error({"--checkpoint", "5"}, {}), "--resume and --checkpoint go with --out FILE.h5");
  EXPECT_EQ(error({"--out=", "--resume"}, {}), "--resume and --checkpoint go with --out FILE.h5");
  EXPECT_EQ(error({"--dedup"}, {}), "");  // not named: not checked
  EXPECT_EQ(error({"--dedup"}, {"dedup"}), "--resume, --dedup and --checkpoint go with --out FILE.h5");
  EXPECT_EQ(error({"--out", "f.h5", "--checkpoint", "0"}, {}),
            "--checkpoint must be a number from 0.01 to 86400, not '0'");
}

TEST(OptionGroups, RulesetAndClaim) {
  CommandOptions c = command_options("cmd", {ruleset_options("the games")}, "");
  EXPECT_EQ(names(c.table), (Args{"ruleset", "claim", "help"}));
  EXPECT_EQ(c.table[0].help, "rules that end the games (default: fide)");
  RulesetChoice fide;
  read_ruleset_choice(c.parse({}), fide);
  EXPECT_EQ(fide.ruleset, chess::Ruleset::FIDE);
  EXPECT_EQ(fide.claims, chess::ClaimPolicy::FIRST);
  RulesetChoice site;
  read_ruleset_choice(c.parse({"--ruleset", "site", "--claim", "never"}), site);
  EXPECT_EQ(site.ruleset, chess::Ruleset::SITE);
  EXPECT_EQ(site.claims, chess::ClaimPolicy::NEVER);
  EXPECT_EQ(usage_error([&] {
              read_ruleset_choice(c.parse({"--ruleset", "uscf"}), site);
            }),
            "--ruleset must be fide or site, not 'uscf'");
  EXPECT_EQ(usage_error([&] { read_ruleset_choice(c.parse({"--claim="}), site); }),
            "--claim must be first or never, not ''");
}

// --- perft ---

PerftRequest perft(const Args& args) { return perft_request(PERFT_OPTIONS.parse(args), "chesshpc perft test"); }
std::string perft_error(const Args& args) {
  return usage_error([&] { perft(args); });
}

TEST(PerftOptions, OnePositionDefaults) {
  PerftRequest r = perft({"--depth", "5"});
  EXPECT_EQ(r.fen, "startpos");
  EXPECT_EQ(r.depth, 5);
  EXPECT_EQ(r.threads, 0);
  EXPECT_FALSE(r.divide || r.detailed || r.json || r.quiet || r.verify_keys || r.resume);
  EXPECT_EQ(r.progress_interval, 0);
  EXPECT_EQ(r.hash_bytes, 0u);
  EXPECT_EQ(r.split_depth, 0);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.checkpoint_interval, 0);
  EXPECT_EQ(r.epd, "");
  EXPECT_EQ(r.max_depth, INT_MAX);
  EXPECT_EQ(r.command_line, "chesshpc perft test");
  EXPECT_FALSE(checks_epd_suite(PERFT_OPTIONS.parse({"--depth", "5"})));
}

TEST(PerftOptions, EveryOptionOfOnePosition) {
  PerftRequest r = perft({"--fen", "8/8/8/8/8/8/8/K1k5 w - - 0 1", "--depth=3", "--threads", "1", "--divide",
                          "--detailed", "--json", "--quiet", "--progress", "2"});
  EXPECT_EQ(r.fen, "8/8/8/8/8/8/8/K1k5 w - - 0 1");
  EXPECT_EQ(r.depth, 3);
  EXPECT_EQ(r.threads, 1);
  EXPECT_TRUE(r.divide && r.detailed && r.json && r.quiet);
  EXPECT_EQ(perft({"--depth", "3", "--hash", "1M"}).hash_bytes, size_t(1) << 20);
  EXPECT_EQ(r.progress_interval, 2);
}

TEST(PerftOptions, VerifyKeysIsLeftToTheCaller) {
  PerftRequest r = perft({"--depth", "2", "--verify-keys"});
  EXPECT_TRUE(r.verify_keys);
  EXPECT_EQ(chess::zobrist::seed(), chess::zobrist::DEFAULT_SEED);
}

TEST(PerftOptions, UnitsAndTheirFile) {
  PerftRequest r =
      perft({"--depth", "6", "--split-depth", "2", "--out", "p.h5", "--resume", "--checkpoint", "30", "--quiet"});
  EXPECT_EQ(r.split_depth, 2);
  EXPECT_EQ(r.out, "p.h5");
  EXPECT_TRUE(r.resume);
  EXPECT_EQ(r.checkpoint_interval, 30);
  // --out without --split-depth is the caller's to refuse: under mpirun it is a farm run.
  EXPECT_EQ(perft({"--depth", "6", "--out", "p.h5"}).out, "p.h5");
}

TEST(PerftOptions, EpdSuite) {
  Options opt = PERFT_OPTIONS.parse({"--epd", "s.epd", "--max-depth", "3", "--json"});
  EXPECT_TRUE(checks_epd_suite(opt));
  PerftRequest r = perft_request(opt, "");
  EXPECT_EQ(r.epd, "s.epd");
  EXPECT_EQ(r.max_depth, 3);
  EXPECT_EQ(r.depth, -1);
  EXPECT_TRUE(r.json);
  EXPECT_EQ(perft({"--epd", "s.epd"}).max_depth, INT_MAX);
  // An empty path is still a suite to check (and an unreadable file, exit 4).
  EXPECT_TRUE(checks_epd_suite(PERFT_OPTIONS.parse({"--epd="})));
}

// --moves is split at white space; --upto D is depth D with every depth below it.
TEST(PerftOptions, MovesAndUpto) {
  PerftRequest r = perft({"--moves", " e2e4  e7e5\tg1f3 ", "--upto", "3"});
  EXPECT_EQ(r.moves, (std::vector<std::string>{"e2e4", "e7e5", "g1f3"}));
  EXPECT_TRUE(r.upto);
  EXPECT_EQ(r.depth, 3);
  PerftRequest plain = perft({"--depth", "2"});
  EXPECT_TRUE(plain.moves.empty());
  EXPECT_FALSE(plain.upto);
}

TEST(PerftOptions, UsageErrors) {
  EXPECT_EQ(perft_error({}), "perft needs --depth D (or --upto D, or --epd FILE)");
  EXPECT_EQ(perft_error({"--moves", "e2e4"}), "perft needs --depth D (or --upto D, or --epd FILE)");
  EXPECT_EQ(perft_error({"--upto", "3", "--depth", "3"}), "--upto D counts every depth to D; drop --depth");
  EXPECT_EQ(perft_error({"--upto", "0"}), "--upto must be a whole number from 1 to 20, not '0'");
  EXPECT_EQ(perft_error({"--depth", "21"}), "--depth must be a whole number from 1 to 20, not '21'");
  for (const char* option : {"--fen", "--moves", "--depth", "--upto"})
    EXPECT_EQ(perft_error({"--epd", "s.epd", option, "2"}),
              "--epd checks a suite; it takes no --fen, --moves, --depth or --upto")
        << option;
  EXPECT_EQ(perft_error({"--epd", "s.epd", "--detailed"}), "--epd takes no --divide or --detailed");
  EXPECT_EQ(perft_error({"--epd", "s.epd", "--max-depth", "21"}),
            "--max-depth must be a whole number from 1 to 20, not '21'");
  EXPECT_EQ(perft_error({"--depth", "2", "--max-depth", "2"}), "--max-depth goes with --epd");
  EXPECT_EQ(perft_error({"--depth", "2", "--resume"}), "--resume and --checkpoint go with --out FILE.h5");
  EXPECT_EQ(perft_error({"--depth", "2", "--split-depth", "1", "--checkpoint", "5"}),
            "--resume and --checkpoint go with --out FILE.h5");
  EXPECT_EQ(perft_error({"--depth", "2", "--split-depth", "1", "--detailed"}),
            "--detailed runs in one process; drop --split-depth");
  EXPECT_EQ(perft_error({"--depth", "2", "--split-depth", "20"}),
            "--split-depth must be a whole number from 1 to 19, not '20'");
  EXPECT_EQ(perft_error({"--depth", "2", "--hash", "8X"}),
            "--hash takes a size like 512M or 8G (a bare number is MB), not '8X'");
  // The first error in reading order wins: the threads before the depth.
  EXPECT_EQ(perft_error({"--threads", "0"}), "--threads must be a whole number from 1 to 4096, not '0'");
}

TEST(PerftOptions, HelpStartsWithBothUsagesAndEndsWithHelp) {
  const std::string& help = PERFT_OPTIONS.help;
  EXPECT_EQ(help.rfind("usage: chesshpc perft [--fen FEN] --depth D [options]\n"
                       "       chesshpc perft --epd FILE [--max-depth D] [--out FILE.h5 [--force]] [options]\n"
                       "  --fen FEN             position to count from (default: startpos)\n",
                       0),
            0u);
  EXPECT_NE(help.find("  --checkpoint SECONDS  with --out: rewrite the file with the units done so far this often "
                      "(default: 5, longer if writing took over 2%)\n"
                      "  --resume              with --out: continue the job recorded in FILE.h5, counting only the "
                      "units it lacks\n"),
            std::string::npos);
  const std::string last = "  --help                show this help\n";
  EXPECT_EQ(help.substr(help.size() - last.size()), last);
}

// --- rules and drawstats ---

TEST(RulesOptions, MovesRulesetAndJson) {
  RulesRequest r = rules_request(RULES_OPTIONS.parse({"--moves", "", "--ruleset", "site", "--json"}));
  EXPECT_EQ(r.fen, "startpos");
  EXPECT_EQ(r.moves, "");
  EXPECT_EQ(r.ruleset, chess::Ruleset::SITE);
  EXPECT_EQ(r.claims, chess::ClaimPolicy::FIRST);
  EXPECT_TRUE(r.json);
  EXPECT_EQ(usage_error([] {
              rules_request(RULES_OPTIONS.parse({"--fen", "startpos"}));
            }),
            "rules needs --moves \"...\" (possibly empty)");
  EXPECT_EQ(usage_error([] {
              RULES_OPTIONS.parse({"--moves", "e4", "--quiet"});
            }),
            "unknown option --quiet for 'rules'");
}

TEST(DrawstatsOptions, OnePgnAndTheGroups) {
  DrawstatsRequest r = drawstats_request(DRAWSTATS_OPTIONS.parse({"g.pgn", "--out", "d.h5", "--claim", "never",
                                                                  "--threads", "1", "--quiet", "--progress", "5"}),
                                         "cmd");
  EXPECT_EQ(r.pgn, "g.pgn");
  EXPECT_EQ(r.out, "d.h5");
  EXPECT_EQ(r.ruleset, chess::Ruleset::FIDE);
  EXPECT_EQ(r.claims, chess::ClaimPolicy::NEVER);
  EXPECT_EQ(r.threads, 1);
  EXPECT_FALSE(r.json);
  EXPECT_TRUE(r.quiet);
  EXPECT_EQ(r.progress_interval, 5);
  EXPECT_EQ(r.command_line, "cmd");
  EXPECT_EQ(usage_error([] { drawstats_request(DRAWSTATS_OPTIONS.parse({"--json"}), ""); }),
            "drawstats needs a PGN file");
  EXPECT_EQ(usage_error([] {
              DRAWSTATS_OPTIONS.parse({"a.pgn", "b.pgn"});
            }),
            "unexpected argument 'b.pgn' for 'drawstats'");
}

// --- selfplay and export ---

SelfplayRequest selfplay(const Args& args) { return selfplay_request(SELFPLAY_OPTIONS.parse(args), "cmd"); }
std::string selfplay_error(const Args& args) {
  return usage_error([&] { selfplay(args); });
}

// Resign score, moves and two-sidedness; draw score, moves and first move; max plies.
std::vector<int> adjudication_fields(const Adjudication& a) {
  return {a.resign_score, a.resign_moves,    a.resign_two_sided, a.draw_score,
          a.draw_moves,   a.draw_after_move, a.max_plies};
}

TEST(SelfplayOptions, Defaults) {
  SelfplayRequest r = selfplay({"--games", "4", "--nodes", "100"});
  EXPECT_EQ(r.games, 4u);
  EXPECT_EQ(r.seed, 1u);
  EXPECT_EQ(r.limits.nodes, 100);
  EXPECT_EQ(r.limits.depth, 0);
  EXPECT_EQ(r.limits.movetime_ms, 0);
  EXPECT_FALSE(r.clock.on());
  EXPECT_EQ(r.first.label(), "chesshpc");
  EXPECT_EQ(r.second.label(), "chesshpc");
  EXPECT_EQ(r.book, "");
  EXPECT_EQ(r.book_order, BookOrder::SEQUENTIAL);
  EXPECT_EQ(r.random_plies, 0);
  EXPECT_EQ(r.ruleset, chess::Ruleset::FIDE);
  EXPECT_EQ(adjudication_fields(r.adjudication), (std::vector<int>{0, 3, 1, 0, 8, 40, 0}));
  EXPECT_EQ(r.hash_bytes, size_t(2) << 20);
  EXPECT_EQ(r.games_per_unit, 0);
  EXPECT_EQ(r.threads, 0);
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(r.resume || r.dedup || r.json || r.quiet);
  EXPECT_EQ(r.command_line, "cmd");
}

// --engine twice: each side its name, command, limit and setoptions (after --uci-options),
// the batch's limit for a side without one; variation and --sprt with their defaults.
TEST(SelfplayOptions, EnginesPerSideAndSprt) {
  SelfplayRequest r = selfplay(
      words("--games 4 --nodes 100 --uci-options Threads=2,Hash=8 --engine name=A cmd=chesshpc depth=3 "
            "--engine name=B cmd=uci:/usr/games/stockfish option.Hash=16 option.Ponder=false --sprt elo1=10 beta=0.1"));
  EXPECT_EQ(r.first.name, "A");
  EXPECT_EQ(r.first.label(), "chesshpc");
  EXPECT_EQ(r.limits_of(r.first).depth, 3);
  EXPECT_EQ(r.limits_of(r.first).nodes, 0);
  EXPECT_EQ(r.second.name, "B");
  EXPECT_EQ(r.second.command, "/usr/games/stockfish");
  EXPECT_EQ(r.limits_of(r.second).nodes, 100);
  EXPECT_EQ(r.second.options,
            (std::vector<std::pair<std::string, std::string>>{{"Threads", "2"}, {"Hash", "16"}, {"Ponder", "false"}}));
  EXPECT_EQ(r.variation, DEFAULT_VARIATION);
  ASSERT_TRUE(r.sprt);
  EXPECT_EQ(r.sprt->text(), "elo0=0 elo1=10 alpha=0.05 beta=0.1 model=normalized");
  EXPECT_EQ(selfplay(words("--games 2 --nodes 5 --sprt model=logistic elo1=300")).sprt->text(),
            "elo0=0 elo1=300 alpha=0.05 beta=0.05 model=logistic");
  EXPECT_EQ(player_settings(r.first, r), "chesshpc depth=3 hash=2097152");
  EXPECT_EQ(player_settings(r.second, r),
            "uci:/usr/games/stockfish nodes=100 variation=0.25 Threads=2 Hash=16 Ponder=false");
  EXPECT_EQ(selfplay({"--games", "2", "--nodes", "5", "--variation", "0"}).variation, 0.0);
  EXPECT_FALSE(selfplay({"--games", "2", "--nodes", "5"}).sprt);
  EXPECT_EQ(usage_error([] {
              selfplay(
                  words("--games 2 --nodes 5 --white chesshpc --engine cmd=chesshpc "
                        "--engine cmd=chesshpc"));
            }),
            "--engine replaces --white and --black: give one or the other");
  EXPECT_EQ(
      usage_error([] { selfplay(words("--games 2 --engine cmd=chesshpc nodes=1 depth=2 --engine cmd=chesshpc")); }),
      "--engine takes one of nodes=, depth= (plies=), movetime= and st=, and tc= beside nodes= or depth= "
      "(each side has one limit per move, and a clock)");
  // A command without uci: is an engine, as fastchess's cmd= names it.
  EXPECT_EQ(selfplay(words("--games 2 --engine cmd=stockfish nodes=1 --engine cmd=chesshpc nodes=1")).first.command,
            "stockfish");
}

TEST(SelfplayOptions, EveryGroup) {
  SelfplayRequest r = selfplay(
      words("--games 10000000 --seed 0 --depth 5 --book b.epd --book-order random --random-plies 4 "
            "--ruleset site --claim never --resign-score 600 --resign-moves 2 --resign-one-sided --draw-score 10 "
            "--draw-moves 4 --draw-after 30 --max-plies 300 --temperature 0.5 --sample-plies 8 --hash 16M "
            "--games-per-unit 6 --threads 2 --out s.h5 --resume --dedup --checkpoint 10 --json --progress 3"));
  EXPECT_EQ(r.games, MAX_GAMES);
  EXPECT_EQ(r.seed, 0u);
  EXPECT_EQ(r.limits.depth, 5);
  EXPECT_EQ(r.book, "b.epd");
  EXPECT_EQ(r.book_order, BookOrder::RANDOM);
  EXPECT_EQ(r.random_plies, 4);
  EXPECT_EQ(r.ruleset, chess::Ruleset::SITE);
  EXPECT_EQ(r.claims, chess::ClaimPolicy::NEVER);
  EXPECT_EQ(adjudication_fields(r.adjudication), (std::vector<int>{600, 2, 0, 10, 4, 30, 300}));
  EXPECT_EQ(r.temperature, 0.5);
  EXPECT_EQ(r.sample_plies, 8);
  EXPECT_EQ(r.hash_bytes, size_t(16) << 20);
  EXPECT_EQ(r.games_per_unit, 6);
  EXPECT_EQ(r.threads, 2);
  EXPECT_EQ(r.out, "s.h5");
  EXPECT_TRUE(r.resume && r.dedup && r.json);
  EXPECT_EQ(r.checkpoint_interval, 10);
  EXPECT_EQ(r.progress_interval, 3);
}

TEST(SelfplayOptions, ExactlyOneLimitPerMove) {
  const std::string one = "selfplay needs one of --nodes, --depth, --movetime or --tc";
  EXPECT_EQ(selfplay_error({"--games", "2"}), one);
  EXPECT_EQ(selfplay_error({"--games", "2", "--nodes", "10", "--depth", "2"}), one);
  EXPECT_EQ(selfplay_error({"--games", "2", "--movetime", "5", "--tc", "1+0"}), one);
  EXPECT_EQ(selfplay({"--games", "2", "--movetime", "250"}).limits.movetime_ms, 250);
  EXPECT_EQ(selfplay_error({"--nodes", "10"}), "selfplay needs --games N");
  EXPECT_EQ(selfplay_error({"--games", "0", "--nodes", "10"}), "--games must be 1 or more");
}

// 2^31 games built a 16.8 GB list of units before playing any: --games has a cap.
TEST(SelfplayOptions, GamesAreCappedAtTenMillion) {
  EXPECT_EQ(MAX_GAMES, 10'000'000u);
  const std::string cap =
      "--games must be at most 10000000 (rank 0 keeps every game of a batch in memory); play more as several "
      "batches with other --seed";
  for (const char* n : {"10000001", "2147483648", "18446744073709551615"})
    EXPECT_EQ(selfplay_error({"--games", n, "--nodes", "10"}), cap) << n;
}

TEST(SelfplayOptions, ClockIsBasePlusIncrementInSeconds) {
  auto clock = [](const std::string& tc) { return selfplay({"--games", "2", "--tc", tc}).clock; };
  EXPECT_EQ(clock("10+0.1").base_ms, 10000);
  EXPECT_EQ(clock("10+0.1").increment_ms, 100);
  EXPECT_EQ(clock("0.5").base_ms, 500);
  EXPECT_EQ(clock("0.5").increment_ms, 0);
  EXPECT_EQ(clock("60+0").increment_ms, 0);
  EXPECT_EQ(clock("86400+86400").increment_ms, 86400000);
  EXPECT_EQ(clock("1.+.5").increment_ms, 500);
  // "1+" and the like were read as far as they went: each is refused whole.
  for (const char* bad : {"0+1",   "x",   "10s", "10-1", "10+-1", "+1",   "",  "1+",   "1+x",  "-1+0",  "1++1",
                          "1+1+1", "1e3", "inf", "nan",  " 1",    "1 +1", ".", "1..5", "0x10", "86401", "1+86400.5"})
    EXPECT_EQ(selfplay_error({"--games", "2", "--tc", bad}),
              std::string("--tc takes BASE+INC in seconds (BASE above 0, each at most 86400), e.g. 10+0.1, not '") +
                  bad + "'")
        << bad;
}

TEST(SelfplayOptions, PlayersAndTheirUciOptions) {
  SelfplayRequest r = selfplay({"--games", "2", "--nodes", "10", "--black", "uci:/usr/games/stockfish", "--uci-options",
                                "Threads=1,Hash=16,Skill Level="});
  EXPECT_EQ(r.first.label(), "chesshpc");
  EXPECT_EQ(r.second.command, "/usr/games/stockfish");
  using Pairs = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(r.second.options, (Pairs{{"Threads", "1"}, {"Hash", "16"}, {"Skill Level", ""}}));
  EXPECT_EQ(selfplay_error({"--games", "2", "--nodes", "10", "--white", "stockfish"}),
            "--white must be chesshpc or uci:COMMAND, not 'stockfish'");
  EXPECT_EQ(selfplay_error({"--games", "2", "--nodes", "10", "--black", "uci:"}),
            "--black must be chesshpc or uci:COMMAND, not 'uci:'");
  EXPECT_EQ(selfplay_error({"--games", "2", "--nodes", "10", "--white", "uci:sf", "--uci-options", "Hash=1,=2"}),
            "--uci-options takes NAME=VALUE,..., not '=2'");
}

TEST(SelfplayOptions, OtherUsageErrors) {
  Args base = {"--games", "2", "--nodes", "10"};
  auto error = [&](Args more) {
    more.insert(more.begin(), base.begin(), base.end());
    return selfplay_error(more);
  };
  EXPECT_EQ(error({"--book-order", "shuffled"}), "--book-order must be sequential or random, not 'shuffled'");
  EXPECT_EQ(error({"--dedup"}), "--resume, --dedup and --checkpoint go with --out FILE.h5");
  EXPECT_EQ(error({"--resume"}), "--resume, --dedup and --checkpoint go with --out FILE.h5");
  EXPECT_EQ(error({"--hash", "big"}), "--hash takes a size like 16M or 1G (a bare number is MB), not 'big'");
  EXPECT_EQ(error({"--claim", "always"}), "--claim must be first or never, not 'always'");
  EXPECT_EQ(error({"--temperature", "101"}), "--temperature must be a number from 0 to 100, not '101'");
}

ExportRequest export_req(const Args& args, bool terminal = false) {
  return export_request(EXPORT_OPTIONS.parse(args), terminal);
}
std::string export_error(const Args& args, bool terminal = false) {
  return usage_error([&] { export_req(args, terminal); });
}

// The format and the file; --pgn FILE.h5 as it was before --format; the filters.
TEST(ExportOptions, FormatFileAndFilters) {
  ExportRequest r = export_req({"--format", "bin", "s.h5", "--skip-plies", "8", "--skip-book", "--skip-in-check",
                                "--skip-capture", "--skip-mate", "--max-score", "3000", "--dedup"});
  EXPECT_EQ(r.paths, std::vector<std::string>{"s.h5"});
  EXPECT_EQ(r.format->name, "bin");
  // Several files, one output; --quiet and --progress as every long run has them.
  ExportRequest many = export_req({"--format", "epd", "a.h5", "b.h5", "c.h5", "--quiet", "--progress", "2"});
  EXPECT_EQ(many.paths, (std::vector<std::string>{"a.h5", "b.h5", "c.h5"}));
  EXPECT_TRUE(many.quiet);
  EXPECT_EQ(many.progress_interval, 2);
  EXPECT_EQ(export_req({"--pgn", "a.h5", "b.h5"}).paths, (std::vector<std::string>{"a.h5", "b.h5"}));
  EXPECT_EQ(r.out, "");
  const ExportFilters& f = r.filters;
  EXPECT_EQ(f.skip_plies, 8);
  EXPECT_TRUE(f.skip_book && f.skip_in_check && f.skip_capture && f.skip_mate && f.dedup);
  EXPECT_EQ(f.max_score, 3000);
  EXPECT_FALSE(export_req({"--format", "plain", "s.h5"}).filters.any());
  ExportRequest pgn = export_req({"--pgn", "s.h5"});
  EXPECT_EQ(pgn.paths, std::vector<std::string>{"s.h5"});
  EXPECT_EQ(pgn.format->name, "pgn");
  // Text formats go to a terminal; binary ones to a file or a pipe.
  EXPECT_EQ(export_req({"--format", "bullet-text", "s.h5"}, true).format->name, "bullet-text");
  EXPECT_EQ(export_req({"--format", "bullet", "s.h5"}, false).format->name, "bullet");
}

TEST(ExportOptions, BadUsageOneLineEach) {
  EXPECT_EQ(export_error({"s.h5"}), "export needs --format plain|bin|binpack|bullet|bullet-text|epd|pgn");
  EXPECT_EQ(export_error({"--format", "csv", "s.h5"}),
            "--format must be plain|bin|binpack|bullet|bullet-text|epd|pgn, not 'csv'");
  EXPECT_EQ(export_error({"--format", "bin"}), "export needs the selfplay file: chesshpc export --format bin FILE.h5");
  EXPECT_EQ(export_error({"--format", "pgn", "s.h5", "--skip-book"}),
            "the filters choose positions: --format pgn writes whole games");
  EXPECT_EQ(export_error({"--format", "bin", "s.h5"}, true),
            "--format bin writes binary records: give --out FILE or redirect standard output");
  EXPECT_EQ(export_error({"--format", "plain", "--pgn", "s.h5"}), "--pgn is --format pgn: give one format");
  EXPECT_EQ(export_error({"--format", "plain", "s.h5", "--max-score", "-1"}),
            "--max-score must be a whole number from 0 to 32000, not '-1'");
  // Several files are one export (FormatFileAndFilters): a second is no stray argument.
  EXPECT_EQ(usage_error([] { EXPORT_OPTIONS.parse({"a.h5", "b.h5"}); }), "");
}

// --- convert, shuffle, interleave, stats and rescore ---

// An HDF5 output named as gzip's or zstd's is refused before any work (exit 2): HDF5
// deflates its own chunks, and no gunzip would read the file. Flat formats are written
// compressed by the same names.
TEST(DatasetOptions, CompressedHdf5OutputIsRefused) {
  auto refused = [](const std::string& path, const std::string& ext) {
    return "'" + path + "' names an HDF5 file, which is not written as " + (ext == ".gz" ? "gzip" : "zstd") +
           " (HDF5 deflates its chunks inside): name it without " + ext;
  };
  const std::string dir = testing::TempDir();
  for (const std::string ext : {".gz", ".zst"}) {
    const std::string h5 = dir + "out.h5" + ext, other = dir + "out" + ext;
    EXPECT_EQ(usage_error([&] { convert_request(CONVERT_OPTIONS.parse({"a.bin", h5}), "", false); }), refused(h5, ext));
    EXPECT_EQ(usage_error([&] {
                convert_request(CONVERT_OPTIONS.parse({"a.bin", other, "--to", "h5"}), "", false);
              }),
              refused(other, ext));
    EXPECT_EQ(usage_error([&] { shuffle_request(SHUFFLE_OPTIONS.parse({"a.h5", h5}), "", false); }), refused(h5, ext));
    EXPECT_EQ(usage_error([&] {
                interleave_request(INTERLEAVE_OPTIONS.parse({"a.bin", "b.bin", "--out", h5}), "", false);
              }),
              refused(h5, ext));
    EXPECT_EQ(usage_error([&] { stats_request(STATS_OPTIONS.parse({"a.bin", "--out", h5}), ""); }), refused(h5, ext));
    // rescore writes selfplay's layout for a name of no format, so OUT.gz is HDF5 too.
    for (const std::string& out : {h5, other})
      EXPECT_EQ(usage_error([&] {
                  rescore_request(RESCORE_OPTIONS.parse({"a.bin", "--depth", "3", "--out", out}), "");
                }),
                refused(out, ext));
    // The flat formats by the same names are outputs like any other.
    const std::string plain = dir + "out.plain" + ext;
    EXPECT_EQ(convert_request(CONVERT_OPTIONS.parse({"a.bin", plain}), "", false).out.format->name, "plain");
    EXPECT_EQ(shuffle_request(SHUFFLE_OPTIONS.parse({"a.h5", plain}), "", false).out.format->name, "plain");
    EXPECT_EQ(rescore_request(RESCORE_OPTIONS.parse({"a.bin", "--depth", "3", "--out", plain}), "").out, plain);
  }
}

// --- bench ---

TEST(BenchOptions, KindFromThePositional) {
  EXPECT_EQ(bench_kind(BENCH_OPTIONS.parse({})), BenchKind::SUITE);
  EXPECT_EQ(bench_kind(BENCH_OPTIONS.parse({"suite", "--threads", "2"})), BenchKind::SUITE);
  // --hash's value is not taken for the kind.
  EXPECT_EQ(bench_kind(BENCH_OPTIONS.parse({"--hash", "8", "search"})), BenchKind::SEARCH);
  EXPECT_EQ(usage_error([] { bench_kind(BENCH_OPTIONS.parse({"perft"})); }),
            "bench takes a kind: suite (the default) or search, not 'perft'");
  // The suite's help, which points to the search's (`bench search --help` once printed
  // both).
  EXPECT_EQ(BENCH_OPTIONS.help, BENCH_SUITE_OPTIONS.help);
  EXPECT_NE(BENCH_SUITE_OPTIONS.help.find("(its options: chesshpc bench search --help)\n"), std::string::npos);
}

TEST(BenchOptions, SuiteRequest) {
  BenchRequest d = bench_request(BENCH_SUITE_OPTIONS.parse({}), "cmd");
  EXPECT_EQ(d.suite, "standard");
  EXPECT_EQ(d.threads, 0);
  EXPECT_EQ(d.repeats, 3);
  EXPECT_EQ(d.out, "bench.h5");
  EXPECT_EQ(d.stockfish, "");
  EXPECT_EQ(d.command_line, "cmd");
  BenchRequest r =
      bench_request(BENCH_SUITE_OPTIONS.parse({"suite", "--suite", "quick", "--threads", "2", "--repeats", "1", "--out",
                                               "b.h5", "--stockfish", "none", "--json", "--quiet"}),
                    "");
  EXPECT_EQ(r.suite, "quick");
  EXPECT_EQ(r.threads, 2);
  EXPECT_EQ(r.repeats, 1);
  EXPECT_EQ(r.out, "b.h5");
  EXPECT_EQ(r.stockfish, "none");
  EXPECT_TRUE(r.json && r.quiet);
  EXPECT_EQ(usage_error([] {
              bench_request(BENCH_SUITE_OPTIONS.parse({"--suite", "huge"}), "");
            }),
            "--suite must be standard, quick, perft or perft-quick, not 'huge'");
  EXPECT_EQ(usage_error([] { bench_request(BENCH_SUITE_OPTIONS.parse({"--stockfish="}), ""); }),
            "--stockfish takes a path or none");
  EXPECT_EQ(usage_error([] { BENCH_SUITE_OPTIONS.parse({"--depth", "3"}); }), "unknown option --depth for 'bench'");
}

TEST(BenchOptions, SearchRequest) {
  SearchBenchRequest d = search_bench_request(SEARCH_BENCH_OPTIONS.parse({"search"}));
  EXPECT_EQ(d.depth, 0);
  EXPECT_EQ(d.hash_mb, 16);
  EXPECT_FALSE(d.json);
  SearchBenchRequest r =
      search_bench_request(SEARCH_BENCH_OPTIONS.parse({"search", "--depth", "9", "--hash=64", "--json"}));
  EXPECT_EQ(r.depth, 9);
  EXPECT_EQ(r.hash_mb, 64);
  EXPECT_TRUE(r.json);
  EXPECT_EQ(usage_error([] {
              SEARCH_BENCH_OPTIONS.parse({"search", "--threads", "2"});
            }),
            "unknown option --threads for 'bench search'");
  EXPECT_EQ(usage_error([] {
              search_bench_request(SEARCH_BENCH_OPTIONS.parse({"--hash", "0"}));
            }),
            "--hash takes a size like 64 or 1G (a bare number is MB), not '0'");
}

// --- -h, memory sizes, --out checked before any work ---

TEST(OptionParser, DashHIsHelp) {
  CommandOptions c = command_options("cmd", {{"a", "", "x"}}, "usage: cmd\n");
  EXPECT_TRUE(c.parse({"-h"}).has("help"));
  EXPECT_TRUE(c.parse({"--a", "-h"}).has("help"));
}

// A size beyond the machine's memory is refused before any work (--hash 100T ended in
// std::bad_alloc, exit 1); the machine's own size passes.
TEST(OptionGroups, MemorySizeBeyondTheMachineIsUsageError) {
  const uint64_t memory = physical_memory();
  ASSERT_GT(memory, 0u);
  const std::string mb = std::to_string(memory >> 20);
  CommandOptions c = command_options("cmd", {hash_option("table"), {"memory", "SIZE", "m"}}, "");
  EXPECT_EQ(usage_error([&] {
              read_hash_size(c.parse({"--hash", "100T"}), 0, "1M");
            }),
            "--hash 100T is more than this machine's memory (" + mb + " MB)");
  EXPECT_EQ(usage_error([&] {
              read_size_option(c.parse({"--memory", "100T"}), "memory", 0, "1M");
            }),
            "--memory 100T is more than this machine's memory (" + mb + " MB)");
  EXPECT_EQ(read_hash_size(c.parse({"--hash", mb + "M"}), 0, "1M"), (memory >> 20) << 20);
  EXPECT_EQ(usage_error([] {
              search_bench_request(SEARCH_BENCH_OPTIONS.parse({"search", "--hash", "65536"}));
            }),
            memory < (uint64_t(65536) << 20) ? "--hash 65536 is more than this machine's memory (" + mb + " MB)" : "");
}

// A test's own directory, made fresh, as a relative path's parent would be.
std::string fresh_dir(const std::string& name) {
  std::string dir = testing::TempDir() + "options_" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir + "/";
}

TEST(OptionGroups, OutIsCheckedBeforeAnyWork) {
  const std::string dir = fresh_dir("out"), input = dir + "games.pgn", done = dir + "done.h5";
  std::ofstream(input) << "1. e4 *\n";
  std::ofstream(done) << "a finished result\n";
  CommandOptions c = command_options("cmd", {out_option("f"), resume_option("r"), force_option()}, "", 1);
  auto out = [&](const Args& args) { return read_out(c.parse(args)); };
  auto result_file = [&](const Args& args) {
    ResultFile r;
    read_result_file(c.parse(args), r);
    return r;
  };
  // The input itself, by another name too: not even with --force.
  EXPECT_EQ(usage_error([&] {
              out({input, "--out", input});
            }),
            "--out '" + input + "' is the input '" + input + "': write the result to another file");
  EXPECT_EQ(
      usage_error([&] {
        out({input, "--out", dir + "../options_out/games.pgn", "--force"});
      }),
      "--out '" + dir + "../options_out/games.pgn' is the input '" + input + "': write the result to another file");
  // A file there already: --force overwrites it, --resume continues it where the command can.
  EXPECT_EQ(usage_error([&] { out({"--out", done}); }), "'" + done + "' exists: add --force to overwrite it");
  EXPECT_EQ(usage_error([&] {
              result_file({"--out", done});
            }),
            "'" + done + "' exists: add --force to overwrite it, or --resume to continue its job");
  EXPECT_EQ(out({"--out", done, "--force"}), done);
  EXPECT_TRUE(result_file({"--out", done, "--force"}).force);
  EXPECT_TRUE(result_file({"--out", done, "--resume"}).resume);
  EXPECT_EQ(usage_error([&] {
              result_file({"--out", done, "--resume", "--force"});
            }),
            "--resume continues the file and --force overwrites it: give one");
  EXPECT_EQ(usage_error([&] { out({"--force"}); }), "--force goes with --out FILE.h5");
  // Where nothing can be written: I/O errors.
  EXPECT_EQ(error_of<FileError>([&] { out({"--out", dir}); }), "cannot write '" + dir + "': it is a directory");
  EXPECT_EQ(error_of<FileError>([&] {
              out({"--out", dir + "no/such/r.h5"});
            }),
            "cannot write '" + dir + "no/such/r.h5': there is no directory '" + dir + "no/such'");
  EXPECT_EQ(error_of<FileError>([&] {
              out({"--out", done + "/r.h5"});
            }),
            "cannot write '" + done + "/r.h5': there is no directory '" + done + "'");
  EXPECT_EQ(out({"--out", dir + "new.h5"}), dir + "new.h5");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 2) << "nothing created";
}

// Only rank 0 writes the result file, so only rank 0 checks --out; another rank
// may run where the directory is not, or look after rank 0 made the file. Usage that is
// not about the file system stays refused on every rank.
TEST(OptionGroups, OutIsCheckedOnRankZeroOnly) {
  const std::string dir = fresh_dir("ranks"), done = dir + "done.h5";
  std::ofstream(done) << "rank 0 made it\n";
  CommandOptions c = command_options("cmd", {out_option("f"), resume_option("r"), force_option()}, "", 1);
  auto out = [&](const Args& args) { return read_out(c.parse(args)); };
  for (const char* var : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"}) {
    ASSERT_EQ(setenv(var, "1", 1), 0);
    EXPECT_EQ(launch_rank(), 1) << var;
    EXPECT_EQ(out({"--out", done}), done) << var;
    EXPECT_EQ(out({"--out", dir + "no/such/r.h5"}), dir + "no/such/r.h5") << var;
    EXPECT_EQ(usage_error([&] { out({"--force"}); }), "--force goes with --out FILE.h5") << var;
    ASSERT_EQ(setenv(var, "0", 1), 0);
    EXPECT_EQ(usage_error([&] { out({"--out", done}); }), "'" + done + "' exists: add --force to overwrite it") << var;
    unsetenv(var);
  }
  EXPECT_EQ(launch_rank(), 0);
  EXPECT_EQ(std::filesystem::file_size(done), 15u);  // "rank 0 made it\n", untouched
}

TEST(PerftOptions, ResumeCommandLineSpellsOutWhatThePlanChose) {
  PerftRequest req;
  req.command_line = "chesshpc perft --depth 8 --out 'a b.h5'";
  EXPECT_EQ(resume_command_line(req, 3, 0), "chesshpc perft --depth 8 --out 'a b.h5' --split-depth 3");
  EXPECT_EQ(resume_command_line(req, 3, 6), "chesshpc perft --depth 8 --out 'a b.h5' --split-depth 3 --dedup-ply 6");
  req.split_depth = 4;
  EXPECT_EQ(resume_command_line(req, 4, 0), "chesshpc perft --depth 8 --out 'a b.h5'");
}

// --- Sizes as allocated, one size parser, threads that run, paths written ----------

// A bare number is MB for every memory option (perft's --hash 64 was 64 bytes, bench
// search's 64 MB), and what a request holds is what its table allocates: the search's
// tables are powers of two (--hash 100M allocated 64 MB and reported 100 MB), perft's
// whole 2 MB.
TEST(MemorySizes, EveryMemoryOptionReadsOneWayAndHoldsWhatIsAllocated) {
  EXPECT_EQ(perft({"--depth", "3", "--hash", "100M"}).hash_bytes, size_t(100) << 20);
  EXPECT_EQ(perft({"--depth", "3", "--hash", "3M"}).hash_bytes, size_t(2) << 20);
  EXPECT_EQ(perft({"--depth", "3", "--hash", "64"}).hash_bytes, size_t(64) << 20);
  EXPECT_EQ(perft({"--depth", "3", "--hash", "1GiB"}).hash_bytes, size_t(1) << 30);
  EXPECT_EQ(perft({"--depth", "3", "--hash", "64MB"}).hash_bytes, size_t(64) << 20);
  EXPECT_EQ(perft({"--depth", "3"}).hash_bytes, 0u);
  EXPECT_EQ(perft({"--depth", "6", "--dedup-ply", "3", "--memory", "512m"}).memory_bytes, size_t(512) << 20);
  EXPECT_EQ(perft({"--depth", "6", "--dedup-ply", "3", "--memory", "1"}).memory_bytes, size_t(1) << 20);
  EXPECT_EQ(selfplay({"--games", "2", "--nodes", "10", "--hash", "3M"}).hash_bytes, size_t(2) << 20);
  EXPECT_EQ(selfplay({"--games", "2", "--nodes", "10", "--hash", "8"}).hash_bytes, size_t(8) << 20);
  EXPECT_EQ(search_bench_request(SEARCH_BENCH_OPTIONS.parse({"search", "--hash", "100"})).hash_mb, 64);
  EXPECT_EQ(search_bench_request(SEARCH_BENCH_OPTIONS.parse({"search", "--hash", "1g"})).hash_mb, 1024);
}

// Below 1 MB no table is worth reporting ("--memory 1" was one byte and said "0 MB").
TEST(MemorySizes, LessThanOneMegabyteIsUsageError) {
  EXPECT_EQ(perft_error({"--depth", "6", "--dedup-ply", "3", "--memory", "1K"}),
            "--memory takes at least 1 MB, not '1K'");
  EXPECT_EQ(perft_error({"--depth", "3", "--hash", "512k"}), "--hash takes at least 1 MB, not '512k'");
  EXPECT_EQ(selfplay_error({"--games", "2", "--nodes", "10", "--hash", "1023KiB"}),
            "--hash takes at least 1 MB, not '1023KiB'");
  EXPECT_EQ(perft_error({"--depth", "3", "--hash", "64B"}),
            "--hash takes a size like 512M or 8G (a bare number is MB), not '64B'");
}

// --detailed counts without a table: --hash was printed as used ("hash 64 MB").
TEST(MemorySizes, HashWhereNoTableIsUsedIsUsageError) {
  EXPECT_EQ(perft_error({"--depth", "3", "--detailed", "--hash", "64M"}),
            "--detailed counts without a table; drop --hash");
}

// More threads than this process may use runs the cores, after one line of our own
// (TBB's own warning leaked, and "64 threads" was reported).
TEST(ThreadCount, BeyondTheCoresRunsTheCoresAndSaysSo) {
  const int cores = chess::resolve_threads(0);
  CommandOptions c = command_options("cmd", {threads_option()}, "");
  std::ostringstream note;
  EXPECT_EQ(read_threads(c.parse({"--threads", std::to_string(cores)}), note), cores);
  EXPECT_EQ(note.str(), "");
  EXPECT_EQ(read_threads(c.parse({"--threads", "4096"}), note), cores);
  EXPECT_EQ(note.str(), "chesshpc cmd: --threads 4096 is more than the " + std::to_string(cores) +
                            (cores == 1 ? " core" : " cores") + " this process may use: running " +
                            std::to_string(cores) + "\n");
  std::ostringstream rank_one;
  ASSERT_EQ(setenv("OMPI_COMM_WORLD_RANK", "1", 1), 0);
  EXPECT_EQ(read_threads(c.parse({"--threads", "4096"}), rank_one), cores);
  unsetenv("OMPI_COMM_WORLD_RANK");
  EXPECT_EQ(rank_one.str(), "");  // rank 0 alone says it
}

// Anything that exists and is not a regular file is refused, with or without --force:
// --force replaced a device node or a fifo with a regular file.
TEST(OutputPaths, OutThatIsNotARegularFileIsRefusedWithOrWithoutForce) {
  const std::string dir = fresh_dir("special"), fifo = dir + "fifo", link = dir + "link";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::filesystem::create_symlink("fifo", link);
  CommandOptions c = command_options("cmd", {out_option("f"), force_option()}, "");
  for (const std::string& out : {fifo, link})
    for (const Args& force : {Args{}, Args{"--force"}}) {
      Args args = {"--out", out};
      args.insert(args.end(), force.begin(), force.end());
      EXPECT_EQ(error_of<FileError>([&] { read_out(c.parse(args)); }),
                "cannot write '" + out + "': it is a fifo, not a regular file");
    }
  EXPECT_TRUE(std::filesystem::is_fifo(fifo));
  EXPECT_TRUE(std::filesystem::is_symlink(link));
}

TEST(OutputPaths, OutThatIsADeviceIsRefused) {
  if (geteuid() != 0) GTEST_SKIP() << "mknod needs root";
  const std::string dir = fresh_dir("device"), full = dir + "full";
  ASSERT_EQ(mknod(full.c_str(), S_IFCHR | 0600, makedev(1, 7)), 0);  // /dev/full's numbers
  CommandOptions c = command_options("cmd", {out_option("f"), force_option()}, "");
  EXPECT_EQ(error_of<FileError>([&] {
              read_out(c.parse({"--out", full, "--force"}));
            }),
            "cannot write '" + full + "': it is a character device, not a regular file");
  EXPECT_EQ(error_of<FileError>([&] {
              read_out(c.parse({"--out", "/dev/null", "--force"}));
            }),
            "cannot write '/dev/null': it is a character device, not a regular file");
  EXPECT_TRUE(std::filesystem::is_character_file(full));
}

// A symbolic link is followed: the file it names is what is checked (its directory, its
// existence) and written; the link itself stays.
TEST(OutputPaths, SymbolicLinkIsCheckedAsTheFileItNames) {
  const std::string dir = fresh_dir("link"), done = dir + "done.h5";
  std::ofstream(done) << "x\n";
  std::filesystem::create_directories(dir + "sub");
  std::filesystem::create_symlink("../done.h5", dir + "sub/to-done");
  std::filesystem::create_symlink("no/such/r.h5", dir + "dangling");
  std::filesystem::create_symlink("new.h5", dir + "to-new");
  CommandOptions c = command_options("cmd", {out_option("f"), force_option()}, "");
  auto out = [&](const Args& args) { return read_out(c.parse(args)); };
  EXPECT_EQ(usage_error([&] {
              out({"--out", dir + "sub/to-done"});
            }),
            "'" + dir + "sub/to-done' exists: add --force to overwrite it");
  EXPECT_EQ(out({"--out", dir + "sub/to-done", "--force"}), dir + "sub/to-done");
  EXPECT_EQ(publish_target(dir + "sub/to-done"), dir + "sub/../done.h5");
  EXPECT_EQ(error_of<FileError>([&] {
              out({"--out", dir + "dangling"});
            }),
            "cannot write '" + dir + "dangling': there is no directory '" + dir + "no/such'");
  EXPECT_EQ(out({"--out", dir + "to-new"}), dir + "to-new");
  EXPECT_EQ(publish_target(dir + "to-new"), dir + "new.h5");
  EXPECT_EQ(publish_target(dir + "done.h5"), dir + "done.h5");
  // Links that name each other name no file: refused, not written over.
  std::filesystem::create_symlink("loop-b", dir + "loop-a");
  std::filesystem::create_symlink("loop-a", dir + "loop-b");
  EXPECT_EQ(error_of<FileError>([&] {
              out({"--out", dir + "loop-a", "--force"});
            }),
            "cannot write '" + dir + "loop-a': Too many levels of symbolic links");
}

}  // namespace
}  // namespace chesshpc
