#include "jobs/export/formats.h"

#include <sstream>

#include "jobs/export/binpack.h"

namespace chesshpc {

namespace {

// A format whose records depend on their position only.
template <void (*Append)(const ExportPosition&, std::string&)>
class RecordWriter : public PositionWriter {
 public:
  void add(const ExportPosition& p, std::string& out) override { Append(p, out); }
};

template <void (*Append)(const ExportPosition&, std::string&)>
std::unique_ptr<PositionWriter> record_writer() {
  return std::make_unique<RecordWriter<Append>>();
}

template <auto Encode>
void append_bytes(const ExportPosition& p, std::string& out) {
  const auto bytes = Encode(p);
  out.append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

// .binpack compresses a game's consecutive positions into one chain: binpack::Writer
// keeps the chain and hands over whole chunks of about 1 MiB, which go on to out.
class BinpackWriter : public PositionWriter {
 public:
  void add(const ExportPosition& p, std::string& out) override {
    writer_.add({p.pos, p.move, int16_t(p.score), uint16_t(game_ply(p.pos)), int16_t(p.wdl)});
    take(out);
  }
  void finish(std::string& out) override {
    writer_.finish();
    take(out);
  }

 private:
  void take(std::string& out) {
    if (chunks_.tellp() <= 0) return;
    out += chunks_.str();
    chunks_.str({});
  }
  std::ostringstream chunks_;
  binpack::Writer writer_{chunks_};
};

std::unique_ptr<PositionWriter> binpack_writer() { return std::make_unique<BinpackWriter>(); }

constexpr unsigned POSITION = CARRIES_SIDE | CARRIES_RIGHTS;

constexpr Format FORMATS[] = {
    {"plain", "Stockfish's text records (fen, move, score, ply, result): nnue-pytorch and Stockfish's tools convert it",
     0, false, false, true, false, record_writer<append_plain>, ".plain",
     POSITION | CARRIES_MOVE | CARRIES_SCORE | CARRIES_RESULT | CARRIES_PLY | CARRIES_CLOCKS | CARRIES_FULLMOVE,
     nullptr, read_plain, "\ne\n"},
    {"bin", "Stockfish's 40-byte PackedSfenValue records: nnue-pytorch reads it", sizeof(BinRecord), true, false, false,
     true, record_writer<append_bytes<bin_record>>, ".bin",
     POSITION | CARRIES_MOVE | CARRIES_SCORE | CARRIES_RESULT | CARRIES_PLY | CARRIES_CLOCKS | CARRIES_FULLMOVE,
     read_bin_record},
    {"binpack",
     "Stockfish's compressed chains of a game's positions (about 2.5 bytes a position): nnue-pytorch reads it", 0, true,
     false, false, true, binpack_writer, ".binpack",
     POSITION | CARRIES_MOVE | CARRIES_SCORE | CARRIES_RESULT | CARRIES_PLY | CARRIES_CLOCKS},
    {"bullet", "bullet's 32-byte ChessBoard records", sizeof(BulletBoard), true, true, false, false,
     record_writer<append_bytes<bullet_board>>, ".bullet", CARRIES_SCORE | CARRIES_RESULT, read_bullet_board},
    {"bullet-text", "bullet's text lines 'FEN | score | result', White's view", 0, false, true, true, false,
     record_writer<append_bullet_text>, ".txt",
     POSITION | CARRIES_SCORE | CARRIES_RESULT | CARRIES_CLOCKS | CARRIES_FULLMOVE, nullptr, read_bullet_text},
    {"epd", "EPD lines with hmvc, fmvn, ce (mover's view) and c9 (result): Texel-style tuners", 0, false, false, true,
     false, record_writer<append_epd>, ".epd",
     POSITION | CARRIES_SCORE | CARRIES_RESULT | CARRIES_NO_RESULT | CARRIES_CLOCKS | CARRIES_FULLMOVE, nullptr,
     read_epd},
    {"pgn", "every game as PGN with scores, depth, time and nodes per move: any PGN reader", 0, false, false, true,
     false, nullptr, ".pgn"},
};

}  // namespace

std::span<const Format> formats() { return FORMATS; }

const Format* find_format(std::string_view name) {
  for (const Format& f : FORMATS)
    if (f.name == name) return &f;
  return nullptr;
}

std::string format_names() {
  std::string s;
  for (const Format& f : FORMATS) s.append(s.empty() ? "" : "|").append(f.name);
  return s;
}

}  // namespace chesshpc
