"""Chess960 and Double Fischer Random self-play over ranks and through a resume.

Each game pair starts from a position drawn from (seed, pair), so the dataset must not
depend on which rank played a pair nor on a stop in the middle:

1. --variant dfrc with the built-in search in one process on 2 threads and on 3 ranks of
   1 thread: the same /games and /positions, column by column; every game's start is a
   DFRC start (its back ranks differ for some game, pawns on their ranks, castling rights
   for both sides) and its /games/variant says so.
2. --variant chess960 stopped by SIGTERM after its first part, resumed on 2 ranks: the
   same dataset as the uninterrupted run, with Chess960 castling (king takes rook in
   /positions/move) where the games castled.

usage: mpi_variant_selfplay.py MPIEXEC CHESSHPC
"""
import os
import sys
import tempfile

from mpi_selfplay import ENV, columns, games_in_parts, mpirun, run, same
from procs import stop_after_first_record

GAMES = 8


def batch(binary, out, variant, threads, *extra, games=GAMES, nodes=400):
    return [binary, "selfplay", "--games", str(games), "--nodes", str(nodes), "--seed", "5", "--variant", variant,
            "--random-plies", "2", "--resign-score", "700", "--max-plies", "120", "--threads", str(threads),
            "--games-per-unit", "1", "--out", out, "--json", "--quiet", *extra]


def back_ranks(fen):
    rows = fen.split()[0].split("/")
    return rows[7], rows[0]


def is_castling(fen, move):
    """Whether the UCI move is a castling: the king takes its own rook (Chess960's form)."""
    board, side = fen.split()[0], fen.split()[1]
    squares = {}
    for r, row in enumerate(board.split("/")):
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
            else:
                squares["abcdefgh"[f] + str(8 - r)] = c
                f += 1
    king, rook = ("K", "R") if side == "w" else ("k", "r")
    return squares.get(move[:2]) == king and squares.get(move[2:4]) == rook


def main(mpiexec, binary):
    with tempfile.TemporaryDirectory() as tmp:
        one, three = os.path.join(tmp, "one.h5"), os.path.join(tmp, "three.h5")
        run(batch(binary, one, "dfrc", 2))
        run(mpirun(mpiexec, 3) + batch(binary, three, "dfrc", 1))
        reference = columns(one)
        same(reference, columns(three))
        starts = [s.decode() for s in reference["games/start_fen"]]
        assert {v.decode() for v in reference["games/variant"]} == {"dfrc"}, set(reference["games/variant"])
        for fen in starts:
            fields = fen.split()
            rows = fields[0].split("/")
            assert rows[1] == "pppppppp" and rows[6] == "PPPPPPPP", fen
            assert sorted(rows[7]) == sorted("RNBQKBNR") and sorted(rows[0]) == sorted("rnbqkbnr"), fen
        assert any(w.lower() != b for w, b in map(back_ranks, starts)), "no DFRC start had different back ranks"
        assert len(set(starts)) == GAMES // 2, f"{len(set(starts))} starts for {GAMES // 2} pairs"
        print(f"dfrc: the same {GAMES} games on 2 threads and on 3 ranks, {len(set(starts))} starts")

        full, stopped = os.path.join(tmp, "full.h5"), os.path.join(tmp, "stopped.h5")
        # Long enough (about 3 s) for SIGTERM to land between the first part and the end.
        long = {"games": 24, "nodes": 3000}
        run(batch(binary, full, "chess960", 1, **long))
        reference = columns(full)
        cmd = batch(binary, stopped, "chess960", 1, "--checkpoint", "0.05", **long)
        stop_after_first_record(cmd, lambda: games_in_parts(stopped), "the chess960 batch", ENV)
        kept = games_in_parts(stopped)
        r = run(mpirun(mpiexec, 2) + cmd + ["--resume"])
        assert r["games_resumed"] == kept and r["games_played"] == long["games"] - kept, r
        same(reference, columns(stopped))
        castled = [m.decode() for m, f in zip(reference["positions/move"], reference["positions/fen"])
                   if is_castling(f.decode(), m.decode())]
        assert castled, "no game castled"
        print(f"chess960: SIGTERM after {kept} games, resumed on 2 ranks: the same dataset, {len(castled)} castlings")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
