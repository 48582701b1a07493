"""A wrong count stops chesshpc bench: exit 1, the measurement named, no result file.

The wrong count comes from a stand-in for Stockfish that speaks enough UCI and answers
every `go perft` with 12345 nodes.

usage: bench_mismatch.py CHESSHPC
"""
import os
import stat
import subprocess
import sys
import tempfile

LIAR = """#!/bin/sh
while read -r command rest; do
  case "$command" in
    uci) echo "id name Liar"; echo uciok ;;
    isready) echo readyok ;;
    go) echo "Nodes searched: 12345" ;;
    quit) exit 0 ;;
  esac
done
"""


def main(binary):
    with tempfile.TemporaryDirectory() as tmp:
        engine, out = os.path.join(tmp, "liar"), os.path.join(tmp, "bench.h5")
        with open(engine, "w") as f:
            f.write(LIAR)
        os.chmod(engine, stat.S_IRWXU)
        run = subprocess.run([binary, "bench", "--suite", "quick", "--repeats", "1", "--stockfish", engine,
                              "--out", out, "--quiet"], capture_output=True, text=True, timeout=60)
        assert run.returncode == 1, (run.returncode, run.stderr)
        message = ("chesshpc bench: MISMATCH: stockfish_perft start depth 4 counted 12345 nodes; "
                   "the published count is 197281; no result file written\n")
        assert run.stderr == message, run.stderr
        assert run.stdout == "", run.stdout
        assert sorted(os.listdir(tmp)) == ["liar"], os.listdir(tmp)
    print("mismatch reported:", message.strip())


if __name__ == "__main__":
    main(sys.argv[1])
