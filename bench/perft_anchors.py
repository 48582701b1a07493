#!/usr/bin/env python3
"""chesshpc's one-core perft against the anchor programs, in the same run.

For the six standard positions (core/published.cpp's FENs and counts), runs every program
pinned to one core with taskset, without a transposition table: `chesshpc perft --threads 1`
(a portable build and optionally a native one) and each anchor found in the anchors folder.
Runs are interleaved: within each repetition every program runs once, the order rotating
from one repetition to the next, so that the machine's drifting load falls on all alike.
Every count is checked against the published one (where core/published.cpp has none for
the depth, against chesshpc portable's); then the medians are printed as a Markdown table
in G nodes/s with chesshpc's ratios to perft_cpu_2026 and ellxor_perft and portable/native.

Timing: each program's own figure for the depth asked (process start-up excluded):
chesshpc's JSON "seconds", perft_cpu_2026's last "Perft(DD)" line (it counts every depth
from 1; the earlier depths are left out), ellxor_perft's "Time taken" (milliseconds, so a
--quick run's figures are coarse), mperft's "leaves in".

With --deep it then times the issue's deep targets, one run each, in this order: start-
position perft(10) on 1 process x 2 threads (`--hash 8G`), perft(10) through the distributed
path on 2 ranks x 1 thread (`mpirun -n 2 ... --dedup-ply auto --memory 8G`), and perft(9) on
2 threads, chesshpc (`--hash 2G`, docs/perft.md's size) against perft_cpu_2026 (`-mt 2 -htt
8192`, depth 9's own time). Each is timed whole, start to exit (the wall time a user waits;
user and system time from the children's rusage), every count checked against the published
one. Last comes a table of the targets, each with what was measured and whether it is met.

Nothing of chesshpc is built here. ellxor_perft, when the anchors folder lacks it, is built
from its public source: cloned at the commit the anchors' README names into a scratch
folder (a temporary one, removed at the end, or --scratch DIR), compiled as its README says
(the unity build, -O3 -march=x86-64-v3); a clone or build that fails is one line on stderr
and its column is left out. Python 3 standard library only. See bench/README.md, "perft
against the anchors".
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field

PROG = "bench/perft_anchors.py"
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PUBLISHED = os.path.join(REPO_ROOT, "core", "published.cpp")

SUITES = os.path.join(REPO_ROOT, "jobs", "bench", "suite.cpp")

# (name in core/published.cpp, label in the table, --quick depth): the six measurements
# perft comparisons quote, at the depths of `chesshpc bench --suite perft` (read from
# jobs/bench/suite.cpp, their one declaration); --quick lowers each by one except position
# 4, whose perft 5 is too small to time (16 M nodes), so that every run counts at least
# 89 M nodes.
LABELS = [("start", "startpos"), ("kiwipete", "Kiwipete"), ("pos3", "position 3"), ("pos4", "position 4"),
          ("pos5", "position 5"), ("pos6", "position 6")]


def read_suite_depths(path: str) -> dict[str, int]:
    """{position: depth} of the bench's perft suite in jobs/bench/suite.cpp."""
    with open(path, encoding="utf-8") as f:
        body = re.search(r'\{"perft", \{\{(.*?)\}\}\}\}', f.read(), re.S).group(1)
    return {name: int(depth) for name, depth in re.findall(r'\{"(\w+)", (\d+)', body)}


DEPTHS = read_suite_depths(SUITES)
POSITIONS = [(name, label, DEPTHS[name], DEPTHS[name] - (name != "pos4")) for name, label in LABELS]
LEAST_DEPTH = min(d for _, _, d, _ in POSITIONS)

