"""bench/perft_anchors.py against stand-in anchors: shell scripts this test writes, each
printing its anchor's output format with the published count at --lower 4 and a fixed time.
Asserts the table's rows (the anchors' G nodes/s exactly, chesshpc's ratios as the JSON's),
the JSON's fields, a missing anchor's note and --require-all's exit 2, exit 1 with the
exact line when an anchor counts one node too many, and an ellxor_perft that cannot be
cloned (from a path that does not exist) named in one line and left out.

usage: perft_anchors.py PERFT_ANCHORS_PY CHESSHPC
"""
import json
import os
import re
import stat
import subprocess
import sys
import tempfile

PROG = "bench/perft_anchors.py"
# (FEN's first field's start, table label, depth at --lower 4, published count there).
POSITIONS = [
    ("rnbqkbnr/pppppppp", "startpos 3", 3, 8902),
    ("r3k2r/p1ppqpb1", "Kiwipete 2", 2, 2039),
    ("8/2p5", "position 3, 4", 4, 43238),
    ("r3k2r/Pppp1ppp", "position 4, 2", 2, 264),
    ("rnbq1k1r", "position 5, 2", 2, 1486),
    ("r4rk1", "position 6, 2", 2, 2079),
]
# Each anchor's seconds and output, as the real one prints it (its README's run line).
SECONDS = {"perft_cpu_2026": 1e-6, "ellxor_perft": 2e-6, "mperft": 4e-6}
PRINT = {
    # Every depth from 1: a wrong count one depth short, which the script must not read.
    "perft_cpu_2026": ('fen=$1 depth=$2\nprintf "CPU mode (threads: 1, TT: off)\\n\\n"\n'
                       'printf "Perft(%02d): 1, time: 1e-07 seconds, nps: 1\\n\\n" $((depth - 1))\n'
                       'printf "Perft(%02d): %d, time: 1e-06 seconds, nps: 1\\n" "$depth" "$n"\n'),
    "ellxor_perft": ('fen=$1 depth=$2\nprintf "Running multi-threaded perft on 2 threads.\\n\\n"\n'
                     'printf "Result:            %d\\nTime taken:        2e-06 seconds.\\n" "$n"\n'),
    "mperft": ('fen=$2 depth=$4\n[ "$1 $3 $5" = "-f -d -b" ] || exit 9\n'
               'printf "Magic Perft (c) version 2.0\\nperft %2d :   %d leaves in   4e-06 s   1 leaves/s\\n" '
               '"$depth" "$n"\n'),
}


def stand_in(folder, name, extra=0):
    """An anchor printing the published count (plus extra) in its own format."""
    cases = "".join(f'  {prefix}*) n={count + extra} ;;\n' for prefix, _, _, count in POSITIONS)
    head, rest = PRINT[name].split("\n", 1)
    body = f'#!/bin/sh\n{head}\ncase "$fen" in\n{cases}  *) exit 8 ;;\nesac\n{rest}'
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write(body)
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)


def run(script, *args):
    return subprocess.run([sys.executable, script, *args], capture_output=True, text=True, timeout=60)


def table(stdout):
    """{label: cells} of the Markdown table's rows, and its header's cells."""
    rows, header = {}, None
    for line in stdout.splitlines():
        if line.startswith("| position, depth |"):
            header = [c.strip() for c in line.strip("|").split("|")][1:]
        elif line.startswith("| ") and header:
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows[cells[0]] = cells[1:]
    return header, rows


