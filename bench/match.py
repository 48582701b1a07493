#!/usr/bin/env python3
"""Plays chesshpc against another UCI engine and reports the score and Elo.

Every opening of the list is played twice, colours swapped, so that the openings'
own imbalance cancels. Games are ended by chesshpc's own rules (`chesshpc rules`,
FIDE with claims: checkmate, stalemate, dead material, threefold, 50 moves), by
an illegal move, a lost clock or a dead or hung engine (a loss for the side at
fault), or as a draw at --max-plies. Python 3 standard library only.

Examples:
  # 10 s + 0.1 s against Stockfish limited to 2000 Elo, 100 pairs, 2 games at once
  bench/match.py --pairs 100 --tc 10+0.1 --concurrency 2 \\
      --opponent /usr/games/stockfish --opponent-option UCI_LimitStrength=true \\
      --opponent-option UCI_Elo=2000
  # fixed nodes per move (deterministic engines give repeatable games)
  bench/match.py --pairs 4 --nodes 20000 --opponent /usr/games/stockfish
"""
import argparse
import concurrent.futures
import json
import math
import os
import re
import select
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class EngineError(Exception):
    pass


class Engine:
    """One UCI engine process."""

    def __init__(self, command, options, name):
        self.name = name
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, bufsize=0)
        self.pending = b""
        self.send("uci")
        self.wait_for("uciok", 30)
        for key, value in options:
            self.send(f"setoption name {key} value {value}")
        self.send("isready")
        self.wait_for("readyok", 30)

    def send(self, line):
        try:
            self.proc.stdin.write((line + "\n").encode())
        except BrokenPipeError as e:
            raise EngineError(f"{self.name} died") from e

    def read_line(self, deadline):
        # Unbuffered reads under select, so that an engine that hangs is caught at the
        # deadline instead of blocking the match.
        while b"\n" not in self.pending:
            timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
            if not ready:
                raise EngineError(f"{self.name} did not answer in time")
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                raise EngineError(f"{self.name} closed its output")
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return line.decode(errors="replace").strip()

    def wait_for(self, word, seconds):
        deadline = time.monotonic() + seconds
        while True:
            if self.read_line(deadline).split()[:1] == [word]:
                return

    def new_game(self):
        self.send("ucinewgame")
        self.send("isready")
        self.wait_for("readyok", 30)

    def best_move(self, moves, go, timeout):
        """The engine's move and the seconds it took."""
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        start = time.monotonic()
        self.send("go " + go)
        deadline = start + timeout
        while True:
            words = self.read_line(deadline).split()
            if words[:1] == ["bestmove"]:
                return (words[1] if len(words) > 1 else "0000"), time.monotonic() - start

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (EngineError, subprocess.TimeoutExpired):
            self.proc.kill()


def adjudicate(chesshpc, moves):
    """(result, termination, plies) by chesshpc's rules at the first ply where they end
    the game, or None while it goes on. An illegal move ends the game at its ply, lost
    by the side that played it."""
    r = subprocess.run([chesshpc, "rules", "--moves", " ".join(moves), "--json"], capture_output=True, text=True)
    if r.returncode == 3:
        m = re.search(r"illegal move '([^']*)' at ply (\d+)", r.stderr)
        if not m:
            raise RuntimeError(f"chesshpc rules: {r.stderr.strip()}")
        ply = int(m.group(2))
        return ("0-1" if ply % 2 == 1 else "1-0"), f"illegal move {m.group(1)}", ply
    if r.returncode != 0:
        raise RuntimeError(f"chesshpc rules failed: {r.stderr.strip()}")
    j = json.loads(r.stdout)
    if j["result"] == "*":
        return None
    return j["result"], j["termination"], j["plies"]


def play_game(args, opening, chesshpc_white):
    """One game; returns (score for chesshpc 1/0.5/0, result, termination, plies)."""
    ours = Engine([args.engine, "uci"], args.engine_option, "chesshpc")
    theirs = Engine(args.opponent.split(), args.opponent_option, "opponent")
    try:
        ours.new_game()
        theirs.new_game()
        white, black = (ours, theirs) if chesshpc_white else (theirs, ours)
        moves = list(opening)
        clock = [args.base, args.base]  # white, black seconds
        result = termination = None
        while result is None:
            side = len(moves) % 2  # the openings have an even number of plies
            mover = white if side == 0 else black
            if args.nodes:
                go = f"nodes {args.nodes}"
                timeout = 600
            elif args.movetime:
                go = f"movetime {int(args.movetime * 1000)}"
                timeout = args.movetime * 10 + 10
            else:
                go = (f"wtime {int(clock[0] * 1000)} btime {int(clock[1] * 1000)} "
                      f"winc {int(args.inc * 1000)} binc {int(args.inc * 1000)}")
                timeout = clock[side] + 10
            try:
                move, used = mover.best_move(moves, go, timeout)
            except EngineError as e:
                # An engine may die of an illegal move not yet judged: judge it now.
                # Otherwise the engine that died or hung loses.
                verdict = adjudicate(args.engine, moves)
                if verdict:
                    result, termination, plies = verdict
                    del moves[plies:]
                else:
                    result, termination = ("0-1" if side == 0 else "1-0"), f"engine failure: {e}"
                break
            if not args.nodes and not args.movetime:
                clock[side] -= used
                if clock[side] < -args.time_margin:
                    result, termination = ("0-1" if side == 0 else "1-0"), "time forfeit"
                    break
                clock[side] += args.inc
            moves.append(move)
            # The rules are asked every few plies (each ask starts a process): the game
            # ends at the first ply where they end it, and the plies after it are dropped.
            no_move = move in ("0000", "(none)")
            if no_move or len(moves) % args.check_every == 0 or len(moves) >= args.max_plies:
                verdict = adjudicate(args.engine, moves[:-1] if no_move else moves)
                if verdict:
                    result, termination, plies = verdict
                    del moves[plies:]
                elif no_move:
                    raise RuntimeError(f"{mover.name} found no move in a game that goes on: {' '.join(moves)}")
                elif len(moves) >= args.max_plies:
                    result, termination = "1/2-1/2", "max plies"
    finally:
        ours.close()
        theirs.close()
    score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
    if not chesshpc_white:
        score = 1.0 - score
    return score, result, termination, moves


