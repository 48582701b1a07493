"""How the Slurm templates submit themselves, and selfplay.sbatch's array form, without Slurm.

`bash TEMPLATE [SBATCH_OPTIONS]` outside a job submits the template with the resources of
its settings: a stand-in `sbatch` records its arguments and the environment the job would
get. Then one task of an array and the merge job after the array run as Slurm would run
them (SLURM_JOB_ID, SLURM_ARRAY_TASK_ID; `srun` a stand-in that runs chesshpc in one
process): each task plays the batch of its seed, the same games as selfplay run by hand,
and the merge job writes the batches' exports one after another, in task order.

usage: slurm_submit.py CHESSHPC PERFT_SBATCH SELFPLAY_SBATCH
"""
import json
import os
import stat
import subprocess
import sys
import tempfile

import h5py

FAKE_SBATCH = """#!/bin/bash
# One JSON line per call: the arguments and the settings the job would read.
python3 -c 'import json, os, sys; print(json.dumps({{"args": sys.argv[1:], "env": {{k: os.environ.get(k) for k in
  ("EXTRA_ARGS", "SELFPLAY_MERGE_TASKS")}}}}))' "$@" >> {log}
echo "$((4200 + $(wc -l < {log})));cluster"
"""
FAKE_SRUN = """#!/bin/bash
while [[ "$1" == --* ]]; do shift; done  # srun's own options
exec "$@"
"""
COMMA_ARGS = "--uci-options Threads=1,Hash=16"
GAMES, LIMIT, SEED = 4, "--nodes 300", 3


def write_tool(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)


def calls(log):
    with open(log) as f:
        return [json.loads(line) for line in f]


def submitted(tmp, script, settings, *options):
    """The sbatch calls `bash script options` makes with settings in its environment."""
    log = os.path.join(tmp, "sbatch.log")
    if os.path.exists(log):
        os.remove(log)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLURM_")}
    env.update(PATH=os.path.join(tmp, "bin") + ":" + os.environ["PATH"], **settings)
    r = subprocess.run(["bash", script, *options], env=env, cwd=tmp, capture_output=True, text=True, timeout=60)
    return r, (calls(log) if os.path.exists(log) else [])


def check_submission(tmp, perft, selfplay):
    defaults = ["--parsable", "--export=ALL", "--time=12:00:00", "--nodes=4", "--ntasks-per-node=1",
                "--cpus-per-task=32"]
    r, sent = submitted(tmp, perft, {"PARTITION": "", "ACCOUNT": ""})
    assert r.returncode == 0 and r.stdout == "Submitted batch job 4201\n", (r.returncode, r.stdout, r.stderr)
    assert [c["args"] for c in sent] == [defaults + [perft]], sent

    # Every resource as a setting; options after the script go to sbatch last; a comma
    # reaches the job whole, through the environment.
    r, sent = submitted(tmp, selfplay, {"PARTITION": "cpu", "ACCOUNT": "chess", "TIME_LIMIT": "2:00:00",
                                        "MEM_PER_NODE": "64G", "NODES": "2", "TASKS_PER_NODE": "4",
                                        "CPUS_PER_TASK": "8", "EXTRA_ARGS": COMMA_ARGS}, "--qos=long")
    assert r.returncode == 0, r.stderr
    assert sent == [{"args": ["--parsable", "--export=ALL", "--time=2:00:00", "--nodes=2", "--ntasks-per-node=4",
                              "--cpus-per-task=8", "--partition=cpu", "--account=chess", "--mem=64G", "--qos=long",
                              selfplay],
                     "env": {"EXTRA_ARGS": COMMA_ARGS, "SELFPLAY_MERGE_TASKS": None}}], sent

    # An array and the merge job after it, named by the array's job id, with its task ids.
    r, sent = submitted(tmp, selfplay, {"ARRAY": "1-3,7,10-20:5%2", "MERGE": "plain"})
    assert r.returncode == 0 and r.stdout == "Submitted batch job 4201\nSubmitted batch job 4202\n", r
    assert sent[0]["args"] == defaults + ["--array=1-3,7,10-20:5%2", selfplay], sent
    assert sent[1]["args"] == ["--parsable", "--export=ALL", "--dependency=afterok:4201",
                               "--job-name=chesshpc-selfplay-merge", "--output=chesshpc-selfplay-merge-%j.log",
                               "--time=12:00:00", "--nodes=1", "--ntasks=1", "--cpus-per-task=1", selfplay], sent
    assert sent[1]["env"]["SELFPLAY_MERGE_TASKS"] == "1 2 3 7 10 15 20 ", sent

    r, sent = submitted(tmp, selfplay, {"ARRAY": "0-1", "OUT": "one.h5"})
    assert (r.returncode, r.stdout, sent) == (2, "", []), r
    assert r.stderr == ("selfplay.sbatch: OUT names one file, and each task of ARRAY writes its own: "
                        "leave OUT unset\n"), r.stderr
    r, sent = submitted(tmp, selfplay, {"MERGE": "binpack"})
    assert (r.returncode, r.stdout, sent) == (2, "", []), r
    assert r.stderr == "selfplay.sbatch: MERGE merges the batches of an ARRAY: set ARRAY too\n", r.stderr


