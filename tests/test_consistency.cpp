// The fast core against the independent mailbox reference (tests/reference) along seeded
// random games, plus Zobrist key properties. In every position reached, the legal move
// sets must be equal as sets of UCI strings, every move must keep the parent intact and
// give the child a correct incremental key, gives_check must predict the child's check,
// and FEN must round-trip. The reference follows the game on its own board, so the
// core's do_move is checked against an independent make as well.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "core/uci.h"
#include "tests/reference/slow_chess.h"

using namespace chess;

namespace {

const std::string KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

std::vector<std::string> split(const std::string& fen) {
  std::istringstream in(fen);
  std::vector<std::string> fields;
  for (std::string f; in >> f;) fields.push_back(f);
  return fields;
}

// The core drops an en-passant square no legal capture can use; the reference keeps it
// after every double push. All other FEN fields must be identical.
void expect_same_state(const std::string& core_fen, const reference::Board& ref) {
  std::vector<std::string> core = split(core_fen), slow = split(reference::to_fen(ref));
  ASSERT_EQ(core.size(), 6u);
  ASSERT_EQ(slow.size(), 6u);
  for (int i : {0, 1, 2, 4, 5}) EXPECT_EQ(core[i], slow[i]) << "FEN field " << i + 1;
  if (core[3] != "-") {
    EXPECT_EQ(core[3], slow[3]) << "en-passant field";
  }
}

bool is_double_push(const Position& pos, Move m) {
  return type_of(pos.piece_on(m.from())) == PAWN && (m.from() ^ m.to()) == 16;
}

// Every position seen in a test, by key and by FEN without clocks, so that a key shared
// by two positions or a position with two keys is caught.
struct KeyLedger {
  std::unordered_map<Key, std::string> by_key;
  std::unordered_map<std::string, Key> by_fen;

  void record(const Position& pos) {
    std::vector<std::string> f = split(pos.fen());
    std::string identity = f[0] + ' ' + f[1] + ' ' + f[2] + ' ' + f[3];
    auto [k, new_key] = by_key.emplace(pos.key(), identity);
    EXPECT_TRUE(new_key || k->second == identity) << "key shared by " << k->second << " and " << identity;
    auto [p, new_fen] = by_fen.emplace(identity, pos.key());
    EXPECT_TRUE(new_fen || p->second == pos.key()) << identity << " has two keys";
  }
};

// What the random games ran into, so that a change of seeds or bias cannot quietly
// leave a rule untested.
struct Coverage {
  int in_check = 0, mated = 0, castling = 0, promotion = 0, en_passant = 0;
  int en_passant_pinned = 0;  // a pawn stands ready to capture, but the capture is illegal
};

// All checks of one position; `ref` is the reference's own board for the same game.
void check_position(const Position& pos, const reference::Board& ref, KeyLedger& ledger, Coverage& seen) {
  const std::string fen = pos.fen();
  SCOPED_TRACE(fen);
  expect_same_state(fen, ref);

  // FEN round trip, and the reference rebuilt from the core's FEN.
  Position reread = Position::from_fen(fen);
  EXPECT_TRUE(reread == pos);
  EXPECT_EQ(reread.fen(), fen);
  const reference::Board from_core_fen = reference::from_fen(fen);
  EXPECT_EQ(pos.in_check(), reference::in_check(ref));
  EXPECT_EQ(pos.in_check(), reference::in_check(from_core_fen));
  EXPECT_EQ(pos.key(), pos.compute_key());
  ledger.record(pos);

  // Move sets. The reference's own board may carry an en-passant square the core
  // dropped; the legal moves must be the same either way.
  const MoveList moves = legal_moves(pos);
  std::set<std::string> core_set;
  for (Move m : moves) core_set.insert(to_uci(m));
  EXPECT_EQ(core_set.size(), moves.size()) << "duplicate moves";
  std::map<std::string, reference::Move> ref_moves;
  bool ref_can_capture_ep = false;
  for (const auto& rm : reference::legal_moves(ref)) {
    ref_moves.emplace(reference::to_uci(rm), rm);
    ref_can_capture_ep |= (rm.flags & reference::EN_PASSANT) != 0;
  }
  std::set<std::string> ref_set;
  for (const auto& [uci, rm] : ref_moves) ref_set.insert(uci);
  std::vector<std::string> fen_moves = reference::legal_moves_uci(from_core_fen);
  ASSERT_EQ(core_set, ref_set);
  ASSERT_EQ(core_set, std::set<std::string>(fen_moves.begin(), fen_moves.end()));
  EXPECT_EQ(pos.ep_square() != SQ_NONE, ref_can_capture_ep) << "en-passant square kept iff capturable";
  EXPECT_EQ(count_legal(pos), int(moves.size()));
  EXPECT_EQ(has_legal_move(pos), !moves.empty());
  seen.in_check += pos.in_check();
  seen.mated += pos.in_check() && moves.empty();
  seen.en_passant += ref_can_capture_ep;
  if (ref.ep && !ref_can_capture_ep) {
    int behind = ref.ep - 10 * ref.side, pawn = reference::PAWN * ref.side;
    seen.en_passant_pinned += ref.cell[behind - 1] == pawn || ref.cell[behind + 1] == pawn;
  }
  for (Move m : moves) {
    seen.castling += m.kind() == CASTLING;
    seen.promotion += m.kind() == PROMOTION;
  }

  // Every move, against the reference's make of the same move.
  const Position before = pos;
  for (Move m : moves) {
    const std::string uci = to_uci(m);
    const Position child = pos.after(m);
    const reference::Board ref_child = reference::play(ref, ref_moves.at(uci));
    EXPECT_TRUE(pos == before) << uci << " changed its parent";
    EXPECT_EQ(pos.gives_check(m), child.in_check()) << uci;
    EXPECT_EQ(child.in_check(), reference::in_check(ref_child)) << uci;
    EXPECT_EQ(child.key(), child.compute_key()) << uci;
    expect_same_state(child.fen(), ref_child);
    if (::testing::Test::HasFailure()) {
      ADD_FAILURE() << "after " << uci;
      return;
    }
  }
}

// Plays seeded random games of up to 200 plies from `fen`, checking every position,
// until at least `min_positions` were checked; returns how many. A quarter of the
// moves are double pushes where one exists, so that en-passant rights, legal or
// pinned, come up often.
int random_games(const std::string& fen, uint64_t seed, int min_positions, KeyLedger& ledger, Coverage& seen) {
  std::mt19937_64 rng(seed);
  int checked = 0;
  for (int game = 0; checked < min_positions; ++game) {
    SCOPED_TRACE("game " + std::to_string(game) + " from " + fen);
    Position pos = Position::from_fen(fen);
    reference::Board ref = reference::from_fen(fen);
    for (int ply = 0; ply < 200; ++ply) {
      check_position(pos, ref, ledger, seen);
      ++checked;
      if (::testing::Test::HasFailure()) return checked;
      MoveList moves = legal_moves(pos);
      if (moves.empty()) break;
      std::vector<Move> pushes;
      for (Move m : moves)
        if (is_double_push(pos, m)) pushes.push_back(m);
      Move m = !pushes.empty() && rng() % 4 == 0 ? pushes[rng() % pushes.size()] : moves[rng() % moves.size()];
      pos.do_move(m);
      ref = reference::play_uci(ref, to_uci(m));
    }
  }
  return checked;
}

// Positions per starting point; ten starting points make well over 20,000.
constexpr int POSITIONS_EACH = 2500;

Position play_line(const std::string& fen, std::initializer_list<const char*> line) {
  Position pos = Position::from_fen(fen);
  for (const char* uci : line) {
    std::optional<Move> m = parse_uci(pos, uci);
    EXPECT_TRUE(m) << uci << " in " << pos.fen();
    if (m) pos.do_move(*m);
  }
  return pos;
}

}  // namespace

