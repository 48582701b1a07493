"""A drawstats result file as an h5py user meets it: plain arrays, str text, bool flags.

usage: read_drawstats.py CHESSHPC_BINARY
"""
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

CORPUS = """[Event "a"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1

[Event "b"]
[Result "1/2-1/2"]

1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 1/2-1/2
"""


def main(binary):
    with tempfile.TemporaryDirectory() as tmp:
        pgn, out = os.path.join(tmp, "games.pgn"), os.path.join(tmp, "stats.h5")
        with open(pgn, "w") as f:
            f.write(CORPUS)
        subprocess.run([binary, "drawstats", pgn, "--out", out, "--quiet"], check=True, stdout=subprocess.DEVNULL)
        with h5py.File(out, "r") as f:
            assert f.attrs["ruleset"] == "fide", f.attrs["ruleset"]
            assert isinstance(f.attrs["README"], str)
            assert f.attrs["games"] == 2
            games = f["games"]
            assert list(games["plies"][:]) == [4, 16], games["plies"][:]
            assert list(games["termination"].asstr()[:]) == ["checkmate", "threefold_repetition"]
            assert games["perpetual_check"].dtype == np.bool_, games["perpetual_check"].dtype
            assert list(games["first_fire_fivefold_repetition"][:]) == [-1, 16]
            rules = f["rules"]
            names = list(rules["name"].asstr()[:])
            assert names[0] == "checkmate" and len(names) == 10, names
            assert np.isnan(rules["first_fire_median"][names.index("stalemate")])
            assert rules["ended"][names.index("threefold_repetition")] == 1
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main(sys.argv[1])
