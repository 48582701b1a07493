"""rescore searches every position of a dataset again, the same on any rank count and after
a kill -9 and --resume.

1. A selfplay file of 2 games, rescored by Stockfish at a fixed depth in one process: for
   every 5th position the best move, score (cp or mate), depth and nodes are those Stockfish
   gives alone for the same FEN after ucinewgame at the same depth, over a pipe here; the
   played move, result and /games are the input's. The same positions exported as .binpack
   and EPD and rescored from those: the same searches.
2. The same on 2 ranks: every dataset of the output but time_ms (the search's
   milliseconds) is byte for byte the one-process output's; so for 1 rank of 2 engines
   pinned one a CPU (on 2 CPUs) and 2 ranks bound one a core, for the built-in search on 3
   ranks of 1 thread and 1 of 2 (and Stockfish on 3 ranks in 3.).
3. kill -9 of a 2-rank run (units of 1 position) once its checkpoint holds a finished unit,
   resumed on 3 ranks: the output of a run in one process in units of 2, the checkpoint's
   positions not searched again, and the checkpoint gone.
4. --resume with another depth is refused (exit 3) naming the difference; without a
   checkpoint, --resume is refused (exit 3); a missing input exits 4 with one line; an engine
   that dies at every search stops the run with exit 3 and one line, its checkpoint kept.
5. IN read by rank 0 alone: the ranks started in different folders (as on separate
   machines), IN and OUT named from rank 0's, on 2 and 3 ranks; every unit's positions go
   with the unit, so OUT (.plain from .plain, in units of 150 positions, and selfplay's
   layout from a selfplay file) is byte for byte the one-process output (.plain) or its
   datasets are (HDF5). When every rank read IN, the other ranks failed here (exit 4).

usage: mpi_rescore.py MPIEXEC CHESSHPC
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import h5py
import numpy as np
from procs import kill_all, wait_until_recorded

STOCKFISH = "/usr/games/stockfish"
DEPTH = 7
KILLED_DEPTH = 10  # a run long enough to be killed halfway
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def mpirun(mpiexec, n):
    return [mpiexec, "-np", str(n), "--oversubscribe", "--bind-to", "none"]


def run(cmd, code=0):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=ENV)
    assert r.returncode == code, f"{cmd} exited {r.returncode}, not {code}: {r.stderr}"
    return r


def rescore(binary, src, out, *extra, depth=DEPTH, per_unit=2):
    return [binary, "rescore", src, "--out", out, "--engine", f"cmd=uci:{STOCKFISH}", f"depth={depth}",
            "option.Hash=16", "--positions-per-unit", str(per_unit), "--threads", "1", "--json", "--quiet", *extra]


def stockfish_alone(fens, depth):
    """(bestmove, ('cp'|'mate', value), depth, nodes) of each FEN, each after ucinewgame."""
    text = "uci\nsetoption name Hash value 16\n"
    for fen in fens:
        text += f"ucinewgame\nisready\nposition fen {fen}\ngo depth {depth}\n"
    # quit only after the last bestmove: stockfish would stop the search at once.
    p = subprocess.Popen([STOCKFISH], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    p.stdin.write(text)
    p.stdin.flush()
    answers, last = [], None
    for line in p.stdout:
        words = line.split()
        if words[:1] == ["info"] and "score" in words and "nodes" in words:
            s = words.index("score")
            last = ((words[s + 1], int(words[s + 2])), int(words[words.index("depth") + 1]),
                    int(words[words.index("nodes") + 1]))
        elif words[:1] == ["bestmove"]:
            answers.append((words[1],) + last)
            if len(answers) == len(fens):
                break
    p.stdin.write("quit\n")
    p.stdin.close()
    p.wait(timeout=30)
    return answers


def datasets(path):
    """Every dataset of the file but time_ms, by path, as bytes (variable-length text as its
    strings' bytes)."""
    out = {}

    def add(name, obj):
        if isinstance(obj, h5py.Dataset) and not name.endswith("time_ms"):
            v = obj[()]
            out[name] = b"\0".join(v.tolist()) if v.dtype.kind == "O" else v.tobytes()

    with h5py.File(path, "r") as f:
        f.visititems(add)
    return out


def check_same(a, b, what):
    da, db = datasets(a), datasets(b)
    assert da.keys() == db.keys(), f"{what}: datasets {sorted(da)} and {sorted(db)}"
    for k in da:
        assert da[k] == db[k], f"{what}: /{k} differs"
    print(f"{what}: {len(da)} datasets the same")


def in_folders(mpiexec, folders, cmd):
    """mpirun of cmd with rank 0 in folders[0] and one rank in each other folder."""
    line = [mpiexec, "--oversubscribe", "--bind-to", "none"]
    for i, folder in enumerate(folders):
        line += ([":"] if i else []) + ["-np", "1", "--wdir", folder] + cmd
    return line


def checkpoint_units_done(path):
    try:
        with h5py.File(path, "r") as f:
            return int(np.sum(f["units/done"][:]))
    except (OSError, KeyError):
        return -1


def main(mpiexec, binary):
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "games.h5")
        run([binary, "selfplay", "--games", "2", "--nodes", "300", "--max-plies", "40", "--out", src, "--quiet"])

        # 1. Against Stockfish alone.
        one = os.path.join(tmp, "one.h5")
        r = json.loads(run(rescore(binary, src, one)).stdout)
        with h5py.File(src, "r") as f, h5py.File(one, "r") as g:
            p, q = f["positions"], g["positions"]
            n = len(p["game"])
            assert r["positions"] == n and r["searched"] == n and r["resumed"] == 0, r
            assert g.attrs["job"] == "rescore" and g.attrs["tables"] == "selfplay"
            for k in ("game", "ply", "fen", "packed", "move", "result", "wdl", "book", "in_check", "gives_check"):
                assert np.array_equal(p[k][:], q[k][:]), f"/positions/{k} changed"
            for k in f["games"]:
                assert np.array_equal(f["games"][k][:], g["games"][k][:]), f"/games/{k} changed"
            rows = list(range(0, n, 5))
            fens = [q["fen"].asstr()[i] for i in rows]
            ours = [(q["best"].asstr()[i], ("cp", int(q["score_cp"][i])) if q["mate_in"][i] == 0
                     else ("mate", int(q["mate_in"][i])), int(q["depth"][i]), int(q["nodes"][i])) for i in rows]
        theirs = stockfish_alone(fens, DEPTH)
        for i, fen, a, b in zip(rows, fens, ours, theirs):
            assert a == b, f"row {i} {fen}: rescore {a}, stockfish alone {b}"
        print(f"{len(rows)} of {n} positions: best, score, depth and nodes as stockfish alone gives them")

        # 1b. The same positions from a .binpack and an EPD file: the same searches; the
        # binpack's moves and results kept, EPD's best moves taken as the moves.
        searched = ("packed", "best", "score_cp", "mate_in", "depth", "nodes")
        for fmt, kept in (("binpack", ("move", "wdl")), ("epd", ())):
            exported, out = os.path.join(tmp, f"games.{fmt}"), os.path.join(tmp, f"from-{fmt}.h5")
            run([binary, "export", "--format", fmt, src, "--out", exported])
            run(rescore(binary, exported, out))
            with h5py.File(one, "r") as f, h5py.File(out, "r") as g:
                for k in searched + kept:
                    assert f["positions"][k][()].tobytes() == g["positions"][k][()].tobytes(), f"{fmt}: /positions/{k}"
                if fmt == "epd":
                    assert np.array_equal(g["positions/move"][:], g["positions/best"][:])
            print(f"{fmt}: the same searches of the same {n} positions")

        # 2. 2 and 3 ranks; the built-in search on 1 and 2.
        out = os.path.join(tmp, "ranks2.h5")
        run(mpirun(mpiexec, 2) + rescore(binary, src, out))
        check_same(one, out, "2 ranks against 1")
        # Engines one a core: 1 rank of 2 engines on 2 CPUs (rescore starts each on a CPU of its
        # own), and 2 ranks bound one a core (each engine inherits its rank's).
        two = sorted(os.sched_getaffinity(0))[:2]
        if len(two) == 2:
            out = os.path.join(tmp, "pinned.h5")
            cmd = rescore(binary, src, out)
            cmd[cmd.index("--threads") + 1] = "2"
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=ENV,
                               preexec_fn=lambda: os.sched_setaffinity(0, two))
            assert r.returncode == 0, r.stderr
            check_same(one, out, "1 rank of 2 engines pinned one a CPU against 1 engine")
            out = os.path.join(tmp, "bound.h5")
            run([mpiexec, "-np", "2", "--bind-to", "core"] + rescore(binary, src, out))
            check_same(one, out, "2 ranks bound one a core against 1")
        builtin = [[binary, "rescore", src, "--out", os.path.join(tmp, f"builtin{k}.h5"), "--depth", "4", "--quiet",
                    "--threads", str(k)] for k in (2, 1)]
        run(builtin[0])
        run(mpirun(mpiexec, 3) + builtin[1])
        check_same(os.path.join(tmp, "builtin2.h5"), os.path.join(tmp, "builtin1.h5"),
                   "chesshpc depth 4: 3 ranks x 1 thread against 1 x 2")

        # 3. kill -9 on 2 ranks, resumed on 3.
        killed = os.path.join(tmp, "killed.h5")
        cmd = rescore(binary, src, killed, "--checkpoint", "0.05", depth=KILLED_DEPTH, per_unit=1)
        proc = subprocess.Popen(mpirun(mpiexec, 2) + cmd, env=ENV, stdout=subprocess.DEVNULL,
                                start_new_session=True)
        wait_until_recorded(lambda: checkpoint_units_done(killed + ".checkpoint"), proc, "the 2-rank run", 120)
        kill_all(proc, killed)
        kept = checkpoint_units_done(killed + ".checkpoint")
        assert not os.path.exists(killed) and kept > 0
        reference = os.path.join(tmp, "reference.h5")
        run(rescore(binary, src, reference, depth=KILLED_DEPTH))  # in units of 2: the same output
        r = json.loads(run(mpirun(mpiexec, 3) + cmd + ["--resume"]).stdout)
        assert r["resumed"] == kept and r["resumed"] + r["searched"] == r["positions"], r
        assert not os.path.exists(killed + ".checkpoint")
        check_same(reference, killed, f"kill -9 after {kept} units, resumed on 3 ranks")

        # 4. Refusals.
        other = os.path.join(tmp, "other.h5")
        proc = subprocess.Popen(rescore(binary, src, other, "--checkpoint", "0.05", depth=KILLED_DEPTH), env=ENV,
                                stdout=subprocess.DEVNULL)
        wait_until_recorded(lambda: checkpoint_units_done(other + ".checkpoint"), proc, "the run", 120)
        proc.kill()
        proc.wait()
        err = run(rescore(binary, src, other, "--resume", depth=DEPTH), 3).stderr
        assert err.startswith(f"chesshpc rescore: cannot resume from '{other}.checkpoint': it holds another job: its "
                              "run is ") and f"depth={KILLED_DEPTH}" in err and err.count("\n") == 1, err
        err = run(rescore(binary, src, os.path.join(tmp, "none.h5"), "--resume"), 3).stderr
        assert "cannot resume: there is no " in err, err
        # An engine that dies at every search: started again once, then the run stops.
        broken = os.path.join(tmp, "broken-engine")
        with open(broken, "w") as f:
            f.write("#!/bin/sh\nwhile read line; do case \"$line\" in uci) echo 'id name broken'; echo uciok;; "
                    "isready) echo readyok;; go*) exit 1;; esac; done\n")
        os.chmod(broken, 0o755)
        out = os.path.join(tmp, "broken.h5")
        err = run([binary, "rescore", src, "--out", out, "--engine", f"cmd=uci:{broken}", "depth=1", "--quiet"], 3).stderr
        assert err.startswith("chesshpc rescore: ") and err.count("\n") == 1, err
        assert f"; the run stops: 0 of {n} positions searched are kept in '{out}.checkpoint', and --resume " in err, err
        assert err.endswith(" --resume\n") and not os.path.exists(out), err
        missing = os.path.join(tmp, "missing.h5")
        err = run(rescore(binary, missing, os.path.join(tmp, "out.h5")), 4).stderr
        assert err == f"chesshpc rescore: cannot read '{missing}': No such file or directory\n", err
        print("resume of another depth and without a checkpoint refused; a missing input exits 4")

        # 5. IN only rank 0 can read: a .plain file of 8 games in units of 150 positions (4,800
        # bytes, past Open MPI's 4 KB eager size: the send must not wait for the receive) on
        # 2 threads a rank, and the selfplay file in units of 3.
        here, there = os.path.join(tmp, "rank0"), os.path.join(tmp, "elsewhere")
        os.mkdir(here), os.mkdir(there)
        big = os.path.join(tmp, "big.h5")
        run([binary, "selfplay", "--games", "8", "--nodes", "100", "--max-plies", "100", "--out", big, "--quiet"])
        run([binary, "export", "--format", "plain", big, "--out", os.path.join(here, "games.plain")])
        shutil.copy(src, os.path.join(here, "games.h5"))
        for name, per_unit, threads in (("games.plain", 150, 2), ("games.h5", 3, 1)):
            out = "out" + os.path.splitext(name)[1]
            cmd = [binary, "rescore", name, "--out", "one-" + out, "--depth", "3", "--positions-per-unit",
                   str(per_unit), "--threads", str(threads), "--quiet"]
            subprocess.run(cmd, cwd=here, check=True, env=ENV, capture_output=True, timeout=300)
            for ranks in (2, 3):
                run(in_folders(mpiexec, [here] + [there] * (ranks - 1), cmd[:4] + [f"{ranks}-{out}"] + cmd[5:]))
                assert not os.listdir(there), os.listdir(there)
                a, b = os.path.join(here, "one-" + out), os.path.join(here, f"{ranks}-{out}")
                if name.endswith(".plain"):
                    assert open(a, "rb").read() == open(b, "rb").read(), f"{name} on {ranks} ranks: {out} differs"
                    print(f"{name} only rank 0 reads, {ranks} ranks: {out} byte for byte the one-process output")
                else:
                    check_same(a, b, f"{name} only rank 0 reads, {ranks} ranks against 1")

if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