TEST(Consistency, RandomGamesCoverTwentyThousandPositions) {
  const char* starts[] = {
      START_FEN.data(),
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
      "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
      "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
      "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
      // En passant pinned along the rank (after c7c5), the file (after e2e4) and the
      // diagonal (after d7d5), and a checking double push taken en passant (after c2c4).
      "8/2p5/8/KP5r/8/8/8/7k b - - 0 1",
      "3k4/8/8/8/3p4/8/4P3/3RK3 w - - 0 1",
      "7b/3p4/8/4P3/8/8/1K6/7k b - - 0 1",
      "8/8/8/3k4/1p6/8/2P5/4K3 w - - 0 1",
  };
  KeyLedger ledger;
  Coverage seen;
  int total = 0;
  uint64_t seed = 0x5EED;
  for (const char* fen : starts) {
    total += random_games(fen, seed++, POSITIONS_EACH, ledger, seen);
    if (HasFailure()) return;
  }
  EXPECT_GE(total, 20000);
  EXPECT_GT(seen.in_check, 0);
  EXPECT_GT(seen.mated, 0);
  EXPECT_GT(seen.castling, 0);
  EXPECT_GT(seen.promotion, 0);
  EXPECT_GT(seen.en_passant, 0);
  EXPECT_GT(seen.en_passant_pinned, 0);
  RecordProperty("positions", total);
  RecordProperty("in_check", seen.in_check);
  RecordProperty("mated", seen.mated);
  RecordProperty("castling_moves", seen.castling);
  RecordProperty("promotion_moves", seen.promotion);
  RecordProperty("en_passant_positions", seen.en_passant);
  RecordProperty("en_passant_pinned", seen.en_passant_pinned);
}

