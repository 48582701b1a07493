"""chesshpc bench --suite quick: the result file and the JSON, checked with real values.

Every perft count against the published one, the summary medians against the repeats,
the machine description, and the Stockfish rows when /usr/games/stockfish is there.

usage: bench_quick.py CHESSHPC
"""
import json
import math
import os
import socket
import subprocess
import sys
import tempfile

import h5py

from bench_common import check_perft_counts, check_summary_medians, read_table

REPEATS, THREADS = 2, 2
STOCKFISH = "/usr/games/stockfish"


def check_machine(attrs):
    assert attrs["job"] == "bench" and attrs["suite"] == "quick" and attrs["suite_version"] == 2, dict(attrs)
    assert attrs["logical_cpus"] >= 1 and 1 <= attrs["cpus_allowed"] <= attrs["logical_cpus"], dict(attrs)
    assert attrs["cpu_model"].strip() and attrs["os"].startswith("Linux "), dict(attrs)
    assert attrs["memory_bytes"] > 2**26, attrs["memory_bytes"]
    assert attrs["ranks"] == 1 and attrs["threads"] == THREADS and attrs["repeats"] == REPEATS, dict(attrs)
    assert attrs["hostname"] == socket.gethostname() and attrs["hosts"] == attrs["hostname"], dict(attrs)
    assert attrs["compiler"] and attrs["build_type"] and "-std=c++20" in attrs["build_flags"], dict(attrs)
    assert attrs["native"] in (0, 1) and attrs["pext"] in (0, 1) and attrs["seconds"] > 0, dict(attrs)
    assert attrs["started_utc"].endswith("Z") and attrs["chesshpc_version"], dict(attrs)


def check_stockfish(attrs, summary):
    # Chess960's perft has no Stockfish run beside it: its ratio is NaN.
    ratios = {s["set"]: s["stockfish_ratio"] for s in summary if s["benchmark"] == "perft" and s["set"] != "chess960"}
    assert [math.isnan(s["stockfish_ratio"]) for s in summary if s["set"] == "chess960"] == [True], summary
    others = [s for s in summary if s["benchmark"] != "perft"]
    assert all(math.isnan(s["stockfish_ratio"]) for s in others), "a ratio on a row other than perft"
    if not os.access(STOCKFISH, os.X_OK):
        assert attrs["stockfish"] == "" and all(math.isnan(r) for r in ratios.values())
        print(f"{STOCKFISH} missing: Stockfish rows not checked")
        return
    assert attrs["stockfish"].startswith(STOCKFISH + ": id name Stockfish"), attrs["stockfish"]
    stockfish_sets = {s["set"] for s in summary if s["benchmark"] == "stockfish_perft"}
    assert stockfish_sets == set(ratios) == {"start", "kiwipete", "pos3", "pos4", "pos5"}, stockfish_sets
    assert all(math.isfinite(r) and r > 0 for r in ratios.values()), ratios
    print("stockfish ratios:", {k: round(v, 2) for k, v in ratios.items()})


def main(binary):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "tmp.h5")
        cmd = [binary, "bench", "--suite", "quick", "--repeats", str(REPEATS), "--threads", str(THREADS),
               "--out", out, "--json", "--quiet"]
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stderr
        assert run.stderr == "", run.stderr
        lines = run.stdout.splitlines()
        assert len(lines) == 1, run.stdout
        js = json.loads(lines[0])
        assert not os.path.exists(out + ".partial")
        with h5py.File(out, "r") as f:
            attrs = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in f.attrs.items()}
            measurements, summary = read_table(f["measurements"]), read_table(f["summary"])
    check_machine(attrs)
    n = check_perft_counts(measurements, "/measurements") + check_perft_counts(summary, "/summary")
    check_summary_medians(measurements, summary, REPEATS)
    benchmarks = {s["benchmark"] for s in summary}
    assert {"movegen", "perft", "perft_threads", "hashed_perft", "search", "cluster_perft"} <= benchmarks, benchmarks
    check_stockfish(attrs, summary)
    # The JSON says what the file says.
    for key in ("suite", "cpu_model", "logical_cpus", "cpus_allowed", "ranks", "threads", "repeats", "stockfish"):
        assert js[key] == attrs[key], (key, js[key], attrs[key])
    assert [(r["benchmark"], r["set"], r["depth"], r["nodes"]) for r in js["summary"]] == \
           [(r["benchmark"], r["set"], r["depth"], r["nodes"]) for r in summary]
    for r, s in zip(js["summary"], summary):
        ratio = s["stockfish_ratio"]
        assert (r["stockfish_ratio"] is None) == math.isnan(ratio), (r, s)
        assert r["stockfish_ratio"] is None or math.isclose(r["stockfish_ratio"], ratio, rel_tol=1e-5), (r, s)
    print(f"{len(measurements)} measurements, {len(summary)} summary rows, {n} perft counts verified")


if __name__ == "__main__":
    main(sys.argv[1])