PORTABLE, NATIVE = "chesshpc portable", "chesshpc native"
CPU_2026, ELLXOR, MPERFT = "perft_cpu_2026", "ellxor_perft", "mperft"
# ellxor/perft as the anchors folder's README names it: where, at which commit, and its
# README's build (one translation unit, a C++ compiler, performance flags; PEXT needed).
ELLXOR_URL = "https://github.com/ellxor/perft"
ELLXOR_COMMIT = "604c4be"
ELLXOR_FLAGS = ["-std=c++20", "-O3", "-flto", "-fno-exceptions", "-fno-rtti", "-march=x86-64-v3", "-pthread"]
# The anchors whose speed the targets are ratios to.
RATIO_ANCHORS = [CPU_2026, ELLXOR]
# The targets: one core (each position, each build), and the deep runs of --deep.
MIN_OVER = {CPU_2026: 1.15, ELLXOR: 1.3}
MIN_PORTABLE_OVER_NATIVE = 0.95
DEEP_DEPTH = 10                 # perft(10) 1 x 2 and 2 x 1; perft(DEEP_DEPTH - 1) against perft_cpu_2026
MAX_ONE_BY_TWO_SECONDS = 360.0  # perft(10), 1 x 2 threads
MAX_RANKS_OVER_THREADS = 1.10   # perft(10), 2 ranks x 1 thread over 1 x 2
MIN_OVER_CPU_2026_DEEP = 2.5    # perft(9), 2 threads each
MAX_MEMORY_BYTES = 20 << 30     # perft(10), 1 x 2

USAGE_TAIL = """\
The anchors are programs built from their public sources, one binary each in ANCHORS under
the names perft_cpu_2026, ellxor_perft and mperft; that folder's README.md says where each
comes from, at which version, how it was built and how it is run. An anchor missing from
ANCHORS is named on stderr and its column left out (with --require-all: exit 2), but for
ellxor_perft, which is first built from a clone of ellxor/perft at 604c4be (git, and $CXX,
clang++ or g++): in --scratch DIR, or in a temporary folder removed at the end.

Exit status: 0 done, every count as published; 1 a program counted differently (one line
names the program, the position and both counts; nothing is printed on stdout); 2 bad usage
or a program that failed to run or printed no count."""


class Usage(Exception):
    """Bad usage, a missing program, or a program that did not run: exit 2."""


class Mismatch(Exception):
    """A count differs from the published one: exit 1."""


@dataclass
class Program:
    name: str
    path: str

    def command(self, fen: str, depth: int) -> list[str]:
        if self.name in (PORTABLE, NATIVE):
            return [self.path, "perft", "--fen", fen, "--depth", str(depth), "--threads", "1", "--json", "--quiet"]
        if self.name == CPU_2026:
            return [self.path, fen, str(depth), "-nott"]
        if self.name == ELLXOR:
            return [self.path, fen, str(depth)]
        return [self.path, "-f", fen, "-d", str(depth), "-b"]

    def parse(self, stdout: str, depth: int) -> tuple[int, float]:
        """(nodes, seconds) of the depth asked, from the program's own output."""
        if self.name in (PORTABLE, NATIVE):
            obj = json.loads(stdout)
            if obj.get("depth") != depth or obj.get("hash_bytes") != 0:
                raise Usage(f"{self.name}: not a table-less perft {depth}: {stdout.strip()}")
            return int(obj["nodes"]), float(obj["seconds"])
        if self.name == CPU_2026:
            found = {int(d): (int(n), float(s)) for d, n, s in
                     re.findall(r"^Perft\((\d+)\):\s*(\d+), time:\s*(\S+) seconds", stdout, re.M)}
            return found[depth]
        if self.name == ELLXOR:
            nodes = re.search(r"^Result:\s*(\d+)\s*$", stdout, re.M)
            secs = re.search(r"^Time taken:\s*(\S+) seconds\.?\s*$", stdout, re.M)
            return int(nodes.group(1)), float(secs.group(1))
        found = {int(d): (int(n), float(s)) for d, n, s in
                 re.findall(r"^perft\s+(\d+)\s*:\s*(\d+) leaves in\s+(\S+) s", stdout, re.M)}
        return found[depth]


@dataclass
class Position:
    name: str
    label: str
    fen: str
    depth: int
    published: int | None
    seconds: dict[str, list[float]] = field(default_factory=dict)
    nodes: int | None = None

    def gnps(self, program: str) -> float:
        return self.nodes / statistics.median(self.seconds[program]) / 1e9


def log(args: argparse.Namespace, msg: str) -> None:
    if not args.quiet:
        print(msg, file=sys.stderr, flush=True)