def check_good_run(script, binary, tmp):
    anchors = os.path.join(tmp, "anchors")
    os.mkdir(anchors)
    for name in PRINT:
        stand_in(anchors, name)
    out = os.path.join(tmp, "result.json")
    r = run(script, anchors, binary, "--native", binary, "--lower", "4", "--runs", "2", "--json", out)
    assert r.returncode == 0, r.stdout + r.stderr
    progress = [line for line in r.stderr.splitlines() if line.startswith("[")]
    assert len(progress) == 6 * 2 * 5 and progress[0].startswith("[1/60] startpos depth 3 chesshpc portable: 8902 "
                                                                  "nodes in "), r.stderr
    # The second run of each position starts with the next program: the order rotates.
    assert progress[5].startswith("[6/60] startpos depth 3 chesshpc native: "), r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith("perft, one core each (taskset -c ") and lines[0].endswith(
        "), no table, median of 2 interleaved run(s), G nodes/s; " + chesshpc_version(binary) + ", native "
        + chesshpc_version(binary)), lines[0]
    assert re.fullmatch(r"load average at start: [\d.]+ [\d.]+ [\d.]+; at end: [\d.]+ [\d.]+ [\d.]+; CPU: .+",
                        lines[1]), lines[1]
    assert lines[2] == "counts: as published", lines[2]
    header, rows = table(r.stdout)
    ratio_names = ["portable / perft_cpu_2026", "portable / ellxor_perft", "native / perft_cpu_2026",
                   "native / ellxor_perft", "portable / native"]
    assert header == ["chesshpc native", "chesshpc portable", "perft_cpu_2026", "ellxor_perft", "mperft"] + \
        ratio_names, header
    assert list(rows) == [label for _, label, _, _ in POSITIONS], r.stdout
    with open(out) as f:
        record = json.load(f)
    assert sorted(record) == ["chesshpc", "chesshpc_native", "cpu", "cpu_model", "load_average", "lower", "missing",
                              "positions", "programs", "quick", "runs"], sorted(record)
    assert sorted(record["positions"][0]) == ["depth", "fen", "gnps", "label", "name", "nodes", "published",
                                              "ratios", "seconds"], record["positions"][0]
    assert record["chesshpc"] == record["chesshpc_native"] == chesshpc_version(binary), record
    assert (record["runs"], record["lower"], record["quick"], record["missing"]) == (2, 4, False, []), record
    assert list(record["programs"]) == ["chesshpc portable", "chesshpc native", "perft_cpu_2026", "ellxor_perft",
                                        "mperft"], record
    assert set(record["load_average"]) == {"start", "end"}, record
    for (_, label, depth, count), pos in zip(POSITIONS, record["positions"]):
        assert (pos["depth"], pos["nodes"], pos["published"]) == (depth, count, True), pos
        assert all(len(s) == 2 for s in pos["seconds"].values()), pos
        for name, secs in SECONDS.items():
            assert pos["seconds"][name] == [secs, secs], pos
            assert pos["gnps"][name] == count / secs / 1e9, pos
        gnps = pos["gnps"]
        assert pos["ratios"] == {
            "portable / perft_cpu_2026": gnps["chesshpc portable"] / gnps["perft_cpu_2026"],
            "portable / ellxor_perft": gnps["chesshpc portable"] / gnps["ellxor_perft"],
            "native / perft_cpu_2026": gnps["chesshpc native"] / gnps["perft_cpu_2026"],
            "native / ellxor_perft": gnps["chesshpc native"] / gnps["ellxor_perft"],
            "portable / native": gnps["chesshpc portable"] / gnps["chesshpc native"],
        }, pos
        expected = [f"{gnps[n]:.3f}" for n in header[:5]] + [f"{pos['ratios'][n]:.2f}" for n in ratio_names]
        assert rows[label] == expected, (rows[label], expected)
    assert rows["startpos 3"][2:5] == ["8.902", "4.451", "2.225"], rows["startpos 3"]


def check_wrong_count(script, binary, tmp):
    anchors = os.path.join(tmp, "wrong")
    os.mkdir(anchors)
    stand_in(anchors, "perft_cpu_2026")
    stand_in(anchors, "ellxor_perft", extra=1)
    missing = f"{PROG}: no mperft in '{anchors}': its column is left out"
    r = run(script, anchors, binary, "--lower", "4", "--runs", "1", "--quiet")
    assert (r.returncode, r.stdout) == (1, ""), r
    assert r.stderr.splitlines() == [missing, f"{PROG}: ellxor_perft counts 8903 on startpos depth 3, "
                                              "published 8902"], r.stderr
    r = run(script, anchors, binary, "--require-all", "--quick")
    assert (r.returncode, r.stdout) == (2, ""), r
    assert r.stderr == (f"{PROG}: no mperft in '{anchors}' (its README.md says where the anchors come "
                        "from)\n"), r.stderr
    r = run(script, anchors, binary, "--lower", "6")
    assert (r.returncode, r.stderr) == (2, f"{PROG}: --lower 6: from 0 to 5\n"), r


def check_unbuildable_ellxor(script, binary, tmp):
    """ellxor_perft missing: built from a clone, here of a repository that is not there (no
    network needed), which is one line and its column left out, or exit 2 with --require-all."""
    anchors = os.path.join(tmp, "no_ellxor")
    os.mkdir(anchors)
    stand_in(anchors, "perft_cpu_2026")
    stand_in(anchors, "mperft")
    url = os.path.join(tmp, "no_such_repository")
    scratch = os.path.join(tmp, "scratch")
    why = (f"no ellxor_perft in '{anchors}', and it could not be built from {url}: git clone failed "
           f"(fatal: repository '{url}' does not exist)")
    r = run(script, anchors, binary, "--lower", "4", "--runs", "1", "--quiet", "--ellxor-url", url,
            "--scratch", scratch)
    assert r.returncode == 0, r
    assert r.stderr == f"{PROG}: {why}: its column is left out\n", r.stderr
    header, rows = table(r.stdout)
    assert header == ["chesshpc portable", "perft_cpu_2026", "mperft", "portable / perft_cpu_2026"], header
    assert os.listdir(scratch) == [], os.listdir(scratch)
    r = run(script, anchors, binary, "--quick", "--require-all", "--ellxor-url", url, "--quiet")
    assert (r.returncode, r.stdout, r.stderr) == (2, "", f"{PROG}: {why}\n"), r


def chesshpc_version(binary):
    return subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.strip()


def main(script, binary):
    with tempfile.TemporaryDirectory() as tmp:
        check_good_run(script, binary, tmp)
        check_wrong_count(script, binary, tmp)
        check_unbuildable_ellxor(script, binary, tmp)
    print("perft_anchors.py: 6 rows checked, the wrong count refused, an ellxor_perft that cannot be built left out")


if __name__ == "__main__":
    main(*sys.argv[1:])
