"""chesshpc export read back by the chesshpc package's readers (analysis/chesshpc/exports.py,
written from the formats' published descriptions, sharing nothing with chesshpc's encoders):

- Stockfish's .plain (tools branch): records "fen F / move M / score S / ply P / result R / e",
  score and result from the side to move;
- Stockfish's .bin: 40-byte PackedSfenValue, a 256-bit Huffman PackedSfen then int16 score,
  uint16 move, uint16 gamePly, int8 result, a padding byte;
- .binpack (Stockfish, nnue-pytorch): chains of a game's positions (chesshpc/binpack.py);
- bullet's ChessBoard (bulletformat crate): 32 bytes, the board seen by the side to move;
- bullet's text "FEN | score | result", White's view.

Every record is checked against /positions as h5py reads it: FEN, score (Stockfish's scale:
mate in N moves 32000 - (2N - 1), mated -32000 + 2N), move and result. A copy of the file
without the columns added for the filters exports the same bytes.

usage: read_export.py CHESSHPC
"""
import math
import os
import shutil
import subprocess
import sys
import tempfile

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "analysis"))

from chesshpc import exports  # noqa: E402

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


def ply_of(fen):
    full = int(fen.split()[5])
    return 2 * (full - 1) + (fen.split()[1] == "b")


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
        scored = [i for i in rows if score[i] != VALUE_NONE]
        sizes = {}
        for fmt in exports.FORMATS:
            out = f"{tmp}/s.{fmt}"
            run([binary, "export", "--format", fmt, h5, "--out", out])
            with open(out, "rb") as f:
                sizes[fmt] = f.read()
            records = exports.read_export(out, fmt)
            kept = scored if fmt.startswith("bullet") else rows
            assert len(records) == len(kept), (fmt, len(records), len(kept))
            for i, r in zip(kept, records):
                want_fen = exports.mover_board(fen[i]) if fmt == "bullet" else fen[i]
                want = (want_fen, "" if fmt.startswith("bullet") else move[i], score[i],
                        -1 if fmt.startswith("bullet") else ply_of(fen[i]), mover_wdl[i])
                assert tuple(r.tolist()) == want, (fmt, i, r, want)

        assert sizes["plain"].decode().count("e\n") == len(rows)
        bins = np.frombuffer(sizes["bin"], dtype=exports.BIN_RECORD)
        assert exports.BIN_RECORD.itemsize == 40 and (bins["pad"] == 0).all()
        boards = np.frombuffer(sizes["bullet"], dtype=exports.BULLET_RECORD)
        assert exports.BULLET_RECORD.itemsize == 32 and (boards["extra"] == 0).all()
        for i, b in zip(scored, boards):  # the kings' squares, in the side to move's view
            mover = exports.mover_board(fen[i])
            squares = "".join(c if not c.isdigit() else "." * int(c) for c in "/".join(reversed(mover.split("/"))))
            squares = squares.replace("/", "")
            assert (squares[b["ksq"]], squares[b["opp_ksq"] ^ 56]) == ("K", "k"), i
        lines = sizes["bullet-text"].decode().splitlines()
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
