"""A killed perft job keeps what it recorded, and --resume finishes it without recounting.

1. kill -9: a 2-rank run checkpointing every 50 ms is killed (every process at once) after
   its file first records a finished unit. The file must open, say it is incomplete, and
   hold correct counts for its done units. The same command with --resume on 3 ranks must
   give the published total and the plain perft's divide, computing exactly the units the
   file lacked, and keep the recorded units as they were (run 0).
2. SIGTERM: a run in one process stops with exit code 5, names the units it kept and the
   command that resumes; resuming on 2 ranks gives the published total. A 2-rank run
   signalled on every rank (as Slurm does) stops alike and resumes in one process. /ranks
   keeps one row per run and rank, the stopped run's included: exactly (run, rank, host)
   for each rank of each run, busy_seconds the seconds of the units that run recorded
   from that rank (one unit at a time per rank), idle_seconds never negative.
3. Resuming from another job's file (other depth, other split) is refused, naming the difference.
4. The command a stopped run prints to resume it works as printed: a 2-rank run that left
   --split-depth to the rank count (and its FEN, with spaces, to the shell's quoting) is
   resumed in one process by running the printed line through the shell.

usage: mpi_resume.py MPIEXEC CHESSHPC
"""
import json
import math
import os
import shlex
import signal
import socket
import subprocess
import sys
import tempfile

import h5py
from procs import kill_all, rank_pid, stop_after_first_record, units_done, wait_until_recorded

DEPTH, SPLIT, PUBLISHED = 7, 3, 3195901860  # start position
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def mpirun(mpiexec, n):
    return [mpiexec, "-np", str(n), "--oversubscribe", "--bind-to", "none"]


def perft(binary, out, *extra):
    return [binary, "perft", "--depth", str(DEPTH), "--split-depth", str(SPLIT), "--threads", "1",
            "--out", out, "--divide", "--json", "--quiet", *extra]


def run_json(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=ENV)
    assert r.returncode == 0, f"{cmd} exited {r.returncode}: {r.stderr}"
    return json.loads(r.stdout)


def check_recorded_units(binary, path):
    """The done units of a killed run: correct counts, recounted here with a plain perft."""
    with h5py.File(path, "r") as f:
        assert int(f.attrs["complete"]) == 0 and "total" not in f.attrs
        u = f["units"]
        done = u["done"][:]
        fens, nodes, runs = u["fen"].asstr()[:], u["nodes"][:], u["run"][:]
        recorded = {fens[i]: int(nodes[i]) for i in range(len(done)) if done[i]}
        assert all(runs[i] == 0 for i in range(len(done)) if done[i])
        assert all(runs[i] == -1 and nodes[i] == 0 for i in range(len(done)) if not done[i])
    for fen in list(recorded)[:5]:
        n = run_json([binary, "perft", "--fen", fen, "--depth", str(DEPTH - SPLIT), "--json", "--quiet"])["nodes"]
        assert n == recorded[fen], f"recorded {recorded[fen]} for {fen}, perft says {n}"
    return recorded


def check_resumed(result, path, recorded, reference, what):
    assert result["nodes"] == PUBLISHED, f"{what}: total {result['nodes']}"
    assert result["divide"] == reference["divide"], f"{what}: divide differs from the plain perft"
    assert result["units_resumed"] == len(recorded), f"{what}: resumed {result['units_resumed']}, file had {len(recorded)}"
    assert result["units_computed"] == result["units"] - len(recorded), f"{what}: computed {result['units_computed']}"
    with h5py.File(path, "r") as f:
        assert int(f.attrs["complete"]) == 1 and int(f.attrs["total"]) == PUBLISHED
        u = f["units"]
        fens, nodes, runs = u["fen"].asstr()[:], u["nodes"][:], u["run"][:]
        kept = {fens[i]: int(nodes[i]) for i in range(len(fens)) if runs[i] == 0}
        assert kept == recorded, f"{what}: the units of run 0 changed"
        assert sum(1 for r in runs if r == 1) == result["units_computed"]
    print(f"{what}: {len(recorded)} units kept, {result['units_computed']} computed, total {result['nodes']} ok")


def check_rank_rows(path, ranks_per_run, what):
    """/ranks holds exactly one row per run and rank (ranks_per_run[run] ranks in run), each
    rank's busy time the sum of the seconds of the units it counted in that run."""
    with h5py.File(path, "r") as f:
        r, u = f["ranks"], f["units"]
        rows = list(zip(r["run"][:].tolist(), r["rank"][:].tolist(), r["host"].asstr()[:].tolist()))
        expected = [(run, rank, socket.gethostname()) for run, n in enumerate(ranks_per_run) for rank in range(n)]
        assert rows == expected, f"{what}: /ranks rows {rows}, expected {expected}"
        assert int(f.attrs["runs"]) == len(ranks_per_run), f"{what}: runs {f.attrs['runs']}"
        busy, idle = r["busy_seconds"][:], r["idle_seconds"][:]
        done, unit_run, unit_rank, seconds = u["done"][:], u["run"][:], u["rank"][:], u["seconds"][:]
        for i, (run, rank, _) in enumerate(rows):
            counted = sum(float(seconds[k]) for k in range(len(done))
                          if done[k] and unit_run[k] == run and unit_rank[k] == rank)
            assert math.isclose(busy[i], counted, rel_tol=1e-9, abs_tol=1e-9), \
                f"{what}: run {run} rank {rank} busy {busy[i]}, its units took {counted}"
            assert idle[i] >= 0, f"{what}: run {run} rank {rank} idle {idle[i]}"
    print(f"{what}: /ranks rows {[(run, rank) for run, rank, _ in rows]} ok")


