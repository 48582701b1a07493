"""A selfplay batch is the same on any number of ranks, and survives kill -9 and SIGTERM.

Games are played by two Stockfish processes per thread at 500 nodes a move (deterministic
on one thread), from a seeded number of random plies.

1. One process without mpirun and 3 ranks (oversubscribed) write the same /games and
   /positions, column by column; so do 2 threads and 3 ranks with the built-in search
   sampling its first plies.
   Its PGN export replays in chesshpc drawstats with every game and move.
2. kill -9 of a 2-rank batch after its first part holds games, and its last part with
   games cut short; --resume on 1 rank sets that part aside in one line, ends with the
   same /games and /positions as the uninterrupted run, plays only the missing games, and
   leaves no parts behind.
3. SIGTERM to a batch in one process: exit 5, the resume command, and a resume that
   completes it.

usage: mpi_selfplay.py MPIEXEC CHESSHPC
"""
import json
import os
import signal
import subprocess
import sys
import tempfile

import h5py
import numpy as np
from procs import kill_all, wait_until_recorded

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
GAMES = 12


def selfplay(binary, out, *extra):
    return [binary, "selfplay", "--games", str(GAMES), "--nodes", "500", "--seed", "42", "--random-plies", "6",
            "--white", "uci:/usr/games/stockfish", "--black", "uci:/usr/games/stockfish",
            "--uci-options", "Threads=1,Hash=4", "--resign-score", "900", "--max-plies", "160",
            "--games-per-unit", "2", "--threads", "1", "--out", out, "--json", "--quiet", *extra]


def builtin(binary, out, threads):
    """The built-in search on both sides, sampling its first plies at temperature 1."""
    return [binary, "selfplay", "--games", "24", "--nodes", "1500", "--seed", "7", "--temperature", "1",
            "--sample-plies", "8", "--resign-score", "700", "--max-plies", "200", "--threads", str(threads),
            "--out", out, "--json", "--quiet"]


def mpirun(mpiexec, n):
    return [mpiexec, "-np", str(n), "--oversubscribe", "--bind-to", "none"]


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=ENV)
    assert r.returncode == 0, f"{cmd} exited {r.returncode}: {r.stderr}"
    return json.loads(r.stdout)


# The player's time on each move varies from run to run; every other column must not.
VARIES_BY_RUN = {"positions/time_ms"}


def columns(path):
    with h5py.File(path, "r") as f:
        return {f"{g}/{k}": f[g][k][:] for g in ("games", "positions") for k in f[g] if f"{g}/{k}" not in VARIES_BY_RUN}


def same(a, b):
    assert a.keys() == b.keys(), (a.keys(), b.keys())
    for k in a:
        x, y = a[k], b[k]
        ok = x.shape == y.shape and (np.array_equal(x, y, equal_nan=True) if x.dtype.kind == "f" else np.array_equal(x, y))
        assert ok, f"{k} differs"


def games_in_part(part):
    """The games of one part file, 0 when it cannot be read."""
    try:
        with h5py.File(part, "r") as f:
            return len(f["games/game"])
    except OSError:
        return 0


def games_in_parts(path):
    names = sorted(os.listdir(path + ".parts")) if os.path.isdir(path + ".parts") else []
    return sum(games_in_part(os.path.join(path + ".parts", n)) for n in names if n.endswith(".h5"))


