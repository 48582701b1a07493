"""chesshpc bench on 2 ranks: rank 0 writes the file with both ranks' hosts, and the
cluster measurement counts the published number over both.

usage: mpi_bench.py MPIEXEC CHESSHPC
"""
import os
import socket
import subprocess
import sys
import tempfile

import h5py

from bench_common import check_perft_counts, check_summary_medians, read_table


def main(mpiexec, binary):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "bench.h5")
        cmd = [mpiexec, "-np", "2", "--oversubscribe", "--bind-to", "none", binary, "bench", "--suite", "quick",
               "--repeats", "1", "--threads", "1", "--stockfish", "none", "--out", out, "--quiet"]
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stdout + run.stderr
        assert run.stdout.count("bench quick") == 1, f"one table from rank 0 only: {run.stdout}"
        with h5py.File(out, "r") as f:
            attrs = dict(f.attrs)
            measurements, summary = read_table(f["measurements"]), read_table(f["summary"])
    assert attrs["ranks"] == 2, attrs["ranks"]
    hosts = attrs["hosts"].split(",")
    assert hosts == [socket.gethostname()] * 2, hosts
    check_perft_counts(measurements, "/measurements")
    check_summary_medians(measurements, summary, 1)
    cluster = [s for s in summary if s["benchmark"] == "cluster_perft"]
    assert len(cluster) == 1 and cluster[0]["ranks"] == 2 and cluster[0]["nodes"] == 4865609, cluster
    assert all(s["ranks"] == 1 for s in summary if s["benchmark"] != "cluster_perft"), summary
    assert not any(s["benchmark"] == "stockfish_perft" for s in summary)
    print(f"2 ranks on {attrs['hosts']}: cluster_perft {cluster[0]['nodes']} nodes in {cluster[0]['median_seconds']:.3f} s")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
