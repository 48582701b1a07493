#!/usr/bin/env bash
# `chesshpc export` against its anchor, nnue-pytorch's own training-data converters (run
# through bench/nnue_pytorch_driver.cpp, built by hand as bench/README.md, "export", says),
# in the same run: makes a selfplay dataset, exports it as plain, bin and binpack, checks
# that the anchor reads chesshpc's files back to chesshpc's own records, then times each
# pair of commands in turn (with chesshpc's reading alone as a third) and prints medians
# and pairwise ratios. Nothing is built here: both programs are given.
set -euo pipefail

usage() {
  cat <<USAGE
usage: bench/export_anchor.sh CHESSHPC DRIVER [--runs N] [--dir DIR] [--games G] [--nodes N]
  CHESSHPC   the chesshpc binary to measure
  DRIVER     nnue_pytorch_driver, built from bench/nnue_pytorch_driver.cpp
  --runs N   timed runs of each command, after one warm-up run of each (default: 5)
  --dir DIR  where the dataset and the exported files go (default: export-anchor)
  --games G  selfplay games of the dataset (default: 2000, about 199,000 positions)
  --nodes N  selfplay nodes a move (default: 200)
Pairs timed (A: chesshpc from the HDF5 file; B: the anchor converting the same positions):
  binpack  chesshpc export --format binpack   vs  bin -> binpack
  bin      chesshpc export --format bin       vs  plain -> bin
  plain    chesshpc export --format plain     vs  bin -> plain
  then bullet, bullet-text, epd and pgn against chesshpc export --format bin (no converter
  of nnue-pytorch writes them).
  R: chesshpc export of the same format with every position left out (--skip-plies), its
  reading alone. Each figure is the whole process, start-up included; cpu is user + system.
Exit status: 0 done and every check passed, 1 a check failed (the anchor read a file of
chesshpc's differently: the figures are still printed), 2 bad usage.
USAGE
}

[[ ${1-} == -h || ${1-} == --help ]] && { usage; exit 0; }
(($# >= 2)) || { usage >&2; exit 2; }
chesshpc=$1 driver=$2
shift 2
runs=5 dir=export-anchor games=2000 nodes=200
while (($#)); do
  case $1 in
    --runs) runs=${2-} ;;
    --dir) dir=${2-} ;;
    --games) games=${2-} ;;
    --nodes) nodes=${2-} ;;
    -h | --help) usage; exit 0 ;;
    *) echo "bench/export_anchor.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
  (($# >= 2)) || { echo "bench/export_anchor.sh: $1 needs a value" >&2; exit 2; }
  shift 2
done
for n in "$runs" "$games" "$nodes"; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "bench/export_anchor.sh: '$n' is not a whole number >= 1" >&2; exit 2; }
done
for b in "$chesshpc" "$driver"; do
  [[ -x $b ]] || { echo "bench/export_anchor.sh: '$b' is not an executable" >&2; exit 2; }
done
mkdir -p "$dir"

echo "== dataset: $games games at $nodes nodes a move" >&2
"$chesshpc" selfplay --games "$games" --nodes "$nodes" --random-plies 4 --threads 2 --quiet --force \
  --out "$dir/big.h5"
for f in plain bin binpack; do
  # The export's own line on stderr says how many positions it wrote.
  "$chesshpc" export --format "$f" "$dir/big.h5" --out "$dir/big.$f" --force
done

# The anchor reads chesshpc's files back to chesshpc's own records. Two differences are
# the anchor's own and allowed for, exactly: its .bin records end in 0xFF where chesshpc
# writes 0 (the padding byte, which no reader reads), and its binpack reader sets the
# full-move number from the ply as (ply + 1) / 2 (binpack stores none), one less than the
# FEN's when white is to move (Stockfish counts the start position's ply as 0).
"$driver" bin2plain "$dir/big.bin" "$dir/anchor-from-bin.plain" validate > /dev/null
"$driver" plain2bin "$dir/big.plain" "$dir/anchor-from-plain.bin" validate > /dev/null
"$driver" bin2binpack "$dir/big.bin" "$dir/anchor-from-bin.binpack" validate > /dev/null
"$driver" plain2binpack "$dir/big.plain" "$dir/anchor-from-plain.binpack" validate > /dev/null
"$driver" binpack2plain "$dir/big.binpack" "$dir/anchor-from-binpack.plain" validate > /dev/null
status=0
python3 - "$dir" <<'PY' || status=1
import sys

d = sys.argv[1]
read = lambda name: open(f"{d}/{name}", "rb").read()
failed = False

def verdict(what, ok, why=""):
    global failed
    failed |= not ok
    print(f"check {'ok' if ok else 'FAILED'}: the anchor's {what}" + ("" if ok else f": {why}"), file=sys.stderr)

def first_difference(a, b):
    i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return f"first at byte {i} ({len(a)} and {len(b)} bytes)"

ours_plain, ours_bin = read("big.plain"), read("big.bin")
theirs = read("anchor-from-bin.plain")
verdict("bin -> plain of big.bin is big.plain, byte for byte", theirs == ours_plain,
        first_difference(theirs, ours_plain))

theirs = read("anchor-from-plain.bin")
padded = bytearray(ours_bin)
padded[39::40] = b"\xff" * (len(padded) // 40)
verdict("plain -> bin of big.plain is big.bin but each record's padding byte (0xFF, ours 0)",
        len(ours_bin) % 40 == 0 and theirs == bytes(padded), first_difference(theirs, bytes(padded)))

ours = read("big.binpack")
for src in ("bin", "plain"):
    theirs = read(f"anchor-from-{src}.binpack")
    verdict(f"{src} -> binpack of big.{src} is big.binpack, byte for byte", theirs == ours,
            first_difference(theirs, ours))

# Record by record: every line equal but the FEN's full-move number, which must be the
# anchor's (ply + 1) / 2, ply being the record's own "ply" line.
def records(text):
    return [r.split("\n") for r in text.decode().split("\ne\n")]
ours, theirs = records(ours_plain), records(read("anchor-from-binpack.plain"))
why = "" if len(ours) == len(theirs) else f"{len(theirs) - 1} records, not {len(ours) - 1}"
moved = 0
for i, (o, t) in enumerate(zip(ours, theirs)):
    if o == t or why: continue
    of, tf = o[0].split(" "), t[0].split(" ")
    ply = int(o[3].removeprefix("ply "))
    if o[1:] != t[1:] or of[:-1] != tf[:-1] or of[2] != "w" or int(tf[-1]) != (ply + 1) // 2:
        why = f"record {i} differs beyond that: ours {o}, the anchor's {t}"
    else:
        moved += 1
verdict(f"binpack -> plain of big.binpack is big.plain but the full-move number of {moved} white-to-move "
        f"records of {len(ours) - 1}", not why, why)
sys.exit(1 if failed else 0)
PY
echo "binpack bytes: chesshpc $(stat -c %s "$dir/big.binpack"), anchor $(stat -c %s "$dir/anchor-from-bin.binpack")" >&2

# Times whole processes (start-up included) from outside: wall clock around each run,
# user + system CPU from the kernel's accounting of the reaped child. Python's standard
# library only. R is chesshpc reading and filtering the same columns with every position
# left out: A - R is what its encoding and writing cost. The formats no converter of
# nnue-pytorch writes are timed against chesshpc's own bin export instead, whose ratio to
# the anchor is the bin row's.
python3 - "$runs" "$dir" "$chesshpc" "$driver" <<'PY'
import os, statistics, subprocess, sys, time

runs, d, chesshpc, driver = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
big = lambda ext: os.path.join(d, "big." + ext)
out = lambda name: os.path.join(d, "timed-" + name)
export = lambda fmt, name, *more: [chesshpc, "export", "--format", fmt, big("h5"), "--out", out(name), "--force", *more]
skip_all = ("--skip-plies", "100000")
rows = [  # format, A (chesshpc), B (the anchor), R (chesshpc, reading only; None: pgn has no filters)
    ("binpack", export("binpack", "a.binpack"), [driver, "bin2binpack", big("bin"), out("b.binpack")],
     export("binpack", "r.binpack", *skip_all)),
    ("bin", export("bin", "a.bin"), [driver, "plain2bin", big("plain"), out("b.bin")],
     export("bin", "r.bin", *skip_all)),
    ("plain", export("plain", "a.plain"), [driver, "bin2plain", big("bin"), out("b.plain")],
     export("plain", "r.plain", *skip_all)),
    "against chesshpc export --format bin (B), in the same way:",
    *((f, export(f, "a." + f), export("bin", "c.bin"), export(f, "r." + f, *skip_all) if f != "pgn" else None)
      for f in ("bullet", "bullet-text", "epd", "pgn")),
]

def run(cmd):
    """(wall s, cpu s, peak MiB) of one run of cmd; exits on a failed run, whose figures mean nothing."""
    start = time.perf_counter()
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"bench/export_anchor.sh: '{' '.join(cmd)}' exited {code}")
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024  # ru_maxrss: KiB on Linux

def spread(xs, fmt):
    return f"{fmt(statistics.median(xs))} ({fmt(min(xs))}-{fmt(max(xs))})"

s, r = (lambda x: f"{x:.3f}"), (lambda x: f"{x:.2f}")
heads = ["A cpu s", "B cpu s", "A/B cpu", "A wall s", "B wall s", "A/B wall", "R cpu s", "(A-R)/B cpu",
         "A peak MiB", "B peak MiB"]
print(f"{runs} runs each, in turn (A B R, B R A, R A B, ...) after one warm-up of each; median (min-max)")
print(f"{'format':11}" + "".join(f" {h:>19}" for h in heads))
for row in rows:
    if isinstance(row, str):
        print(row)
        continue
    name, *cmds = row
    cmds = [c for c in cmds if c]
    for c in cmds: run(c)
    times = [[] for _ in cmds]  # A, B, R
    for i in range(runs):
        # Who goes first rotates, so that a drift in the machine's speed weighs on every command.
        for k in range(len(cmds)):
            j = (i + k) % len(cmds)
            times[j].append(run(cmds[j]))
    ta, tb, tr = times if len(times) == 3 else (*times, None)
    no_r = ["-", "-"]
    cols = [spread([t[1] for t in ta], s), spread([t[1] for t in tb], s),
            spread([x[1] / y[1] for x, y in zip(ta, tb)], r),
            spread([t[0] for t in ta], s), spread([t[0] for t in tb], s),
            spread([x[0] / y[0] for x, y in zip(ta, tb)], r),
            *(no_r if tr is None else [spread([t[1] for t in tr], s),
                                       spread([(x[1] - z[1]) / y[1] for x, y, z in zip(ta, tb, tr)], r)]),
            f"{statistics.median(t[2] for t in ta):.1f}", f"{statistics.median(t[2] for t in tb):.1f}"]
    print(f"{name:11}" + "".join(f" {c:>19}" for c in cols), flush=True)
# A child's peak starts at this timer's own (it is counted from before the exec).
print(f"peak floor: {run(['true'])[2]:.1f} MiB (a peak at it means at most that)")
PY
exit "$status"
