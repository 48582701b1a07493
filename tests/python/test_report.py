"""analysis/chesshpc-report over small result files made here with the built binary.

  perft      1 rank, 2 ranks (mpirun), a run stopped by SIGTERM and the same run resumed:
             the JSON's totals, verification, units per run and load balance against the files;
             verified, MISMATCH and unknown totals past 2**64 in relabelled copies
  drawstats  one corpus under the fide and the site rulesets: per-rule counts against /rules,
             the side-by-side comparison, and checks per game when a file has them
  html       the page opens in headless Chromium without script errors and shows every plot
  errors     missing, non-HDF5, job-less, unknown-job and malformed files; no usable Python

usage: test_report.py CASE REPORT CHESSHPC MAKE_PGN_CORPUS MPIEXEC
CHESSHPC_SKIP_BROWSER=1 skips the html case (exit 77) where Chromium is not installed.
"""
import contextlib
import importlib.util
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np

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

    def perft(self, out, depth, split, *extra, mpi_ranks=0):
        mpi = [self.mpiexec, "-np", str(mpi_ranks), "--oversubscribe", "--bind-to", "none"] if mpi_ranks else []
        cmd = mpi + [self.chesshpc, "perft", "--depth", str(depth), "--split-depth", str(split), "--threads", "1",
                     "--out", self.path(out), "--quiet", *extra]
        r = self.run(*cmd)
        assert r.returncode == 0, f"{cmd}: exit {r.returncode}: {r.stderr}"
        return self.path(out)

    def stopped_and_resumed(self):
        """A depth-7 run stopped by SIGTERM once its file holds a unit (kept as stopped.h5),
        then resumed to the end (resumed.h5)."""
        out = self.path("resumed.h5")
        cmd = [self.chesshpc, "perft", "--depth", "7", "--split-depth", "3", "--threads", "1", "--out", out,
               "--checkpoint", "0.05", "--quiet"]
        proc = subprocess.Popen(cmd, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 60
        while units_done(out) < 1:
            assert proc.poll() is None, "the run to stop ended before its first checkpoint with a unit"
            assert time.time() < deadline, "no unit recorded in 60 s"
            time.sleep(0.01)
        proc.send_signal(signal.SIGTERM)
        err = proc.communicate(timeout=60)[1]
        assert proc.returncode == 5, f"SIGTERM: exit {proc.returncode}: {err}"
        stopped = shutil.copy(out, self.path("stopped.h5"))
        r = self.run(*cmd, "--resume")
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


def units_done(path):
    try:
        with h5py.File(path, "r") as f:
            return int(f.attrs["units_done"])
    except (OSError, KeyError):
        return -1


def by_path(report, path):
    return next(s for s in report["files"] if s["path"] == path)


def check_perft(t):
    one = t.perft("one.h5", 4, 2)
    two = t.perft("two.h5", 4, 2, mpi_ranks=2)
    stopped, resumed = t.stopped_and_resumed()
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
    page = t.path("report.html")
    r = t.run(t.report, one, two, fide, site, checks, "--html", page, "--title", "test report")
    assert r.returncode == 0, r.stderr
    made = int(re.search(r"\((\d+) plots\)", r.stderr).group(1))
    rules = t.report_json(fide, site, checks)["comparisons"]["drawstats"]["rules"]
    move_count_endings = any(any(rules[n]["ended"]) for n in ("fifty_moves", "seventy_five_moves", "site_thirty_moves"))
    # 2 per perft file + 1 side by side; 2 per drawstats file + 1 for checks + 2 or 3 side by side
    assert made == 2 + 2 + 1 + 2 + 2 + 3 + 2 + move_count_endings, made
    text = open(page, encoding="utf-8").read()
    assert text.count('<img class="plot"') == made
    external = re.findall(r'(?:src|href)="(?!data:)[^"]*"', text)
    assert not external, f"the page loads external resources: {external[:3]}"

    with tempfile.TemporaryDirectory() as profile:
        dom, log = dump_dom(browser, page, profile)
    html_tag = re.search(r"<html[^>]*>", dom).group(0)
    attrs = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', html_tag))
    assert attrs.get("plots") == str(made), f"the page's self-check did not run or miscounted: {html_tag}"
    assert attrs.get("plots-shown") == str(made), f"plots shown {attrs.get('plots-shown')} of {made}"
    assert attrs.get("js-errors") == "0", f"script errors: {attrs.get('js-errors')}"
    console_errors = [l for l in log.splitlines() if "CONSOLE" in l and ("Uncaught" in l or "Error" in l)]
    assert not console_errors, console_errors
    print(f"html: {made} plots shown in headless Chromium, no script errors: ok")


def check_errors(t):
    def expect(code, words, *args):
        got, _, err = t.in_process(*args)
        assert got == code and words in err, f"{args}: exit {got}, stderr {err!r}"

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
    with h5py.File(t.path("selfplay.h5"), "w") as f:
        f.attrs["job"] = "selfplay"
    expect(3, "holds a 'selfplay' result; reports exist for: drawstats, perft", t.path("selfplay.h5"))
    with h5py.File(t.path("broken.h5"), "w") as f:
        f.attrs["job"] = "perft"
    expect(3, "not a well-formed chesshpc perft file", t.path("broken.h5"))
    expect_from_launcher(2, "usage")
    lacking = t.path("python-without-h5py")
    with open(lacking, "w") as f:
        f.write("#!/bin/sh\nexit 1\n")
    os.chmod(lacking, 0o755)
    expect_from_launcher(2, "install python3-h5py python3-numpy python3-matplotlib", t.path("absent.h5"),
                         env=dict(ENV, CHESSHPC_PYTHON=lacking))
    print("errors: exit codes 2, 3 and 4 with their messages: ok")


CASES = {"perft": check_perft, "drawstats": check_drawstats, "html": check_html, "errors": check_errors}


def main(case, report, chesshpc, corpus, mpiexec):
    with tempfile.TemporaryDirectory() as tmp:
        CASES[case](Tools(report, chesshpc, corpus, mpiexec, tmp))


if __name__ == "__main__":
    main(*sys.argv[1:])
