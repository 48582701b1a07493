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
4. Start-position perft(8) deduplicated at ply 6 on 2 ranks: kill -9 of rank 0, then of
   rank 1, while routing ply 6 (phase A) and while counting buckets (phase B); SIGTERM
   while routing. Each time --resume (on 2 ranks, or 1 process) gives 84,998,978,956, the
   file kept what it had (no bucket before phase B) and the resumed run counted the rest.

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
from procs import kill_all, rank_pid, stop_after_first_record, units_done, wait_until_recorded

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
CASES = [("startpos", 7, 5, 3195901860), (KIWIPETE, 6, 4, 8031647685)]  # fen, depth, dedup ply (D - 2), published
BUCKETS = 16384
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
        dedup = base + ["--dedup-ply", str(ply)]  # at D - 2 no table: --hash would be refused
        out = os.path.join(tmp, f"dedup-{depth}.h5")
        runs = {"singleton": run_json(dedup)}
        for n in (1, 2, 3):
            runs[f"{n} ranks"] = run_json(mpirun(mpiexec, n) + dedup + (["--out", out] if n == 2 else []))
        with h5py.File(out, "r") as f:
            b = f["buckets"]
            assert int(f.attrs["complete"]) == 1 and int(f.attrs["total"]) == published
            assert sum(int(x) for x in b["nodes"].asstr()[:]) == published
            # Bucket b is counted on rank b % 2 unless balancing moved it: few move, and the
            # two ranks end within 1% of even (start position 0.5%, Kiwipete 0.4%).
            ranks, positions = b["rank"][:], b["positions"][:]
            moved = sum(int(r) != i % 2 for i, r in enumerate(ranks))
            loads = [int(positions[ranks == r].sum()) for r in (0, 1)]
            assert moved < BUCKETS // 100 and max(loads) <= 1.01 * sum(loads) / 2, (moved, loads)
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


def kill_rank(proc, path, rank):
    """kill -9 of one rank of the mpirun job proc writing path, then of what is left of the
    job; returns the buckets the file kept."""
    pid = rank_pid(path, rank)
    assert pid is not None, f"rank {rank} not found"
    os.kill(pid, signal.SIGKILL)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        pass
    kill_all(proc, path)
    time.sleep(0.2)
    return buckets_done(path)


def kill_rank_then_resume(mpiexec, binary, tmp):
    path = os.path.join(tmp, "killed.h5")
    cmd, published = long_run(binary, path)
    proc = subprocess.Popen(mpirun(mpiexec, 2) + cmd, env=ENV, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    wait_until_recorded(lambda: buckets_done(path), proc, "the 2-rank run", 120)
    kept = kill_rank(proc, path, 1)
    assert 0 < kept < BUCKETS, f"kill -9 of rank 1: the file holds {kept} buckets"
    check_resumed(run_json(cmd + ["--resume"]), kept, published, "kill -9 of rank 1, 2 ranks -> 1 process")


PERFT8 = 84998978956


def routing_run(binary, path):
    """Start-position perft(8) at dedup ply 6: about 4 s routing ply 6 on 2 ranks here."""
    return [binary, "perft", "--depth", "8", "--dedup-ply", "6", "--threads", "1", "--out", path,
            "--checkpoint", "0.05", "--json"]


def start_and_wait(cmd, in_phase_a, path, log):
    """Starts cmd on 2 ranks; returns once it is routing ply 6 (in_phase_a) or has recorded a
    bucket."""
    err = open(log, "w")
    proc = subprocess.Popen(mpirun_cmd(cmd), env=ENV, stdout=subprocess.DEVNULL, stderr=err,
                            start_new_session=True)
    output = lambda: open(log).read()
    if in_phase_a:
        wait_until_recorded(lambda: int("chesshpc perft: ply 5:" in output()), proc, "the routing run", 120,
                            output=output)
        assert buckets_done(path) == 0, f"a bucket recorded before phase B: {output()}"
    else:
        wait_until_recorded(lambda: buckets_done(path), proc, "the routing run", 120, output=output)
    return proc


MPIEXEC = None


def mpirun_cmd(cmd, n=2):
    return mpirun(MPIEXEC, n) + cmd


def kill_in_phase(binary, tmp, rank, in_phase_a):
    phase = "A (routing)" if in_phase_a else "B (buckets)"
    path = os.path.join(tmp, f"kill-{rank}-{int(in_phase_a)}.h5")
    cmd = routing_run(binary, path)
    proc = start_and_wait(cmd, in_phase_a, path, path + ".log")
    kept = kill_rank(proc, path, rank)
    assert (kept == 0) if in_phase_a else (0 < kept < BUCKETS), f"kill -9 in phase {phase}: {kept} buckets kept"
    resumed = run_json(mpirun_cmd(cmd + ["--resume", "--quiet"]) if rank else cmd + ["--resume", "--quiet"])
    check_resumed(resumed, kept, PERFT8, f"kill -9 of rank {rank} in phase {phase}")


def sigterm_in_phase_a(binary, tmp):
    path = os.path.join(tmp, "term-a.h5")
    cmd = routing_run(binary, path)
    proc = start_and_wait(cmd, True, path, path + ".log")
    # To the ranks, as Slurm signals every task (mpirun, signalled itself, exits 1 whatever
    # its ranks return).
    for rank in (0, 1):
        os.kill(rank_pid(path, rank), signal.SIGTERM)
    proc.wait(timeout=60)
    err = open(path + ".log").read()
    assert proc.returncode == 5, f"SIGTERM in phase A: exit {proc.returncode}, {err}"
    assert f"stopped by SIGTERM after 0 of {BUCKETS} buckets recorded in '{path}'" in err, err
    assert buckets_done(path) == 0
    check_resumed(run_json(mpirun_cmd(cmd + ["--resume", "--quiet"])), 0, PERFT8, "SIGTERM in phase A")


def main(mpiexec, binary):
    global MPIEXEC
    MPIEXEC = mpiexec
    with tempfile.TemporaryDirectory() as tmp:
        failed = same_on_every_rank_count(mpiexec, binary, tmp)
        sigterm_then_resume(mpiexec, binary, tmp)
        kill_rank_then_resume(mpiexec, binary, tmp)
        for rank in (0, 1):
            for in_phase_a in (True, False):
                kill_in_phase(binary, tmp, rank, in_phase_a)
        sigterm_in_phase_a(binary, tmp)
    print(f"{'FAILED' if failed else 'all ok'}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
