"""Fixtures of the chesshpc package's tests: result files made by the built binary in one
temporary directory per session. CHESSHPC names the binary; the package is found through
PYTHONPATH (the source tree's analysis/ or an installed prefix's share/chesshpc/analysis)."""
import json
import os
import subprocess

import pytest

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def run(*args):
    r = subprocess.run([os.environ["CHESSHPC"], *map(str, args)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, (args, r.returncode, r.stderr)
    return r.stdout


@pytest.fixture(scope="session")
def data(tmp_path_factory):
    """The files every test reads: their paths by name."""
    d = tmp_path_factory.mktemp("chesshpc")
    files = {name: str(d / name) for name in ("sp.h5", "sp960.h5", "perft.h5", "dedup.h5", "ds.h5", "verify.h5",
                                              "bench.h5")}
    run("selfplay", "--games", 12, "--nodes", 300, "--random-plies", 4, "--seed", 3, "--max-plies", 160,
        "--threads", 1, "--out", files["sp.h5"], "--quiet")
    run("selfplay", "--games", 4, "--nodes", 200, "--variant", "chess960", "--seed", 5, "--max-plies", 100,
        "--threads", 1, "--out", files["sp960.h5"], "--quiet")
    files["perft.json"] = json.loads(run("perft", "--depth", 4, "--split-depth", 1, "--threads", 1, "--out",
                                         files["perft.h5"], "--json", "--quiet"))
    files["dedup.json"] = json.loads(run("perft", "--fen", KIWIPETE, "--depth", 3, "--dedup-ply", 2, "--threads", 1,
                                         "--out", files["dedup.h5"], "--json", "--quiet"))
    pgn = str(d / "sp.pgn")
    run("export", "--format", "pgn", files["sp.h5"], "--out", pgn)
    run("drawstats", pgn, "--out", files["ds.h5"], "--threads", 1, "--quiet")
    run("verify", "--engine", f"{os.environ['CHESSHPC']} uci", "--fen", "startpos", "--depth", 2, "--out",
        files["verify.h5"], "--quiet")
    run("bench", "--suite", "quick", "--repeats", 1, "--threads", 1, "--out", files["bench.h5"], "--quiet")
    files["dir"] = str(d)
    return files
