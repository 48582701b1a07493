#include "jobs/export/formats.h"

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

constexpr Format FORMATS[] = {
    {"plain", "Stockfish's text records (fen, move, score, ply, result): nnue-pytorch and Stockfish's tools convert it",
     0, false, false, true, record_writer<append_plain>},
    {"bin", "Stockfish's 40-byte PackedSfenValue records: nnue-pytorch reads it", sizeof(BinRecord), true, false, false,
     record_writer<append_bytes<bin_record>>},
    {"bullet", "bullet's 32-byte ChessBoard records", sizeof(BulletBoard), true, true, false,
     record_writer<append_bytes<bullet_board>>},
    {"bullet-text", "bullet's text lines 'FEN | score | result', White's view", 0, false, true, true,
     record_writer<append_bullet_text>},
    {"epd", "EPD lines with hmvc, fmvn, ce (mover's view) and c9 (result): Texel-style tuners", 0, false, false, true,
     record_writer<append_epd>},
    {"pgn", "every game as PGN with scores, depth, time and nodes per move: any PGN reader", 0, false, false, true,
     nullptr},
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