def run_job(tmp, script, binary, **env):
    full = {k: v for k, v in os.environ.items() if not k.startswith("SLURM_")}
    full.update(PATH=os.path.join(tmp, "bin") + ":" + os.environ["PATH"], SLURM_CPUS_PER_TASK="1", GAMES=str(GAMES),
                LIMIT=LIMIT, SEED=str(SEED), CHESSHPC=binary, **env)
    r = subprocess.run(["bash", script], env=full, cwd=tmp, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout


def games(path):
    with h5py.File(path, "r") as f:
        return int(f.attrs["seed"]), list(f["games/moves"].asstr()[:])


def check_array(tmp, selfplay, binary):
    for task, job in (("0", "5001"), ("2", "5003")):
        out = run_job(tmp, selfplay, binary, SLURM_JOB_ID=job, SLURM_ARRAY_TASK_ID=task)
        assert f"selfplay finished: {tmp}/selfplay-s{SEED + int(task)}.h5" in out, out
    by_hand = os.path.join(tmp, "by-hand.h5")
    subprocess.run([binary, "selfplay", "--games", str(GAMES), *LIMIT.split(), "--seed", str(SEED + 2), "--threads",
                    "1", "--out", by_hand, "--quiet"], check=True, capture_output=True, timeout=120)
    assert games(os.path.join(tmp, f"selfplay-s{SEED + 2}.h5")) == games(by_hand)
    assert games(os.path.join(tmp, f"selfplay-s{SEED}.h5"))[1] != games(by_hand)[1]

    out = run_job(tmp, selfplay, binary, SLURM_JOB_ID="5004", ARRAY="0,2", MERGE="plain",
                  SELFPLAY_MERGE_TASKS="0 2 ")
    merged = os.path.join(tmp, f"selfplay-s{SEED}-merged.plain")
    assert f"selfplay merged: 2 batches into {merged}" in out, out
    exports = [subprocess.run([binary, "export", "--format", "plain", os.path.join(tmp, f"selfplay-s{s}.h5")],
                              check=True, capture_output=True, timeout=60).stdout for s in (SEED, SEED + 2)]
    with open(merged, "rb") as f:
        assert f.read() == exports[0] + exports[1]
    assert not os.path.exists(merged + ".partial")
    print(f"array: tasks 0 and 2 played seeds {SEED} and {SEED + 2} ({GAMES} games each, seed {SEED + 2}'s as by "
          f"hand); merged {len(exports[0]) + len(exports[1])} bytes of plain in task order")


def main(binary, perft, selfplay):
    with tempfile.TemporaryDirectory() as tmp:
        os.mkdir(os.path.join(tmp, "bin"))
        write_tool(os.path.join(tmp, "bin", "sbatch"), FAKE_SBATCH.format(log=os.path.join(tmp, "sbatch.log")))
        write_tool(os.path.join(tmp, "bin", "srun"), FAKE_SRUN)
        check_submission(tmp, perft, selfplay)
        print("submission: resources from the settings, empty ones not passed, a comma kept whole")
        check_array(tmp, selfplay, binary)


if __name__ == "__main__":
    main(os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3]))
