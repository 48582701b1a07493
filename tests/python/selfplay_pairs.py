"""Selfplay game pairs, per-side players and the SPRT, read back with h5py.

  pairs    a batch (32 games, 300 nodes, 4 random plies, seed 11): no colour-swapped
           pair is the same game, where --variation 0 makes all 16 the same; the file's and the
           JSON's pentanomial counts are the pairs of /games/result; 2 pairs lost or won twice
           print a score interval and no infinite Elo
  engines  --engine name=weak cmd=chesshpc nodes=200 --engine name=strong ... nodes=2000 (exact
           limits): each side's /positions nodes at most its own limit and reaching it, the names
           in /games white/black, the settings and the PGN export; Stockfish through
           uci: with option.Hash per side in its settings column; bad --engine usage, exit 2
  sprt     nodes=5000 against nodes=50 with --sprt elo0=0 elo1=200 over 40 games: H1 after 7
           pairs won twice (never after one), the file holding just the decided pairs with llr
           (fishtest's, computed here independently), lower, upper and decision; the same batch
           on 2 ranks (mpirun) stops there too, with the same games; two identical
           players at elo0=0 elo1=40 undecided after 10 pairs
  sprt_resume  600 nodes against 600, --sprt elo0=-50 elo1=50 over 100 games (H0 after 36 pairs):
           SIGTERM once a part holds games, before the decision; a resume with another --sprt,
           another model= or none refused (exit 3, the line, the parts untouched); resumed on 2 ranks it counts the
           parts' pairs and decides at the same pair with the same LLR, /games, /positions and
           sprt attributes as the uninterrupted run; a batch whose parts hold a decided SPRT and
           games past it resumes playing none, into the decided file
  sprt_progress  the stderr report at the decision: one line (--progress 86400) ending in the
           JSON's "LLR 3.43 [-2.94, 2.94] H1", on 1 and 2 ranks; without --sprt no report

usage: selfplay_pairs.py CASE CHESSHPC MPIEXEC
"""
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

import h5py
import numpy as np
from mpi_selfplay import columns, games_in_parts, mpirun, same
from procs import stop_after_first_record

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "analysis"))
from chesshpc_report.selfplay import most_likely  # noqa: E402 (the report's package, from the source tree)

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


def fishtest_llr(counts, elo0, elo1, model="normalized"):
    """fishtest's LLR (server/fishtest/stats/LLRcalc.py, LLR_normalized and LLR_logistic),
    written again here in Python without scipy (apart from chesshpc's C++; the MLE is the
    report's, most_likely): empty outcomes count 0.001 pairs; under each hypothesis the
    pentanomial of greatest likelihood given the frequencies, with the hypothesis's mean
    score (logistic) or t-value (normalized, iterated from the uniform pentanomial);
    LLR = N sum f_i ln(q1_i / q0_i)."""
    c = [n if n else 1e-3 for n in (counts[k] for k in KINDS)]
    n = sum(c)
    f, a = [x / n for x in c], [i / 4 for i in range(5)]

    def hypothesis(elo):
        if model == "logistic":
            s = 1 / (1 + 10 ** (-elo / 400))
            return most_likely(f, [ai - s for ai in a])
        t, q = 2 ** 0.5 * elo * math.log(10) / 800, [0.2] * 5
        for _ in range(100):
            mu = sum(qi * ai for qi, ai in zip(q, a))
            sd = sum(qi * (ai - mu) ** 2 for qi, ai in zip(q, a)) ** 0.5
            q = most_likely(f, [ai - 0.5 - t * sd * (1 + ((mu - ai) / sd) ** 2) / 2 for ai in a])
        return q

    q0, q1 = hypothesis(elo0), hypothesis(elo1)
    return n * sum(fi * math.log(b / a_) for fi, a_, b in zip(f, q0, q1))


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
    # Two pairs of one outcome: the score interval is about Wilson's (2 of 2: from 0.3424),
    # and the Elo of a score of 0 or 1 is said to be unbounded, not printed as +-inf.
    # (Before: "first player 0.000 [0.000, 0.000], Elo -inf [-inf, -inf]".)
    for first, second, line in (
            ("nodes=50", "nodes=5000", "pairs: 2 LL 2 LD 0 DD+WL 0 WD 0 WW 0; first player 0.000 [0.000, 0.657], "
                                       "Elo at most 113.2 (no finite Elo at a score of 0)"),
            ("nodes=5000", "nodes=50", "pairs: 2 LL 0 LD 0 DD+WL 0 WD 0 WW 2; first player 1.000 [0.343, 1.000], "
                                       "Elo at least -113.2 (no finite Elo at a score of 1)")):
        r = run([chesshpc, "selfplay", "--games", "4", "--random-plies", "4", "--seed", "3", "--threads", "1",
                 "--engine", "cmd=chesshpc", first, "--engine", "cmd=chesshpc", second])
        assert r.stdout.splitlines()[3] == line, r.stdout
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
             "unknown key speed= for 'selfplay --engine'"),  # keys named as they are written
            (["--nodes", "10", "--engine", "cmd=chesshpc", "option.Hash=8", "--engine", "cmd=chesshpc"],
             "--engine option.Hash is for uci: engines, not chesshpc"),
            (["--nodes", "10", "--sprt", "elo0=5", "elo1=0"], "--sprt needs elo0 below elo1"),
            (["--nodes", "10", "--sprt", "model=bayeselo"], "--sprt model= takes normalized or logistic, not 'bayeselo'"),
            (["--nodes", "10", "--sprt", "elo1=300"], "elo1= must be a number from -200 to 200, not '300'")):
        bad = os.path.join(tmp, "bad.h5")
        r = run([chesshpc, "selfplay", "--games", "2", *args, "--out", bad], code=2)
        assert r.stderr.splitlines()[0] == "chesshpc: " + message, r.stderr
        assert not os.path.exists(bad)
    print("engines: per-side names, node limits, settings and options; bad --engine usage: ok")


