"""rescore's CPU against Stockfish's own search time for the same positions.

Stockfish alone: one process given every position of a selfplay file (ucinewgame, position
fen, go depth D), its CPU (user + system) measured as a child's. rescore: the whole run's
CPU, chesshpc's processes and the Stockfish processes they drive, on 1 rank and on 2
(mpirun), one engine a rank. The runs are interleaved, ROUNDS times; the medians and their
ratios are printed.

usage: rescore_vs_stockfish.py CHESSHPC [MPIEXEC] [--games N] [--depth D] [--rounds R]
"""
import argparse
import os
import resource
import statistics
import subprocess
import tempfile
import time

import h5py

STOCKFISH = "/usr/games/stockfish"
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_btl_vader_single_copy_mechanism="none")


def child_cpu(cmd, stdin=None):
    """(CPU seconds of cmd and its descendants, wall seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    subprocess.run(cmd, input=stdin, text=True, check=True, stdout=subprocess.DEVNULL, env=ENV)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, wall


def stockfish_script(fens, depth):
    text = "uci\nsetoption name Hash value 16\n"
    for fen in fens:
        text += f"ucinewgame\nisready\nposition fen {fen}\ngo depth {depth}\n"
    # Waits for the last bestmove before quitting: "isready" is answered only after it.
    return text + "isready\nquit\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("chesshpc")
    ap.add_argument("mpiexec", nargs="?", default="mpirun")
    ap.add_argument("--games", type=int, default=16)
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "games.h5")
        subprocess.run([a.chesshpc, "selfplay", "--games", str(a.games), "--nodes", "500", "--random-plies", "4",
                        "--out", src, "--quiet"], check=True, stdout=subprocess.DEVNULL)
        with h5py.File(src, "r") as f:
            fens = f["positions/fen"].asstr()[:].tolist()
        script = stockfish_script(fens, a.depth)
        rescore = [a.chesshpc, "rescore", src, "--engine", f"cmd=uci:{STOCKFISH}", f"depth={a.depth}",
                   "option.Hash=16", "--threads", "1", "--quiet", "--force", "--out"]
        runs = {"stockfish alone": [], "rescore 1 rank": [], "rescore 2 ranks": []}
        for _ in range(a.rounds):
            runs["stockfish alone"].append(child_cpu([STOCKFISH], script))
            runs["rescore 1 rank"].append(child_cpu(rescore + [os.path.join(tmp, "r1.h5")]))
            runs["rescore 2 ranks"].append(child_cpu([a.mpiexec, "-np", "2", "--oversubscribe", "--bind-to", "none"] +
                                                     rescore + [os.path.join(tmp, "r2.h5")]))
        base = statistics.median(c for c, _ in runs["stockfish alone"])
        print(f"{len(fens)} positions, depth {a.depth}, {a.rounds} rounds interleaved, load {os.getloadavg()[0]:.1f}")
        for name, r in runs.items():
            cpu, wall = statistics.median(c for c, _ in r), statistics.median(w for _, w in r)
            print(f"{name:16s} CPU {cpu:7.2f} s (x{cpu / base:.3f})  wall {wall:7.2f} s")


if __name__ == "__main__":
    main()
