"""chesshpc export read back by readers written here from the formats' published
descriptions, sharing nothing with chesshpc's encoders:

- Stockfish's .plain (tools branch): records "fen F / move M / score S / ply P / result R / e",
  score and result from the side to move;
- Stockfish's .bin: 40-byte PackedSfenValue, a 256-bit Huffman PackedSfen (bits from bit 0
  of byte 0, values least significant bit first) then int16 score, uint16 move, uint16
  gamePly, int8 result, a padding byte;
- .binpack (Stockfish, nnue-pytorch): chains of a game's positions, read by read_binpack.py;
- bullet's ChessBoard (bulletformat crate): 32 bytes, the board seen by the side to move;
- bullet's text "FEN | score | result", White's view.

Every record is checked against /positions as h5py reads it: FEN, score (Stockfish's scale:
mate in N moves 32000 - (2N - 1), mated -32000 + 2N), move and result. A copy of the file
without the columns added for the filters exports the same bytes.

usage: read_export.py CHESSHPC
"""
import math
import shutil
import subprocess
import sys
import tempfile

import h5py
import numpy as np
import read_binpack

VALUE_NONE = 32002


def run(args):
    r = subprocess.run(args, capture_output=True, text=True)
    assert r.returncode == 0, (args, r.returncode, r.stderr)
    return r


def expected_score(cp, mate):
    if mate > 0:
        return 32000 - (2 * mate - 1)
    if mate < 0:
        return -32000 + 2 * -mate
    return VALUE_NONE if math.isnan(cp) else int(round(cp))


def square(sq):
    return "abcdefgh"[sq % 8] + "12345678"[sq // 8]


def board_fen(board):
    """board: 64 characters from a1, '.' empty."""
    ranks = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for c in board[8 * rank:8 * rank + 8]:
            if c == ".":
                empty += 1
                continue
            row += (str(empty) if empty else "") + c
            empty = 0
        ranks.append(row + (str(empty) if empty else ""))
    return "/".join(ranks)


def fen_board(fen):
    board = ["."] * 64
    rank, file = 7, 0
    for c in fen.split()[0]:
        if c == "/":
            rank, file = rank - 1, 0
        elif c.isdigit():
            file += int(c)
        else:
            board[8 * rank + file] = c
            file += 1
    return board


def sfen_fen(data):
    bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8), bitorder="little")
    at = 0

    def get(n):
        nonlocal at
        v = sum(int(bits[at + i]) << i for i in range(n))
        at += n
        return v

    black = get(1)
    kings = {get(6): "K", get(6): "k"}
    board = ["."] * 64
    # After a piece's leading 1, three bits (first read lowest): 0 pawn, 1 knight, 2 bishop,
    # 3 rook, 4 queen; then the colour.
    for rank in range(7, -1, -1):
        for file in range(8):
            sq = 8 * rank + file
            if sq in kings:
                board[sq] = kings[sq]
            elif get(1):
                piece = "pnbrq"[get(3)]
                board[sq] = piece if get(1) else piece.upper()
    castling = "".join(c for c in "KQkq" if get(1)) or "-"
    ep = square(get(6)) if get(1) else "-"
    rule50 = get(6)
    fullmove = get(8) | get(8) << 8
    rule50 |= get(1) << 6
    return f"{board_fen(board)} {'b' if black else 'w'} {castling} {ep} {rule50} {fullmove}"


def sf_move(m):
    to, frm, promo, kind = m & 63, m >> 6 & 63, m >> 12 & 3, m >> 14
    if kind == 3:  # castling: the king takes its rook; standard chess's UCI names the king's square
        to = frm + 2 if to > frm else frm - 2
    return square(frm) + square(to) + ("nbrq"[promo] if kind == 1 else "")


def mover_board(fen):
    board = fen_board(fen)
    if fen.split()[1] == "w":
        return board
    return [board[sq ^ 56].swapcase() for sq in range(64)]


