"""The task farm gives one total and one divide whatever the number of ranks.

Runs `chesshpc perft --split-depth` in one process without mpirun, then under mpirun with
1, 2, 3 and 4 ranks (oversubscribed), and compares every divide with a plain one-process
perft and every total with the published count.

usage: mpi_ranks.py MPIEXEC CHESSHPC
"""
import json
import os
import socket
import subprocess
import sys
import tempfile

import h5py

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
DEPTH, PUBLISHED = 4, 4085603


def run(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=300).stdout
    lines = [l for l in out.splitlines() if l.strip()]
    assert len(lines) == 1, f"expected one JSON line from {cmd}, got {out!r}"
    return json.loads(lines[0])


def main(mpiexec, binary):
    perft = [binary, "perft", "--fen", KIWIPETE, "--depth", str(DEPTH), "--divide", "--json", "--quiet", "--threads", "1"]
    reference = run(perft)
    assert reference["nodes"] == PUBLISHED, reference["nodes"]
    runs = {"singleton": run(perft + ["--split-depth", "2"])}
    for n in (1, 2, 3, 4):
        runs[f"{n} ranks"] = run([mpiexec, "-np", str(n), "--oversubscribe", "--bind-to", "none"] + perft + ["--split-depth", "2"])
    # The 2-rank run again, with its result file read back as a user would.
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "perft.h5")
        run([mpiexec, "-np", "2", "--oversubscribe", "--bind-to", "none"] + perft + ["--split-depth", "2", "--out", out])
        with h5py.File(out, "r") as f:
            units = f["units"]
            total = sum(int(m) * int(n) for m, n in zip(units["multiplicity"][:], units["nodes"][:]))
            runs["2 ranks, file"] = {
                "ranks": int(f.attrs["ranks"]), "units": len(units["fen"]),
                "nodes": int(f.attrs["total"]) if total == int(f.attrs["total"]) else -1,
                "divide": dict(zip(f["divide/move"].asstr()[:], (int(x) for x in f["divide/nodes"].asstr()[:]))),
            }
            assert set(units["rank"][:]) <= {0, 1} and len(f["ranks/busy_seconds"]) == 2
            assert list(f["ranks/host"].asstr()[:]) == [socket.gethostname()] * 2 and f.attrs["hosts"] == socket.gethostname()
    failed = 0
    for name, r in runs.items():
        ok = r["nodes"] == PUBLISHED and r["divide"] == reference["divide"] and r["units"] == 2038
        print(f"{name}: ranks={r['ranks']} units={r['units']} nodes={r['nodes']} {'ok' if ok else 'MISMATCH'}")
        failed += not ok
    print(f"{len(runs) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
