#include "jobs/selfplay/fastchess_args.h"

#include <charconv>
#include <map>
#include <string_view>

#include "core/quote.h"
#include "jobs/io/options.h"

namespace chesshpc {

namespace {

// An option of either tool: a word with one dash and a letter ("-engine"), not a number.
bool is_single_dash(const std::string& a) {
  return a.size() > 1 && a[0] == '-' && a[1] != '-' && !(a[1] >= '0' && a[1] <= '9') && a != "-h";
}

// The KEY=VALUE items of one option, each key one of keys. "-draw" and so on: what, as
// the user wrote it, for messages.
std::map<std::string, std::string> read_items(const std::string& what, const std::vector<std::string>& items,
                                              const std::vector<std::string_view>& keys) {
  std::map<std::string, std::string> values;
  for (const std::string& item : items) {
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError(what + " takes KEY=VALUE arguments, not " + chess::quoted(item));
    const std::string key = item.substr(0, eq);
    bool known = false;
    for (std::string_view k : keys) known = known || k == key;
    if (!known) {
      const std::string near = closest_name(key, keys);
      throw UsageError("unknown key " + chess::excerpt(key + "=") + " for '" + what + "'" +
                       (near.empty() ? "" : " (did you mean " + near + "=?)"));
    }
    values[key] = item.substr(eq + 1);
  }
  return values;
}

// A whole number from lo to hi, as key (e.g. "-draw score=") wrote it.
long whole_number(const std::string& key, const std::string& text, long lo, long hi) {
  long value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < lo || value > hi)
    throw UsageError(key + " must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) +
                     ", not " + chess::quoted(text));
  return value;
}

bool boolean(const std::string& key, const std::string& text) {
  if (text != "true" && text != "false") throw UsageError(key + " takes true or false, not " + chess::quoted(text));
  return text == "true";
}

// One option's value (-rounds N): exactly one item.
const std::string& single(const std::string& what, const std::vector<std::string>& items) {
  if (items.size() != 1) throw UsageError(what + " takes one value");
  return items[0];
}

// The options a translation knows, for "did you mean".
const std::vector<std::string_view> KNOWN = {
    "engine",   "each",   "rounds", "games", "repeat", "concurrency", "force-concurrency",
    "openings", "pgnout", "sprt",   "draw",  "resign", "maxmoves",    "recover",
    "srand",    "variant"};

struct Translation {
  std::vector<std::string> out;  // chesshpc's options
  std::vector<std::vector<std::string>> engines;
  std::vector<std::string> each;
  long rounds = 0, games = 0;  // 0: not given

  void add(std::initializer_list<std::string> words) { out.insert(out.end(), words); }

  void openings(const std::vector<std::string>& items) {
    auto v = read_items("-openings", items, {"file", "format", "order", "plies", "start"});
    if (!v.count("file")) throw UsageError("-openings needs file=FILE");
    const std::string format = v.count("format") ? v["format"] : "epd";
    if (format != "epd" && format != "pgn")
      throw UsageError("-openings format= takes epd or pgn, not " + chess::quoted(format));
    add({"--book", v["file"]});
    if (v.count("order")) {
      if (v["order"] != "sequential" && v["order"] != "random")
        throw UsageError("-openings order= takes sequential or random, not " + chess::quoted(v["order"]));
      add({"--book-order", v["order"]});
    }
    if (v.count("plies")) add({"--book-plies", std::to_string(whole_number("-openings plies=", v["plies"], 0, 10000))});
    if (v.count("start"))
      add({"--book-start", std::to_string(whole_number("-openings start=", v["start"], 1, 2000000000))});
  }

  // fastchess's -pgnout file=F ..., or cutechess-cli's -pgnout F [min] [fi].
  void pgnout(std::vector<std::string> items) {
    if (!items.empty() && items[0].find('=') == std::string::npos) {
      const std::string file = items[0];
      for (size_t i = 1; i < items.size(); ++i)
        if (items[i] != "min" && items[i] != "fi")
          throw UsageError("-pgnout FILE takes min or fi after the file, not " + chess::quoted(items[i]));
      add({"--pgn-out", file});
      return;
    }
    // The tracking flags name what a move's comment holds: chesshpc's always holds the
    // score, depth, time and nodes (nodes= either way), and nothing else it can add.
    auto v = read_items("-pgnout", items,
                        {"file", "notation", "append", "nodes", "seldepth", "nps", "hashfull", "tbhits", "pv",
                         "timeleft", "latency", "min"});
    for (const auto& [key, value] : v) {
      if (key == "file" || key == "notation") continue;
      const bool on = boolean("-pgnout " + key + "=", value);
      if (on && key == "min")
        throw UsageError("-pgnout min=true is not supported: chesshpc writes every tag and move comment");
      if (on && key != "append" && key != "nodes")
        throw UsageError("-pgnout " + key +
                         "=true is not supported: chesshpc's move comments hold the score, depth, time and nodes");
    }
    if (v.count("notation") && v["notation"] != "san")
      throw UsageError("-pgnout notation= takes san (chesshpc writes SAN), not " + chess::quoted(v["notation"]));
    if (!v.count("file")) throw UsageError("-pgnout needs file=FILE");
    add({"--pgn-out", v["file"]});
    // fastchess appends unless append=false.
    if (!v.count("append") || v["append"] == "true") add({"--pgn-append"});
  }