def strong_weak(chesshpc, out, *extra, games=40, sprt=("--sprt", "elo0=0", "elo1=200")):
    """nodes=5000 against nodes=50: the first player wins both games of each pair, H1 after 7 pairs."""
    return [chesshpc, "selfplay", "--games", str(games), "--random-plies", "4", "--seed", "3",
            "--engine", "name=strong", "cmd=chesshpc", "nodes=5000", "--engine", "name=weak", "cmd=chesshpc", "nodes=50",
            *sprt, "--threads", "1", "--out", out, *extra]


def check_sprt(chesshpc, mpiexec, tmp):
    def batch(name, launcher=()):
        out = os.path.join(tmp, name)
        r = run([*launcher, *strong_weak(chesshpc, out, "--quiet", "--json")])
        return out, json.loads(r.stdout)

    alone, summary = batch("sprt.h5")
    # Pairs won twice: fishtest's LLR 2.9360 after 6 (undecided), 3.4254 after 7, beyond
    # 2.944439. (Before: H1 after the first pair, LLR 3.81.)
    ww = lambda k: dict(dict.fromkeys(KINDS, 0), WW=k)
    assert abs(fishtest_llr(ww(6), 0, 200) - 2.936048) < 1e-6 and abs(fishtest_llr(ww(7), 0, 200) - 3.425446) < 1e-6
    assert summary["sprt"]["decision"] == "H1" and summary["sprt"]["pairs"] == 7, summary
    assert summary["sprt"]["games_recorded"] < 40 and summary["games"] == 14, summary
    with h5py.File(alone, "r") as f:
        assert f.attrs["decision"] == "H1" and f.attrs["sprt_pairs"] == 7 and f.attrs["games"] == 14
        assert f.attrs["pairs_WW"] == 7 and abs(f.attrs["llr"] - fishtest_llr(ww(7), 0, 200)) < 1e-9, f.attrs["llr"]
        assert abs(f.attrs["upper"] - 2.944439) < 1e-6 and abs(f.attrs["lower"] + 2.944439) < 1e-6
        assert f.attrs["sprt"] == "elo0=0 elo1=200 alpha=0.05 beta=0.05 model=normalized"
        assert list(f["games/game"][:]) == list(range(14))
        moves = list(text(f, "games/moves"))

    ranks, summary2 = batch("sprt-2.h5", (mpiexec, "-np", "2", "--oversubscribe", "--bind-to", "none"))
    assert summary2["ranks"] == 2 and summary2["sprt"]["decision"] == "H1", summary2
    assert summary2["sprt"]["games_recorded"] < 40, summary2
    with h5py.File(ranks, "r") as f:
        assert f.attrs["decision"] == "H1" and list(text(f, "games/moves")) == moves

    # Two identical players, --sprt elo0=0 elo1=40, 10 pairs (seed 1). No
    # decision (none of 16 pairs or fewer can decide at these bounds), the LLR fishtest's
    # of the pairs' counts. (Before: H0 after the first pair, LLR -17.12.)
    same_players = os.path.join(tmp, "identical.h5")
    r = run([chesshpc, "selfplay", "--games", "20", "--seed", "1", "--engine", "name=A", "cmd=chesshpc", "--engine",
             "name=B", "cmd=chesshpc", "--nodes", "300", "--random-plies", "4", "--sprt", "elo0=0", "elo1=40",
             "--threads", "1", "--out", same_players, "--quiet", "--json"])
    test = json.loads(r.stdout)["sprt"]
    assert test["decision"] == "none" and test["pairs"] == 10, test
    with h5py.File(same_players, "r") as f:
        counts = pentanomial(f["games/game"][:], text(f, "games/result"))
        assert f.attrs["decision"] == "none" and abs(f.attrs["llr"] - fishtest_llr(counts, 0, 40)) < 1e-9, counts
    print("sprt: H1 after 7 pairs, fishtest's LLR, the file and 2 ranks alike:", summary["sprt"],
          "; identical players undecided after 10 pairs:", test["llr"])


