// One position as the trainers' files hold it. Each encoder follows the format's published
// description (the reader it is written for is named beside it); the tests read the
// bytes back with readers of their own.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/position.h"
#include "jobs/selfplay/tables.h"

namespace chesshpc {

// Stockfish's score scale, which .plain, .bin and .binpack share: centipawns, a mate as
// VALUE_MATE minus the plies to it (negative when the mover is mated), VALUE_NONE for a
// position without a score (a book move; nnue-pytorch skips those).
inline constexpr int VALUE_MATE = 32000;
inline constexpr int VALUE_NONE = 32002;
// Centipawn scores are clamped inside the mate range, so that no score reads as a mate.
inline constexpr int MAX_CP_SCORE = 31000;

// A /positions row, as every position format reads it.
struct ExportPosition {
  chess::Position pos;
  chess::Move move;           // played
  std::string_view fen;       // pos.fen(), as /positions/fen holds it; empty unless the format needs_fen
  std::string_view move_uci;  // move as /positions/move wrote it
  int score = VALUE_NONE;     // mover's view, Stockfish's scale
  Wdl wdl = WDL_NONE;         // mover's view
};

// The move a /positions row names in UCI (e1g1 castling in standard chess, e1h1 in
// Chess960), read from its squares and the pieces on them without generating the legal
// moves: the dataset's moves were legal when they were played. Nothing for text that
// names no move of the side to move's pieces.
std::optional<chess::Move> decode_move(const chess::Position& pos, std::string_view uci);

// Stockfish's scale from /positions' score_cp (NaN: none) and mate_in (moves; 0: none).
int stockfish_score(double score_cp, int mate_in);
// The game's ply as Stockfish counts it from the position's full-move number: what .bin's
// gamePly and .plain's ply hold (and what a reader turns back into the full-move number).
int game_ply(const chess::Position& pos);

// Stockfish's 16-bit move: to (bits 0-5), from (6-11), promotion piece minus knight
// (12-13), kind (14-15: 0 normal, 1 promotion, 2 en passant, 3 castling as the king taking
// its rook).
uint16_t stockfish_move(chess::Move m);

// Stockfish's PackedSfen (tools branch, sfen_packer; nnue-pytorch's .bin reader): 256 bits
// written from bit 0 of byte 0 upwards, each value least significant bit first: side to
// move (1: black); white's king square, black's (6 bits each); then every square from a8
// to h8, a7 ... h1 but the kings' in Huffman code: empty 0; pawn 1000, knight 1100, bishop
// 1010, rook 1110, queen 1001 (in stream order) then the colour (1: black); castling K, Q,
// k, q (a bit each); en passant: 0, or 1 and its square (6 bits); half-move clock (low 6
// bits); full-move number (low 8 bits, then high 8 bits); the clock's 7th bit. Standard
// chess only: its castling rights name no rook.
using PackedSfen = std::array<uint8_t, 32>;
PackedSfen pack_sfen(const chess::Position& pos);

// Stockfish's 40-byte PackedSfenValue (.bin): PackedSfen, score (int16), move (uint16),
// gamePly (uint16), game_result (int8: 1 win, 0 draw, -1 loss for the mover), a zero byte;
// little-endian. The offsets, which the writer and the reader both use:
struct BinLayout {
  static constexpr size_t SCORE = 32, MOVE = 34, PLY = 36, RESULT = 38, PAD = 39;
};
using BinRecord = std::array<uint8_t, 40>;
BinRecord bin_record(const ExportPosition& p);

// bullet's 32-byte ChessBoard (the bulletformat crate): the board seen by the mover (for
// black to move, ranks flipped and colours swapped): occupancy (uint64), 4 bits a piece
// in square order (bit 3: the opponent's; bits 0-2 pawn 0 ... king 5), score (int16,
// mover's view), result (0 loss, 1 draw, 2 win, mover's view), the mover's king square,
// the opponent's king square flipped (^56), three zero bytes; little-endian.
struct BulletLayout {
  static constexpr size_t PIECES = 8, SCORE = 24, RESULT = 26, OUR_KING = 27, THEIR_KING = 28, PAD = 29;
};
using BulletBoard = std::array<uint8_t, 32>;
BulletBoard bullet_board(const ExportPosition& p);

// Text records, each ending in a newline.
// Stockfish's .plain: "fen F\nmove M\nscore S\nply P\nresult R\ne\n" (score, result: mover).
void append_plain(const ExportPosition& p, std::string& out);
// bullet's text: "FEN | score | result" with score in centipawns and result 1.0, 0.5, 0.0,
// both White's view.
void append_bullet_text(const ExportPosition& p, std::string& out);
// EPD: the FEN's first four fields, then hmvc and fmvn (the clocks), ce (centipawns from
// the mover's view; a mate in N plies as 32767 - N, mated as -32767 + N, as the EPD
// standard writes it; left out without a score) and c9, the game's result in PGN form
// ("1-0"), as Texel-style tuners read it.
// Without a result (WDL_NONE) c9 is left out (export never writes such a position).
void append_epd(const ExportPosition& p, std::string& out);

// The read side: one record back as the writers above laid it out. What a format does
// not hold reads as "none" (Move::none(), VALUE_NONE, WDL_NONE, ply -1: the position's
// game_ply). Every reader checks the position as FEN reading does (Position::from_fen:
// one king a side, the side not to move not in check, ...), so a position read is always
// one the writers can take; the move is read from its squares, not checked for legality
// (convert --validate does that).
struct DecodedPosition {
  chess::Position pos;
  chess::Move move;
  int score = VALUE_NONE;  // mover's view, Stockfish's scale
  Wdl wdl = WDL_NONE;      // mover's view
  int ply = -1;            // the format's ply; -1: none
};
// A record that does not read: what() says why, without the record's index (the caller
// adds it).
class RecordError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// Stockfish's 16-bit move back (0 is none).
chess::Move move_of_stockfish(uint16_t raw);
chess::Position unpack_sfen(const uint8_t* bytes);  // PackedSfen's 32 bytes
DecodedPosition read_bin_record(const uint8_t* bytes);
// bullet's board is the mover's: it reads back as White to move (the board flipped when
// Black moved), without castling rights, en passant or clocks.
DecodedPosition read_bullet_board(const uint8_t* bytes);
// A text record without its last newline (plain: its six lines, "e" the last).
DecodedPosition read_plain(std::string_view record);
DecodedPosition read_bullet_text(std::string_view line);
DecodedPosition read_epd(std::string_view line);

}  // namespace chesshpc
