"""cluster/slurm/perft.sbatch stops cleanly at Slurm's warning and its requeued piece finishes.

`srun` is a stand-in that runs the ranks with mpirun, `scancel` passes SIGTERM on to it
(as Slurm passes it to the ranks), and `scontrol` records what it was asked: fast, and the
only test of the deduplicated mode (slurm_cluster.py runs both templates on a real Slurm,
split into units). The script is run as Slurm would: once until SIGTERM
(the --signal warning), then again as the requeued job, which must resume and give the
published total without recounting the units the first piece kept: once split into
units (SPLIT), once deduplicated over the ranks (DEDUP, MEMORY), whose units are buckets.

usage: slurm_template.py MPIEXEC CHESSHPC SBATCH_SCRIPT
"""
import os
import signal
import stat
import subprocess
import sys
import tempfile

import h5py
from procs import units_done, wait_until_recorded

# Kiwipete: long enough (seconds) for mpirun, which passes SIGTERM on after about a second.
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
DEPTH, SPLIT, PUBLISHED = 6, 2, 8031647685

FAKE_SRUN = """#!/bin/bash
while [[ "$1" == --* ]]; do shift; done  # srun's own options
echo $$ > {pid}
exec {mpiexec} -np 2 --oversubscribe --bind-to none "$@"
"""
FAKE_SCANCEL = """#!/bin/bash
echo scancel "$@" >> {log}
kill -TERM "$(cat {pid})"
"""
FAKE_SCONTROL = """#!/bin/bash
echo "$@" >> {log}
"""


def write_tool(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)


# How each mode names its units in the file: the done count's attribute and the table.
MODES = {
    "split": ({"SPLIT": str(SPLIT), "HASH": "16M"}, "units_done", "units"),
    "dedup": ({"DEDUP": "3", "MEMORY": "64M"}, "buckets_done", "buckets"),
}


def two_pieces(mpiexec, binary, script, mode):
    settings, done_attr, table = MODES[mode]
    with tempfile.TemporaryDirectory() as tmp:
        bindir, out, log = os.path.join(tmp, "bin"), os.path.join(tmp, "perft.h5"), os.path.join(tmp, "scontrol.log")
        os.mkdir(bindir)
        pid = os.path.join(tmp, "srun.pid")
        write_tool(os.path.join(bindir, "srun"), FAKE_SRUN.format(mpiexec=mpiexec, pid=pid))
        write_tool(os.path.join(bindir, "scancel"), FAKE_SCANCEL.format(log=log, pid=pid))
        write_tool(os.path.join(bindir, "scontrol"), FAKE_SCONTROL.format(log=log))
        env = dict(os.environ, PATH=bindir + ":" + os.environ["PATH"], SLURM_JOB_ID="4242", SLURM_CPUS_PER_TASK="1",
                   FEN=KIWIPETE, DEPTH=str(DEPTH), OUT=out, CHESSHPC=binary, EXTRA_ARGS="--checkpoint 0.05",
                   OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", **settings)
        done = lambda: units_done(out, done_attr)

        first = subprocess.Popen(["bash", script], env=env, cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 text=True)
        wait_until_recorded(done, first, "the first piece", 120, output=first.stdout.read)
        first.send_signal(signal.SIGTERM)  # Slurm's --signal=B:TERM@300
        log1 = first.communicate(timeout=120)[0]
        assert first.returncode != 0, log1
        assert "stopped by SIGTERM" in log1 and "requeueing to continue" in log1, log1
        with open(log) as f:
            assert f.read().split() == ["scancel", "--signal=TERM", "4242", "requeue", "4242"]
        kept = done()
        assert kept >= 1

        second = subprocess.run(["bash", script], env=env, cwd=tmp, capture_output=True, text=True, timeout=600)
        assert second.returncode == 0, second.stdout + second.stderr
        assert "perft finished" in second.stdout, second.stdout
        with h5py.File(out, "r") as f:
            assert int(f.attrs["total"]) == PUBLISHED and int(f.attrs["runs"]) == 2
            assert "--resume" in f.attrs["command_line"]
            runs = f[f"{table}/run"][:]
            assert sum(1 for r in runs if r == 0) == kept and sum(1 for r in runs if r == 1) == len(runs) - kept
        print(f"{mode}: first piece kept {kept} {table} and asked for a requeue; the second finished: "
              f"total {PUBLISHED} ok")


def main(mpiexec, binary, script):
    for mode in MODES:
        two_pieces(mpiexec, binary, script, mode)


if __name__ == "__main__":
    main(sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3]))
