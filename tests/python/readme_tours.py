"""The README's tours run as written: every ```sh block between <!-- tour --> and
<!-- /tour -->, in order, as one bash -euo pipefail script (as .ci/run runs the test
command), from a folder that looks like the repository's root (data, cluster, analysis
and build linked in) so that nothing lands in the source tree. `sbatch` is a stand-in
that records what it is asked; everything else is the real command.

usage: readme_tours.py SOURCE_DIR BUILD_DIR
"""
import json
import os
import re
import stat
import subprocess
import sys
import tempfile

import h5py

FAKE_SBATCH = """#!/bin/bash
/usr/bin/python3 -c 'import json, sys; print(json.dumps(sys.argv[1:]))' "$@" >> "$SBATCH_LOG"
echo "$((100 + $(wc -l < "$SBATCH_LOG")))"
"""


def tour_commands(readme):
    with open(readme) as f:
        text = f.read()
    tours = re.findall(r"^<!-- tour -->\n(.*?)^<!-- /tour -->$", text, re.M | re.S)
    assert len(tours) == 1, "one tour section"
    blocks = re.findall(r"^```sh\n(.*?)^```$", tours[0], re.M | re.S)
    assert len(blocks) >= 6, blocks
    return "".join(blocks)


def main(source, build):
    script = tour_commands(os.path.join(source, "README.md"))
    with tempfile.TemporaryDirectory() as root:
        for name in ("data", "cluster", "analysis"):
            os.symlink(os.path.join(source, name), os.path.join(root, name))
        os.symlink(build, os.path.join(root, "build"))
        bindir, log = os.path.join(root, "fake-bin"), os.path.join(root, "sbatch.log")
        os.mkdir(bindir)
        with open(os.path.join(bindir, "sbatch"), "w") as f:
            f.write(FAKE_SBATCH)
        os.chmod(os.path.join(bindir, "sbatch"), stat.S_IRWXU)
        env = {k: v for k, v in os.environ.items() if not k.startswith("SLURM_")}
        env.update(PATH=bindir + ":" + os.environ["PATH"], SBATCH_LOG=log)
        r = subprocess.run(["bash", "-euo", "pipefail", "-c", script], cwd=root, env=env, capture_output=True,
                           text=True, timeout=300)
        assert r.returncode == 0, f"exit {r.returncode}\n{r.stdout}\n{r.stderr}"
        out = r.stdout

        # What each tour shows, by its real values.
        assert "nodes 4865609 in" in out, out
        assert len(re.findall(r"^verify: .*, 0 faults,", out, re.M)) == 4, out
        assert "data/perftsuite.epd" not in r.stderr, r.stderr
        assert re.search(r"^h7h5 30\n\n600$", out, re.M), out
        with h5py.File(os.path.join(root, "games.h5"), "r") as f:
            assert len(f["games/game"]) == 32 and int(f.attrs["seed"]) == 11
            positions = len(f["positions/fen"])
        assert re.search(rf"^{positions} rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ", out, re.M), out
        with open(os.path.join(root, "games.binpack"), "rb") as f:
            assert f.read(4) == b"BINP"
        with open(os.path.join(root, "games.pgn")) as f:
            assert f.read().count('[Event "chesshpc selfplay"]') == 32
        assert os.path.getsize(os.path.join(root, "games.html")) > 10000
        assert "H1 after" in out, out
        with h5py.File(os.path.join(root, "perft6.h5"), "r") as f:
            assert int(f.attrs["total"]) == 119060324 and int(f.attrs["ranks"]) == 2
        assert "total 119,060,324, verified against the published count" in out, out
        with open(log) as f:
            sent = [json.loads(line) for line in f]
        assert [s[-1] for s in sent] == ["cluster/slurm/perft.sbatch"] + ["cluster/slurm/selfplay.sbatch"] * 2, sent
        assert "--partition=cpu" in sent[0] and "--time=24:00:00" in sent[0] and "--nodes=8" in sent[0], sent
        assert "--array=0-99" in sent[1] and "--dependency=afterok:102" in sent[2], sent
        with h5py.File(os.path.join(root, "bench.h5"), "r") as f:
            assert f.attrs["suite"] == "quick", dict(f.attrs)
    print(f"the README's tours ran as written: {script.count(chr(10))} commands")


if __name__ == "__main__":
    main(os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]))
