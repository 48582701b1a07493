"""analysis/chesshpc-report over small result files made here with the built binary.

  perft      1 rank, 2 ranks (mpirun), a run stopped by SIGTERM and the same run resumed:
             the JSON's totals, verification, units per run and load balance against the files;
             verified, MISMATCH and unknown totals past 2**64 in relabelled copies; every
             position of the published-count table counted by chesshpc to depth 3
  dedup      perft --dedup-ply on 2 ranks (mpirun), stopped by SIGTERM and resumed on 2 ranks, and a
             1,000-rank file synthesised here: every run's phases, plies and per-rank load
             distributions in the JSON against the files' rows; the Markdown and the page show
             distributions, not a row or a bar per rank
  drawstats  one corpus under the fide and the site rulesets: per-rule counts against /rules,
             the side-by-side comparison, and checks per game when a file has them
  selfplay   batches under the fide and the site rulesets and one chesshpc against Stockfish:
             results, White's score, terminations, lengths, score by ply, per-rule counts and
             checks per game against the files' own tables; the side-by-side comparison
  bench      a scaling sweep of `chesshpc bench --suite quick` (1-2 ranks x 1-2 threads): medians,
             Stockfish ratios, speed-ups and efficiencies against /measurements; two suites
             given together are refused
  html       the pages (perft and drawstats, selfplay, deduplicated perft, bench) open in
             headless Chromium without script errors and show every plot
  errors     missing, non-HDF5, job-less, unknown-job and malformed files, a damaged dataset; no usable
             Python
  attributes attributes of the wrong type, of bytes that are not UTF-8, an array for a number, text
             for a total, and one HDF5 cannot read: one line naming the file and the attribute, exit 3
             or 4, in the Markdown and the HTML report alike
  plots      the figures as drawn: whole-number ticks on every axis of counts, score by ply as one
             panel per file (a light band, a median line in the file's own colour, a legend)

usage: test_report.py CASE REPORT CHESSHPC MAKE_PGN_CORPUS MPIEXEC
CHESSHPC_SKIP_BROWSER=1 skips the html case (exit 77) where Chromium is not installed.
"""
import contextlib
import importlib.util
import io
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
from procs import stop_after_first_record, units_done

SKIPPED = 77  # ctest's SKIP_RETURN_CODE
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_btl_vader_single_copy_mechanism="none")
START_D4, START_D7 = 197281, 3195901860