def sigterm_every_rank(mpiexec, cmd, path):
    """Starts cmd on 2 ranks, sends SIGTERM to both once the file records a unit, and
    returns rank 0's standard error once mpirun has exited with 5."""
    log = path + ".log"
    with open(log, "w") as err:
        proc = subprocess.Popen(mpirun(mpiexec, 2) + cmd, env=ENV, stdout=subprocess.DEVNULL, stderr=err,
                                start_new_session=True)
        wait_until_recorded(lambda: units_done(path), proc, "the 2-rank run", 120, output=lambda: open(log).read())
        for rank in (0, 1):
            os.kill(rank_pid(path, rank), signal.SIGTERM)
        proc.wait(timeout=60)
    text = open(log).read()
    assert proc.returncode == 5, f"SIGTERM to 2 ranks: exit code {proc.returncode}, stderr {text!r}"
    return text


def main(mpiexec, binary):
    reference = run_json([binary, "perft", "--depth", str(DEPTH), "--divide", "--json", "--quiet"])
    assert reference["nodes"] == PUBLISHED
    with tempfile.TemporaryDirectory() as tmp:
        # 1. kill -9 of a 2-rank job, resumed on 3 ranks.
        path = os.path.join(tmp, "killed.h5")
        cmd = perft(binary, path, "--checkpoint", "0.05")
        proc = subprocess.Popen(mpirun(mpiexec, 2) + cmd, env=ENV, stdout=subprocess.DEVNULL, start_new_session=True)
        wait_until_recorded(lambda: units_done(path), proc, "the 2-rank run", 120)
        kill_all(proc, path)
        recorded = check_recorded_units(binary, path)
        check_resumed(run_json(mpirun(mpiexec, 3) + cmd + ["--resume"]), path, recorded, reference, "kill -9, 2 -> 3 ranks")

        # 2. SIGTERM to a run in one process, resumed on 2 ranks.
        path = os.path.join(tmp, "stopped.h5")
        cmd = perft(binary, path, "--checkpoint", "0.05")
        err = stop_after_first_record(cmd, lambda: units_done(path), "the one-process run", ENV)
        kept = units_done(path)
        assert f"stopped by SIGTERM after {kept} of " in err and "resume with: " in err and err.rstrip().endswith("--resume"), err
        recorded = check_recorded_units(binary, path)
        check_rank_rows(path, [1], "SIGTERM to 1 process")
        check_resumed(run_json(mpirun(mpiexec, 2) + cmd + ["--resume"]), path, recorded, reference, "SIGTERM, 1 -> 2 ranks")
        check_rank_rows(path, [1, 2], "SIGTERM, 1 -> 2 ranks")

        # 2b. SIGTERM to every rank of a 2-rank run, resumed in one process.
        path = os.path.join(tmp, "stopped2.h5")
        cmd = perft(binary, path, "--checkpoint", "0.05")
        err = sigterm_every_rank(mpiexec, cmd, path)
        kept = units_done(path)
        # mpirun adds its own lines after rank 0's notice.
        assert f"stopped by SIGTERM after {kept} of " in err and " --resume\n" in err, err
        recorded = check_recorded_units(binary, path)
        check_rank_rows(path, [2], "SIGTERM to 2 ranks")
        check_resumed(run_json(cmd + ["--resume"]), path, recorded, reference, "SIGTERM, 2 ranks -> 1 process")
        check_rank_rows(path, [2, 1], "SIGTERM, 2 ranks -> 1 process")

        # 3. Another job's file is refused, naming what differs.
        for flag, value, named in (("--depth", "6", "depth is 7, this run's is 6"),
                                   ("--split-depth", "2", "split depth is 3, this run's is 2")):
            other = [binary, "perft", "--depth", str(DEPTH), "--split-depth", str(SPLIT), "--out", path, "--resume", "--quiet"]
            other[other.index(flag) + 1] = value
            r = subprocess.run(other, capture_output=True, text=True, env=ENV)
            assert r.returncode == 3 and named in r.stderr, (r.returncode, r.stderr)
        print("another job's file refused: ok")

        # 4. The printed resume command, run as printed (it lacked --split-depth: exit 2).
        path = os.path.join(tmp, "hint.h5")
        fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        cmd = [binary, "perft", "--fen", fen, "--depth", str(DEPTH), "--threads", "1", "--out", path, "--checkpoint",
               "0.05", "--json", "--quiet"]
        with open(path + ".log", "w") as log:
            proc = subprocess.Popen(mpirun(mpiexec, 2) + cmd, env=ENV, stdout=subprocess.DEVNULL, stderr=log,
                                    start_new_session=True)
            wait_until_recorded(lambda: units_done(path), proc, "the 2-rank run", 120)
            # To the ranks, as Slurm signals every task (mpirun, signalled itself, exits 1).
            for rank in (0, 1):
                os.kill(rank_pid(path, rank), signal.SIGTERM)
            proc.wait(timeout=60)
        err = open(path + ".log").read()
        assert proc.returncode == 5, f"SIGTERM to 2 ranks: exit {proc.returncode}, {err}"
        kept = units_done(path)
        hints = [line[len("resume with: "):] for line in err.splitlines() if line.startswith("resume with: ")]
        assert len(hints) == 1, err
        hint = hints[0]
        assert shlex.split(hint)[:len(cmd)] == cmd and "--split-depth" in shlex.split(hint), hint
        r = subprocess.run(["bash", "-c", hint], capture_output=True, text=True, timeout=600, env=ENV)
        assert r.returncode == 0, f"{hint!r} exited {r.returncode}: {r.stderr}"
        result = json.loads(r.stdout)
        assert result["nodes"] == PUBLISHED and result["units_resumed"] == kept, (result, kept)
        print(f"printed resume command ran as printed: {hint}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