def main(mpiexec, binary):
    with tempfile.TemporaryDirectory() as tmp:
        one = os.path.join(tmp, "one.h5")
        r1 = run(selfplay(binary, one))
        assert r1["games"] == GAMES and r1["games_played"] == GAMES, r1
        reference = columns(one)
        assert sorted(reference["games/game"]) == list(range(GAMES))
        assert "error" not in r1["terminations"], r1["terminations"]
        # The PGN export reads back: every game, every move, the roster and the results.
        pgn = subprocess.run([binary, "export", "--pgn", one], capture_output=True, text=True, check=True).stdout
        assert pgn.count("[Event \"chesshpc selfplay\"]") == GAMES and pgn.count("[Termination ") == GAMES
        pgn_path = os.path.join(tmp, "one.pgn")
        with open(pgn_path, "w") as f:
            f.write(pgn)
        stats = run([binary, "drawstats", pgn_path, "--json", "--quiet"])
        assert stats["games"] == GAMES and stats["skipped"] == 0, stats
        assert stats["plies"] == int(reference["games/plies"].sum()), (stats["plies"], reference["games/plies"].sum())
        results = [r.decode() for r in reference["games/result"]]
        assert [l.split('"')[1] for l in pgn.splitlines() if l.startswith("[Result ")] == results
        three = os.path.join(tmp, "three.h5")
        run(mpirun(mpiexec, 3) + selfplay(binary, three))
        same(reference, columns(three))
        print(f"1 process and 3 ranks: the same {GAMES} games and {len(reference['positions/fen'])} positions")

        # The built-in search, sampling its openings: 2 threads in one process and 3 ranks of 1.
        b1, b3 = os.path.join(tmp, "b1.h5"), os.path.join(tmp, "b3.h5")
        run(builtin(binary, b1, 2))
        run(mpirun(mpiexec, 3) + builtin(binary, b3, 1))
        built = columns(b1)
        same(built, columns(b3))
        openings = {tuple(m.split()[:8]) for m in (x.decode() for x in built["games/moves"])}
        assert len(openings) >= 12, f"sampling gave only {len(openings)} distinct openings in 24 games"
        print(f"built-in search: the same 24 games on 2 threads and on 3 ranks, {len(openings)} distinct openings")

        # --dedup keeps the first row of each position (clocks aside) in game order.
        bd = os.path.join(tmp, "dedup.h5")
        r = run(builtin(binary, bd, 2) + ["--dedup"])
        deduped = columns(bd)
        keys = [bytes(row[:26]) for row in built["positions/packed"]]
        first = sorted({k: i for i, k in reversed(list(enumerate(keys)))}.values())
        assert r["duplicates_dropped"] == len(keys) - len(first) > 0, (r["duplicates_dropped"], len(keys), len(first))
        assert np.array_equal(deduped["positions/packed"], built["positions/packed"][first])
        assert np.array_equal(deduped["games/moves"], built["games/moves"])
        print(f"--dedup: {r['duplicates_dropped']} repeated positions dropped, the first of each kept")

        killed = os.path.join(tmp, "killed.h5")
        cmd = selfplay(binary, killed, "--checkpoint", "0.05")
        proc = subprocess.Popen(mpirun(mpiexec, 2) + cmd, env=ENV, stdout=subprocess.DEVNULL, start_new_session=True)
        wait_until_recorded(lambda: games_in_parts(killed), proc, "the 2-rank batch", 300, 0.02)
        kill_all(proc, killed)
        kept = games_in_parts(killed)
        assert 1 <= kept < GAMES, kept
        # The last part with games cut to half, as a crash of the machine or a copy cut short
        # leaves one (the resume once failed on it: "cannot open part-000022.h5"): the resume
        # sets it aside with a line and plays its games again.
        parts = killed + ".parts"
        cut = max(n for n in os.listdir(parts) if n.endswith(".h5") and games_in_part(os.path.join(parts, n)))
        os.truncate(os.path.join(parts, cut), os.path.getsize(os.path.join(parts, cut)) // 2)
        cut_games, kept = kept - games_in_parts(killed), games_in_parts(killed)
        r = subprocess.run(cmd + ["--resume"], capture_output=True, text=True, timeout=600, env=ENV)
        assert r.returncode == 0, r.stderr
        assert r.stderr == (f"chesshpc selfplay: cannot open '{parts}/{cut}' as an HDF5 file: set aside as "
                            f"'{cut}.unreadable', its games are played again\n"), r.stderr
        r = json.loads(r.stdout)
        assert r["games_resumed"] == kept and r["games_played"] == GAMES - kept, r
        same(reference, columns(killed))
        assert not os.path.exists(killed + ".parts")
        print(f"kill -9 after {kept + cut_games} games, {cut_games} of them in a part cut short, resumed on 1 rank: "
              "the same dataset")

        stopped = os.path.join(tmp, "stopped.h5")
        cmd = selfplay(binary, stopped, "--checkpoint", "0.05")
        proc = subprocess.Popen(cmd, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wait_until_recorded(lambda: games_in_parts(stopped), proc, "the one-process batch", 300, 0.02)
        proc.send_signal(signal.SIGTERM)
        err = proc.communicate(timeout=60)[1]
        assert proc.returncode == 5, (proc.returncode, err)
        kept = games_in_parts(stopped)
        assert f"stopped by SIGTERM after {kept} of {GAMES} games" in err and err.rstrip().endswith("--resume"), err
        r = run(mpirun(mpiexec, 2) + cmd + ["--resume"])
        assert r["games_resumed"] == kept, r
        same(reference, columns(stopped))
        print(f"SIGTERM after {kept} games, resumed on 2 ranks: the same dataset")

        # The batch is complete: the same command again keeps the file; --force starts over.
        r = subprocess.run(cmd, capture_output=True, text=True, env=ENV)
        assert r.returncode == 2 and r.stderr.startswith(
            f"chesshpc: '{stopped}' exists: add --force to overwrite it, or --resume to continue its job\n"), r.stderr
        same(reference, columns(stopped))
        r = subprocess.run(cmd + ["--force"], capture_output=True, text=True, env=ENV)
        assert r.returncode == 0 and json.loads(r.stdout)["games_resumed"] == 0, (r.returncode, r.stderr)
        same(reference, columns(stopped))
        other = selfplay(binary, stopped, "--checkpoint", "0.05", "--force")
        other[other.index("--seed") + 1] = "43"
        proc = subprocess.Popen(other, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until_recorded(lambda: games_in_parts(stopped), proc, "a batch with seed 43", 300, 0.02)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
        r = subprocess.run(cmd + ["--resume"], capture_output=True, text=True, env=ENV)
        assert r.returncode == 3 and "its seed=43, this run's seed=42" in r.stderr, (r.returncode, r.stderr)
        print("a part of another batch is refused, naming the seed")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