def check_sprt_resume(chesshpc, mpiexec, tmp):
    def batch(out, *extra, sprt=("--sprt", "elo0=-50", "elo1=50")):
        """Two players of 600 nodes: H0 after pair 35 (72 games of the 100), in about 2 s."""
        return [chesshpc, "selfplay", "--games", "100", "--random-plies", "4", "--seed", "3",
                "--engine", "name=a", "cmd=chesshpc", "nodes=600", "--engine", "name=b", "cmd=chesshpc", "nodes=600",
                *sprt, "--threads", "1", "--out", out, "--quiet", "--json", *extra]

    reference = os.path.join(tmp, "whole.h5")
    whole = json.loads(run(batch(reference)).stdout)
    assert whole["games"] == 72 and whole["sprt"]["pairs"] == 36 and whole["sprt"]["decision"] == "H0", whole
    # fishtest's LLR of the 36 pairs' counts, -3.2385 below -2.944439, and of the first 35
    # above it: the test decided at pair 36, not later nor sooner.
    with h5py.File(reference, "r") as f:
        counts = pentanomial(f["games/game"][:], text(f, "games/result"))
        before = pentanomial(f["games/game"][:70], text(f, "games/result")[:70])
        llr = f.attrs["llr"]
    assert abs(llr - fishtest_llr(counts, -50, 50)) < 1e-9 and abs(whole["sprt"]["llr"] - llr) < 1e-5, (llr, counts)
    assert whole["sprt"]["model"] == "normalized", whole["sprt"]
    assert llr < -2.944439 < fishtest_llr(before, -50, 50), before

    stopped = os.path.join(tmp, "stopped.h5")
    cmd = batch(stopped, "--checkpoint", "0.05")
    err = stop_after_first_record(cmd, lambda: games_in_parts(stopped), "the SPRT batch", ENV)
    kept = games_in_parts(stopped)
    assert 2 <= kept < 72, f"{kept} games in the parts: the stop must come before the decision (72 games)"
    assert f"stopped by SIGTERM after {kept} of 100 games" in err, err

    # Another --sprt, or none, is another batch: refused as any changed setting is, the parts
    # left as they were.
    parts = stopped + ".parts"

    def snapshot():
        return {n: open(os.path.join(parts, n), "rb").read() for n in sorted(os.listdir(parts))}

    before = snapshot()
    theirs = "its sprt=elo0=-50 elo1=50 alpha=0.05 beta=0.05 model=normalized, this run's "
    for sprt, ours in ((("--sprt", "elo0=-50", "elo1=60"), "sprt=elo0=-50 elo1=60 alpha=0.05 beta=0.05 model=normalized"),
                       (("--sprt", "elo0=-50", "elo1=50", "model=logistic"),
                        "sprt=elo0=-50 elo1=50 alpha=0.05 beta=0.05 model=logistic"),
                       ((), "(nothing)")):
        r = run(batch(stopped, "--checkpoint", "0.05", "--resume", sprt=sprt), code=3)
        assert r.stderr == f"chesshpc selfplay: cannot resume from '{parts}': it holds another batch: {theirs}{ours}\n", \
            r.stderr
        assert r.stdout == "" and snapshot() == before and not os.path.exists(stopped)

    # Resumed on 2 ranks: the pairs of the parts count in the test, which decides at the
    # same pair with the same LLR, and the file is the uninterrupted run's.
    resumed = json.loads(run(mpirun(mpiexec, 2) + cmd + ["--resume"]).stdout)
    assert resumed["games_resumed"] == kept and resumed["games"] == 72, resumed
    assert resumed["sprt"] == dict(whole["sprt"], games_recorded=resumed["sprt"]["games_recorded"]), resumed
    same(columns(reference), columns(stopped))
    with h5py.File(reference, "r") as a, h5py.File(stopped, "r") as b:
        for name in ("sprt", "llr", "lower", "upper", "decision", "sprt_pairs", "pairs", "games", "positions"):
            assert a.attrs[name] == b.attrs[name], (name, a.attrs[name], b.attrs[name])
    assert not os.path.exists(parts)

    # A batch stopped after its SPRT decided: its parts hold pairs 0 to 6 (H1 after pair 6)
    # and pair 7, played after the decision by a unit still out. Made from a batch of the
    # same games without --sprt (a game depends on the seed and its index alone), its part
    # marked as one of the decided batch's. --resume plays no game and writes the decided file.
    decided, sixteen, done = (os.path.join(tmp, n) for n in ("decided.h5", "sixteen.h5", "done.h5"))
    run(strong_weak(chesshpc, decided, "--quiet"))
    run(strong_weak(chesshpc, sixteen, "--quiet", games=16, sprt=()))
    os.mkdir(done + ".parts")
    shutil.copy(sixteen, os.path.join(done + ".parts", "part-000000.h5"))
    with h5py.File(decided, "r") as f, h5py.File(os.path.join(done + ".parts", "part-000000.h5"), "r+") as part:
        part.attrs.modify("job", "selfplay-part")
        part.attrs.modify("identity", f.attrs["identity"])
    r = json.loads(run(strong_weak(chesshpc, done, "--quiet", "--json", "--resume")).stdout)
    # Before, "14 games (16 resumed)": the games past the decision counted as resumed.
    assert r["games"] == 14 and r["games_resumed"] == 14 and r["games_played"] == 0, r
    assert r["sprt"]["games_recorded"] == 0 and r["sprt"]["decision"] == "H1" and r["sprt"]["pairs"] == 7, r
    same(columns(decided), columns(done))
    with h5py.File(done, "r") as f:
        assert f.attrs["decision"] == "H1" and f.attrs["sprt_pairs"] == 7 and f.attrs["games"] == 14
    assert not os.path.exists(done + ".parts")
    print(f"sprt resume: stopped after {kept} games, resumed on 2 ranks: H0 after 36 pairs, the same file; "
          "another --sprt refused; a decided batch resumed plays nothing")