def read_published(path: str) -> dict[str, tuple[str, list[int]]]:
    """{name: (FEN, counts by depth from 1)} of core/published.cpp's positions."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    arrays = {name: [int(n) for n in re.findall(r"\d+", body)]
              for name, body in re.findall(r"constexpr uint64_t (\w+)\[\] = \{([^}]*)\};", text)}
    return {name: (fen, arrays[array])
            for name, fen, array in re.findall(r'\{"(\w+)", "([^"]+)", (\w+)\}', text)}


class Parser(argparse.ArgumentParser):
    def error(self, message: str):
        raise Usage(f"{message} (see --help)")  # one line, exit 2


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = Parser(
        prog=PROG, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="One-core, table-less perft speed of chesshpc against the anchor programs, pinned "
        "and interleaved, on startpos 7, Kiwipete 6, position 3 depth 8 and positions 4-6 depth 6; "
        "prints a Markdown table in G nodes/s with ratios.", epilog=USAGE_TAIL)
    p.add_argument("anchors", metavar="ANCHORS", help="folder holding the anchor binaries")
    p.add_argument("chesshpc", metavar="CHESSHPC", help="chesshpc, portable build (the default build)")
    p.add_argument("--native", metavar="CHESSHPC", help="chesshpc built with -DCHESSHPC_NATIVE=ON too")
    p.add_argument("--runs", type=int, default=5, metavar="N",
                   help="runs of each program on each position, interleaved (default: 5)")
    p.add_argument("--lower", type=int, default=0, metavar="K", help="lower every depth by K (default: 0)")
    p.add_argument("--quick", action="store_true",
                   help="a fast check: every depth one less but position 4's (about 1/17 of the work)")
    p.add_argument("--cpu", type=int, metavar="N",
                   help="the core every run is pinned to (default: the last this process may use)")
    p.add_argument("--require-all", action="store_true",
                   help="exit 2 if an anchor is missing instead of leaving its column out")
    p.add_argument("--json", metavar="FILE", help="also write the results to FILE as JSON")
    p.add_argument("--scratch", metavar="DIR",
                   help="where ellxor_perft is cloned and built when ANCHORS lacks it (default: a temporary "
                   "folder, removed at the end)")
    p.add_argument("--ellxor-url", default=ELLXOR_URL, metavar="URL",
                   help=f"the repository ellxor_perft is cloned from (default: {ELLXOR_URL})")
    p.add_argument("--deep", action="store_true",
                   help="then perft(10) on 1 x 2 threads and on 2 ranks x 1 thread, and perft(9) against "
                   "perft_cpu_2026 on 2 threads, and the table of targets (about 20 minutes)")
    p.add_argument("--deep-lower", type=int, default=0, metavar="K",
                   help="with --deep: lower those depths by K (a quick check; the targets are for K = 0)")
    p.add_argument("--mpirun", default="mpirun", metavar="CMD",
                   help="with --deep: the MPI launcher (default: mpirun; run as -n 2 --bind-to none)")
    p.add_argument("--timeout", type=float, default=3600, metavar="S",
                   help="stop and refuse any run that takes longer than S seconds (default: 3600)")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = p.parse_args(argv)
    if not 0 <= args.deep_lower <= DEEP_DEPTH - 3:
        raise Usage(f"--deep-lower {args.deep_lower}: from 0 to {DEEP_DEPTH - 3}")
    if args.deep_lower and not args.deep:
        raise Usage("--deep-lower without --deep")
    if args.runs < 1:
        raise Usage(f"--runs {args.runs}: at least 1")
    if args.lower < 0 or args.lower >= LEAST_DEPTH:
        raise Usage(f"--lower {args.lower}: from 0 to {LEAST_DEPTH - 1}")
    if args.quick and args.lower:
        raise Usage("--quick and --lower: one or the other")
    return args


def executable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def compiler() -> str | None:
    for name in (os.environ.get("CXX"), "clang++", "g++"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def build_ellxor(args: argparse.Namespace, scratch: str) -> str:
    """ellxor_perft built in scratch from a clone at ELLXOR_COMMIT; its path, or a reason."""
    source = os.path.join(scratch, "ellxor_perft_src")
    binary = os.path.join(scratch, ELLXOR)
    if executable(binary):
        return binary
    cxx = compiler()
    if cxx is None or shutil.which("git") is None:
        raise Usage("git and a C++ compiler ($CXX, clang++ or g++) are needed")
    log(args, f"{PROG}: no {ELLXOR} in '{args.anchors}': building it from {args.ellxor_url} at {ELLXOR_COMMIT} "
        f"in '{scratch}'")
    steps = [(["git", "clone", "--quiet", args.ellxor_url, source], "git clone"),
             (["git", "-C", source, "checkout", "--quiet", ELLXOR_COMMIT], f"git checkout {ELLXOR_COMMIT}"),
             ([cxx, *ELLXOR_FLAGS, os.path.join(source, "src", "unity_build.cc"), "-o", binary], "the build")]
    if os.path.isdir(source):
        steps = steps[1:]
    for cmd, what in steps:
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True)
        if proc.returncode != 0:
            last = (proc.stderr.strip() or proc.stdout.strip()).splitlines()
            raise Usage(f"{what} failed ({last[-1] if last else f'exit {proc.returncode}'})")
    return binary


def programs(args: argparse.Namespace, scratch: str) -> list[Program]:
    given = [(PORTABLE, args.chesshpc)] + ([(NATIVE, args.native)] if args.native else [])
    for name, path in given:
        if not executable(path):
            raise Usage(f"no {name} at '{path}'")
    if not os.path.isdir(args.anchors):
        raise Usage(f"no anchors folder '{args.anchors}'")
    found = [Program(n, p) for n, p in given]
    for name in (CPU_2026, ELLXOR, MPERFT):
        path = os.path.join(args.anchors, name)
        if not executable(path) and name == ELLXOR:
            try:
                path = build_ellxor(args, scratch)
            except Usage as e:
                why = f"{PROG}: no {name} in '{args.anchors}', and it could not be built from {args.ellxor_url}: {e}"
                if args.require_all:
                    raise Usage(why.removeprefix(f"{PROG}: ")) from None
                print(f"{why}: its column is left out", file=sys.stderr)
                continue
        if executable(path):
            found.append(Program(name, path))
        elif args.require_all:
            raise Usage(f"no {name} in '{args.anchors}' (its README.md says where the anchors come from)")
        else:
            print(f"{PROG}: no {name} in '{args.anchors}': its column is left out", file=sys.stderr)
    return found


def pin_prefix(args: argparse.Namespace) -> tuple[list[str], int]:
    taskset = shutil.which("taskset")
    if taskset is None:
        raise Usage("taskset is needed to pin each run to one core (Debian: util-linux)")
    allowed = sorted(os.sched_getaffinity(0))
    cpu = allowed[-1] if args.cpu is None else args.cpu
    if cpu not in allowed:
        raise Usage(f"--cpu {cpu}: this process may use cores {allowed}")
    return [taskset, "-c", str(cpu)], cpu


def run(pin: list[str], prog: Program, pos: Position, timeout: float) -> tuple[int, float]:
    cmd = pin + prog.command(pos.fen, pos.depth)
    try:
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise Usage(f"{prog.name} on {pos.label} depth {pos.depth} did not finish within {timeout:g} s: stopped "
                    "(--timeout)") from None
    if proc.returncode != 0:
        raise Usage(f"{prog.name} exited {proc.returncode} on {pos.label} depth {pos.depth}: "
                    f"{proc.stderr.strip() or proc.stdout.strip()}")
    try:
        nodes, secs = prog.parse(proc.stdout, pos.depth)
    except (KeyError, AttributeError, ValueError) as e:
        raise Usage(f"{prog.name} printed no count for {pos.label} depth {pos.depth} ({e!r}): "
                    f"{proc.stdout.strip()[-200:]}") from None
    if secs <= 0:
        raise Usage(f"{prog.name} reported {secs} s on {pos.label} depth {pos.depth}: too short to time "
                    "(fewer --lower)")
    return nodes, secs


def check(prog: Program, pos: Position, nodes: int) -> None:
    if pos.nodes is None:
        pos.nodes = nodes if pos.published is None else pos.published
    if nodes != pos.nodes:
        source = "published" if pos.published is not None else f"{PORTABLE} counts"
        raise Mismatch(f"{prog.name} counts {nodes} on {pos.label} depth {pos.depth}, {source} {pos.nodes}")


def measure(args: argparse.Namespace, progs: list[Program], positions: list[Position]) -> int:
    pin, cpu = pin_prefix(args)
    total, done = len(positions) * args.runs * len(progs), 0
    for pos in positions:
        for prog in progs:
            pos.seconds[prog.name] = []
        for rep in range(args.runs):
            shift = rep % len(progs)
            for prog in progs[shift:] + progs[:shift]:
                nodes, secs = run(pin, prog, pos, args.timeout)
                check(prog, pos, nodes)
                pos.seconds[prog.name].append(secs)
                done += 1
                log(args, f"[{done}/{total}] {pos.label} depth {pos.depth} {prog.name}: {nodes} nodes in "
                    f"{secs:.3f} s ({nodes / secs / 1e9:.3f} G nodes/s)")
    return cpu


def ratios(pos: Position, names: list[str]) -> dict[str, float]:
    """chesshpc's speed over each anchor's, and portable over native."""
    out = {}
    for build in (PORTABLE, NATIVE):
        for anchor in RATIO_ANCHORS:
            if build in names and anchor in names:
                out[f"{build.split()[1]} / {anchor}"] = pos.gnps(build) / pos.gnps(anchor)
    if NATIVE in names:
        out["portable / native"] = pos.gnps(PORTABLE) / pos.gnps(NATIVE)
    return out


@dataclass
class DeepRun:
    """One run of --deep: what ran, and what it took start to exit."""
    label: str
    command: list[str]
    depth: int
    wall: float = 0.0
    user: float = 0.0
    system: float = 0.0
    max_rss: int = 0                 # bytes, of its largest process
    own_seconds: float | None = None  # the depth's time as the program prints it
    nodes: int = 0


def timed(cmd: list[str], timeout: float, what: str) -> tuple[int, str, str, float, object]:
    """(exit status, stdout, stderr, wall seconds, rusage of the child and what it waited for);
    a run past timeout seconds is stopped (SIGTERM, which mpirun passes on, then SIGKILL) and
    refused."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.monotonic()
        try:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        except OSError as e:
            raise Usage(f"cannot run {cmd[0]}: {e.strerror}") from None
        stops = [threading.Timer(timeout, proc.terminate), threading.Timer(timeout + 10, proc.kill)]
        for t in stops:
            t.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - start
        for t in stops:
            t.cancel()
        if wall >= timeout:
            raise Usage(f"{what} did not finish within {timeout:g} s: stopped (--timeout)")
        out.seek(0), err.seek(0)
        return os.waitstatus_to_exitcode(status), out.read(), err.read(), wall, usage


