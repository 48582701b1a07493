"""How many times a reader of a UCI engine's search wakes, and how long it oversleeps the
bestmove, for policies of when to read (UciEngine::go's), from the times the engine's
lines come at.

Stockfish (depth D, Hash 16) searches every position of a selfplay file as rescore has it
search them (ucinewgame, isready, position fen, go depth D, one write), and each line is
time-stamped as it comes (a reader blocked on the pipe: on an otherwise idle core the
stamps are the engine's writes). Each policy is then replayed on those times, learning its
sleeps from the searches before, as the reader does:

  readyok + q x mean: wake for readyok, sleep q times the mean search so far (from
    readyok), then wake for each write (lines that come within 30 us of each other read at
    one wake); q = 0.25 is UciEngine::go's.
  send + q x mean: no wake for readyok, a sleep from the write of q times the mean whole
    search (readyok included), then a wake for each write.
  ... + second sleep b: after the first sleep, if no bestmove, a second sleep to the b
    quantile of the searches so far that lasted longer than that (the search left, sized
    from those before), then a wake for each write.

Prints wakes a search and the mean oversleep (the time from bestmove to the wake that
reads it) per policy, as a table.

usage: uci_reader_wakes.py SELFPLAY.h5 [--depth D] [--stockfish PATH]
"""
import argparse
import subprocess
import time

import h5py
import numpy as np

COALESCE = 30e-6  # lines written this close together are read at one wake


def line_times(stockfish, fens, depth):
    """Per search: (readyok's time, every later line's time; the last is bestmove's), in
    seconds from the write of the commands."""
    p = subprocess.Popen([stockfish], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    p.stdin.write("uci\nsetoption name Hash value 16\nisready\n")
    p.stdin.flush()
    while p.stdout.readline().strip() != "readyok":
        pass
    searches = []
    for fen in fens:
        t0 = time.perf_counter()
        p.stdin.write(f"ucinewgame\nisready\nposition fen {fen}\ngo depth {depth}\n")
        p.stdin.flush()
        ready, lines = None, []
        while True:
            line = p.stdout.readline().strip()
            t = time.perf_counter() - t0
            if ready is None:
                ready = t
                continue
            lines.append(t)
            if line.startswith("bestmove"):
                break
        searches.append((ready, lines))
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait()
    return searches


def wakes_after(times, t):
    """Wakes of a reader blocked from t on, waking for each write after t."""
    n, last = 0, -1.0
    for x in times:
        if x > t and x > last + COALESCE:
            n, last = n + 1, x
    return n


def replay(searches, q, readyok_wake, second=None):
    wakes = over = 0.0
    before = []  # the searches so far, from the sleep's start
    for ready, lines in searches:
        end = lines[-1]
        start = ready if readyok_wake else 0.0
        wakes += readyok_wake
        t = start
        if before:
            t = start + q * float(np.mean(before))
            wakes += 1
            if second is not None and t < end:
                longer = np.array(before[-500:])
                longer = longer[longer > t - start]
                if len(longer):
                    t = start + float(np.quantile(longer, second))
                    wakes += 1
        if t >= end:
            over += t - end
        else:
            wakes += wakes_after(([] if readyok_wake else [ready]) + lines, t)
        before.append(end - start)
    return wakes / len(searches), over / len(searches) * 1e3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("selfplay")
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    a = ap.parse_args()
    with h5py.File(a.selfplay, "r") as f:
        fens = f["positions/fen"].asstr()[:].tolist()
    searches = line_times(a.stockfish, fens, a.depth)
    mean = np.mean([lines[-1] for _, lines in searches]) * 1e3
    ready = np.median([r for r, _ in searches]) * 1e3
    print(f"{len(searches)} searches at depth {a.depth}: {mean:.2f} ms from the write to bestmove on average, "
          f"readyok after {ready:.2f} ms (median)")
    print("| policy | wakes a search | oversleep, ms a search |")
    print("|---|---:|---:|")
    for readyok_wake, qs in ((True, (0.25, 0.4, 0.5, 0.7)), (False, (0.25, 0.4, 0.5, 0.7))):
        for q in qs:
            for second in (None, 0.25, 0.5):
                if second is not None and q not in (0.25, 0.4):
                    continue
                w, o = replay(searches, q, readyok_wake, second)
                name = f"{'readyok' if readyok_wake else 'send'} + {q} x mean" + (
                    f" + second sleep {second}" if second is not None else "")
                print(f"| {name} | {w:.2f} | {o:.3f} |")


if __name__ == "__main__":
    main()