def elo(p):
    p = min(max(p, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / p - 1)


def signed(v, infinite="+inf"):
    return infinite if v is None else f"{v:+.0f}"


def summary(scores):
    n = len(scores)
    w = sum(1 for s in scores if s == 1.0)
    d = sum(1 for s in scores if s == 0.5)
    l = n - w - d
    p = (w + d / 2) / n if n else 0.0
    var = sum((s - p) ** 2 for s in scores) / n if n else 0.0
    se = math.sqrt(var / n) if n else 0.0
    low, high = p - 1.96 * se, p + 1.96 * se
    # An interval reaching a score of 0 or 1 is unbounded on that side (null in JSON).
    out = {"games": n, "wins": w, "draws": d, "losses": l, "score": p, "elo": elo(p),
           "elo_low": elo(low) if low > 0 else None, "elo_high": elo(high) if high < 1 else None}
    if n and (w == n or l == n):
        # Every game won (or lost): the difference has no finite estimate and the normal
        # approximation no width. The exact binomial bound (Clopper-Pearson, 95% two-sided)
        # still says how large it must at least be; JSON null stands for infinite.
        bound = elo(0.025 ** (1 / n))
        out.update(elo=None, elo_low=bound, elo_high=None) if w == n else out.update(
            elo=None, elo_low=None, elo_high=-bound)
    return out


def read_openings(path):
    with open(path) as f:
        return [line.split() for line in f if line.strip() and not line.startswith("#")]


def parse_option(text):
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, not {text!r}")
    name, value = text.split("=", 1)
    return name, value


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default=os.path.join(ROOT, "build/cluster/chesshpc"), help="chesshpc binary")
    ap.add_argument("--engine-option", type=parse_option, action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--opponent", default="/usr/games/stockfish", help="opponent command line")
    ap.add_argument("--opponent-option", type=parse_option, action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--openings", default=os.path.join(ROOT, "data/openings.txt"))
    ap.add_argument("--pairs", type=int, default=10, help="game pairs (each opening with both colours)")
    ap.add_argument("--tc", default="10+0.1", help="base+increment in seconds (default 10+0.1)")
    ap.add_argument("--nodes", type=int, default=0, help="fixed nodes per move instead of a clock")
    ap.add_argument("--movetime", type=float, default=0, help="fixed seconds per move instead of a clock")
    ap.add_argument("--time-margin", type=float, default=0.05, help="seconds a clock may go below zero")
    ap.add_argument("--max-plies", type=int, default=400, help="draw after this many plies")
    ap.add_argument("--check-every", type=int, default=8, help="plies between asks of chesshpc rules")
    ap.add_argument("--concurrency", type=int, default=1, help="games at once (one core each)")
    ap.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    ap.add_argument("--quiet", action="store_true", help="no per-game progress on stderr")
    args = ap.parse_args()
    args.base, args.inc = (float(x) for x in (args.tc.split("+") + ["0"])[:2])

    openings = read_openings(args.openings)
    jobs = []
    for i in range(args.pairs):
        opening = openings[i % len(openings)]
        jobs += [(i, opening, True), (i, opening, False)]

    lock = threading.Lock()
    scores = []
    games = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.concurrency) as pool:
        futures = {pool.submit(play_game, args, opening, white): (i, white) for i, opening, white in jobs}
        for fut in concurrent.futures.as_completed(futures):
            i, white = futures[fut]
            score, result, termination, moves = fut.result()
            plies = len(moves)
            with lock:
                scores.append(score)
                games.append({"pair": i, "chesshpc_white": white, "result": result, "termination": termination,
                              "plies": plies, "score": score, "moves": " ".join(moves)})
                if not args.quiet:
                    s = summary(scores)
                    print(f"game {len(scores)}/{len(jobs)}: pair {i} chesshpc {'white' if white else 'black'} "
                          f"{result} ({termination}, {plies} plies); W/D/L {s['wins']}/{s['draws']}/{s['losses']}",
                          file=sys.stderr, flush=True)

    s = summary(scores)
    s.update({"opponent": args.opponent, "opponent_options": dict(args.opponent_option),
              "time_control": f"nodes {args.nodes}" if args.nodes else f"movetime {args.movetime}"
              if args.movetime else args.tc})
    if args.json:
        s["game_list"] = sorted(games, key=lambda g: (g["pair"], not g["chesshpc_white"]))
        print(json.dumps(s))
    else:
        print(f"chesshpc vs {args.opponent} {dict(args.opponent_option)} at {s['time_control']}: "
              f"W/D/L {s['wins']}/{s['draws']}/{s['losses']} of {s['games']}, score {s['score']:.3f}, "
              f"Elo {signed(s['elo'], '+inf' if s['score'] > 0.5 else '-inf')} "
              f"(95% {signed(s['elo_low'], '-inf')} .. {signed(s['elo_high'])})")


if __name__ == "__main__":
    main()