def run_deep(args: argparse.Namespace, progs: list[Program], published: dict) -> list[DeepRun]:
    """--deep's runs, in the order they are made (see the module's doc), counts checked."""
    chesshpc = next(p.path for p in progs if p.name == PORTABLE)
    fen, counts = published["start"]
    d10 = DEEP_DEPTH - args.deep_lower
    perft = [chesshpc, "perft", "--fen", fen, "--json", "--quiet"]
    runs = [DeepRun("perft 1 x 2", perft + ["--depth", str(d10), "--threads", "2", "--hash", "8G"], d10),
            DeepRun("perft 2 ranks x 1", [args.mpirun, "-n", "2", "--bind-to", "none"] + perft +
                    ["--depth", str(d10), "--threads", "1", "--dedup-ply", "auto", "--memory", "8G"], d10),
            DeepRun("perft 1 x 2", perft + ["--depth", str(d10 - 1), "--threads", "2", "--hash", "2G"], d10 - 1)]
    cpu_2026 = next((p for p in progs if p.name == CPU_2026), None)
    if cpu_2026:
        runs.append(DeepRun(CPU_2026, [cpu_2026.path, fen, str(d10 - 1), "-mt", "2", "-htt", "8192"], d10 - 1))
    for i, r in enumerate(runs):
        log(args, f"[deep {i + 1}/{len(runs)}] {r.label}, perft({r.depth}): {' '.join(r.command)}")
        status, stdout, stderr, r.wall, usage = timed(r.command, args.timeout, f"{r.label} perft({r.depth})")
        if status != 0:
            raise Usage(f"{r.label} perft({r.depth}) exited {status}: {(stderr.strip() or stdout.strip())[-300:]}")
        r.user, r.system, r.max_rss = usage.ru_utime, usage.ru_stime, usage.ru_maxrss * 1024
        try:
            if r.label == CPU_2026:
                r.nodes, r.own_seconds = cpu_2026.parse(stdout, r.depth)
            else:
                obj = json.loads(stdout)
                r.nodes, r.own_seconds = int(obj["nodes"]), float(obj["seconds"])
        except (KeyError, AttributeError, ValueError) as e:
            raise Usage(f"{r.label} printed no count for perft({r.depth}) ({e!r}): {stdout.strip()[-200:]}") from None
        if r.nodes != counts[r.depth - 1]:
            raise Mismatch(f"{r.label} counts {r.nodes} for startpos perft({r.depth}), published {counts[r.depth - 1]}")
        log(args, f"[deep {i + 1}/{len(runs)}] {r.nodes} nodes, {r.wall:.1f} s wall, {r.user:.1f} s user, "
            f"{r.system:.1f} s system")
    return runs