class Tools:
    def __init__(self, report, chesshpc, corpus, mpiexec, tmp):
        self.report, self.chesshpc, self.corpus, self.mpiexec, self.tmp = report, chesshpc, corpus, mpiexec, tmp
        self.main = None  # report.py's main(), loaded on first use

    def path(self, name):
        return os.path.join(self.tmp, name)

    def run(self, *args, **kw):
        return subprocess.run(list(args), capture_output=True, text=True, timeout=120, env=ENV, **kw)

    def markdown(self, *args):
        """report.py's Markdown, run in this process: the launcher's start-up is tested
        elsewhere and costs a second a call on a busy machine."""
        code, out, err = self.in_process(*args)
        assert code == 0, f"report {args}: exit {code}: {err}"
        return out

    def in_process(self, *args):
        if self.main is None:
            path = os.path.join(os.path.dirname(self.report), "report.py")
            spec = importlib.util.spec_from_file_location("chesshpc_report_main", path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            self.main = module.main
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = self.main(list(args))
            except SystemExit as e:  # argparse's usage errors
                code = e.code
        return code, out.getvalue(), err.getvalue()

    def report_json(self, *files):
        r = self.run(self.report, *files, "--json")
        assert r.returncode == 0, f"report {files}: exit {r.returncode}: {r.stderr}"
        return json.loads(r.stdout)

    def mpirun(self, ranks):
        """The mpirun prefix for a run on this many ranks; none for one process."""
        return [self.mpiexec, "-np", str(ranks), "--oversubscribe", "--bind-to", "none"] if ranks > 1 else []

    def perft(self, out, depth, split, *extra, mpi_ranks=0):
        cmd = self.mpirun(mpi_ranks) + [self.chesshpc, "perft", "--depth", str(depth), "--split-depth", str(split),
                                        "--threads", "1", "--out", self.path(out), "--quiet", *extra]
        r = self.run(*cmd)
        assert r.returncode == 0, f"{cmd}: exit {r.returncode}: {r.stderr}"
        return self.path(out)

    def stopped_and_resumed(self, name, *extra, done="units_done", resume_ranks=1):
        """A depth-7 run in one process stopped by SIGTERM once its file holds a unit (done:
        the attribute that counts them), kept as NAME-stopped.h5, then resumed to the end
        on resume_ranks ranks (NAME-resumed.h5)."""
        out = self.path(f"{name}-resumed.h5")
        cmd = [self.chesshpc, "perft", "--depth", "7", "--split-depth", "3", "--threads", "1", "--out", out,
               "--checkpoint", "0.05", "--quiet", *extra]
        stop_after_first_record(cmd, lambda: units_done(out, done), "the run to stop", ENV)
        stopped = shutil.copy(out, self.path(f"{name}-stopped.h5"))
        r = self.run(*self.mpirun(resume_ranks), *cmd, "--resume")
        assert r.returncode == 0, f"resume: exit {r.returncode}: {r.stderr}"
        return stopped, out

    def drawstats(self, games, seed, *rulesets):
        pgn = self.path("corpus.pgn")
        with open(pgn, "w") as f:
            subprocess.run([self.corpus, str(games), str(seed)], stdout=f, check=True, timeout=60)
        paths = []
        for ruleset in rulesets:
            out = self.path(f"{ruleset}.h5")
            r = self.run(self.chesshpc, "drawstats", pgn, "--out", out, "--ruleset", ruleset, "--threads", "1", "--quiet")
            assert r.returncode == 0, f"drawstats {ruleset}: {r.stderr}"
            paths.append(out)
        return paths

    def selfplay(self, out, games, *extra):
        cmd = [self.chesshpc, "selfplay", "--games", str(games), "--nodes", "300", "--random-plies", "4",
               "--seed", "11", "--threads", "1", "--quiet", "--out", self.path(out), *extra]
        r = self.run(*cmd)
        assert r.returncode == 0, f"{cmd}: exit {r.returncode}: {r.stderr}"
        return self.path(out)

    def selfplay_rulesets(self, games):
        return [self.selfplay(f"selfplay-{r}.h5", games, "--ruleset", r) for r in ("fide", "site")]


def by_path(report, path):
    return next(s for s in report["files"] if s["path"] == path)


def check_perft(t):
    one = t.perft("one.h5", 4, 2)
    two = t.perft("two.h5", 4, 2, mpi_ranks=2)
    stopped, resumed = t.stopped_and_resumed("perft")
    report = t.report_json(one, two, stopped, resumed)

    for path in (one, two):
        s = by_path(report, path)
        assert s["job"] == "perft" and s["complete"] is True, s
        assert s["total"] == START_D4 and s["verification"] == "verified", (s["total"], s["verification"])
        with h5py.File(path, "r") as f:
            divide = dict(zip(f["divide/move"].asstr()[:], (int(n) for n in f["divide/nodes"].asstr()[:])))
            busy = f["ranks/busy_seconds"][:]
            assert s["units"] == s["units_done"] == len(f["units/fen"]) and s["units_left"] == 0
        assert s["divide"] == divide and sum(s["divide"].values()) == START_D4
        assert s["load_balance"] == busy.max() / busy.mean(), (s["load_balance"], busy)
        assert s["nodes_per_second"] > 0 and s["seconds"] > 0
    assert len(by_path(report, two)["ranks"]) == 2 and by_path(report, two)["provenance"]["ranks"] == 2

    s = by_path(report, stopped)
    with h5py.File(stopped, "r") as f:
        kept, units = int(f.attrs["units_done"]), int(f.attrs["units"])
    assert s["complete"] is False and s["total"] is None and s["verification"] == "incomplete", s
    assert (s["units_done"], s["units_left"], s["units"]) == (kept, units - kept, units), s
    assert s["divide"] == {}

    s = by_path(report, resumed)
    assert s["total"] == START_D7 and s["verification"] == "verified", s["total"]
    assert [(r["run"], r["units"]) for r in s["runs"]] == [(0, kept), (1, units - kept)], s["runs"]
    assert s["resumed"] is True and s["units_resumed"] == kept
    assert sum(r["nodes"] for r in s["runs"]) == START_D7

    rows = report["comparisons"]["perft"]["files"]
    assert [r["path"] for r in rows] == [one, two, stopped, resumed]
    assert report["comparisons"]["perft"]["totals_agree"] is True

    check_verification(t, one)
    check_published_table(t)

    md = t.markdown(one)
    assert "total 197,281, verified against the published count" in md and "| e2e4 | 13,160 |" in md, md
    md = t.markdown(stopped)
    assert f"incomplete, {kept:,} of {units:,} units done" in md, md
    print(f"perft: 1 and 2 ranks verified, stopped after {kept} units, resumed with {units - kept}: ok")


def relabelled(path, out, depth, total):
    """A copy of a complete perft file claiming another depth and total: the report's
    verification and its exact integers past 2**64, without a record-length run."""
    shutil.copy(path, out)
    with h5py.File(out, "a") as f:
        f.attrs["depth"], f.attrs["total"] = np.int64(depth), str(total)
    return out


def check_verification(t, one):
    d14 = 61885021521585529237  # start position, past 2**64
    files = [relabelled(one, t.path("d14.h5"), 14, d14), relabelled(one, t.path("wrong.h5"), 14, d14 + 1),
             relabelled(one, t.path("d15.h5"), 15, 1)]
    got = [(s["total"], s["verification"]) for s in t.report_json(*files)["files"]]
    assert got == [(d14, "verified"), (d14 + 1, "MISMATCH"), (1, "no published count")], got
    assert "MISMATCH: the published count is 61,885,021,521,585,529,237" in t.markdown(files[1])


def check_published_table(t):
    """Every position of the report's table of published counts, counted by chesshpc to
    depth 3: a mistyped FEN or count would call a right total a MISMATCH."""
    module = os.path.join(os.path.dirname(t.report), "chesshpc_report", "published.py")
    spec = importlib.util.spec_from_file_location("published", module)
    published = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(published)
    for fen, counts in published.COUNTS.items():
        r = t.run(t.chesshpc, "perft", "--fen", fen, "--depth", "3", "--json", "--quiet")
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["nodes"] == counts[2], (fen, r.stdout)


BUCKETS = 16384  # a deduplicated perft file's buckets, on any number of ranks
START_D6, START_D10 = 119060324, 69352859712417
MAX_TABLE_ROWS = 70  # of a deduplicated perft file's Markdown, on 2 ranks or 1,000


def check_dedup(t):
    two = t.perft("dedup-two.h5", 6, 3, "--dedup-ply", "4", mpi_ranks=2)
    stopped, resumed = t.stopped_and_resumed("dedup", "--dedup-ply", "4", done="buckets_done", resume_ranks=2)
    big = synthetic_dedup(t.path("dedup-1000.h5"), 1000)
    report = t.report_json(two, stopped, resumed, big)
    for path in (two, stopped, resumed, big):
        check_dedup_numbers(by_path(report, path), path)

    s = by_path(report, two)
    assert (s["total"], s["verification"], s["unique_positions"]) == (START_D6, "verified", 72078), s
    assert [(r["run"], r["ranks"], r["buckets"]) for r in s["runs"]] == [(0, 2, BUCKETS)], s["runs"]
    kept = int(h5py.File(stopped, "r").attrs["buckets_done"])
    s = by_path(report, stopped)
    assert (s["complete"], s["total"], s["buckets_done"], s["buckets_left"]) == (False, None, kept, BUCKETS - kept)
    # The stopped run keeps its /ranks rows, so its phase B is its time until the stop.
    assert s["runs"][0]["phase_a_seconds"] > 0 and s["runs"][0]["phase_b_seconds"] > 0, s["runs"]
    assert s["runs"][0]["buckets"] == kept, s["runs"]
    s = by_path(report, resumed)
    assert (s["total"], s["verification"], s["buckets_resumed"]) == (START_D7, "verified", kept), s
    assert [(r["run"], r["ranks"], r["buckets"]) for r in s["runs"]] == [(0, 1, kept), (1, 2, BUCKETS - kept)]
    # Both runs are timed now that the stopped one keeps its /ranks rows.
    assert s["seconds_source"] == "phases A + B" and math.isclose(
        s["seconds"], s["runs"][0]["wall_seconds"] + s["runs"][1]["wall_seconds"]), s["runs"]
    s = by_path(report, big)
    assert (s["total"], s["verification"], len(s["ranks"])) == (START_D10, "verified", 1000), s["total"]
    c = report["comparisons"]["perft_dedup"]
    assert [(r["path"], r["ranks"]) for r in c["files"]] == [(two, 2), (stopped, 1), (resumed, 2), (big, 1000)]
    assert c["totals_agree"] is True

    check_dedup_markdown(t, two, big, stopped, kept)
    check_dedup_pages(t, two, big)
    print(f"perft dedup: 2 ranks, stopped after {kept} buckets and resumed on 2, 1,000 ranks synthesised: ok")


def check_dedup_numbers(s, path):
    """Every run's phases, plies and per-rank load in the JSON against the file's rows,
    summed and ranked here without the report's code."""
    levels, ranks, buckets = (group_arrays(path, g) for g in ("levels", "ranks", "buckets"))
    done = buckets["done"].astype(bool)
    assert s["job"] == "perft_dedup" and (s["buckets"], s["buckets_done"]) == (BUCKETS, int(done.sum())), s
    assert s["unique_positions"] == int(buckets["positions"][done].sum())
    assert s["nodes_counted"] == sum(int(n) for n in buckets["nodes"][done])
    assert [r["run"] for r in s["runs"]] == sorted(set(levels["run"]) | set(ranks["run"])), s["runs"]
    for r in s["runs"]:
        check_dedup_run(r, *(rows_of_run(table, r["run"]) for table in (levels, ranks)),
                        rows_of_run(buckets, r["run"], done))
        mine = [row for row in s["ranks"] if row["run"] == r["run"]]
        assert [row["rank"] for row in mine] == list(range(r["ranks"])), mine


def rows_of_run(table, run, mask=True):
    keep = (table["run"] == run) & mask
    return {k: v[keep] for k, v in table.items()}


def check_dedup_run(r, levels, ranks, counted):
    plies = sorted(set(levels["ply"].tolist()))
    assert [p["ply"] for p in r["plies"]] == plies, r["plies"]
    phase_a = 0
    for p in r["plies"]:
        at = levels["ply"] == p["ply"]
        seconds, exchange, sent = levels["seconds"][at], levels["exchange_seconds"][at], levels["bytes_sent"][at]
        assert (p["unique"], p["records_sent"], p["bytes_sent"]["total"], p["bytes_received"]["total"]) == (
            levels["unique"][at].sum(), levels["records_sent"][at].sum(), sent.sum(),
            levels["bytes_received"][at].sum()), p
        assert (p["bytes_sent"]["min"], p["bytes_sent"]["max"]) == (sent.min(), sent.max()), p["bytes_sent"]
        assert (p["seconds"]["max"], p["seconds"]["median"]) == (seconds.max(), np.median(seconds)), p["seconds"]
        assert np.isclose(p["exchange_share"], exchange.sum() / seconds.sum()), p
        phase_a += seconds.max()
    assert np.isclose(r["phase_a_seconds"], phase_a), (r["phase_a_seconds"], phase_a)
    phase_b = (ranks["busy_seconds"] + ranks["idle_seconds"]).max() if len(ranks["rank"]) else None
    assert r["phase_b_seconds"] == phase_b, (r["phase_b_seconds"], phase_b)
    if phase_b is not None:
        assert np.isclose(r["wall_seconds"], phase_a + phase_b) and np.isclose(r["phase_a_share"],
                                                                               phase_a / (phase_a + phase_b))
    assert (r["buckets"], r["positions"]) == (len(counted["rank"]), counted["positions"].sum()), r
    for name, values in per_rank_load(levels, ranks, counted, r["ranks"]).items():
        check_spread(r["load"][name], values, name)


def per_rank_load(levels, ranks, counted, n):
    """Each rank's phase A sums, phase B times and buckets, added up row by row."""
    load = {}
    for column, name in (("seconds", "routing_seconds"), ("exchange_seconds", "exchange_seconds"),
                         ("bytes_sent", "bytes_sent")):
        if len(levels["rank"]):
            sums = [0] * n
            for rank, x in zip(levels["rank"], levels[column]):
                sums[rank] += x
            load[name] = sums
    if len(ranks["rank"]):
        load["busy_seconds"] = [dict(zip(ranks["rank"], ranks["busy_seconds"]))[k] for k in range(n)]
    counts = [0] * n
    for rank in counted["rank"]:
        counts[rank] += 1
    load["buckets"] = counts
    return load


def check_spread(d, values, name):
    v = np.array(values, dtype=float)
    want = [len(v), *np.percentile(v, [0, 50, 90, 100])]
    got = [d["count"], d["min"], d["median"], d["p90"], d["max"]]
    assert np.allclose(got, want, rtol=1e-12), (name, got, want)
    balance = v.max() / v.mean() if v.mean() > 0 else None  # no imbalance of nothing (one process sends no bytes)
    assert (d["max_over_mean"] is None) if balance is None else np.isclose(d["max_over_mean"], balance), (name, d)


def check_dedup_markdown(t, two, big, stopped, kept):
    md = t.markdown(two)
    assert "total 119,060,324, verified against the published count" in md, md
    assert "| 0 | 4 | 2 | 72,078 |" in md and "| phase B busy |" in md and "| bytes sent |" in md, md
    assert len(re.findall(r"^\| 0 \| [01] \| \S+ \| [\d.]+ [mµ]?s \|", md, re.M)) == 2, md  # a row per rank
    md = t.markdown(big)
    rows = [line for line in md.splitlines() if line.startswith("| ")]
    assert len(rows) <= MAX_TABLE_ROWS, f"{len(rows)} table rows for 1,000 ranks"
    assert "Load across the 1,000 ranks of run 0" in md and "own numbers (1,000 rows)" in md, md
    assert not re.search(r"^\| 0 \| \d+ \| node", md, re.M), "a row per rank on 1,000 ranks"
    assert f"incomplete, {kept:,} of {BUCKETS:,} buckets done" in t.markdown(stopped)


def check_dedup_pages(t, two, big):
    """The same plots for 1,000 ranks as for 2 (phases, load, bytes per ply, bucket times),
    and no table row per rank."""
    for path in (two, big):
        page, text = write_page(t, os.path.basename(path) + ".html", [path], 4)
        assert text.count("<tr>") <= MAX_TABLE_ROWS, f"{page}: {text.count('<tr>')} table rows"


def synthetic_dedup(path, ranks, seed=5):
    """A perft_dedup file as a complete run on this many ranks would write it (start
    position, depth 10, dedup ply 7) with random numbers that agree with each other:
    bucket b counted by rank b % ranks, each rank's unique positions at ply 7 those of its
    buckets, every record sent received, the buckets' nodes summing to the total."""
    rng = np.random.default_rng(seed)
    plies = np.arange(3, 8)
    owner = np.arange(BUCKETS) % ranks
    positions = rng.integers(50_000, 150_000, BUCKETS)
    nodes = exact_shares(START_D10, rng.integers(1, 1000, BUCKETS))
    with h5py.File(path, "w") as f:
        add_group(f, "buckets", positions=positions.astype(np.uint64), nodes=[str(n) for n in nodes],
                  seconds=rng.uniform(1, 60, BUCKETS), rank=owner.astype(np.int32), run=np.zeros(BUCKETS, np.int32),
                  done=np.ones(BUCKETS, bool))
        add_group(f, "levels", **synthetic_levels(rng, plies, np.bincount(owner, weights=positions, minlength=ranks)))
        busy = rng.lognormal(np.log(100), 0.05, ranks) * np.where(np.arange(ranks) % 97 == 7, 1.5, 1.0)
        add_group(f, "ranks", run=np.zeros(ranks, np.int32), rank=np.arange(ranks, dtype=np.int32),
                  host=[f"node{r // 32:03d}" for r in range(ranks)], busy_seconds=busy,
                  idle_seconds=busy.max() + 0.5 - busy)
        moves = ["a2a3", "b2b3", "c2c3", "d2d3", "e2e3", "f2f3", "g2g3", "h2h3", "a2a4", "b2b4", "c2c4", "d2d4",
                 "e2e4", "f2f4", "g2g4", "h2h4", "b1a3", "b1c3", "g1f3", "g1h3"]
        add_group(f, "divide", move=moves, nodes=[str(n) for n in exact_shares(START_D10, np.arange(1, 21))])
        f.attrs.update({"job": "perft_dedup", "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                        "depth": 10, "split_depth": 3, "dedup_ply": 7, "buckets": BUCKETS, "buckets_done": BUCKETS,
                        "bucket_hash": "waiting_side_v2", "complete": 1, "runs": 1, "total": str(START_D10),
                        "hosts": ",".join(f"node{n:03d}" for n in range((ranks + 31) // 32)), "program": "chesshpc",
                        "version": "synthetic", "ranks": ranks, "threads": 8})
    return path


def synthetic_levels(rng, plies, unique_at_dedup_ply):
    """Rows of /levels, rank by rank and ply by ply: each ply's records received are
    another rank's sent (rolled by one rank), so that they sum alike."""
    ranks = len(unique_at_dedup_ply)
    rows = {k: [] for k in ("run", "rank", "ply", "unique", "records_sent", "records_received", "bytes_sent",
                            "bytes_received", "rounds", "seconds", "exchange_seconds")}
    for i, ply in enumerate(plies):
        unique = (unique_at_dedup_ply // 10 ** (plies[-1] - ply)).astype(np.uint64) + 1
        sent = (unique * rng.uniform(0.8, 1.0, ranks)).astype(np.uint64)
        seconds = 10.0 ** (i - 1) * rng.uniform(1.0, 1.2, ranks)
        for name, values in (("run", np.zeros(ranks)), ("rank", np.arange(ranks)), ("ply", np.full(ranks, ply)),
                             ("unique", unique), ("records_sent", sent), ("records_received", np.roll(sent, 1)),
                             ("bytes_sent", sent * 44), ("bytes_received", np.roll(sent, 1) * 44),
                             ("rounds", np.full(ranks, i + 1)), ("seconds", seconds),
                             ("exchange_seconds", seconds * rng.uniform(0.2, 0.6, ranks))):
            rows[name].append(values)
    types = {"run": np.int32, "rank": np.int32, "ply": np.int32, "rounds": np.int32, "seconds": float,
             "exchange_seconds": float}
    return {k: np.concatenate(v).astype(types.get(k, np.uint64)) for k, v in rows.items()}


def exact_shares(total, weights):
    """total split in proportion to the weights, in integers that sum to it exactly."""
    weights = [int(w) for w in weights]
    shares = [total * w // sum(weights) for w in weights]
    shares[0] += total - sum(shares)
    return shares


def add_group(f, name, **columns):
    """Columns (lists: text) compressed, as chesshpc writes them."""
    g = f.create_group(name)
    for column, values in columns.items():
        data = np.array(values, dtype=h5py.string_dtype()) if isinstance(values, list) else values
        g.create_dataset(column, data=data, compression="gzip")


def damaged(path, out, dataset):
    """A copy with the dataset's compressed bytes overwritten: HDF5 opens the file and
    finds the dataset, but cannot read it."""
    shutil.copy(path, out)
    with h5py.File(out, "r") as f:
        chunk = f[dataset].id.get_chunk_info(0)
    with open(out, "r+b") as raw:
        raw.seek(chunk.byte_offset)
        raw.write(b"\xff" * chunk.size)
    return out


def uneven(path, out):
    """A copy whose /levels has one column shorter than the others."""
    shutil.copy(path, out)
    with h5py.File(out, "a") as f:
        del f["levels/seconds"]
        f["levels/seconds"] = np.ones(1)
    return out


def add_checks_column(path, out):
    """A copy of a drawstats file with per-game check counts, as later files will hold them."""
    shutil.copy(path, out)
    with h5py.File(out, "a") as f:
        f["games/checks_white"] = (np.arange(len(f["games/plies"])) % 7).astype(np.int32)
    return out


def check_drawstats(t):
    fide, site = t.drawstats(300, 7, "fide", "site")
    report = t.report_json(fide, site)
    for path, ruleset in ((fide, "fide"), (site, "site")):
        s = by_path(report, path)
        with h5py.File(path, "r") as f:
            names = list(f["rules/name"].asstr()[:])
            expected = {n: (int(fi), int(en)) for n, fi, en in zip(names, f["rules/fired"][:], f["rules/ended"][:])}
            games = int(f.attrs["games"])
        assert s["job"] == "drawstats" and s["ruleset"] == ruleset and s["games"] == games == 300, s
        assert {n: (r["fired"], r["ended"]) for n, r in s["rules"].items()} == expected, (s["rules"], expected)
        assert sum(s["terminations"].values()) == games
    c = report["comparisons"]["drawstats"]
    assert c["same_corpus"] is True and c["rulesets"] == ["fide", "site"]
    for name in ("fifty_moves", "site_thirty_moves"):
        assert c["rules"][name]["ended"] == [by_path(report, p)["rules"][name]["ended"] for p in (fide, site)]
    assert c["rules"]["site_thirty_moves"]["ended"][0] == 0 and c["rules"]["fifty_moves"]["ended"][1] == 0

    checks = add_checks_column(fide, t.path("checks.h5"))
    s = t.report_json(checks)["files"][0]
    assert s["checks"]["checks_white"]["total"] == sum(i % 7 for i in range(300)), s["checks"]

    md = t.markdown(fide, site)
    assert "## drawstats files side by side" in md and "FIDE 50-move" in md and "site 30-move" in md, md
    print("drawstats: per-rule counts of fide and site files match /rules: ok")


def games_table(path):
    """/games and the positions' scores as plain numpy arrays, read straight from the file."""
    with h5py.File(path, "r") as f:
        g = {k: (f["games"][k].asstr()[:] if h5py.check_string_dtype(f["games"][k].dtype) else f["games"][k][:])
             for k in ("result", "termination", "plies", "checks_white", "checks_black")}
        rules = {n: (int(fi), int(en)) for n, fi, en in
                 zip(f["drawstats/name"].asstr()[:], f["drawstats/fired"][:], f["drawstats/ended"][:])}
        fen, ply, cp = f["positions/fen"].asstr()[:], f["positions/ply"][:], f["positions/score_cp"][:]
    white = np.array([x.split()[1] == "w" for x in fen])
    g["white_view"] = (ply[~np.isnan(cp)], np.where(white, cp, -cp)[~np.isnan(cp)])
    return g, rules


def wilson(n, mean):
    """Wilson's 95% interval of `mean` successes per trial over n trials."""
    z2 = 1.959963984540054 ** 2
    centre, half = (mean + z2 / (2 * n)) / (1 + z2 / n), (z2 / (1 + z2 / n)) * math.sqrt(mean * (1 - mean) / (n * z2) + 1 / (4 * n * n))
    return centre - half, centre + half


def check_selfplay_file(s, path, games):
    g, rules = games_table(path)
    result, term = g["result"], g["termination"]
    assert s["job"] == "selfplay" and s["games"] == len(result) == games, (s["games"], len(result))
    counts = {"white_wins": "1-0", "draws": "1/2-1/2", "black_wins": "0-1", "void": "*"}
    assert s["results"] == {k: int((result == r).sum()) for k, r in counts.items()}, s["results"]
    w, d, b = (int((result == r).sum()) for r in ("1-0", "1/2-1/2", "0-1"))
    # The score interval lies inside Wilson's of as many games (no distribution on [0, 1] of
    # mean p has a variance above p (1 - p)) and, with some of each result, strictly around the mean.
    n, mean = w + d + b, (w + d / 2) / (w + d + b)
    low, high = wilson(n, mean)
    sc = s["white_score"]
    assert sc["score"] == mean and low - 1e-12 <= sc["low"] and sc["high"] <= high + 1e-12, (sc, low, high)
    assert sc["low"] < mean < sc["high"] or not (w and d and b), sc
    kinds, n = np.unique(term, return_counts=True)
    assert s["terminations"] == {str(k): int(c) for k, c in zip(kinds, n)}, s["terminations"]
    assert {name: (r["fired"], r["ended"]) for name, r in s["rules"].items()} == rules, (s["rules"], rules)
    for name, r in s["rules"].items():  # a rule's endings are the games whose termination it is
        assert r["ended"] == int((term == name).sum()) or name not in set(term), name
    assert s["lengths"]["median"] == float(np.median(g["plies"])) and s["lengths"]["max"] == int(g["plies"].max())
    both = g["checks_white"].astype(int) + g["checks_black"]
    assert s["checks"]["checks_white"]["total"] == int(g["checks_white"].sum()), s["checks"]
    assert s["checks"]["checks_black"]["total"] == int(g["checks_black"].sum()), s["checks"]
    assert s["checks"]["checks_both"]["total"] == int(both.sum()) and s["checks"]["checks_both"]["max"] == both.max()
    assert abs(s["checks"]["checks_both"]["mean"] - both.mean()) < 1e-12
    ply, cp = g["white_view"]
    width = s["score_by_ply"]["bucket_plies"]
    for bucket in s["score_by_ply"]["buckets"]:
        mine = cp[(ply >= bucket["from_ply"]) & (ply <= bucket["to_ply"])]
        assert bucket["to_ply"] - bucket["from_ply"] + 1 == width and bucket["positions"] == len(mine), bucket
        assert np.allclose([bucket["q1"], bucket["median"], bucket["q3"]], np.quantile(mine, [0.25, 0.5, 0.75])), bucket
    assert sum(b["positions"] for b in s["score_by_ply"]["buckets"]) == len(cp)
    # Game pairs: the report's counts and Elo from /games agree with the file's own (chesshpc's).
    with h5py.File(path, "r") as f:
        attrs = dict(f.attrs)
    pairs = s["pairs"]
    assert pairs["pairs"] == attrs["pairs"] and pairs["pairs"] == sum(pairs["counts"].values()), pairs
    assert pairs["counts"] == {k: int(attrs["pairs_" + k]) for k in ("LL", "LD", "DD+WL", "WD", "WW")}, pairs
    for key in ("elo", "elo_low", "elo_high"):
        assert (pairs[key] is None and not np.isfinite(attrs[key])) or np.isclose(pairs[key], attrs[key]), (key, pairs)


def check_selfplay(t):
    fide, site = t.selfplay_rulesets(32)
    stockfish = t.selfplay("stockfish.h5", 8, "--black", "uci:/usr/games/stockfish",
                           "--uci-options", "Threads=1,Hash=16")
    report = t.report_json(fide, site, stockfish)
    for path, games in ((fide, 32), (site, 32), (stockfish, 8)):
        check_selfplay_file(by_path(report, path), path, games)
    assert by_path(report, site)["settings"]["ruleset"] == "site"
    assert by_path(report, fide)["settings"]["limits"] == "nodes 300"

    players = by_path(report, stockfish)["players"]
    assert len(players) == 2 and all(p["games"] == 8 for p in players.values()), players
    assert sum(p["score"] for p in players.values()) == 1.0 and any(n.startswith("uci:") for n in players), players
    decided = by_path(report, fide)["white_score"]["games"]
    assert list(by_path(report, fide)["players"].values())[0]["games"] == 2 * decided  # both colours, one player

    c = report["comparisons"]["selfplay"]
    assert c["files"] == [fide, site, stockfish] and c["same_openings"] is False, c
    for i, path in enumerate(c["files"]):
        term = games_table(path)[0]["termination"]
        assert {k: v[i] for k, v in c["terminations"].items() if v[i]} == {str(k): int((term == k).sum())
                                                                           for k in set(term)}
        for name, r in c["rules"].items():
            assert r["ended"][i] == by_path(report, path)["rules"][name]["ended"], name
    assert c["rules"]["site_thirty_moves"]["ended"][0] == 0 and c["rules"]["fifty_moves"]["ended"][1] == 0
    assert t.report_json(fide, site)["comparisons"]["selfplay"]["same_openings"] is True

    md = t.markdown(fide, site)
    assert "## selfplay: " in md and "## selfplay files side by side" in md and "White's score (95% interval)" in md, md
    assert "site 30-move" in md and "Checks given per game:" in md, md
    assert "Results by player" in t.markdown(stockfish)
    assert "Game pairs (one opening, colours swapped)" in md and "| pairs | LL | LD | DD+WL | WD | WW |" in md, md
    # Few games of one outcome: 5,000 nodes against 50 win all 4 games (2 pairs won twice).
    # Wilson's interval of 4 out of 4 starts at 4 / (4 + 1.96^2) = 0.5101 (the report's,
    # with the pseudo-count: 0.51017), of 2 pairs out of 2 at 0.3424 (0.34264: Elo -113.2);
    # before, "100.0% (100.0-100.0%)".
    won = t.selfplay("won.h5", 4, "--engine", "name=strong", "cmd=chesshpc", "nodes=5000", "--engine", "name=weak",
                     "cmd=chesshpc", "nodes=50")
    won_report = by_path(t.report_json(won), won)
    strong = won_report["players"]["strong (chesshpc nodes=5000 variation=0.25 hash=2097152)"]
    assert abs(strong["low"] - wilson(4, 1.0)[0]) < 1e-3 and strong["high"] == 1.0 and strong["wins"] == 4, strong
    md = t.markdown(won)
    assert "| strong (chesshpc nodes=5000 variation=0.25 hash=2097152) | 4 | 4 | 0 | 0 | 100.0% (51.0-100.0%) |" in md, md
    assert "| weak (chesshpc nodes=50 variation=0.25 hash=2097152) | 4 | 0 | 0 | 4 | 0.0% (0.0-49.0%) |" in md, md
    # The names --engine gave, and each side's own limits (the batch has none).
    assert won_report["settings"]["first"] == "strong" and won_report["settings"]["second"] == "weak", won_report
    assert won_report["settings"]["limits"] == "strong: nodes 5000; weak: nodes 50", won_report
    assert "strong against weak, strong: nodes 5000; weak: nodes 50;" in md, md
    assert "| 2 | 0 | 0 | 0 | 0 | 2 | 100.0% (34.3-100.0%) | at least -113.2 (no finite Elo at a score of 1) |" in md, md
    print("selfplay: results, terminations, rules, checks and score by ply of fide, site and Stockfish files; "
          "intervals of 4 games won: ok")


SWEEP = [(1, 1), (1, 2), (2, 1), (2, 2)]  # (ranks, threads) of each file, in the report's order
QUICK_PERFT = [("kiwipete", 3), ("pos3", 4), ("pos4", 3), ("pos5", 3), ("start", 4)]  # the quick suite's perfts


def make_bench_files(t):
    """A scaling sweep (SWEEP) of `chesshpc bench --suite quick`, under mpirun for 2 ranks."""
    paths = []
    for ranks, threads in SWEEP:
        out = t.path(f"bench-{ranks}x{threads}.h5")
        cmd = t.mpirun(ranks) + [t.chesshpc, "bench", "--suite", "quick", "--repeats", "2", "--threads", str(threads),
                     "--out", out, "--quiet"]
        r = t.run(*cmd)
        assert r.returncode == 0, f"{cmd}: exit {r.returncode}: {r.stderr}"
        paths.append(out)
    return paths


def group_arrays(path, group):
    """A group's columns as numpy arrays (text as str), read straight from the file."""
    with h5py.File(path, "r") as f:
        g = f[group]
        return {k: (g[k].asstr()[:] if h5py.check_string_dtype(g[k].dtype) else g[k][:]) for k in g}


def measurements(path):
    return group_arrays(path, "measurements")


def expected_bench_rows(path):
    """Per (benchmark, set, depth): median, min and max n/s, median nodes and seconds, cores."""
    m = measurements(path)
    out = {}
    for key in dict.fromkeys(zip(m["benchmark"], m["set"], m["depth"])):
        mine = (m["benchmark"] == key[0]) & (m["set"] == key[1]) & (m["depth"] == key[2])
        nps = m["nodes_per_second"][mine]
        out[key] = (np.median(nps), nps.min(), nps.max(), np.median(m["nodes"][mine].astype(float)),
                    np.median(m["seconds"][mine]), int((m["threads"][mine] * m["ranks"][mine]).max()))
    return out


def expected_rates(path):
    """Per benchmark: summed median nodes over summed median seconds, and its cores."""
    rows = expected_bench_rows(path)
    out = {}
    for bench in dict.fromkeys(k[0] for k in rows):
        mine = [v for k, v in rows.items() if k[0] == bench]
        out[bench] = (sum(v[3] for v in mine) / sum(v[4] for v in mine), max(v[5] for v in mine))
    return out


def check_bench(t):
    paths = make_bench_files(t)
    report = t.report_json(*reversed(paths))
    for path in paths:
        s = by_path(report, path)
        with h5py.File(path, "r") as f:
            cpu = f.attrs["cpu_model"]
        assert s["job"] == "bench" and s["suite"] == "quick" and s["machine"]["cpu_model"] == cpu != "", s
        expected = expected_bench_rows(path)
        assert [(r["benchmark"], r["set"], r["depth"]) for r in s["rows"]] == list(expected)
        for r in s["rows"]:
            median, lo, hi = expected[(r["benchmark"], r["set"], r["depth"])][:3]
            assert (r["median_nodes_per_second"], r["min_nodes_per_second"], r["max_nodes_per_second"]) == \
                (median, lo, hi), (r, median, lo, hi)
        ratios = {(x["set"], x["depth"]): x["ratio"] for x in s["stockfish"]}
        for (set_name, depth), ratio in ratios.items():
            want = expected[("perft", set_name, depth)][0] / expected[("stockfish_perft", set_name, depth)][0]
            assert abs(ratio - want) < 1e-12 * want, (ratio, want)
        stockfish = os.path.exists("/usr/games/stockfish")
        assert sorted(ratios) == (QUICK_PERFT if stockfish else []), ratios

    c = report["comparisons"]["bench"]
    assert [(f["ranks"], f["threads"]) for f in c["files"]] == SWEEP, c["files"]  # by ranks x threads, then ranks
    assert c["baseline"] == paths[0] and c["against_threads"] == paths[:2] and c["against_ranks"] == {
        "1": [paths[0], paths[2]], "2": [paths[1], paths[3]]}, (c["against_threads"], c["against_ranks"])
    rates = {f["path"]: expected_rates(f["path"]) for f in c["files"]}
    base = rates[paths[0]]
    assert set(c["speedup"]) == {"perft_threads", "hashed_perft", "search", "cluster_perft"}, c["speedup"]
    for i, f in enumerate(c["files"]):
        for bench, (rate, cores) in rates[f["path"]].items():
            assert abs(c["nodes_per_second"][bench][i] - rate) <= 1e-9 * rate, (bench, f)
            if bench in c["speedup"]:
                speedup = rate / base[bench][0]
                assert abs(c["speedup"][bench][i] - speedup) < 1e-9, (bench, f, c["speedup"][bench][i], speedup)
                assert abs(c["efficiency"][bench][i] - speedup / (cores / base[bench][1])) < 1e-9, (bench, f)

    md = t.markdown(*paths)
    assert "## bench: " in md and "## bench files side by side" in md and cpu in md, md
    assert "| set | depth | chesshpc n/s | stockfish n/s | stockfish time | ratio |" in md, md
    assert "Speed-up (efficiency" in md, md
    # A ratio over a Stockfish run under a second is marked short, and the text says why.
    for path in paths:
        s = by_path(report, path)
        short = [x for x in s["stockfish"] if x["short"]]
        assert all(x["short"] == (x["stockfish_seconds"] < 1.0) for x in s["stockfish"]), s["stockfish"]
        assert ("are noise, not a comparison of the two programs" in t.markdown(path)) == bool(short), path
    standard = shutil.copy(paths[0], t.path("standard.h5"))
    with h5py.File(standard, "a") as f:
        f.attrs["suite"] = "standard"
    code, _, err = t.in_process(paths[0], standard)
    assert code == 3 and "bench files of different suites cannot be set side by side" in err, (code, err)
    print(f"bench: medians, Stockfish ratios, speed-ups and efficiencies of {len(paths)} files: ok")


def chromium():
    return shutil.which("chromium") or shutil.which("chromium-browser")


def dump_dom(browser, page, profile):
    cmd = [browser, "--headless=new", "--disable-gpu", "--no-sandbox", "--no-first-run", f"--user-data-dir={profile}",
           "--enable-logging=stderr", "--v=0", "--dump-dom", "file://" + page]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=90)
    assert r.returncode == 0, f"chromium exit {r.returncode}: {r.stderr[-2000:]}"
    return r.stdout, r.stderr


def check_html(t):
    browser = chromium()
    if not browser:
        if os.environ.get("CHESSHPC_SKIP_BROWSER") == "1":
            print("html: skipped, no chromium and CHESSHPC_SKIP_BROWSER=1")
            sys.exit(SKIPPED)
        sys.exit("html: chromium not found: install it (bash scripts/setup.sh does, Debian's 'chromium'), "
                 "or set CHESSHPC_SKIP_BROWSER=1 to skip this test")
    one = t.perft("one.h5", 3, 1)
    two = t.perft("two.h5", 3, 1)
    fide, site = t.drawstats(100, 3, "fide", "site")
    checks = add_checks_column(fide, t.path("checks.h5"))
    rules = t.report_json(fide, site, checks)["comparisons"]["drawstats"]["rules"]
    # 2 per perft file + 1 side by side; 2 per drawstats file + 1 for checks + 2 or 3 side by side
    shown = check_page(t, browser, "report.html", [one, two, fide, site, checks],
                       2 + 2 + 1 + 2 + 2 + 3 + 2 + move_count_endings(rules))

    selfplay = t.selfplay_rulesets(16)
    report = t.report_json(*selfplay)
    # per file: terminations, lengths, score by ply, first fires, checks, and the move-count rules'
    # first fires where one held; side by side: lengths, score, terminations, endings (+ move-count endings)
    per_file = [5 + any(s["rules"][n]["fired"] for n in MOVE_COUNT_RULES) for s in report["files"]]
    shown += check_page(t, browser, "selfplay.html", selfplay,
                        sum(per_file) + 4 + move_count_endings(report["comparisons"]["selfplay"]["rules"]))

    dedup = [t.perft("dedup-two.h5", 5, 3, "--dedup-ply", "4", mpi_ranks=2),
             synthetic_dedup(t.path("dedup-1000.h5"), 1000)]
    # per file: phases, load across ranks, bytes per rank and ply, bucket times; side by side: nodes/s
    shown += check_page(t, browser, "dedup.html", dedup, 4 + 4 + 1)

    bench = make_bench_files(t)
    # one throughput plot per file; speed-up and efficiency against threads and against ranks
    shown += check_page(t, browser, "bench.html", bench, len(bench) + 2)
    print(f"html: {shown} plots on 4 pages shown in headless Chromium, no script errors: ok")


MOVE_COUNT_RULES = ("fifty_moves", "seventy_five_moves", "site_thirty_moves")


def move_count_endings(rules):
    return any(any(rules[n]["ended"]) for n in MOVE_COUNT_RULES)


def write_page(t, name, files, expected):
    """The page of the files, with the expected plots and no external resource: its path and text."""
    page = t.path(name)
    r = t.run(t.report, *files, "--html", page, "--title", f"test report {name}")
    assert r.returncode == 0, r.stderr
    made = int(re.search(r"\((\d+) plots\)", r.stderr).group(1))
    assert made == expected, f"{name}: {made} plots, expected {expected}"
    text = open(page, encoding="utf-8").read()
    assert text.count('<img class="plot"') == made
    external = re.findall(r'(?:src|href)="(?!data:)[^"]*"', text)
    assert not external, f"{name} loads external resources: {external[:3]}"
    return page, text


def check_page(t, browser, name, files, expected):
    """The page of the files (write_page) shows every plot in headless Chromium without a
    script error."""
    page, _ = write_page(t, name, files, expected)
    with tempfile.TemporaryDirectory() as profile:
        dom, log = dump_dom(browser, page, profile)
    html_tag = re.search(r"<html[^>]*>", dom).group(0)
    attrs = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', html_tag))
    assert attrs.get("plots") == str(expected), f"{name}: the page's self-check did not run or miscounted: {html_tag}"
    assert attrs.get("plots-shown") == str(expected), f"{name}: plots shown {attrs.get('plots-shown')} of {expected}"
    assert attrs.get("js-errors") == "0", f"{name}: script errors: {attrs.get('js-errors')}"
    console_errors = [l for l in log.splitlines() if "CONSOLE" in l and ("Uncaught" in l or "Error" in l)]
    assert not console_errors, console_errors
    return expected


def check_errors(t):
    def expect(code, words, *args):
        got, _, err = t.in_process(*args)
        assert got == code and words in err and err.count("\n") == 1, f"{args}: exit {got}, stderr {err!r}"

    def expect_from_launcher(code, words, *args, env=ENV):
        r = subprocess.run([t.report, *args], capture_output=True, text=True, timeout=60, env=env)
        assert r.returncode == code and words in r.stderr, f"{args}: exit {r.returncode}, stderr {r.stderr!r}"

    expect_from_launcher(4, "cannot read", t.path("absent.h5"))
    text = t.path("text.h5")
    with open(text, "w") as f:
        f.write("not HDF5\n")
    expect(3, "is not an HDF5 file", text)
    with h5py.File(t.path("nojob.h5"), "w") as f:
        f["x"] = [1]
    expect(3, "has no 'job' attribute", t.path("nojob.h5"))
    with h5py.File(t.path("tune.h5"), "w") as f:
        f.attrs["job"] = "tune"
    expect(3, "holds a 'tune' result; reports exist for: bench, drawstats, perft, perft_dedup, selfplay, stats, verify",
           t.path("tune.h5"))
    with h5py.File(t.path("broken.h5"), "w") as f:
        f.attrs["job"] = "perft"
    expect(3, "not a well-formed chesshpc perft file", t.path("broken.h5"))
    for job in ("selfplay", "bench", "perft_dedup"):
        with h5py.File(t.path(f"broken-{job}.h5"), "w") as f:
            f.attrs["job"] = job
        expect(3, f"not a well-formed chesshpc {job} file", t.path(f"broken-{job}.h5"))
    dedup = synthetic_dedup(t.path("dedup-3.h5"), 3)
    expect(3, "perft_dedup file: /levels: its columns have different lengths", uneven(dedup, t.path("uneven.h5")))
    expect(4, "its data is damaged", damaged(dedup, t.path("damaged.h5"), "buckets/positions"))
    expect_from_launcher(2, "usage")
    lacking = t.path("python-without-h5py")
    with open(lacking, "w") as f:
        f.write("#!/bin/sh\nexit 1\n")
    os.chmod(lacking, 0o755)
    expect_from_launcher(2, "install python3-h5py python3-numpy python3-matplotlib", t.path("absent.h5"),
                         env=dict(ENV, CHESSHPC_PYTHON=lacking))
    print("errors: exit codes 2, 3 and 4 with their messages: ok")


def with_attr(path, out, name, value, dtype=None):
    """A copy of the file with the root attribute name set to value (replaced)."""
    shutil.copy(path, out)
    with h5py.File(out, "a") as f:
        if name in f.attrs:
            del f.attrs[name]
        f.attrs.create(name, value, dtype=dtype)
    return out


def unreadable_job(out):
    """A file whose 'job' attribute HDF5 cannot read: its text's global heap is overwritten."""
    with h5py.File(out, "w") as f:
        f.attrs.create("job", "drawstats", dtype=h5py.string_dtype("utf-8"))
    with open(out, "r+b") as raw:
        data = raw.read()
        raw.seek(data.index(b"GCOL"))
        raw.write(b"XXXX")
    return out


def check_attributes(t):
    def expect(code, path, name, *args):
        for extra in ([], ["--html", t.path("page.html")]):
            got, out, err = t.in_process(path, *args, *extra)
            assert got == code and f"'{path}': attribute '{name}'" in err and err.count("\n") == 1, \
                f"{path} {extra}: exit {got}, stderr {err!r}"

    drawstats, = t.drawstats(20, 3, "fide")
    perft = t.perft("perft.h5", 3, 1)
    utf8 = h5py.string_dtype("utf-8")
    expect(3, with_attr(drawstats, t.path("games-text.h5"), "games", "many"), "games")
    expect(3, with_attr(drawstats, t.path("ruleset-number.h5"), "ruleset", 7), "ruleset")
    expect(3, with_attr(drawstats, t.path("ruleset-garbage.h5"), "ruleset", b"\xff\xfe\x80", utf8), "ruleset")
    expect(3, with_attr(drawstats, t.path("job-garbage.h5"), "job", np.bytes_(b"draw\xffstats")), "job")
    expect(3, with_attr(drawstats, t.path("threads-array.h5"), "threads", np.array([1, 2])), "threads")
    expect(3, with_attr(perft, t.path("depth-array.h5"), "depth", np.array([3, 4])), "depth")
    expect(3, with_attr(perft, t.path("total-text.h5"), "total", "8902x", utf8), "total")
    expect(3, with_attr(perft, t.path("started-garbage.h5"), "started", b"\xc3\x28", utf8), "started")
    expect(4, unreadable_job(t.path("unreadable.h5")), "job")
    print("attributes: wrong types, garbage bytes, arrays and an unreadable attribute: one line, exit 3 or 4: ok")


COUNT_LABELS = ("games", "games ended", "units", "ranks")


def drawn_figures(t, *args):
    """Every figure the report draws for these arguments (run in this process), as
    (suptitle or title, [per axes: xlabel, ylabel, x ticks in view, y ticks in view, bands, line colours,
    legend texts]), read just before each is turned into a PNG."""
    t.in_process("--help")  # loads the report's package
    from chesshpc_report import figures

    drawn, original = [], figures.plot

    def record(title, fig):
        axes = []
        fig.canvas.draw()  # ticks as they are drawn
        for ax in fig.axes:
            lo, hi = sorted(ax.get_xlim()), sorted(ax.get_ylim())
            xt = [x for x in ax.get_xticks() if lo[0] <= x <= lo[1]]
            yt = [y for y in ax.get_yticks() if hi[0] <= y <= hi[1]]
            legend = ax.get_legend()
            axes.append({"xlabel": ax.get_xlabel(), "ylabel": ax.get_ylabel(), "xticks": xt, "yticks": yt,
                         "bands": sum(type(c).__name__ == "PolyCollection" for c in ax.collections),
                         "colors": [l.get_color() for l in ax.get_lines()],
                         "legend": [x.get_text() for x in legend.get_texts()] if legend else []})
        drawn.append((title, axes))
        return original(title, fig)

    figures.plot = record
    try:
        code, _, err = t.in_process(*args, "--html", t.path("plots.html"))
    finally:
        figures.plot = original
    assert code == 0, err
    return drawn


def check_plots(t):
    drawstats, = t.drawstats(6, 3, "fide")
    fide, site = t.selfplay("plots-fide.h5", 6), t.selfplay("plots-site.h5", 6, "--ruleset", "site")
    drawn = drawn_figures(t, drawstats, fide, site)
    small = 0
    for title, axes in drawn:
        for a in axes:
            for axis in ("x", "y"):
                if a[axis + "label"] in COUNT_LABELS or a[axis + "label"].startswith("checks"):
                    ticks = a[axis + "ticks"]
                    assert ticks and all(float(v).is_integer() for v in ticks), (title, axis, a)
                    small += max(ticks) < 8  # where matplotlib's own ticks would be 0.5, 1.5, ...
    assert small >= 3, f"only {small} count axes short enough to test whole-number ticks"

    scores = [axes for title, axes in drawn if title.startswith("Search score by ply, file by file")]
    assert len(scores) == 1 and len(scores[0]) == 2, scores  # one panel per file
    medians = []
    for a in scores[0]:
        assert a["bands"] == 1 and sorted(a["legend"]) == ["median", "other files' medians", "q1-q3"], a
        # the other file's median in grey, then this file's median in its colour, then the zero line
        assert len(a["colors"]) == 3 and a["colors"][0] == "#aaa" and a["colors"][2] == "#444", a
        medians.append(a["colors"][1])
    assert len(set(medians)) == 2 and "#aaa" not in medians, medians
    print(f"plots: {len(drawn)} figures, whole-number ticks on count axes ({small} short), score by ply in panels: ok")


def check_stats(t):
    """A stats file of an EPD file written by hand: the JSON's bins are the file's tables,
    the counts the ones worked out below, and both files side by side."""
    epd = t.path("hand.epd")
    with open(epd, "w") as f:
        f.write("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc 0; fmvn 1; ce 35; c9 \"1-0\";\n"
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - hmvc 0; fmvn 1; ce -20; c9 \"1/2-1/2\";\n"
                "4k3/8/8/8/8/8/3R4/4K3 w - - hmvc 0; fmvn 61; c9 \"0-1\";\n")
    out = t.path("hand-stats.h5")
    r = t.run(t.chesshpc, "stats", epd, "--out", out, "--quiet")
    assert r.returncode == 0, r.stderr
    selfplay = t.selfplay("stats-selfplay.h5", 2)
    out2 = t.path("selfplay-stats.h5")
    assert t.run(t.chesshpc, "stats", selfplay, "--out", out2, "--quiet").returncode == 0
    report = t.report_json(out, out2)
    s = by_path(report, out)
    assert s["job"] == "stats" and s["records"] == 3 and s["duplicates"] == 1 and s["format"] == "epd", s
    nonzero = {name: {b["label"]: b["count"] for b in s[name] if b["count"]} for name in ("pieces", "wdl", "phase")}
    assert nonzero == {"pieces": {"32": 2, "3": 1}, "wdl": {"win": 1, "draw": 1, "loss": 1},
                       "phase": {"24": 2, "2": 1}}, nonzero
    with h5py.File(out2, "r") as f, h5py.File(selfplay, "r") as p:
        assert int(f.attrs["records"]) == len(p["positions/ply"]) == by_path(report, out2)["records"]
        assert list(f["ply/count"][:]) == [b["count"] for b in by_path(report, out2)["ply"]]
    c = report["comparisons"]["stats"]
    assert c["records"] == [3, by_path(report, out2)["records"]] and c["duplicates"][0] == 1 / 3, c
    md = t.markdown(out, out2)
    assert "## stats: " in md and "## stats files side by side" in md and "| 32 | 2 | 67% |" in md, md
    print("stats: the distributions of a hand-written EPD and of a selfplay file: ok")


CASES = {"perft": check_perft, "dedup": check_dedup, "drawstats": check_drawstats, "selfplay": check_selfplay,
         "bench": check_bench, "html": check_html, "errors": check_errors, "attributes": check_attributes,
         "plots": check_plots, "stats": check_stats}


def main(case, report, chesshpc, corpus, mpiexec):
    with tempfile.TemporaryDirectory() as tmp:
        CASES[case](Tools(report, chesshpc, corpus, mpiexec, tmp))


if __name__ == "__main__":
    main(*sys.argv[1:])