TEST(Consistency, TranspositionsShareKeys) {
  std::string start(START_FEN);
  Position a = play_line(start, {"g1f3", "g8f6", "b1c3", "b8c6"});
  Position b = play_line(start, {"b1c3", "b8c6", "g1f3", "g8f6"});
  EXPECT_TRUE(a == b);
  EXPECT_EQ(a.key(), b.key());
  EXPECT_EQ(a.fen(), b.fen());

  // Same placement after both sides double-pushed in a different order: the last push
  // leaves no capturable en-passant square, so nothing tells the orders apart.
  Position c = play_line(start, {"e2e4", "e7e5", "d2d4", "d7d5"});
  Position d = play_line(start, {"d2d4", "d7d5", "e2e4", "e7e5"});
  EXPECT_EQ(c.key(), d.key());
  EXPECT_EQ(c.fen(), d.fen());

  // A knight tour back home restores the start position's key, though not its clocks.
  Position e = play_line(start, {"g1f3", "g8f6", "f3g1", "f6g8"});
  EXPECT_EQ(e.key(), Position::start().key());
  EXPECT_FALSE(e == Position::start());

  // All castling rights lost along different routes (kings stepping out and back,
  // rooks stepping out and back): same placement, no rights, same key as that FEN.
  Position f = play_line(KIWIPETE, {"e1d1", "e8d8", "d1e1", "d8e8"});
  Position g = play_line(KIWIPETE, {"a1b1", "a8b8", "b1a1", "b8a8", "h1g1", "h8g8", "g1h1", "g8h8"});
  Position none = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1");
  EXPECT_EQ(split(f.fen())[0], split(g.fen())[0]);
  EXPECT_EQ(f.castling(), NO_CASTLING);
  EXPECT_EQ(g.castling(), NO_CASTLING);
  EXPECT_EQ(f.key(), g.key());
  EXPECT_EQ(f.key(), none.key());
  EXPECT_NE(f.key(), Position::from_fen(KIWIPETE).key());
}

TEST(Consistency, SideToMoveChangesKey) {
  Position w = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  Position b = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
  EXPECT_NE(w.key(), b.key());
  Position x = Position::from_fen(KIWIPETE);
  Position y = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1");
  EXPECT_NE(x.key(), y.key());
}

TEST(Consistency, CastlingRightsChangeKey) {
  std::set<Key> keys;
  for (int rights = 0; rights < 16; ++rights) {
    std::string field;
    for (int i = 0; i < 4; ++i)
      if (rights & (1 << i)) field += "KQkq"[i];
    Position pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w " + (field.empty() ? "-" : field) + " - 0 1");
    EXPECT_EQ(pos.castling(), CastlingRights(rights));
    keys.insert(pos.key());
  }
  EXPECT_EQ(keys.size(), 16u);
}

TEST(Consistency, CapturableEnPassantChangesKey) {
  // d7d5 next to the pawn on e5: the capture e5d6 is legal, so the right is kept.
  Position pos = play_line("rnbqkbnr/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", {"d7d5"});
  EXPECT_EQ(pos.ep_square(), SQ_D6);
  EXPECT_EQ(split(pos.fen())[3], "d6");
  Position without = Position::from_fen("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
  EXPECT_NE(pos.key(), without.key());
  EXPECT_FALSE(pos == without);
  EXPECT_TRUE(pos == Position::from_fen(pos.fen()));
}

TEST(Consistency, UncapturableEnPassantLeavesKey) {
  struct Case {
    const char* before;
    const char* push;
    const char* without;  // the position after the push, no en-passant square
  };
  const Case cases[] = {
      // No pawn beside the pushed one.
      {START_FEN.data(), "e2e4", "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"},
      // The capturer is pinned along the rank once both pawns leave it.
      {"8/2p5/8/KP5r/8/8/8/7k b - - 0 1", "c7c5", "8/8/8/KPp4r/8/8/8/7k w - - 0 2"},
      // Pinned along the d-file.
      {"3k4/8/8/8/3p4/8/4P3/3RK3 w - - 0 1", "e2e4", "3k4/8/8/8/3pP3/8/8/3RK3 b - - 0 1"},
      // Pinned along the long diagonal.
      {"7b/3p4/8/4P3/8/8/1K6/7k b - - 0 1", "d7d5", "7b/8/8/3pP3/8/8/1K6/7k w - - 0 2"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.push);
    Position pushed = play_line(c.before, {c.push});
    Position plain = Position::from_fen(c.without);
    EXPECT_EQ(pushed.ep_square(), SQ_NONE);
    EXPECT_EQ(pushed.key(), plain.key());
    EXPECT_EQ(pushed.fen(), plain.fen());
    EXPECT_TRUE(pushed == plain);
    // The reference keeps the square yet finds no en-passant capture either.
    reference::Board ref = reference::play_uci(reference::from_fen(c.before), c.push);
    EXPECT_NE(ref.ep, 0);
    for (const auto& m : reference::legal_moves(ref)) EXPECT_FALSE(m.flags & reference::EN_PASSANT);
  }
  // Written with the square in the FEN, the core drops it the same way.
  EXPECT_TRUE(Position::from_fen("8/8/8/KPp4r/8/8/8/7k w - c6 0 2") ==
              Position::from_fen("8/8/8/KPp4r/8/8/8/7k w - - 0 2"));
}
