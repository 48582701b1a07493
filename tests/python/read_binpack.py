"""The chesshpc package's .binpack reader (analysis/chesshpc/binpack.py, written from the
format's published description, sharing no code with the C++ codec) on a file binpack_sample
wrote with the codec: every entry (FEN, move, score, ply, result) against the text written
beside it.

usage: read_binpack.py BINPACK_SAMPLE
"""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "analysis"))

from chesshpc.binpack import read_file  # noqa: E402


def main(sample):
    with tempfile.TemporaryDirectory() as tmp:
        binpack, text = os.path.join(tmp, "games.binpack"), os.path.join(tmp, "games.txt")
        subprocess.run([sample, "write", "40", "7", binpack, text], check=True, stdout=subprocess.DEVNULL)
        with open(binpack, "rb") as f:
            got = read_file(f.read())
        with open(text) as f:
            want = [tuple(line.rstrip("\n").split(";")) for line in f]
    assert len(got) == len(want) > 4000, (len(got), len(want))
    for i, (g, w) in enumerate(zip(got, want)):
        g = (g[0], g[1], str(g[2]), str(g[3]), str(g[4]))
        assert g == w, f"entry {i}: read {g}, written {w}"
    kinds = {"castling": sum(w[1] in ("e1g1", "e1c1", "e8g8", "e8c8") for w in want),
             "promotion": sum(len(w[1]) == 5 for w in want)}
    assert min(kinds.values()) > 20, kinds
    print(f"{len(got)} entries read as written; 1 passed, 0 failed")


if __name__ == "__main__":
    main(sys.argv[1])
