"""bench/selfplay_anchor.sh without fastchess, `chesshpc uci` standing in for Stockfish: the
shared EPD book is data/openings.txt played out, chesshpc plays the same games on 1 and 2
threads and 2 ranks (plies equal, and equal to the dataset's positions), the built-in row
has its ratio to the UCI row, and bad usage is one line and exit 2.

usage: selfplay_anchor.py SELFPLAY_ANCHOR_SH CHESSHPC MPIEXEC
"""
import os
import re
import stat
import subprocess
import sys
import tempfile

import h5py

# data/openings.txt's first line, e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6, played out.
FIRST_FEN = "r1bqkb1r/1ppp1ppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 2 5"
ROWS = ["chesshpc-n300-t1", "chesshpc-n300-t2", "chesshpc-n300-r2", "builtin-n300-t1", "stockfish-n300-t1"]


def bad_usage(script, binary):
    r = subprocess.run(["bash", script, binary, "none"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stderr.startswith("usage: bench/selfplay_anchor.sh CHESSHPC"), r
    r = subprocess.run(["bash", script, binary, "none", binary, "--games", "3"], capture_output=True, text=True,
                       timeout=60)
    assert (r.returncode, r.stderr) == (2, "bench/selfplay_anchor.sh: --games 3: an even number (game pairs) "
                                           "is needed\n"), r
    r = subprocess.run(["bash", script, binary, "/nonexistent/fastchess", binary], capture_output=True, text=True,
                       timeout=60)
    assert (r.returncode, r.stderr) == (2, "bench/selfplay_anchor.sh: no fastchess at '/nonexistent/fastchess' "
                                           "(give its path, or none)\n"), r


def table(stdout):
    """{row name: [games, plies, plies/s ratio, CPU ratio]} of the summary's Markdown table."""
    rows = {}
    for line in stdout.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 9 and re.fullmatch(r"[a-z]+-n\d+-[tr]\d", cells[0]):
            rows[cells[0]] = [int(cells[1]), int(cells[2]), cells[6], cells[8]]
    return rows


def main(script, binary, mpiexec):
    bad_usage(script, binary)
    with tempfile.TemporaryDirectory() as tmp:
        engine = os.path.join(tmp, "engine")
        with open(engine, "w") as f:
            f.write(f"#!/bin/sh\nexec '{binary}' uci\n")
        os.chmod(engine, os.stat(engine).st_mode | stat.S_IXUSR)
        out = os.path.join(tmp, "run")
        cmd = ["bash", script, binary, "none", engine, "--games", "2", "--nodes", "300", "--builtin-games", "2",
               "--runs", "1", "--dir", out]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=240, env=dict(os.environ, MPIRUN=mpiexec))
        assert r.returncode == 0, r.stdout + r.stderr
        with open(os.path.join(out, "openings.epd")) as f:
            book = f.read().splitlines()
        assert len(book) == 100 and book[0] == FIRST_FEN, book[:2]
        rows = table(r.stdout)
        assert list(rows) == ROWS, r.stdout
        plies = {rows[n][1] for n in ROWS[:3]}
        assert len(plies) == 1, f"the same games on 1, 2 threads and 2 ranks: {r.stdout}"
        with h5py.File(os.path.join(out, "chesshpc-n300-t1.h5"), "r") as f:
            assert (len(f["games"]["game"]), len(f["positions"]["ply"])) == (2, rows[ROWS[0]][1]), r.stdout
            assert list(f["games"]["book_plies"]) == [0, 0], "an EPD book plays no book moves"
        assert all(rows[n][0] == 2 for n in ROWS), r.stdout
        assert [rows[n][2:] for n in ROWS[:3]] == [["", ""]] * 3, "no fastchess, no ratio"
        assert all(re.fullmatch(r"\d+\.\d\d", v) for v in rows["builtin-n300-t1"][2:]), r.stdout
        assert r.stdout.startswith("load average before: "), r.stdout
    print(f"selfplay_anchor.sh: {len(ROWS)} rows, {plies.pop()} plies on every layout")


if __name__ == "__main__":
    main(*sys.argv[1:])
