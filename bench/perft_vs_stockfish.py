#!/usr/bin/env python3
"""Single-core perft speed of chesshpc against Debian's Stockfish.

For each position, runs `chesshpc perft --threads 1 --json --quiet` (one or
more builds) and Stockfish's UCI `go perft D` in alternating turns, --repeat
times each, checks that every run of every engine counts the same number of
nodes (a mismatch is an error: exit 1), and prints the median time and speed
of each engine and each chesshpc build's speed relative to Stockfish: the
median over rounds of the ratio within a round, since the runs of one round are
seconds apart while the machine's load drifts over minutes.

Timing: chesshpc reports the seconds of its own perft (process start-up and
MPI initialisation excluded); Stockfish is started once and its perft is
timed here from sending `go perft D` to reading `Nodes searched: N`, so its
start-up is excluded too.

Pinning: every process runs under `taskset -c CPU` (default CPU 1) when taskset
exists. Both engines then run on the same single core in turn, which keeps the
comparison one core against one core and steadier on a noisy machine (no
migrations between cores, no competing with whatever else runs on core 0).

Python 3 standard library only. See bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field

STARTPOS = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

# (label, fen, depth, quick depth)
DEFAULT_POSITIONS = [
    ("startpos", STARTPOS, 7, 6),
    ("kiwipete", KIWIPETE, 6, 5),
]

DEFAULT_BINARY = "build/cluster/chesshpc"
REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_STOCKFISH = "/usr/games/stockfish"
STOCKFISH_NAME = "stockfish"


class BenchError(Exception):
    """Anything that makes the comparison invalid; reported and exit 1."""


@dataclass
class Position:
    label: str
    fen: str
    depth: int


@dataclass
class Samples:
    seconds: list[float] = field(default_factory=list)
    nodes: list[int] = field(default_factory=list)

    def median_seconds(self) -> float:
        return statistics.median(self.seconds)

    def median_nps(self) -> float:
        return statistics.median(n / s for n, s in zip(self.nodes, self.seconds) if s > 0)


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------
# command line


def parse_binary(spec: str) -> tuple[str, str]:
    """NAME=PATH, or a bare PATH (named after its build directory)."""
    if "=" in spec:
        name, path = spec.split("=", 1)
        if not name or not path:
            raise argparse.ArgumentTypeError(f"expected NAME=PATH, got {spec!r}")
        if name == STOCKFISH_NAME:
            raise argparse.ArgumentTypeError(f"the name {STOCKFISH_NAME!r} is reserved")
        return name, path
    return os.path.basename(os.path.dirname(os.path.dirname(os.path.abspath(spec)))) or spec, spec


def parse_position(spec: str) -> Position:
    """LABEL:DEPTH:FEN (the FEN may be 'startpos')."""
    parts = spec.split(":", 2)
    if len(parts) != 3 or not parts[0] or not parts[2]:
        raise argparse.ArgumentTypeError(f"expected LABEL:DEPTH:FEN, got {spec!r}")
    label, depth, fen = parts
    try:
        d = int(depth)
    except ValueError:
        raise argparse.ArgumentTypeError(f"depth {depth!r} is not an integer") from None
    if d < 1:
        raise argparse.ArgumentTypeError("depth must be at least 1")
    return Position(label, STARTPOS if fen.strip() == "startpos" else fen.strip(), d)


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description="Compare chesshpc's single-thread perft with Stockfish's `go perft`.",
        epilog="Defaults: startpos depth 7 and Kiwipete depth 6 (--quick: 6 and 5), "
        "5 repeats, one binary " + DEFAULT_BINARY + " named 'chesshpc'.",
    )
    p.add_argument("--binary", action="append", type=parse_binary, metavar="NAME=PATH",
                   help="a chesshpc build to compare; repeat for several "
                   f"(default: chesshpc={DEFAULT_BINARY})")
    p.add_argument("--stockfish", default=DEFAULT_STOCKFISH, metavar="PATH",
                   help=f"UCI engine with `go perft` (default: {DEFAULT_STOCKFISH})")
    p.add_argument("--repeat", type=int, default=5, metavar="N",
                   help="runs of each engine on each position (default: 5)")
    p.add_argument("--quick", action="store_true",
                   help="default positions at depths 6 and 5 instead of 7 and 6")
    p.add_argument("--position", action="append", type=parse_position, metavar="LABEL:DEPTH:FEN",
                   help="benchmark this position instead of the defaults; repeat for several")
    p.add_argument("--cpu", type=int, default=1, metavar="N",
                   help="core to pin every run to with taskset (default: 1)")
    p.add_argument("--no-pin", action="store_true", help="do not pin with taskset")
    p.add_argument("--json", action="store_true", help="also print the results as JSON")
    args = p.parse_args(argv)
    if args.repeat < 1:
        p.error("--repeat must be at least 1")
    if not args.binary:
        # Relative to the current directory, else to the repository's root.
        path = DEFAULT_BINARY
        if not os.path.exists(path):
            path = os.path.join(REPO_ROOT, DEFAULT_BINARY)
        args.binary = [("chesshpc", path)]
    names = [n for n, _ in args.binary]
    if len(set(names)) != len(names):
        p.error("--binary names must be distinct")
    return args


# --------------------------------------------------------------------------
# pinning


def pin_prefix(args: argparse.Namespace) -> tuple[list[str], int | None]:
    if args.no_pin:
        return [], None
    taskset = shutil.which("taskset")
    if taskset is None:
        log("note: taskset not found; runs are not pinned to one core")
        return [], None
    cpu = args.cpu
    try:
        allowed = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        allowed = [cpu]
    if cpu not in allowed:
        log(f"note: CPU {cpu} is not available (allowed: {allowed}); pinning to CPU {allowed[-1]}")
        cpu = allowed[-1]
    return [taskset, "-c", str(cpu)], cpu


# --------------------------------------------------------------------------
# chesshpc


def run_chesshpc(pin: list[str], path: str, pos: Position) -> tuple[int, float]:
    cmd = pin + [path, "perft", "--fen", pos.fen, "--depth", str(pos.depth),
                 "--threads", "1", "--json", "--quiet"]
    proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if proc.returncode != 0:
        raise BenchError(f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stderr.strip()}")
    return parse_chesshpc_json(proc.stdout, pos, path)


def parse_chesshpc_json(stdout: str, pos: Position, path: str = "chesshpc") -> tuple[int, float]:
    """The one JSON object chesshpc prints; returns (nodes, seconds)."""
    text = stdout.strip()
    try:
        obj = json.loads(text)
    except json.JSONDecodeError:
        # Tolerate stray lines around the object: take the last line that parses.
        obj = None
        for line in reversed(text.splitlines()):
            try:
                obj = json.loads(line)
                break
            except json.JSONDecodeError:
                continue
        if obj is None:
            raise BenchError(f"{path}: no JSON object on stdout:\n{stdout}") from None
    if isinstance(obj, list) and len(obj) == 1:
        obj = obj[0]
    if not isinstance(obj, dict):
        raise BenchError(f"{path}: expected one JSON object, got: {text[:200]}")
    for key in ("depth", "nodes", "seconds"):
        if key not in obj:
            raise BenchError(f"{path}: JSON lacks {key!r}: {text[:200]}")
    if int(obj["depth"]) != pos.depth:
        raise BenchError(f"{path}: asked depth {pos.depth}, JSON says {obj['depth']}")
    nodes, seconds = int(obj["nodes"]), float(obj["seconds"])
    if seconds <= 0:
        raise BenchError(f"{path}: non-positive seconds {seconds} for {pos.label}")
    return nodes, seconds


# --------------------------------------------------------------------------
# Stockfish over UCI


class Stockfish:
    def __init__(self, pin: list[str], path: str) -> None:
        if shutil.which(path) is None:
            raise BenchError(f"Stockfish not found at {path} (Debian: apt-get install stockfish)")
        self.proc = subprocess.Popen(pin + [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.name = "Stockfish"
        self._send("uci")
        for line in self._lines_until(lambda l: l == "uciok"):
            if line.startswith("id name "):
                self.name = line[len("id name "):]

    def _send(self, line: str) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise BenchError(f"Stockfish exited (code {self.proc.poll()}) before {line!r}") from None

    def _lines_until(self, done):
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise BenchError(f"Stockfish closed its output (exit code {self.proc.wait()})")
            line = line.strip()
            yield line
            if done(line):
                return

    def perft(self, pos: Position) -> tuple[int, float]:
        """Returns (nodes, seconds): seconds from sending `go perft` to its total."""
        self._send(f"position fen {pos.fen}")
        self._send("isready")
        for _ in self._lines_until(lambda l: l == "readyok"):
            pass
        nodes = None
        start = time.perf_counter()
        self._send(f"go perft {pos.depth}")
        for line in self._lines_until(lambda l: l.startswith("Nodes searched:")):
            if line.startswith("Nodes searched:"):
                elapsed = time.perf_counter() - start
                nodes = parse_nodes_searched(line)
        assert nodes is not None
        return nodes, elapsed

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self._send("quit")
                self.proc.wait(timeout=5)
            except (BenchError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()


def parse_nodes_searched(line: str) -> int:
    """'Nodes searched: 119060324' -> 119060324."""
    try:
        return int(line.split(":", 1)[1].strip())
    except (IndexError, ValueError):
        raise BenchError(f"cannot read a node count from Stockfish's {line!r}") from None


# --------------------------------------------------------------------------
# report


def fmt_table(header: list[str], rows: list[list[str]], right: set[int]) -> str:
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    out = [line(header), "  ".join("-" * w for w in widths)]
    out += [line(r) for r in rows]
    return "\n".join(out)


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    if args.position:
        positions = args.position
    else:
        positions = [Position(label, fen, quick if args.quick else full)
                     for label, fen, full, quick in DEFAULT_POSITIONS]

    for name, path in args.binary:
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            raise BenchError(f"chesshpc binary {name}={path} not found or not executable "
                             "(build it: cmake -S . -B build && cmake --build build -j)")

    pin, cpu = pin_prefix(args)
    engines = [name for name, _ in args.binary] + [STOCKFISH_NAME]
    paths = dict(args.binary)
    samples = {(p.label, e): Samples() for p in positions for e in engines}

    sf = Stockfish(pin, args.stockfish)
    try:
        total = len(positions) * args.repeat * len(engines)
        done = 0
        for pos in positions:
            expected: tuple[int, str] | None = None
            for rep in range(args.repeat):
                # Alternate turns, rotating who goes first so no engine always
                # runs right after the same other one.
                shift = rep % len(engines)
                for engine in engines[shift:] + engines[:shift]:
                    if engine == STOCKFISH_NAME:
                        nodes, secs = sf.perft(pos)
                    else:
                        nodes, secs = run_chesshpc(pin, paths[engine], pos)
                    done += 1
                    log(f"[{done}/{total}] {pos.label} depth {pos.depth} {engine}: "
                        f"{nodes} nodes in {secs:.3f} s ({nodes / secs / 1e6:.1f} Mnps)")
                    if expected is None:
                        expected = (nodes, engine)
                    elif nodes != expected[0]:
                        raise BenchError(
                            f"node count mismatch on {pos.label} depth {pos.depth} ({pos.fen}): "
                            f"{engine} counted {nodes}, {expected[1]} counted {expected[0]}")
                    s = samples[(pos.label, engine)]
                    s.nodes.append(nodes)
                    s.seconds.append(secs)
    finally:
        sf.close()

    binaries = [name for name, _ in args.binary]
    header = ["position", "depth", "nodes", "agree"]
    for e in engines:
        header += [f"{e} s", f"{e} Mnps"]
    header += [f"{b}/{STOCKFISH_NAME} (paired)" for b in binaries]
    rows = []
    results = []
    for pos in positions:
        sfs = samples[(pos.label, STOCKFISH_NAME)]
        row = [pos.label, str(pos.depth), str(sfs.nodes[0]), "yes"]
        per_engine = {}
        for e in engines:
            s = samples[(pos.label, e)]
            row += [f"{s.median_seconds():.3f}", f"{s.median_nps() / 1e6:.1f}"]
            per_engine[e] = {
                "median_seconds": s.median_seconds(),
                "median_nps": s.median_nps(),
                "seconds": s.seconds,
            }
        ratios = {}
        for b in binaries:
            # Paired per round: the host's load drifts over minutes, and runs of the same
            # round are seconds apart, so the ratio within a round is the steadier figure.
            own = samples[(pos.label, b)].seconds
            r = statistics.median(sf_s / s for sf_s, s in zip(sfs.seconds, own))
            ratios[b] = r
            row.append(f"{r:.2f}x")
        rows.append(row)
        results.append({
            "position": pos.label, "fen": pos.fen, "depth": pos.depth,
            "nodes": sfs.nodes[0], "nodes_agree": True,
            "engines": per_engine, "nps_ratio_vs_stockfish": ratios,
        })

    right = set(range(1, len(header))) - {3}
    pin_note = f"pinned to CPU {cpu} with taskset" if cpu is not None else "not pinned"
    print(f"perft, one thread each, median of {args.repeat} run(s), {pin_note}; "
          f"{sf.name} vs chesshpc ({', '.join(f'{n}={p}' for n, p in args.binary)}); "
          f"CPU: {cpu_model()}")
    print(fmt_table(header, rows, right))

    if args.json:
        print(json.dumps({
            "repeat": args.repeat,
            "pinned_cpu": cpu,
            "cpu_model": cpu_model(),
            "stockfish": {"path": args.stockfish, "id": sf.name},
            "binaries": dict(args.binary),
            "results": results,
        }, indent=2))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BenchError as e:
        print(f"perft_vs_stockfish: error: {e}", file=sys.stderr)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
