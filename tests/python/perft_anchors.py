"""bench/perft_anchors.py against stand-in anchors: shell scripts this test writes, each
printing its anchor's output format with the published count at --lower 4 and a fixed time.
Asserts the table's rows (the anchors' G nodes/s exactly, chesshpc's ratios as the JSON's),
the JSON's fields, a missing anchor's note and --require-all's exit 2, exit 1 with the
exact line when an anchor counts one node too many, an ellxor_perft that cannot be
cloned (from a path that does not exist) named in one line and left out, and --deep's runs
and table of targets.

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
        elif header and not line.startswith("|"):
            break  # the table of targets follows
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
    assert sorted(record) == ["chesshpc", "chesshpc_native", "cpu", "cpu_model", "deep", "load_average", "lower",
                              "missing", "positions", "programs", "quick", "runs", "targets"], sorted(record)
    assert record["deep"] == [], record["deep"]
    # The stand-ins' times are a million times chesshpc's: no ratio target is met.
    least = {name: min(p["ratios"][name] for p in record["positions"]) for name in ratio_names}
    assert record["targets"] == [
        {"target": "one core, portable: at least 1.15x perft_cpu_2026 on each position",
         "measured": f"least {least['portable / perft_cpu_2026']:.2f}x", "met": False},
        {"target": "one core, portable: at least 1.30x ellxor_perft on each position",
         "measured": f"least {least['portable / ellxor_perft']:.2f}x", "met": False},
        {"target": "one core, native: at least 1.15x perft_cpu_2026 on each position",
         "measured": f"least {least['native / perft_cpu_2026']:.2f}x", "met": False},
        {"target": "one core, native: at least 1.30x ellxor_perft on each position",
         "measured": f"least {least['native / ellxor_perft']:.2f}x", "met": False},
        {"target": "one core: portable at least 0.95x native on each position",
         "measured": f"least {least['portable / native']:.2f}x", "met": least["portable / native"] >= 0.95},
    ], record["targets"]
    assert r.stdout.splitlines()[-1] == f"targets not met: {4 + (least['portable / native'] < 0.95)} of 5", r.stdout
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


def check_deep(script, binary, tmp):
    """--deep at --deep-lower 6: perft(4) on 1 x 2 and on 2 ranks (mpirun for real), perft(3)
    against the stand-in perft_cpu_2026; the runs' table, the targets (the stand-ins' one-core
    times make chesshpc miss the ratio targets; perft(3)'s 1e-6 s makes it miss the deep ratio)
    and the JSON; a launcher that fails, or hangs past --timeout, is one line and exit 2."""
    anchors = os.path.join(tmp, "deep")
    os.mkdir(anchors)
    for name in PRINT:
        stand_in(anchors, name)
    out = os.path.join(tmp, "deep.json")
    r = run(script, anchors, binary, "--lower", "4", "--runs", "1", "--deep", "--deep-lower", "6", "--json", out)
    assert r.returncode == 0, r.stdout + r.stderr
    deep_progress = [line for line in r.stderr.splitlines() if line.startswith("[deep ")]
    assert len(deep_progress) == 8 and deep_progress[0].startswith("[deep 1/4] perft 1 x 2, perft(4): "), r.stderr
    with open(out) as f:
        record = json.load(f)
    deep = record["deep"]
    assert [(d["label"], d["depth"], d["nodes"]) for d in deep] == [
        ("perft 1 x 2", 4, 197281), ("perft 2 ranks x 1", 4, 197281), ("perft 1 x 2", 3, 8902),
        ("perft_cpu_2026", 3, 8902)], deep
    assert deep[0]["command"][-6:] == ["--depth", "4", "--threads", "2", "--hash", "8G"], deep[0]
    assert deep[1]["command"][:5] == ["mpirun", "-n", "2", "--bind-to", "none"], deep[1]
    assert deep[1]["command"][-8:] == ["--depth", "4", "--threads", "1", "--dedup-ply", "auto", "--memory",
                                       "8G"], deep[1]
    assert deep[3]["command"][-5:] == ["3", "-mt", "2", "-htt", "8192"] and deep[3]["own_seconds"] == 1e-6, deep[3]
    assert all(d["wall_seconds"] >= d["own_seconds"] > 0 for d in deep[:3]), deep
    lines = r.stdout.splitlines()
    rows = [line for line in lines if line.startswith("| perft") and line.split(" | ")[1].isdigit()]
    assert [row.split(" | ")[:2] for row in rows] == [["| perft 1 x 2", "4"], ["| perft 2 ranks x 1", "4"],
                                                      ["| perft 1 x 2", "3"], ["| perft_cpu_2026", "3"]], rows
    one, ranks = deep[0], deep[1]
    expected = [
        ("one core, portable: at least 1.15x perft_cpu_2026 on each position", False),
        ("one core, portable: at least 1.30x ellxor_perft on each position", False),
        ("perft(4) on 1 x 2 threads within 360 s", True),
        ("perft(4) 1 x 2 in at most 20 GB", True),
        ("perft(4) on 2 ranks x 1 thread within 1.10x 1 x 2", ranks["wall_seconds"] / one["wall_seconds"] <= 1.1),
        ("perft(3) on 2 threads at least 2.5x perft_cpu_2026 -mt 2 -htt 8192 (its depth 3 alone)", False)]
    assert [(t["target"], t["met"]) for t in record["targets"]] == expected, record["targets"]
    assert record["targets"][2]["measured"] == f"{one['wall_seconds']:.1f} s", record["targets"][2]
    for t in record["targets"]:
        assert f"| {t['target']} | {t['measured']} | {'yes' if t['met'] else '**no**'} |" in lines, (t, r.stdout)
    misses = sum(not ok for _, ok in expected)
    assert lines[-1] == f"targets not met: {misses} of 6", lines[-1]

    r = run(script, anchors, binary, "--lower", "4", "--runs", "1", "--deep", "--deep-lower", "6", "--quiet",
            "--mpirun", "false")
    # The one-core table, measured before the deep runs, is printed before them: kept.
    assert r.returncode == 2 and set(table(r.stdout)[1]) == {p[1] for p in POSITIONS}, r
    assert "| target |" not in r.stdout, r.stdout
    assert r.stderr.startswith(f"{PROG}: perft 2 ranks x 1 perft(4) exited 1: ") and r.stderr.count("\n") == 1, \
        r.stderr
    hang = os.path.join(tmp, "hang")
    with open(hang, "w") as f:
        f.write("#!/bin/sh\nexec sleep 60\n")
    os.chmod(hang, 0o755)
    r = run(script, anchors, binary, "--lower", "4", "--runs", "1", "--deep", "--deep-lower", "6", "--quiet",
            "--mpirun", hang, "--timeout", "2")
    assert r.returncode == 2 and "| target |" not in r.stdout, r
    assert r.stderr == f"{PROG}: perft 2 ranks x 1 perft(4) did not finish within 2 s: stopped (--timeout)\n", r.stderr
    r = run(script, anchors, binary, "--deep-lower", "1")
    assert (r.returncode, r.stderr) == (2, f"{PROG}: --deep-lower without --deep\n"), r


def chesshpc_version(binary):
    return subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.strip()


def main(script, binary):
    with tempfile.TemporaryDirectory() as tmp:
        check_good_run(script, binary, tmp)
        check_wrong_count(script, binary, tmp)
        check_unbuildable_ellxor(script, binary, tmp)
        check_deep(script, binary, tmp)
    print("perft_anchors.py: 6 rows checked, the wrong count refused, an ellxor_perft that cannot be built left out, "
          "the deep runs and the targets")


if __name__ == "__main__":
    main(*sys.argv[1:])
