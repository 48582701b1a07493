"""verify over MPI ranks: the same fault lines, summary and exit code in one process and on
2 and 3 ranks (units are positions, spread over the ranks' engines).

usage: mpi_verify.py MPIEXEC CHESSHPC VERIFY_ENGINE
"""
import os
import subprocess
import sys
import tempfile

EPD = """4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D2 66
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D3 8902
7k/3p4/8/4P3/8/8/4K3/8 w - - 0 1 ;D5 19979
r6k/8/8/1P6/8/8/8/4K3 w - - 0 1 ;D4 5000
4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D2 66
"""
FAULT = ('mismatch at "8/6k1/8/3pP3/2K5/8/8/8 w - d6 0 3" depth 1 (from "7k/3p4/8/4P3/8/8/4K3/8 w - - 0 1" after '
         'e2d3 h8g7 d3c4 d7d5, i.e. 1. Kd3 Kg7 2. Kc4 d5+): engine misses e5d6 (exd6)')


def summary_without_time(out):
    return [l.split(", engine ")[0] for l in out.splitlines()]


def main(mpiexec, binary, engine):
    with tempfile.TemporaryDirectory() as tmp:
        epd = os.path.join(tmp, "five.epd")
        with open(epd, "w") as f:
            f.write(EPD)
        verify = [binary, "verify", "--engine", f"{engine} --fault no-ep-in-check", "--epd", epd, "--quiet",
                  "--threads", "1"]
        one = subprocess.run(verify, capture_output=True, text=True, timeout=120)
        assert one.returncode == 1, (one.returncode, one.stderr)
        lines = summary_without_time(one.stdout)
        assert lines[0] == FAULT, lines
        assert lines[1].startswith("verify: 5 positions, ") and " 1 faults, " in lines[1], lines
        failed = 0
        for n in (2, 3):
            ranks = subprocess.run([mpiexec, "-np", str(n), "--oversubscribe", "--bind-to", "none"] + verify,
                                   capture_output=True, text=True, timeout=120)
            same = summary_without_time(ranks.stdout) == lines and ranks.returncode == 1
            if not same:
                failed += 1
                print(f"{n} ranks: exit {ranks.returncode}, {ranks.stdout!r} against {one.stdout!r}")
    print(f"{2 - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main(*sys.argv[1:4])