  void draw(const std::vector<std::string>& items) {
    auto v = read_items("-draw", items, {"movenumber", "movecount", "score"});
    // fastchess adjudicates once the moves played, the move number less 1, reach
    // movenumber (default 0): under its rules (--adjudicate-as) from move movenumber + 1.
    const long from = v.count("movenumber") ? whole_number("-draw movenumber=", v["movenumber"], 0, 9999) : 0;
    add({"--draw-after", std::to_string(from + 1)});
    const std::string moves = v.count("movecount") ? v["movecount"] : "1";  // fastchess's default
    add({"--draw-moves", std::to_string(whole_number("-draw movecount=", moves, 1, 1000))});
    if (!v.count("score")) throw UsageError("-draw needs score=CP (the draw's score bound, 1 or more)");
    add({"--draw-score", std::to_string(whole_number("-draw score=", v["score"], 1, 100000))});
  }

  void resign(const std::vector<std::string>& items) {
    auto v = read_items("-resign", items, {"movecount", "score", "twosided"});
    const std::string moves = v.count("movecount") ? v["movecount"] : "1";  // fastchess's default
    add({"--resign-moves", std::to_string(whole_number("-resign movecount=", moves, 1, 1000))});
    if (!v.count("score")) throw UsageError("-resign needs score=CP (the loss's score bound, 1 or more)");
    add({"--resign-score", std::to_string(whole_number("-resign score=", v["score"], 1, 100000))});
    // Both tools resign on the loser's score alone unless twosided=true.
    if (!v.count("twosided") || !boolean("-resign twosided=", v["twosided"])) add({"--resign-one-sided"});
  }

  void option(const std::string& name, const std::vector<std::string>& items) {
    const std::string what = "-" + name;
    if (name == "help")
      out.push_back("--help");
    else if (name == "engine")
      engines.push_back(items);
    else if (name == "each")
      each.insert(each.end(), items.begin(), items.end());
    else if (name == "rounds")
      rounds = whole_number(what, single(what, items), 1, 10000000);
    else if (name == "games")
      games = whole_number(what, single(what, items), 1, 10000000);
    else if (name == "repeat" || name == "recover" || name == "force-concurrency") {
      if (!items.empty()) throw UsageError(what + " takes no value");
      if (name == "repeat") games = 2;
    } else if (name == "concurrency")
      add({"--threads", std::to_string(whole_number(what, single(what, items), 1, 4096))});
    else if (name == "openings")
      openings(items);
    else if (name == "pgnout")
      pgnout(items);
    else if (name == "sprt") {
      out.push_back("--sprt");
      out.insert(out.end(), items.begin(), items.end());
    } else if (name == "draw")
      draw(items);
    else if (name == "resign")
      resign(items);
    else if (name == "maxmoves")
      add({"--max-plies", std::to_string(2 * whole_number(what, single(what, items), 1, 50000))});
    else if (name == "srand")
      add({"--seed", single(what, items)});
    else if (name == "variant") {
      const std::string& v = single(what, items);
      if (v != "standard" && v != "fischerandom")
        throw UsageError("-variant takes standard or fischerandom, not " + chess::quoted(v));
      add({"--variant", v == "standard" ? "standard" : "chess960"});
    } else {
      const std::string near = closest_name(name, KNOWN);
      throw UsageError("unknown option " + chess::excerpt(what) + " for 'selfplay'" +
                       (near.empty() ? "" : " (did you mean -" + near + "?)"));
    }
  }

  std::vector<std::string> finish() {
    if (rounds || games) {
      // An opening is a game pair, colours swapped: fastchess's -games 2 (-repeat).
      if (games && games != 2)
        throw UsageError("-games takes 2 (or -repeat): chesshpc plays each opening twice, colours swapped");
      add({"--games", std::to_string((rounds ? rounds : 2) * 2)});
    }
    for (const std::vector<std::string>& engine : engines) {
      out.push_back("--engine");
      out.insert(out.end(), each.begin(), each.end());
      out.insert(out.end(), engine.begin(), engine.end());
    }
    if (engines.empty() && !each.empty()) throw UsageError("-each goes with two -engine");
    // Both tools search exactly nodes=N: no variation unless asked for.
    bool varied = false;
    for (const std::string& word : out) varied = varied || word == "--variation" || word.rfind("--variation=", 0) == 0;
    if (!varied) add({"--variation", "0"});
    // -draw and -resign mean what fastchess means by them.
    add({"--adjudicate-as", "fastchess"});
    return out;
  }
};

}  // namespace

std::vector<std::string> fastchess_args(const std::vector<std::string>& args) {
  Translation t;
  bool any = false;
  for (size_t i = 0; i < args.size(); ++i) {
    if (!is_single_dash(args[i])) {
      t.out.push_back(args[i]);
      continue;
    }
    any = true;
    const std::string name = args[i].substr(1);
    std::vector<std::string> items;
    while (i + 1 < args.size() && !is_single_dash(args[i + 1]) && args[i + 1].rfind("--", 0) != 0)
      items.push_back(args[++i]);
    t.option(name, items);
  }
  return any ? t.finish() : args;
}

}  // namespace chesshpc
