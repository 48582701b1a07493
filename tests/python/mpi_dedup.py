"""Deep perft deduplicated at a ply (--dedup-ply) gives one total and one divide whatever
the number of ranks, and survives being stopped or killed in its counting phase.

1. Start-position perft(7) and Kiwipete perft(6) in one process without mpirun, then under
   mpirun on 1, 2 and 3 ranks (oversubscribed): every total is the published count and
   every divide the plain one-process perft's. The 2-rank run writes its file: complete,
   the same total, each bucket counted by its owner (bucket % 2).
2. SIGTERM to a run in one process during its buckets: exit code 5; --resume on 3 ranks
   gives the exact total, counting only the buckets the file lacked.
3. kill -9 of rank 1 of a 2-rank run during its buckets: --resume in one process gives the
   exact total, keeping the buckets the file had.

usage: mpi_dedup.py MPIEXEC CHESSHPC
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

import h5py
from procs import kill_all, stop_after_first_record, units_done, wait_until_recorded

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
CASES = [("startpos", 7, 4, 3195901860), (KIWIPETE, 6, 3, 8031647685)]  # fen, depth, dedup ply, published
BUCKETS = 4096
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def mpirun(mpiexec, n):
    return [mpiexec, "-np", str(n), "--oversubscribe", "--bind-to", "none"]


def run_json(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=ENV)
    assert r.returncode == 0, f"{cmd} exited {r.returncode}: {r.stderr}"
    lines = [l for l in r.stdout.splitlines() if l.strip()]
    assert len(lines) == 1, f"expected one JSON line from {cmd}, got {r.stdout!r}"
    return json.loads(lines[0])


def buckets_done(path):
    return units_done(path, "buckets_done")


def same_on_every_rank_count(mpiexec, binary, tmp):
    failed = 0
    for fen, depth, ply, published in CASES:
        base = [binary, "perft", "--fen", fen, "--depth", str(depth), "--divide", "--json", "--quiet", "--threads", "1"]
        reference = run_json(base + ["--hash", "64M"])
        assert reference["nodes"] == published, reference["nodes"]
        dedup = base + ["--dedup-ply", str(ply), "--hash", "32M"]
        out = os.path.join(tmp, f"dedup-{depth}.h5")
        runs = {"singleton": run_json(dedup)}
        for n in (1, 2, 3):
            runs[f"{n} ranks"] = run_json(mpirun(mpiexec, n) + dedup + (["--out", out] if n == 2 else []))
        with h5py.File(out, "r") as f:
            b = f["buckets"]
            assert int(f.attrs["complete"]) == 1 and int(f.attrs["total"]) == published
            assert sum(int(x) for x in b["nodes"].asstr()[:]) == published
            assert all(r == i % 2 for i, r in enumerate(b["rank"][:])), "a bucket counted off its owner"
            assert sum(b["positions"][:]) > 0 and len(b["done"]) == BUCKETS and all(b["done"][:])
        for name, r in runs.items():
            ok = (r["nodes"] == published and r["divide"] == reference["divide"] and r["units"] == BUCKETS
                  and r["dedup_ply"] == ply)
            print(f"perft({depth}) of {fen}, {name}: ranks={r['ranks']} nodes={r['nodes']} {'ok' if ok else 'MISMATCH'}")
            failed += not ok
    return failed


def check_resumed(result, kept, published, what):
    assert result["nodes"] == published, f"{what}: total {result['nodes']}"
    assert result["units_resumed"] == kept, f"{what}: resumed {result['units_resumed']}, the file had {kept}"
    assert result["units_computed"] == BUCKETS - kept, f"{what}: computed {result['units_computed']}"
    print(f"{what}: {kept} buckets kept, {result['units_computed']} counted, total {result['nodes']} ok")


def long_run(binary, path):
    fen, depth, ply, published = CASES[1]
    return [binary, "perft", "--fen", fen, "--depth", str(depth), "--dedup-ply", str(ply), "--threads", "1",
            "--out", path, "--checkpoint", "0.05", "--json", "--quiet"], published


def sigterm_then_resume(mpiexec, binary, tmp):
    path = os.path.join(tmp, "stopped.h5")
    cmd, published = long_run(binary, path)
    err = stop_after_first_record(cmd, lambda: buckets_done(path), "the one-process run", ENV)
    kept = buckets_done(path)
    assert 0 < kept < BUCKETS and f"stopped by SIGTERM after {kept} of {BUCKETS} buckets" in err, err
    check_resumed(run_json(mpirun(mpiexec, 3) + cmd + ["--resume"]), kept, published, "SIGTERM, 1 -> 3 ranks")


def rank_pid(marker, rank):
    """The pid of the process of this MPI rank whose command line holds marker."""
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if marker.encode() not in f.read():
                    continue
            with open(f"/proc/{pid}/environ", "rb") as f:
                if f"OMPI_COMM_WORLD_RANK={rank}".encode() in f.read().split(b"\0"):
                    return int(pid)
        except (FileNotFoundError, ProcessLookupError, PermissionError, NotADirectoryError):
            pass
    return None


def kill_rank_then_resume(mpiexec, binary, tmp):
    path = os.path.join(tmp, "killed.h5")
    cmd, published = long_run(binary, path)
    proc = subprocess.Popen(mpirun(mpiexec, 2) + cmd, env=ENV, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    wait_until_recorded(lambda: buckets_done(path), proc, "the 2-rank run", 120)
    pid = rank_pid(path, 1)
    assert pid is not None, "rank 1 not found"
    os.kill(pid, signal.SIGKILL)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        pass
    kill_all(proc, path)
    time.sleep(0.2)
    kept = buckets_done(path)
    assert 0 < kept < BUCKETS, f"kill -9 of rank 1: the file holds {kept} buckets"
    check_resumed(run_json(cmd + ["--resume"]), kept, published, "kill -9 of rank 1, 2 ranks -> 1 process")


def main(mpiexec, binary):
    with tempfile.TemporaryDirectory() as tmp:
        failed = same_on_every_rank_count(mpiexec, binary, tmp)
        sigterm_then_resume(mpiexec, binary, tmp)
        kill_rank_then_resume(mpiexec, binary, tmp)
    print(f"{'FAILED' if failed else 'all ok'}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
