"""A verify result file as an h5py user meets it, and its section of chesshpc-report: a
broken engine (no en passant in check) checked on two positions, the second pinned to
the exact position and move.

usage: read_verify.py CHESSHPC_BINARY VERIFY_ENGINE REPORT
"""
import json
import os
import subprocess
import sys
import tempfile

import h5py

EPD = """4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D2 66
7k/3p4/8/4P3/8/8/4K3/8 w - - 0 1 ;D5 19979
"""
FAULT_FEN = "8/6k1/8/3pP3/2K5/8/8/8 w - d6 0 3"


def main(binary, engine, report):
    with tempfile.TemporaryDirectory() as tmp:
        epd, out = os.path.join(tmp, "two.epd"), os.path.join(tmp, "verify.h5")
        with open(epd, "w") as f:
            f.write(EPD)
        run = subprocess.run([binary, "verify", "--engine", f"{engine} --fault no-ep-in-check", "--epd", epd, "--out",
                              out, "--quiet"], stdout=subprocess.PIPE, text=True)
        assert run.returncode == 1, run.returncode
        with h5py.File(out, "r") as f:
            assert f.attrs["job"] == "verify", f.attrs["job"]
            assert f.attrs["positions"] == 2 and f.attrs["faults"] == 1
            assert f.attrs["protocol"] == "uci"
            p = f["positions"]
            assert list(p["depth"][:]) == [2, 5], p["depth"][:]
            assert list(p["nodes"][:]) == [66, 19979], p["nodes"][:]
            assert list(p["engine_nodes"][:]) == [66, 19967], p["engine_nodes"][:]
            assert list(p["fault"].asstr()[:]) == ["none", "moves"]
            assert list(p["queries"][:]) == [1, 5]
            assert (p["engine_seconds"][:] >= 0).all()
            assert "description" in p["nodes"].attrs
            q = f["faults"]
            assert list(q["position"][:]) == [1]
            assert list(q["fen"].asstr()[:]) == [FAULT_FEN]
            assert list(q["path"].asstr()[:]) == ["e2d3 h8g7 d3c4 d7d5"]
            assert list(q["path_san"].asstr()[:]) == ["1. Kd3 Kg7 2. Kc4 d5+"]
            assert list(q["missing"].asstr()[:]) == ["e5d6 exd6"]
            assert list(q["illegal"].asstr()[:]) == [""]
            assert q["line"].asstr()[0] == run.stdout.splitlines()[0], (q["line"].asstr()[0], run.stdout)
        summary = json.loads(subprocess.run([report, "--json", out], check=True, stdout=subprocess.PIPE).stdout)
        s = summary["files"][0] if "files" in summary else summary
        text = json.dumps(s)
        assert '"by_kind": {"moves": 1}' in text, text
        assert FAULT_FEN in text, text
        markdown = subprocess.run([report, out], check=True, stdout=subprocess.PIPE, text=True).stdout
        assert "## verify: " in markdown and "1. Kd3 Kg7 2. Kc4 d5+" in markdown, markdown
    print("1 passed, 0 failed")


if __name__ == "__main__":
    main(*sys.argv[1:4])
