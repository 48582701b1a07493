"""verify over MPI ranks: the same fault lines, summary and exit code in one process and on
2 and 3 ranks (units are positions, spread over the ranks' engines), for a wrong move list
and for counts the engine contradicts one ply down (each fault's counts carried to rank 0).

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


# Every subtree 2 plies deep one node too many: each position's first fault line.
INCONSISTENT = ('inconsistent counts at "4k3/8/8/8/8/8/8/3K3R b - - 1 1" depth 1 (from "4k3/8/8/8/8/8/8/4K2R w K - '
                '0 1" after e1d1, i.e. 1. Kd1): engine\'s total 5 is not the 6 it gave for e1d1 at depth 2')


def main(mpiexec, binary, engine):
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        epd = os.path.join(tmp, "five.epd")
        with open(epd, "w") as f:
            f.write(EPD)
        for fault, first, faults in (("no-ep-in-check", FAULT, 1), ("lie-at-depth-2", INCONSISTENT, 5)):
            verify = [binary, "verify", "--engine", f"{engine} --fault {fault}", "--epd", epd, "--quiet",
                      "--threads", "1"]
            one = subprocess.run(verify, capture_output=True, text=True, timeout=120)
            assert one.returncode == 1, (one.returncode, one.stderr)
            lines = summary_without_time(one.stdout)
            assert lines[0] == first, lines
            assert lines[faults].startswith("verify: 5 positions, ") and f" {faults} fault{'' if faults == 1 else 's'}, " in lines[faults], lines
            for n in (2, 3):
                ranks = subprocess.run([mpiexec, "-np", str(n), "--oversubscribe", "--bind-to", "none"] + verify,
                                       capture_output=True, text=True, timeout=120)
                same = summary_without_time(ranks.stdout) == lines and ranks.returncode == 1
                if not same:
                    failed += 1
                    print(f"{fault}, {n} ranks: exit {ranks.returncode}, {ranks.stdout!r} against {one.stdout!r}")
    print(f"{4 - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main(*sys.argv[1:4])