def check_sprt_progress(chesshpc, mpiexec, tmp):
    # A day between reports: the one report is the decision's.
    report = re.compile(r"selfplay: \d+/40 games, [0-9.]+ positions/s, elapsed [0-9:]+, ETA [0-9:?]+, "
                        r"[0-9.]+ games/s; (0-1 \d+ 1-0 \d+); (LLR .*)")
    for launcher in ((), tuple(mpirun(mpiexec, 2))):
        out = os.path.join(tmp, f"progress-{len(launcher)}.h5")
        r = run([*launcher, *strong_weak(chesshpc, out, "--json", "--progress", "86400")])
        test = json.loads(r.stdout)["sprt"]
        lines = [line for line in r.stderr.splitlines() if line.startswith("selfplay: ")]
        assert len(lines) == 1, r.stderr
        shown = report.fullmatch(lines[0])
        assert shown, lines[0]
        llr = f"LLR {test['llr']:.2f} [{test['lower']:.2f}, {test['upper']:.2f}] {test['decision']}"
        assert shown.group(2) == llr == "LLR 3.43 [-2.94, 2.94] H1", (lines[0], test)
    plain = run(strong_weak(chesshpc, os.path.join(tmp, "plain.h5"), "--json", "--progress", "86400", games=2,
                            sprt=()))
    assert plain.stderr == "", plain.stderr
    print("sprt progress: the decision reported at once, LLR 3.43 [-2.94, 2.94] H1 as in the JSON, on 1 and 2 ranks")


CASES = {"pairs": check_pairs, "engines": check_engines, "sprt": check_sprt, "sprt_resume": check_sprt_resume,
         "sprt_progress": check_sprt_progress}

if __name__ == "__main__":
    case, chesshpc, mpiexec = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as tmp:
        CASES[case](chesshpc, mpiexec, tmp)
