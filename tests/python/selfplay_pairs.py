"""Selfplay game pairs, per-side players and the SPRT (issue 17), read back with h5py.

  pairs    the issue's batch (32 games, 300 nodes, 4 random plies, seed 11): no colour-swapped
           pair is the same game, where --variation 0 makes all 16 the same; the file's and the
           JSON's pentanomial counts are the pairs of /games/result
  engines  --engine name=weak cmd=chesshpc nodes=200 --engine name=strong ... nodes=2000 (exact
           limits): each side's /positions nodes at most its own limit and reaching it, the names
           in /games white/black, the settings and the PGN export; Stockfish through
           uci: with option.Hash per side in its settings column; bad --engine usage, exit 2
  sprt     nodes=5000 against nodes=50 with --sprt elo0=0 elo1=10 over 40 games: H1 after the
           first pair, the file holding just the decided pairs with llr, lower, upper and
           decision; the same batch on 2 ranks (mpirun) stops there too, with the same games

usage: selfplay_pairs.py CASE CHESSHPC MPIEXEC
"""
import json
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_btl_vader_single_copy_mechanism="none")
KINDS = ("LL", "LD", "DD+WL", "WD", "WW")


def run(cmd, code=0):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=ENV)
    assert r.returncode == code, f"{cmd} exited {r.returncode}, not {code}: {r.stderr}"
    return r


def text(f, path):
    return f[path].asstr()[:]


def pentanomial(games, results):
    """Counts by the first player's points over pair (2k, 2k + 1); the first has White in even games."""
    white = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}
    points = {int(g): white[r] if g % 2 == 0 else 1 - white[r] for g, r in zip(games, results) if r in white}
    counts = dict.fromkeys(KINDS, 0)
    for g in points:
        if g % 2 == 0 and g + 1 in points:
            counts[KINDS[int(2 * (points[g] + points[g + 1]))]] += 1
    return counts


def check_pairs(chesshpc, mpiexec, tmp):
    def batch(name, *extra):
        out = os.path.join(tmp, name)
        r = run([chesshpc, "selfplay", "--games", "32", "--nodes", "300", "--random-plies", "4", "--seed", "11",
                 "--out", out, "--quiet", "--json", *extra])
        return out, json.loads(r.stdout)

    varied, summary = batch("varied.h5")
    exact, _ = batch("exact.h5", "--variation", "0")
    for path, same_pairs in ((varied, 0), (exact, 16)):
        with h5py.File(path, "r") as f:
            moves = text(f, "games/moves")
            assert list(f["games/game"][:]) == list(range(32))
            same = sum(moves[2 * k] == moves[2 * k + 1] for k in range(16))
            assert same == same_pairs, (path, same)
    with h5py.File(varied, "r") as f:
        counts = pentanomial(f["games/game"][:], text(f, "games/result"))
        assert {k: int(f.attrs["pairs_" + k]) for k in KINDS} == counts, counts
        assert f.attrs["pairs"] == sum(counts.values()) == 16
        assert "variation=0.25" in f["games/white_settings"].asstr()[0]
    assert {k: summary["pairs"][k] for k in KINDS} == counts and summary["pairs"]["pairs"] == 16, summary
    print("pairs: no identical pair with variation (16 without), pentanomial counts:", counts)