def main():
    binary = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        h5 = f"{tmp}/s.h5"
        run([binary, "selfplay", "--games", "12", "--nodes", "300", "--random-plies", "4", "--seed", "3",
             "--max-plies", "160", "--out", h5, "--quiet"])
        with h5py.File(h5, "r") as f:
            p = f["positions"]
            # Moves and FENs are fixed-length text, numpy bytes of at most 5 (e7e8q) and 93.
            assert (p["move"].dtype, p["best"].dtype, p["fen"].dtype) == ("S5", "S5", "S93"), p["fen"].dtype
            fen, move = p["fen"].asstr()[:], p["move"].asstr()[:]
            cp, mate, result = p["score_cp"][:], p["mate_in"][:], p["result"][:]
        rows = [i for i in range(len(fen)) if not math.isnan(result[i])]
        score = {i: expected_score(cp[i], mate[i]) for i in rows}
        mover_wdl = {i: {1.0: 1, 0.5: 0, 0.0: -1}[result[i]] for i in rows}
        sizes = {}
        for fmt in ("plain", "bin", "binpack", "bullet", "bullet-text"):
            run([binary, "export", "--format", fmt, h5, "--out", f"{tmp}/s.{fmt}"])
            with open(f"{tmp}/s.{fmt}", "rb") as f:
                sizes[fmt] = f.read()

        plain = sizes["plain"].decode().split("e\n")
        assert plain[-1] == "" and len(plain) - 1 == len(rows), (len(plain), len(rows))
        for i, record in zip(rows, plain):
            fields = dict(line.split(" ", 1) for line in record.splitlines())
            full = int(fen[i].split()[5])
            assert fields == {"fen": fen[i], "move": move[i], "score": str(score[i]),
                              "ply": str(2 * (full - 1) + (fen[i].split()[1] == "b")),
                              "result": str(mover_wdl[i])}, (i, fields)

        bin_type = np.dtype([("sfen", "u1", 32), ("score", "<i2"), ("move", "<u2"), ("ply", "<u2"),
                             ("result", "i1"), ("pad", "u1")])
        assert bin_type.itemsize == 40
        records = np.frombuffer(sizes["bin"], dtype=bin_type)
        assert len(records) == len(rows)
        for i, r in zip(rows, records):
            assert sfen_fen(r["sfen"].tobytes()) == fen[i], (i, sfen_fen(r["sfen"].tobytes()), fen[i])
            assert (int(r["score"]), sf_move(int(r["move"])), int(r["result"]), int(r["pad"])) == \
                (score[i], move[i], mover_wdl[i], 0), i

        # binpack through read_binpack.py's reader, written from the format's description.
        entries = read_binpack.read_file(sizes["binpack"])
        assert len(entries) == len(rows), (len(entries), len(rows))
        for i, e in zip(rows, entries):
            full = int(fen[i].split()[5])
            assert e == (fen[i], move[i], score[i], 2 * (full - 1) + (fen[i].split()[1] == "b"), mover_wdl[i]), (i, e)

        scored = [i for i in rows if score[i] != VALUE_NONE]
        bullet_type = np.dtype([("occ", "<u8"), ("pcs", "u1", 16), ("score", "<i2"), ("result", "u1"),
                                ("ksq", "u1"), ("opp_ksq", "u1"), ("extra", "u1", 3)])
        assert bullet_type.itemsize == 32
        boards = np.frombuffer(sizes["bullet"], dtype=bullet_type)
        assert len(boards) == len(scored), (len(boards), len(scored))
        for i, b in zip(scored, boards):
            board, occ, idx = ["."] * 64, int(b["occ"]), 0
            while occ:
                sq = (occ & -occ).bit_length() - 1
                nibble = int(b["pcs"][idx // 2]) >> (4 * (idx & 1)) & 15
                board[sq] = "PNBRQK"[nibble & 7].lower() if nibble & 8 else "PNBRQK"[nibble & 7]
                occ &= occ - 1
                idx += 1
            mine = mover_board(fen[i])
            assert board == mine, (i, board_fen(board), fen[i])
            assert (int(b["score"]), int(b["result"]), mine[b["ksq"]], mine[b["opp_ksq"] ^ 56],
                    b["extra"].tolist()) == (score[i], mover_wdl[i] + 1, "K", "k", [0, 0, 0]), i

        lines = sizes["bullet-text"].decode().splitlines()
        assert len(lines) == len(scored)
        for i, line in zip(scored, lines):
            white = fen[i].split()[1] == "w"
            wdl = mover_wdl[i] if white else -mover_wdl[i]
            assert line == f"{fen[i]} | {score[i] if white else -score[i]} | {(wdl + 1) / 2:.1f}", (i, line)

        # A file written before is_capture, gives_check, wdl and time_ms existed: they are
        # derived as it is read, and every format comes out the same, byte for byte.
        old = f"{tmp}/old.h5"
        shutil.copy(h5, old)
        with h5py.File(old, "r+") as f:
            for column in ("is_capture", "gives_check", "wdl", "time_ms"):
                del f["positions"][column]
        for fmt in ("bin", "plain"):
            run([binary, "export", "--format", fmt, old, "--out", f"{tmp}/old.{fmt}", "--skip-capture"])
            run([binary, "export", "--format", fmt, h5, "--out", f"{tmp}/new.{fmt}", "--skip-capture"])
            with open(f"{tmp}/old.{fmt}", "rb") as a, open(f"{tmp}/new.{fmt}", "rb") as b:
                assert a.read() == b.read(), fmt

        per = {fmt: len(data) / (len(rows) if fmt in ("plain", "bin", "binpack") else len(scored)) for fmt, data in sizes.items()}
        print(f"{len(rows)} positions ({len(scored)} scored) read back in plain, bin, binpack, bullet and bullet-text; "
              "bytes a position: " + ", ".join(f"{fmt} {n:.1f}" for fmt, n in per.items()))


if __name__ == "__main__":
    main()
