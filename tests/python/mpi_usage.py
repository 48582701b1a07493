"""Under mpirun, bad usage is said once: by rank 0, the other ranks ending with the same
exit code silently (every rank printed it, the lines interleaved). The line of our own
for more --threads than cores is said once too. An input file that only rank 0 can read
(the ranks started in different folders, as on separate machines: verify's EPD suite,
selfplay's book) is enough: rank 0 reads it and sends it to every rank (perft --epd runs
on rank 0 alone, its summary printed once); one that no rank can read is said once, by
rank 0.

usage: mpi_usage.py MPIEXEC CHESSHPC
"""
import os
import subprocess
import sys
import tempfile

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def on_two_ranks(mpiexec, binary, *args):
    cmd = [mpiexec, "-np", "2", "--oversubscribe", "--bind-to", "none", binary, *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=ENV)


def main(mpiexec, binary):
    failed = 0
    cases = [
        (["perft", "--depth", "lots"], 2,
         ["chesshpc: --depth must be a whole number from 1 to 20, not 'lots'", "see 'chesshpc perft --help'"]),
        (["selfplay", "--games", "2", "--nodes", "10", "--hash", "1K"], 2,
         ["chesshpc: --hash takes at least 1 MB, not '1K'", "see 'chesshpc selfplay --help'"]),
        (["frobnicate"], 2, ["chesshpc: unknown command 'frobnicate'"]),
    ]
    for args, code, said in cases:
        r = on_two_ranks(mpiexec, binary, *args)
        lines = r.stderr.splitlines()
        counts = [lines.count(line) for line in said]
        ok = r.returncode == code and counts == [1] * len(said)
        failed += not ok
        print(f"{' '.join(args)}: exit {r.returncode}, each line said {counts} times: {'ok' if ok else 'FAILED'}")
        if not ok:
            print(r.stderr)
    r = on_two_ranks(mpiexec, binary, "perft", "--depth", "3", "--split-depth", "1", "--threads", "4096", "--quiet")
    notes = [l for l in r.stderr.splitlines() if "--threads 4096 is more than the" in l]
    ok = r.returncode == 0 and len(notes) == 1 and "nodes 8902 in" in r.stdout
    failed += not ok
    print(f"--threads 4096 on 2 ranks: exit {r.returncode}, {len(notes)} note(s): {'ok' if ok else 'FAILED'}")
    with tempfile.TemporaryDirectory() as tmp:
        here, there = os.path.join(tmp, "rank0"), os.path.join(tmp, "rank1")
        os.mkdir(here), os.mkdir(there)
        with open(os.path.join(here, "suite.epd"), "w") as f:
            f.write("4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15\n")
        with open(os.path.join(here, "book.epd"), "w") as f:
            f.write("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n")

        def in_two_folders(*args):
            cmd = [mpiexec, "--oversubscribe", "--bind-to", "none", "-np", "1", "--wdir", here, binary, *args, ":",
                   "-np", "1", "--wdir", there, binary, *args]
            return subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=ENV)

        # Input files are read by rank 0 and sent to every rank: a file only rank 0 can
        # read is enough.
        r = in_two_folders("verify", "--engine", "/usr/games/stockfish", "--epd", "suite.epd", "--quiet")
        ok = r.returncode == 0 and "verify: 1 position, 15 nodes, 0 faults" in r.stdout
        failed += not ok
        print(f"verify of an EPD suite only rank 0 reads: exit {r.returncode}, {r.stdout.splitlines()[-1:]}: "
              f"{'ok' if ok else 'FAILED'}")
        if not ok:
            print(r.stdout, r.stderr)
        r = in_two_folders("perft", "--epd", "suite.epd", "--quiet")
        summary = [l for l in r.stdout.splitlines() if l.startswith("suite.epd: ")]
        ok = r.returncode == 0 and len(summary) == 1 and "1 count checked, 0 mismatches" in summary[0]
        failed += not ok
        print(f"perft --epd, a suite only rank 0 reads: exit {r.returncode}, {summary}: {'ok' if ok else 'FAILED'}")
        if not ok:
            print(r.stdout, r.stderr)
        r = in_two_folders("selfplay", "--games", "2", "--nodes", "10", "--book", "book.epd", "--threads", "1",
                           "--json", "--quiet")
        ok = r.returncode == 0 and '"games":2' in r.stdout.replace(" ", "") and '"ranks":2' in r.stdout.replace(" ", "")
        failed += not ok
        print(f"selfplay from a book only rank 0 reads: exit {r.returncode}: {'ok' if ok else 'FAILED'}")
        if not ok:
            print(r.stdout, r.stderr)
        # A file no rank can read: rank 0 says so, once.
        r = in_two_folders("verify", "--engine", "/usr/games/stockfish", "--epd", "none.epd", "--quiet")
        line = "chesshpc verify: cannot read 'none.epd': No such file or directory\n"
        ok = r.returncode == 4 and r.stderr.startswith(line) and r.stderr.count("chesshpc") == 1
        failed += not ok
        print(f"an EPD suite no rank reads: exit {r.returncode}, {r.stderr!r}: {'ok' if ok else 'FAILED'}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