def deep_table(runs: list[DeepRun]) -> list[str]:
    lines = ["| run | depth | wall | own time | user | system | largest process |", "|---|---:|---:|---:|---:|---:|---:|"]
    for r in runs:
        lines.append(f"| {r.label} | {r.depth} | {r.wall:.1f} s | {r.own_seconds:.1f} s | {r.user:.1f} s | "
                     f"{r.system:.1f} s | {r.max_rss / 2**30:.2f} GB |")
    return lines


def targets(positions: list[Position], names: list[str], runs: list[DeepRun]) -> list[tuple[str, str, bool]]:
    """(target, what was measured, met) for each of the issue's targets this run measured."""
    out = []
    every = [ratios(pos, names) for pos in positions]
    for build in (PORTABLE, NATIVE):
        for anchor in RATIO_ANCHORS:
            if build in names and anchor in names:
                worst = min(r[f"{build.split()[1]} / {anchor}"] for r in every)
                out.append((f"one core, {build.split()[1]}: at least {MIN_OVER[anchor]:.2f}x {anchor} on each "
                            "position", f"least {worst:.2f}x", worst >= MIN_OVER[anchor]))
    if NATIVE in names:
        worst = min(r["portable / native"] for r in every)
        out.append((f"one core: portable at least {MIN_PORTABLE_OVER_NATIVE:.2f}x native on each position",
                    f"least {worst:.2f}x", worst >= MIN_PORTABLE_OVER_NATIVE))
    if runs:
        one, ranks, nine = runs[0], runs[1], runs[2]
        out.append((f"perft({one.depth}) on 1 x 2 threads within {MAX_ONE_BY_TWO_SECONDS:.0f} s", f"{one.wall:.1f} s",
                    one.wall <= MAX_ONE_BY_TWO_SECONDS))
        out.append((f"perft({one.depth}) 1 x 2 in at most {MAX_MEMORY_BYTES >> 30} GB", f"{one.max_rss / 2**30:.2f} GB",
                    one.max_rss <= MAX_MEMORY_BYTES))
        ratio = ranks.wall / one.wall
        out.append((f"perft({ranks.depth}) on 2 ranks x 1 thread within {MAX_RANKS_OVER_THREADS:.2f}x 1 x 2",
                    f"{ratio:.3f}x", ratio <= MAX_RANKS_OVER_THREADS))
        if len(runs) > 3:
            ratio = runs[3].own_seconds / nine.wall
            out.append((f"perft({nine.depth}) on 2 threads at least {MIN_OVER_CPU_2026_DEEP:.1f}x {CPU_2026} -mt 2 "
                        f"-htt 8192 (its depth {nine.depth} alone)", f"{ratio:.2f}x", ratio >= MIN_OVER_CPU_2026_DEEP))
    return out


