#include "core/pgn.h"

#include <algorithm>
#include <optional>
#include <unordered_set>
#include <utility>

#include "core/quote.h"
#include "core/san.h"

namespace chess {

namespace {

constexpr bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
constexpr bool is_blank(char c) { return c == ' ' || c == '\t'; }
constexpr bool is_digit(char c) { return c >= '0' && c <= '9'; }
constexpr bool is_name_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || is_digit(c) || c == '_';
}

// Characters that end a movetext token: whitespace and those with a meaning of their own.
constexpr bool ends_token(char c) {
  return is_space(c) || c == '{' || c == '}' || c == '(' || c == ')' || c == ';' || c == '[' || c == ']' || c == '$' ||
         c == '"';
}

bool is_termination(std::string_view t) { return t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*"; }

// Annotation glyphs written apart from their move ("e4 !?", "+-"). Not "--", which some
// programs write for a null move: that must fail as a move, not vanish.
bool is_glyph(std::string_view t) { return t != "--" && t.find_first_not_of(".!?=+-/") == std::string_view::npos; }

// Whether the line starting at i opens with a tag pair: '[', a name, then a quote.
bool tag_line_at(std::string_view s, size_t i) {
  while (i < s.size() && is_blank(s[i])) ++i;
  if (i >= s.size() || s[i] != '[') return false;
  for (++i; i < s.size() && is_blank(s[i]);) ++i;
  size_t name = i;
  while (i < s.size() && is_name_char(s[i])) ++i;
  if (i == name) return false;
  while (i < s.size() && is_blank(s[i])) ++i;
  return i < s.size() && s[i] == '"';
}

// A position in a text that counts its lines.
struct Scanner {
  std::string_view s;
  size_t i;
  int line;
  bool line_start = true;  // whether s itself starts a line (a piece of a stream may not)

  bool done() const { return i >= s.size(); }
  char peek() const { return s[i]; }
  bool at_line_start() const { return i == 0 ? line_start : s[i - 1] == '\n'; }
  void advance() { line += s[i++] == '\n'; }
  // To the end of the line; the newline itself is left for the caller to count.
  void skip_line() {
    size_t nl = s.find('\n', i);
    i = nl == std::string_view::npos ? s.size() : nl;
  }
  // The token at i, not consumed: one delimiter character, or a run of others.
  std::string_view token() const {
    size_t j = i + 1;
    if (!ends_token(s[i]))
      while (j < s.size() && !ends_token(s[j])) ++j;
    return s.substr(i, j - i);
  }
};

// Skips a brace comment from its '{'. False when it is not closed: the text ends, or a
// tag-pair line starts inside it (the next game's tags after a missing '}'), where the
// scanner is then left.
bool skip_comment(Scanner& sc) {
  for (++sc.i; !sc.done(); ++sc.i) {
    if (sc.peek() == '}') {
      ++sc.i;
      return true;
    }
    if (sc.peek() == '\n') {
      ++sc.line;
      if (tag_line_at(sc.s, sc.i + 1)) {
        ++sc.i;
        return false;
      }
    }
  }
  return false;
}

// The name of the tag pair whose '[' is at i.
std::string_view tag_name_at(std::string_view s, size_t i) {
  for (++i; i < s.size() && is_blank(s[i]);) ++i;
  size_t from = i;
  while (i < s.size() && !is_space(s[i]) && s[i] != '"' && s[i] != ']') ++i;
  return s.substr(from, i - from);
}

// Skips a tag pair from its '[' past its ']', or to the end of the line when it has none.
void skip_tag(Scanner& sc) {
  bool quoted = false;
  for (++sc.i; !sc.done() && sc.peek() != '\n'; ++sc.i) {
    char c = sc.peek();
    if (quoted && c == '\\' && sc.i + 1 < sc.s.size() && sc.s[sc.i + 1] != '\n')
      ++sc.i;
    else if (c == '"')
      quoted = !quoted;
    else if (c == ']' && !quoted) {
      ++sc.i;
      return;
    }
  }
}

std::string_view trim_right(std::string_view s) {
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// The tag names of one tag section, to find a name given twice. Sections have a dozen
// tags, where scanning a short list is cheapest; past LIST_MAX a hash set keeps a section
// of n tags O(n) (300,000 tags took 78 s with the list alone).
class TagNames {
 public:
  // False when the section had name already.
  bool add(std::string_view name) {
    if (!set_.empty()) return set_.insert(name).second;
    if (std::find(list_.begin(), list_.end(), name) != list_.end()) return false;
    list_.push_back(name);
    if (list_.size() > LIST_MAX) set_.insert(list_.begin(), list_.end());
    return true;
  }
  void clear() {
    list_.clear();
    if (!set_.empty()) set_ = {};  // a fresh set: clear() would keep a large one's buckets
  }

 private:
  static constexpr size_t LIST_MAX = 32;
  std::vector<std::string_view> list_;
  std::unordered_set<std::string_view> set_;
};

// Parsed once: games are read by the million, and most start here.
const Position& standard_start() {
  static const Position start = Position::start();
  return start;
}

// Reads one game's text into a PgnGame; the first fault ends the reading.
class GameReader {
 public:
  GameReader(const PgnChunk& chunk, PgnGame& game, PgnError& error)
      : sc_{chunk.text, 0, chunk.first_line}, game_(game), error_(error) {}

  bool read();

 private:
  bool fail(int line, std::string message) {
    error_.line = line;
    error_.message = std::move(message);
    return false;
  }
  bool unclosed_variation() {
    return fail(variation_line_, "unbalanced parenthesis: the variation opened here is not closed");
  }
  bool read_tag();
  // Past the tag section: the start position from the FEN and Variant tags, read once both
  // may have come (in either order).
  bool begin_movetext();
  bool read_token();
  bool read_move(std::string_view text, int line);

  Scanner sc_;
  PgnGame& game_;
  PgnError& error_;
  Position pos_;
  int depth_ = 0;              // variations open
  int variation_line_ = 0;     // where the outermost open one started
  bool movetext_ = false;      // past the tag section
  bool ended_ = false;         // the termination marker was read
  std::string fen_, variant_;  // the FEN and Variant tags' values
  int fen_line_ = 0, variant_line_ = 0;
};

bool GameReader::read() {
  game_.tags.clear();
  game_.moves.clear();
  game_.result.clear();
  game_.start = standard_start();
  game_.first_line = sc_.line;
  pos_ = game_.start;
  fen_line_ = variant_line_ = 0;
  error_.variant.clear();

  while (!sc_.done()) {
    char c = sc_.peek();
    int line = sc_.line;
    if (is_space(c))
      sc_.advance();
    else if (c == '%' && sc_.at_line_start())
      sc_.skip_line();
    else if (c == ';')
      sc_.skip_line();
    else if (c == '{') {
      if (!skip_comment(sc_)) return fail(line, "unbalanced brace: the comment opened here is not closed");
    } else if (c == '$') {
      size_t digits = ++sc_.i;
      while (!sc_.done() && is_digit(sc_.peek())) ++sc_.i;
      if (sc_.i == digits) return fail(line, "'$' without a NAG number");
    } else if (ended_)
      return fail(line, quoted(sc_.token()) + " after the termination marker");
    else if (c == '[') {
      if (movetext_) return fail(line, "tag pair after the movetext");
      if (!read_tag()) return false;
    } else if (c == '(') {
      if (!begin_movetext()) return false;
      if (depth_++ == 0) variation_line_ = line;
      ++sc_.i;
    } else if (c == ')') {
      if (depth_ == 0) return fail(line, "unbalanced parenthesis: ')' closes no variation");
      --depth_;
      ++sc_.i;
    } else if (c == '}')
      return fail(line, "unbalanced brace: '}' closes no comment");
    else if (c == ']' || c == '"')
      return fail(line, "unexpected " + quoted(sc_.token()));
    else if (!read_token())
      return false;
  }
  if (depth_) return unclosed_variation();
  if (!ended_) return fail(sc_.line, "missing termination marker (1-0, 0-1, 1/2-1/2 or *)");
  return true;
}

bool GameReader::read_tag() {
  const std::string_view s = sc_.s;
  const int line = sc_.line;
  std::string_view name = tag_name_at(s, sc_.i);
  size_t i = name.data() - s.data() + name.size();
  if (name.empty()) return fail(line, "bad tag pair: no tag name");
  while (i < s.size() && is_blank(s[i])) ++i;
  if (i >= s.size() || s[i] != '"') return fail(line, "bad tag pair " + quoted(name) + ": the value is not quoted");

  std::string value;
  for (++i; i >= s.size() || s[i] != '"'; ++i) {
    if (i >= s.size() || s[i] == '\n' || s[i] == '\r')
      return fail(line, "bad tag pair " + quoted(name) + ": the value has no closing quote");
    // The standard's only escapes; any other backslash is kept as written.
    if (s[i] == '\\' && i + 1 < s.size() && (s[i + 1] == '"' || s[i + 1] == '\\')) ++i;
    value += s[i];
  }
  for (++i; i < s.size() && is_blank(s[i]);) ++i;
  if (i >= s.size() || s[i] != ']') return fail(line, "bad tag pair " + quoted(name) + ": no closing ']'");
  sc_.i = i + 1;

  if (name == "FEN") fen_ = value, fen_line_ = line;
  if (name == "Variant") variant_ = value, variant_line_ = line;
  game_.tags.emplace_back(std::string(name), std::move(value));
  return true;
}

bool GameReader::begin_movetext() {
  if (std::exchange(movetext_, true)) return true;
  const PgnVariant variant = variant_line_ ? pgn_variant(variant_) : PgnVariant::STANDARD;
  if (variant == PgnVariant::UNSUPPORTED) {
    error_.variant = variant_;
    return fail(variant_line_, "variant " + quoted(variant_) + " is not supported (standard chess and Chess960 are)");
  }
  if (!fen_line_) return true;
  try {
    // Chess960's FEN in either convention (X-FEN, Shredder-FEN), its castling in SAN O-O.
    game_.start = Position::from_fen(fen_, variant == PgnVariant::CHESS960);
  } catch (const FenError& e) {
    return fail(fen_line_, std::string("bad FEN tag: ") + e.what());
  }
  pos_ = game_.start;
  return true;
}

// A run of movetext that is not a delimiter: the termination marker, a move number (which
// may carry its move, as in "12.Nf3" or "12...Nf6"), an annotation glyph, or a move.
bool GameReader::read_token() {
  const int line = sc_.line;
  std::string_view t = sc_.token();
  if (!begin_movetext()) return false;
  sc_.i += t.size();

  if (is_termination(t)) {
    if (depth_) return unclosed_variation();
    game_.result.assign(t);
    ended_ = true;
    return true;
  }
  t = without_move_number(t);
  if (t.empty() || is_glyph(t) || depth_) return true;
  return read_move(t, line);
}

bool GameReader::read_move(std::string_view text, int line) {
  SanError why = SanError::NONE;
  std::optional<Move> m = parse_san(pos_, text, why);
  const std::string ply = " at ply " + std::to_string(game_.moves.size() + 1);
  if (!m) return fail(line, san_refusal(why, text) + ply);
  if (std::string full = pos_.clock_overflow(); !full.empty())
    return fail(line, "move " + quoted(text) + ply + ": " + full);
  game_.moves.push_back(*m);
  pos_.do_move(*m);
  return true;
}

const std::string* find_tag(const PgnGame& game, std::string_view name) {
  for (const auto& [k, v] : game.tags)
    if (k == name) return &v;
  return nullptr;
}

void write_tag(std::string& out, std::string_view name, std::string_view value) {
  out += '[';
  out += name;
  out += " \"";
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += "\"]\n";
}

// Appends a unit of movetext ("12. Nf3", "Nf6", "1-0"), starting a new line when the
// current one would pass 80 columns.
void append_wrapped(std::string& out, std::string& line, std::string_view unit) {
  constexpr size_t COLUMNS = 80;
  if (!line.empty() && line.size() + 1 + unit.size() > COLUMNS) {
    out += line;
    out += '\n';
    line.clear();
  }
  if (!line.empty()) line += ' ';
  line += unit;
}

constexpr std::string_view CHESS960_TAG = "Chess960";
constexpr std::string_view ROSTER[] = {"Event", "Site", "Date", "Round", "White", "Black", "Result"};

// What the PGN standard writes for an unknown roster tag.
std::string_view roster_default(const PgnGame& game, std::string_view name) {
  if (name == "Date") return "????.??.??";
  if (name == "Result") return game.result.empty() ? std::string_view("*") : std::string_view(game.result);
  return "?";
}

bool in_roster(std::string_view name) {
  for (std::string_view r : ROSTER)
    if (r == name) return true;
  return false;
}

}  // namespace

PgnVariant pgn_variant(std::string_view tag) {
  std::string key;  // lower case, without spaces, dashes and underscores
  for (char c : tag)
    if (c != ' ' && c != '-' && c != '_') key += char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  for (std::string_view s : {"", "standard", "chess", "normal", "fromposition"})
    if (key == s) return PgnVariant::STANDARD;
  for (std::string_view s :
       {"chess960", "960", "fischerandom", "fischerrandom", "fischerrandomchess", "frc", "doublefischerrandom", "dfrc"})
    if (key == s) return PgnVariant::CHESS960;
  return PgnVariant::UNSUPPORTED;
}

std::string PgnError::what() const { return "line " + std::to_string(line) + ": " + message; }

std::string PgnGame::tag(std::string_view name) const {
  const std::string* v = find_tag(*this, name);
  return v ? *v : std::string();
}

size_t byte_order_mark_size(std::string_view text) { return text.starts_with("\xEF\xBB\xBF") ? 3 : 0; }

std::vector<PgnChunk> split_pgn(std::string_view file) {
  file.remove_prefix(byte_order_mark_size(file));
  return split_pgn_part(file, 1, true, true).games;
}

PgnPart split_pgn_part(std::string_view text, int first_line, bool line_start, bool last) {
  // Short of the end, only whole lines: every look ahead (a token, a tag, the line after a
  // comment's line break) then sees what the whole stream has there, but at the very end,
  // where the game still open is left for the next call.
  std::string_view file = text;
  if (!last) file = text.substr(0, text.rfind('\n') + 1);  // npos + 1: no whole line
  PgnPart part;
  Scanner sc{file, 0, first_line, line_start};
  // NONE: before the first game; TAGS: in a tag section; MOVES: in movetext; DONE: past
  // a termination marker, where comments still belong to the game just ended.
  enum { NONE, TAGS, MOVES, DONE } phase = NONE;
  size_t start = 0;
  int start_line = 0;
  // Before the first game: a comment still open at the end, which the next call rereads.
  size_t comment = std::string_view::npos;
  int comment_line = 0;
  // The tag names of the current tag section: one seen twice means that a game without
  // movetext or marker ran into the next one's tags.
  TagNames names;
  auto open = [&](size_t at) {
    if (phase != NONE) part.games.push_back({trim_right(file.substr(start, at - start)), start_line});
    start = at;
    start_line = sc.line;
    names.clear();
  };

  while (!sc.done()) {
    char c = sc.peek();
    if (is_space(c))
      sc.advance();
    else if ((c == '%' && sc.at_line_start()) || c == ';')
      sc.skip_line();
    else if (c == '{') {
      size_t at = sc.i;
      int line = sc.line;
      if (!skip_comment(sc) && sc.done()) comment = at, comment_line = line;
    } else if (c == '[') {
      std::string_view name = tag_name_at(file, sc.i);
      if (phase != TAGS) open(sc.i), phase = TAGS;
      if (!names.add(name)) open(sc.i), names.add(name);
      skip_tag(sc);
    } else if (c == '$') {
      if (phase == NONE) open(sc.i);
      if (phase != DONE) phase = MOVES;  // a NAG after the marker stays with its game
      for (++sc.i; !sc.done() && is_digit(sc.peek());) ++sc.i;
    } else {
      std::string_view t = sc.token();
      if (phase == NONE || phase == DONE) open(sc.i);
      phase = is_termination(t) ? DONE : MOVES;
      sc.i += t.size();
    }
  }
  if (last) {
    open(file.size());
    part.rest = file.size(), part.rest_line = sc.line;
  } else if (phase != NONE) {
    part.rest = start, part.rest_line = start_line;  // the game still open
  } else if (comment != std::string_view::npos) {
    part.rest = comment, part.rest_line = comment_line;
  } else {
    part.rest = file.size(), part.rest_line = sc.line;
  }
  return part;
}

bool parse_pgn_game(const PgnChunk& chunk, PgnGame& game, PgnError& error) {
  return GameReader(chunk, game, error).read();
}

std::string write_pgn(const PgnGame& game) {
  std::string out;
  for (std::string_view name : ROSTER) {
    const std::string* v = find_tag(game, name);
    write_tag(out, name, v ? std::string_view(*v) : roster_default(game, name));
  }
  if (!(game.start == standard_start()) || find_tag(game, "FEN")) {
    write_tag(out, "SetUp", "1");
    write_tag(out, "FEN", game.start.fen());
  }
  // A Chess960 start is written with Variant "Chess960" whatever the game's tags say (a
  // named start, "chess960:4", reads without it), or the FEN would not read back.
  const bool chess960 = game.start.is_chess960();
  for (const auto& [name, value] : game.tags) {
    if (in_roster(name) || name == "SetUp" || name == "FEN") continue;
    write_tag(out, name, chess960 && name == "Variant" ? std::string_view(CHESS960_TAG) : std::string_view(value));
  }
  if (chess960 && !find_tag(game, "Variant")) write_tag(out, "Variant", CHESS960_TAG);
  out += '\n';

  std::string line, unit;
  Position pos = game.start;
  for (size_t i = 0; i < game.moves.size(); ++i) {
    unit.clear();
    // Black's move after a comment takes its number again ("1... e5"), as PGN writers do.
    bool after_comment = i > 0 && i - 1 < game.comments.size() && !game.comments[i - 1].empty();
    if (pos.side_to_move() == WHITE || i == 0 || after_comment) {
      unit += std::to_string(pos.fullmove());
      unit += pos.side_to_move() == WHITE ? ". " : "... ";
    }
    unit += to_san(pos, game.moves[i]);
    append_wrapped(out, line, unit);
    if (i < game.comments.size() && !game.comments[i].empty()) append_wrapped(out, line, "{" + game.comments[i] + "}");
    pos.do_move(game.moves[i]);
  }
  append_wrapped(out, line, game.result.empty() ? std::string_view("*") : std::string_view(game.result));
  out += line;
  out += "\n\n";
  return out;
}

std::string_view without_move_number(std::string_view t) {
  size_t digits = 0;
  while (digits < t.size() && is_digit(t[digits])) ++digits;
  if (digits == t.size()) return {};  // a move number without its period
  if (digits && t[digits] == '.') {
    size_t move = t.find_first_not_of('.', digits);
    t = move == std::string_view::npos ? std::string_view() : t.substr(move);
  }
  return t;
}

std::vector<std::string> move_list(std::string_view text) {
  std::vector<std::string> moves;
  for (size_t a = text.find_first_not_of(" \t\r\n"); a != std::string_view::npos;
       a = text.find_first_not_of(" \t\r\n", a)) {
    const size_t b = std::min(text.find_first_of(" \t\r\n", a), text.size());
    if (std::string_view move = without_move_number(text.substr(a, b - a)); !move.empty()) moves.emplace_back(move);
    a = b;
  }
  return moves;
}

}  // namespace chess
