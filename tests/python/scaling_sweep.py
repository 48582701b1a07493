"""bench/scaling.sh on 1 to 2 ranks and threads (quick suite): one file per point with the
ranks and threads of its name, every perft count right, and the report's curves over them.

usage: scaling_sweep.py SCALING_SH CHESSHPC REPORT MPIEXEC
"""
import json
import os
import subprocess
import sys
import tempfile

import h5py

from bench_common import check_perft_counts, read_table

POINTS = {"bench-r1-t1.h5": (1, 1), "bench-r1-t2.h5": (1, 2), "bench-r2-t1.h5": (2, 1)}


def main(script, binary, report, mpiexec):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "sweep")
        env = dict(os.environ, MPIRUN=mpiexec)
        cmd = ["bash", script, "--suite", "quick", "--threads", "2", "--ranks", "2", "--repeats", "1",
               "--stockfish", "none", "--binary", binary, "--dir", out]
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=240, env=env)
        assert run.returncode == 0, run.stdout + run.stderr
        assert f"analysis/chesshpc-report {out}/*.h5" in run.stdout, run.stdout
        assert sorted(os.listdir(out)) == sorted(POINTS), os.listdir(out)
        paths = []
        for name, (ranks, threads) in POINTS.items():
            path = os.path.join(out, name)
            with h5py.File(path, "r") as f:
                assert (f.attrs["ranks"], f.attrs["threads"]) == (ranks, threads), (name, dict(f.attrs))
                check_perft_counts(read_table(f["measurements"]), name)
            paths.append(path)
        r = subprocess.run([report, *paths, "--json"], capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        c = json.loads(r.stdout)["comparisons"]["bench"]
        assert [(f["ranks"], f["threads"]) for f in c["files"]] == list(POINTS.values()), c["files"]
        assert set(c["speedup"]) == {"perft_threads", "hashed_perft", "search", "cluster_perft"}, c["speedup"]
        assert all(v[0] == 1 for v in c["speedup"].values()), c["speedup"]  # the 1 x 1 file is the baseline
    print(f"scaling.sh: {len(POINTS)} files, counts right, report curves over them")


if __name__ == "__main__":
    main(*sys.argv[1:])