def check_engines(chesshpc, mpiexec, tmp):
    out = os.path.join(tmp, "engines.h5")
    run([chesshpc, "selfplay", "--games", "4", "--random-plies", "2", "--seed", "5", "--variation", "0",
         "--engine", "name=weak", "cmd=chesshpc", "nodes=200", "--engine", "name=strong", "cmd=chesshpc", "nodes=2000",
         "--max-plies", "40", "--out", out, "--quiet"])
    with h5py.File(out, "r") as f:
        assert list(text(f, "games/white")) == ["weak", "strong", "weak", "strong"], text(f, "games/white")
        assert list(text(f, "games/black")) == ["strong", "weak", "strong", "weak"], text(f, "games/black")
        assert text(f, "games/white_settings")[0] == "chesshpc nodes=200 hash=2097152", text(f, "games/white_settings")
        assert text(f, "games/black_settings")[0] == "chesshpc nodes=2000 hash=2097152"
        game, ply, nodes = f["positions/game"][:], f["positions/ply"][:], f["positions/nodes"][:]
        book = f["positions/book"][:].astype(bool)
        white_moves = ply % 2 == 0  # the standard start: White moves at even plies
        weak = ~book & (white_moves == (game % 2 == 0))  # the first player (weak) is White in even games
        strong = ~book & ~weak
        # Each side's limit bounds its searches and most reach it (a mate found early ends one sooner).
        assert nodes[weak].max() == 200 and np.median(nodes[weak]) == 200, nodes[weak]
        assert nodes[strong].max() == 2000 and np.median(nodes[strong]) == 2000, nodes[strong]
    pgn = run([chesshpc, "export", "--pgn", out]).stdout
    assert '[White "weak"]' in pgn and '[Black "strong"]' in pgn, pgn[:400]

    sf = os.path.join(tmp, "stockfish.h5")
    run([chesshpc, "selfplay", "--games", "2", "--seed", "5", "--max-plies", "20", "--uci-options", "Threads=1",
         "--engine", "cmd=uci:/usr/games/stockfish", "nodes=500", "option.Hash=8",
         "--engine", "cmd=uci:/usr/games/stockfish", "nodes=1000", "option.Hash=16", "option.Threads=1",
         "--out", sf, "--quiet"])
    with h5py.File(sf, "r") as f:
        settings = list(text(f, "games/white_settings"))
        assert settings == ["uci:/usr/games/stockfish nodes=500 variation=0.25 Threads=1 Hash=8",
                            "uci:/usr/games/stockfish nodes=1000 variation=0.25 Threads=1 Hash=16"], settings

    for args, message in (
            (["--engine", "cmd=chesshpc", "nodes=10"], "--engine must be given twice: the first player and the second"),
            (["--engine", "cmd=chesshpc", "--engine", "cmd=chesshpc"],
             "selfplay needs one of --nodes, --depth, --movetime or --tc"),
            (["--engine", "cmd=chesshpc", "nodes=10", "speed=3", "--engine", "cmd=chesshpc", "nodes=5"],
             "unknown option --speed for 'selfplay --engine'"),
            (["--nodes", "10", "--engine", "cmd=chesshpc", "option.Hash=8", "--engine", "cmd=chesshpc"],
             "--engine option.Hash is for uci: engines, not chesshpc"),
            (["--nodes", "10", "--sprt", "elo0=5", "elo1=0"], "--sprt needs elo0 below elo1")):
        bad = os.path.join(tmp, "bad.h5")
        r = run([chesshpc, "selfplay", "--games", "2", *args, "--out", bad], code=2)
        assert r.stderr.splitlines()[0] == "chesshpc: " + message, r.stderr
        assert not os.path.exists(bad)
    print("engines: per-side names, node limits, settings and options; bad --engine usage: ok")


def check_sprt(chesshpc, mpiexec, tmp):
    def batch(name, launcher=()):
        out = os.path.join(tmp, name)
        r = run([*launcher, chesshpc, "selfplay", "--games", "40", "--random-plies", "4", "--seed", "3",
                 "--engine", "name=strong", "cmd=chesshpc", "nodes=5000",
                 "--engine", "name=weak", "cmd=chesshpc", "nodes=50",
                 "--sprt", "elo0=0", "elo1=10", "--threads", "1", "--out", out, "--quiet", "--json"])
        return out, json.loads(r.stdout)

    alone, summary = batch("sprt.h5")
    # One WW pair: LLR 3.80507 (tests/test_sprt.cpp works it out) beyond 2.944439.
    assert summary["sprt"]["decision"] == "H1" and summary["sprt"]["pairs"] == 1, summary
    assert summary["sprt"]["games_recorded"] < 40 and summary["games"] == 2, summary
    with h5py.File(alone, "r") as f:
        assert f.attrs["decision"] == "H1" and f.attrs["sprt_pairs"] == 1 and f.attrs["games"] == 2
        assert abs(f.attrs["llr"] - 3.80507) < 1e-5 and f.attrs["llr"] >= f.attrs["upper"]
        assert abs(f.attrs["upper"] - 2.944439) < 1e-6 and abs(f.attrs["lower"] + 2.944439) < 1e-6
        assert f.attrs["sprt"] == "elo0=0 elo1=10 alpha=0.05 beta=0.05" and f.attrs["pairs_WW"] == 1
        assert list(f["games/game"][:]) == [0, 1]
        moves = list(text(f, "games/moves"))

    ranks, summary2 = batch("sprt-2.h5", (mpiexec, "-np", "2", "--oversubscribe", "--bind-to", "none"))
    assert summary2["ranks"] == 2 and summary2["sprt"]["decision"] == "H1", summary2
    assert summary2["sprt"]["games_recorded"] < 40, summary2
    with h5py.File(ranks, "r") as f:
        assert f.attrs["decision"] == "H1" and list(text(f, "games/moves")) == moves
    print("sprt: H1 after one pair, the file and 2 ranks alike:", summary["sprt"])


CASES = {"pairs": check_pairs, "engines": check_engines, "sprt": check_sprt}

if __name__ == "__main__":
    case, chesshpc, mpiexec = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as tmp:
        CASES[case](chesshpc, mpiexec, tmp)