def chesshpc_version(path: str) -> str:
    proc = subprocess.run([path, "--version"], stdin=subprocess.DEVNULL, capture_output=True, text=True)
    return proc.stdout.strip()


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            return next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "unknown")
    except OSError:
        return "unknown"


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def table(positions: list[Position], names: list[str]) -> list[str]:
    columns = [n for n in (NATIVE, PORTABLE) if n in names] + [n for n in names if n not in (PORTABLE, NATIVE)]
    ratio_names = list(ratios(positions[0], names))
    lines = ["| position, depth | " + " | ".join(columns + ratio_names) + " |",
             "|---|" + "---:|" * (len(columns) + len(ratio_names))]
    for pos in positions:
        sep = ", " if pos.label.startswith("position") else " "
        cells = [f"{pos.gnps(n):.3f}" for n in columns] + [f"{r:.2f}" for r in ratios(pos, names).values()]
        lines.append(f"| {pos.label}{sep}{pos.depth} | " + " | ".join(cells) + " |")
    return lines


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    if args.scratch:
        os.makedirs(args.scratch, exist_ok=True)
        return measured(args, args.scratch)
    with tempfile.TemporaryDirectory(prefix="perft_anchors.") as scratch:
        return measured(args, scratch)


def measured(args: argparse.Namespace, scratch: str) -> int:
    progs = programs(args, scratch)
    published = read_published(PUBLISHED)
    positions = []
    for name, label, depth, quick in POSITIONS:
        fen, counts = published[name]
        d = quick if args.quick else depth - args.lower
        positions.append(Position(name, label, fen, d, counts[d - 1] if d <= len(counts) else None))
    version = chesshpc_version(args.chesshpc)
    native_version = chesshpc_version(args.native) if args.native else None
    load_start = load()
    log(args, f"load average at start: {load_start}")
    cpu = measure(args, progs, positions)
    load_end = load()
    names = [p.name for p in progs]

    unpublished = [f"{p.label} depth {p.depth}" for p in positions if p.published is None]
    out = [f"perft, one core each (taskset -c {cpu}), no table, median of {args.runs} interleaved run(s), "
           f"G nodes/s; {version}" + (f", native {native_version}" if args.native else ""),
           f"load average at start: {load_start}; at end: {load_end}; CPU: {cpu_model()}",
           "counts: as published" + (f" (none published for {', '.join(unpublished)}: every program counts as "
                                     f"{PORTABLE})" if unpublished else ""),
           ""] + table(positions, names)
    # Printed before the deep runs: a deep run that fails leaves the one-core table said.
    print("\n".join(out), flush=True)
    out = []
    runs = run_deep(args, progs, published) if args.deep else []
    if runs:
        out += ["", f"deep runs, one each, in this order; counts as published; load average at end: {load()}", ""]
        out += deep_table(runs)
    met = targets(positions, names, runs)
    out += ["", "| target | measured | met |", "|---|---|---|"]
    out += [f"| {what} | {measured} | {'yes' if ok else '**no**'} |" for what, measured, ok in met]
    out += ["", "every target measured is met" if all(ok for _, _, ok in met) else
            f"targets not met: {sum(not ok for _, _, ok in met)} of {len(met)}"]
    print("\n".join(out))

    if args.json:
        record = {
            "chesshpc": version, "chesshpc_native": native_version, "runs": args.runs, "lower": args.lower,
            "quick": args.quick, "cpu": cpu, "cpu_model": cpu_model(),
            "load_average": {"start": load_start, "end": load_end},
            "programs": {p.name: p.path for p in progs},
            "missing": [n for n in (CPU_2026, ELLXOR, MPERFT) if n not in names],
            "positions": [{
                "name": p.name, "label": p.label, "fen": p.fen, "depth": p.depth, "nodes": p.nodes,
                "published": p.published is not None,
                "gnps": {n: p.gnps(n) for n in names}, "seconds": p.seconds, "ratios": ratios(p, names),
            } for p in positions],
            "deep": [{"label": r.label, "command": r.command, "depth": r.depth, "nodes": r.nodes, "wall_seconds": r.wall,
                      "own_seconds": r.own_seconds, "user_seconds": r.user, "system_seconds": r.system,
                      "max_rss_bytes": r.max_rss} for r in runs],
            "targets": [{"target": what, "measured": measured, "met": ok} for what, measured, ok in met],
        }
        try:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(record, f, indent=2)
                f.write("\n")
        except OSError as e:
            raise Usage(f"cannot write '{args.json}': {e.strerror}") from None
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Usage as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        sys.exit(2)
    except Mismatch as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
