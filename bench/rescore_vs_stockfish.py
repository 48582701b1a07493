"""rescore's CPU against Stockfish's own search time for the same positions.

The anchors: Stockfish alone, one process given every position of a selfplay file
(ucinewgame, position fen, go depth D), and Stockfish side by side, two processes at once,
each given the positions of every other unit of 16 (what 2 ranks of one engine each do:
two engines sharing the machine's caches), free to run on any core, and pinned, each to a
core of its own. Each anchor's CPU (user + system) is measured as its children's.
rescore: the whole run's CPU, chesshpc's processes, mpirun's and the Stockfish processes
they drive: 1 rank of one engine; 1 rank of two (--threads 2: rescore starts each engine on
a core of its own when it runs as many as it may use cores); 2 ranks (mpirun) of one
engine each, bound, each rank to a core (`mpirun --bind-to core`, Open MPI's default for
2 ranks: each engine inherits its rank's core, as docs/rescore.md says to run), and
unbound (`--bind-to none`). 1 rank of one engine is compared with Stockfish alone, two
engines pinned (1 rank of two, 2 bound ranks) with the pinned pair, 2 unbound ranks with
the free pair. The runs are interleaved, ROUNDS times; the medians and their ratios are
printed, as a table or with --json as one object.

usage: rescore_vs_stockfish.py CHESSHPC [MPIEXEC] [--games N] [--depth D] [--rounds R] [--json]
"""
import argparse
import json
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
UNIT = 16  # rescore's --positions-per-unit default: the side-by-side anchor splits the same way


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def measured(start):
    """(CPU seconds of what start() runs, until it returns, and its descendants; wall seconds)."""
    cpu, t0 = children_cpu(), time.monotonic()
    start()
    return children_cpu() - cpu, time.monotonic() - t0


def run(cmd):
    subprocess.run(cmd, text=True, check=True, stdout=subprocess.DEVNULL, env=ENV)


def side_by_side(scripts, cpus=None):
    """Every script (a file) read by its own Stockfish, all at once: from files, as a pipe
    would hold the second engine back until the first had read most of its script. With
    cpus, the i-th Stockfish runs on cpus[i] alone."""
    inputs = [open(s) for s in scripts]
    pin = [(lambda c=c: os.sched_setaffinity(0, {c})) if cpus else None for c in (cpus or scripts)]
    procs = [subprocess.Popen([STOCKFISH], stdin=f, stdout=subprocess.DEVNULL, preexec_fn=p)
             for f, p in zip(inputs, pin)]
    for p, f in zip(procs, inputs):
        assert p.wait() == 0, "stockfish failed"
        f.close()


def script_file(path, fens, depth):
    with open(path, "w") as f:
        f.write(stockfish_script(fens, depth))
    return path


def stockfish_script(fens, depth):
    text = "uci\nsetoption name Hash value 16\n"
    for fen in fens:
        text += f"ucinewgame\nisready\nposition fen {fen}\ngo depth {depth}\n"
    # Waits for the last bestmove before quitting: "isready" is answered only after it.
    return text + "isready\nquit\n"


def halves(fens):
    """The positions of even units and of odd units, as rescore's 2 ranks take turns."""
    units = [fens[i:i + UNIT] for i in range(0, len(fens), UNIT)]
    return [sum(units[0::2], []), sum(units[1::2], [])]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("chesshpc")
    ap.add_argument("mpiexec", nargs="?", default="mpirun")
    ap.add_argument("--games", type=int, default=32)
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", action="store_true", help="print the medians and ratios as one JSON object")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "games.h5")
        run([a.chesshpc, "selfplay", "--games", str(a.games), "--nodes", "500", "--random-plies", "4", "--out", src,
             "--quiet"])
        with h5py.File(src, "r") as f:
            fens = f["positions/fen"].asstr()[:].tolist()
        alone = [script_file(os.path.join(tmp, "all.uci"), fens, a.depth)]
        pair = [script_file(os.path.join(tmp, f"half{i}.uci"), h, a.depth) for i, h in enumerate(halves(fens))]
        def rescore(threads, out):
            return [a.chesshpc, "rescore", src, "--engine", f"cmd=uci:{STOCKFISH}", f"depth={a.depth}",
                    "option.Hash=16", "--threads", str(threads), "--quiet", "--force", "--out", os.path.join(tmp, out)]
        # Open MPI binds rank r to the r-th core of those it may use: the pinned pair the same.
        cores = sorted(os.sched_getaffinity(0))[:2]
        mpirun = [a.mpiexec, "-np", "2", "--oversubscribe", "--bind-to"]
        rows = {
            "stockfish alone": lambda: side_by_side(alone),
            "stockfish side by side": lambda: side_by_side(pair),
            "stockfish side by side pinned": lambda: side_by_side(pair, cores),
            "rescore 1 rank": lambda: run(rescore(1, "r1.h5")),
            "rescore 1 rank 2 threads": lambda: run(rescore(2, "r1t2.h5")),
            "rescore 2 ranks bound": lambda: run(mpirun + ["core"] + rescore(1, "r2.h5")),
            "rescore 2 ranks unbound": lambda: run(mpirun + ["none"] + rescore(1, "r2u.h5")),
        }
        anchor_of = {"rescore 1 rank": "stockfish alone", "rescore 1 rank 2 threads": "stockfish side by side pinned",
                     "rescore 2 ranks bound": "stockfish side by side pinned",
                     "rescore 2 ranks unbound": "stockfish side by side"}
        runs = {name: [] for name in rows}
        loads = [os.getloadavg()[0]]
        for _ in range(a.rounds):
            for name, start in rows.items():
                runs[name].append(measured(start))
            loads.append(os.getloadavg()[0])
    cpu = {name: statistics.median(c for c, _ in r) for name, r in runs.items()}
    wall = {name: statistics.median(w for _, w in r) for name, r in runs.items()}
    ratio = {name: cpu[name] / cpu[anchor] for name, anchor in anchor_of.items()}
    # Each run over its anchor of the same round, the median of those: the load moves between rounds.
    round_ratio = {name: statistics.median(c / a for (c, _), (a, _) in zip(runs[name], runs[anchor]))
                   for name, anchor in anchor_of.items()}
    if a.json:
        print(json.dumps({"positions": len(fens), "depth": a.depth, "rounds": a.rounds, "load": [min(loads), max(loads)],
                          "cpu": cpu, "wall": wall, "anchor": anchor_of, "ratio": ratio,
                          "round_ratio": round_ratio, "rounds_cpu": {n: [round(c, 3) for c, _ in r] for n, r in runs.items()},
                          "side_by_side_over_alone": cpu["stockfish side by side"] / cpu["stockfish alone"],
                          "pinned_over_free": cpu["stockfish side by side pinned"] / cpu["stockfish side by side"]}))
        return
    print(f"{len(fens)} positions, depth {a.depth}, {a.rounds} rounds interleaved, "
          f"load {min(loads):.1f} to {max(loads):.1f}")
    print("| run | CPU | wall | / anchor | same-round / anchor, median |")
    print("|---|---:|---:|---:|---:|")
    for name in rows:
        against = (f"{ratio[name]:.3f}x ({anchor_of[name]}) | {round_ratio[name]:.3f}x" if name in anchor_of else
                   f"{cpu[name] / cpu['stockfish alone']:.3f}x (stockfish alone) |")
        print(f"| {name} | {cpu[name]:.2f} s | {wall[name]:.2f} s | {against} |")


if __name__ == "__main__":
    main()
