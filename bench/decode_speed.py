#!/usr/bin/env python3
"""How fast the Python package chesshpc decodes selfplay's packed positions, on one core.

Plays a small selfplay batch with the built binary (or reads FILE.h5), repeats its /positions
rows to --rows rows, and times each decoder over them: the piece planes (N x 12 x 64), the
side to move, castling rights, en passant and clocks (chesshpc.board.decode), FEN strings,
UCI moves to from/to/promo arrays, gives_check and is_capture for files that lack them, and
a PositionStream epoch (planes and targets in batches of 4096). Prints the best of --repeats
runs of each, in positions a second. Pin it to one core (taskset -c 1) for a one-core figure.

usage: decode_speed.py CHESSHPC|FILE.h5 [--rows N] [--repeats R] [--batch B]
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "analysis"))

import chesshpc  # noqa: E402
from chesshpc import board, moves  # noqa: E402
from chesshpc.stream import Filters, PositionStream  # noqa: E402


def best_rate(fn, rows, repeats):
    """rows over the least CPU time of this process (time.process_time: on a loaded machine
    the wall clock counts other jobs' time) of repeats runs."""
    best = float("inf")
    for _ in range(repeats):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return rows / best


def batched(fn, *arrays, batch):
    """fn over consecutive batches of the arrays' rows, as a trainer decodes them."""
    return lambda: [fn(*(x[i:i + batch] for x in arrays)) for i in range(0, len(arrays[0]), batch)]


def main():
    ap = argparse.ArgumentParser(description="chesshpc's Python decoders, positions a second")
    ap.add_argument("source", help="the chesshpc binary (plays a batch) or a selfplay FILE.h5")
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--batch", type=int, default=65536, help="rows decoded at a time")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = a.source
        if not path.endswith(".h5"):
            path = os.path.join(tmp, "games.h5")
            subprocess.run([a.source, "selfplay", "--games", "40", "--nodes", "300", "--random-plies", "4", "--seed",
                            "1", "--threads", "1", "--out", path, "--quiet"], check=True, stdout=subprocess.DEVNULL)
        with chesshpc.open(path) as f:
            packed, uci = f.packed(), f.column("positions", "move")
        reps = -(-a.rows // len(packed))
        packed, uci = np.tile(packed, (reps, 1))[:a.rows], np.tile(uci, reps)[:a.rows]
        s5 = uci.astype("S5")
        big = os.path.join(tmp, "big.h5")
        make_copy(path, big, reps)
        stream = PositionStream([big], batch_size=4096, filters=Filters(skip_unscored=False))
        b = a.batch
        cases = [
            ("planes N x 12 x 64", batched(board.planes, packed, batch=b)),
            ("board, side, castling, ep, clocks (decode)", batched(board.decode, packed, batch=b)),
            ("planes and every field (decode with_planes)",
             batched(lambda p: board.decode(p, with_planes=True), packed, batch=b)),
            ("FEN strings", batched(board.fens, packed, batch=b)),
            ("moves to from/to/promo", batched(moves.decode, s5, batch=b)),
            ("is_capture derived", batched(moves.captures_or_promotes, packed, s5, batch=b)),
            ("gives_check derived", batched(moves.gives_check, packed, s5, batch=b)),
        ]
        print(f"{a.rows} positions ({len(np.unique(packed, axis=0))} distinct), best of {a.repeats}, "
              f"batches of {a.batch}, numpy {np.__version__}, CPU seconds of one thread")
        for name, fn in cases:
            print(f"{name:45s} {best_rate(fn, a.rows, a.repeats) / 1e6:6.2f} M positions/s")
        n = len(stream)
        rate = best_rate(lambda: sum(len(b["index"]) for b in stream.batches()), n, a.repeats)
        print(f"{'PositionStream epoch from HDF5 (' + str(n) + ' rows)':45s} {rate / 1e6:6.2f} M positions/s")


def make_copy(path, out, reps):
    """The selfplay file's /positions repeated reps times, for the stream's timing."""
    import h5py

    with h5py.File(path, "r") as src, h5py.File(out, "w") as dst:
        for k, v in src.attrs.items():
            dst.attrs[k] = v
        g = dst.create_group("positions")
        for name, d in src["positions"].items():
            data = d[:]
            g.create_dataset(name, data=np.concatenate([data] * reps), chunks=True, compression="gzip")


if __name__ == "__main__":
    main()
