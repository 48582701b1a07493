"""Chess960 perft over MPI ranks: split into units and deduplicated, the same total as
Stockfish's and the same divide as one process, with castling written king-takes-rook in
the divide and in the result file.

usage: mpi_chess960.py MPIEXEC CHESSHPC
"""
import os
import sys
import tempfile

import h5py

from mpi_ranks import run  # one JSON line from a command

# Rooks on b1 and g1 (the king's destination): both castlings legal at ply 1. Stockfish
# 15.1 (UCI_Chess960 true, go perft 5) counts 8672978, with O-O (e1g1) 14526 at depth 4.
FEN = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1"
DEPTH, STOCKFISH = 5, 8672978


def main(mpiexec, binary):
    perft = [binary, "perft", "--fen", FEN, "--depth", str(DEPTH), "--divide", "--json", "--quiet", "--threads", "1"]
    mpi = [mpiexec, "-np", "2", "--oversubscribe", "--bind-to", "none"]
    reference = run(perft)
    assert reference["nodes"] == STOCKFISH, reference["nodes"]
    assert {"e1g1", "e1b1"} <= set(reference["divide"]), sorted(reference["divide"])
    runs = {"split, 2 ranks": run(mpi + perft + ["--split-depth", "2"]),
            "dedup ply 3, 2 ranks": run(mpi + perft + ["--dedup-ply", "3"])}
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "perft.h5")
        run(mpi + perft + ["--split-depth", "2", "--out", out])
        with h5py.File(out, "r") as f:
            runs["split, 2 ranks, file"] = {
                "nodes": int(f.attrs["total"]),
                "divide": dict(zip(f["divide/move"].asstr()[:], (int(x) for x in f["divide/nodes"].asstr()[:]))),
            }
    bad = [name for name, r in runs.items() if r["nodes"] != STOCKFISH or r["divide"] != reference["divide"]]
    for name, r in runs.items():
        print(f"{name}: nodes={r['nodes']} {'MISMATCH' if name in bad else 'ok'}")
    sys.exit(1 if bad else 0)

if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
