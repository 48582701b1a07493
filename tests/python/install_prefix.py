"""cmake --install into a temporary prefix: both commands run from there, away from the
source tree and the build.

P/bin holds exactly chesshpc and chesshpc-report; chesshpc prints perft 3 of the start
position (8,902) and the project's version; chesshpc-report, started from P/bin with the
working directory elsewhere, reports a perft file written by the installed chesshpc (its
total verified) with the Python package installed under P/share/chesshpc; the package
chesshpc, found with docs/python.md's one line (PYTHONPATH=P/share/chesshpc/analysis), opens
that file from the prefix and reads the same total.

usage: install_prefix.py CMAKE BUILD_DIR VERSION
"""
import json
import os
import subprocess
import sys
import tempfile


def run(*cmd, cwd):
    r = subprocess.run(list(cmd), capture_output=True, text=True, timeout=120, cwd=cwd)
    assert r.returncode == 0, f"{cmd}: exit {r.returncode}: {r.stderr}"
    return r.stdout


def main(cmake, build, version):
    with tempfile.TemporaryDirectory() as tmp:
        prefix, work = os.path.join(tmp, "prefix"), os.path.join(tmp, "work")
        os.mkdir(work)
        run(cmake, "--install", build, "--prefix", prefix, cwd=tmp)
        bindir = os.path.join(prefix, "bin")
        assert sorted(os.listdir(bindir)) == ["chesshpc", "chesshpc-report"], os.listdir(bindir)
        report_py = os.path.join(prefix, "share", "chesshpc", "analysis", "chesshpc_report", "report.py")
        assert os.path.isfile(report_py), report_py
        chesshpc, report = os.path.join(bindir, "chesshpc"), os.path.join(bindir, "chesshpc-report")

        out = run(chesshpc, "perft", "--fen", "startpos", "--depth", "3", cwd=work)
        assert "\nnodes 8902 in " in "\n" + out, out
        out = run(chesshpc, "--version", cwd=work)
        assert out.startswith(f"chesshpc {version} ("), out

        run(chesshpc, "perft", "--depth", "3", "--split-depth", "1", "--out", "perft3.h5", "--quiet", cwd=work)
        files = json.loads(run(report, "perft3.h5", "--json", cwd=work))["files"]
        assert len(files) == 1, files
        s = files[0]
        assert (s["job"], s["complete"], s["total"], s["verification"]) == ("perft", True, 8902, "verified"), s
        assert sorted(os.listdir(work)) == ["perft3.h5"], os.listdir(work)

        python_path = os.path.join(prefix, "share", "chesshpc", "analysis")
        probe = "import chesshpc; f = chesshpc.open('perft3.h5'); print(f.job, f.total, chesshpc.__file__)"
        r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, cwd=work,
                           env={**os.environ, "PYTHONPATH": python_path})
        assert r.returncode == 0, r.stderr
        job, total, where = r.stdout.split()
        assert (job, total) == ("perft", "8902") and where.startswith(python_path), r.stdout
    print("installed chesshpc and chesshpc-report ran from the prefix")


if __name__ == "__main__":
    main(*sys.argv[1:])
