"""cluster/slurm/perft.sbatch and selfplay.sbatch (a batch, and an array of batches with their
merge) on a real Slurm, submitted as cluster users do.

The test starts a one-node cluster on localhost from Debian 12's slurm-wlm (22.05) and munge,
everything in a temporary folder: munged with a key made here, slurmctld and slurmd in the
foreground, and a slurm.conf with the machine's CPUs and memory (slurmd -C), no cgroup
(proctrack/linuxproc, task/none), select/cons_tres, MpiDefault=pmix (Open MPI's ranks under
srun), the partition's cores shared by two jobs so that both templates run at once, a
requeued job eligible again after 10 s instead of 120 (cred_expire), ranks left over after
rank 0 stopped ended within 5 s (KillWait, 30 s by default), and a finished job's record kept
for an hour (MinJobAge, 300 s by default: the array's jobs end minutes before the others). Every daemon it started, and
every process of its jobs, is ended at the end, also when an assertion fails.

Both templates are submitted unchanged, as `bash TEMPLATE --signal=B:TERM@20` with their
settings in the environment (TIME_LIMIT=1, NODES, TASKS_PER_NODE, CPUS_PER_TASK): a
one-minute time limit and the warning 20 s before it; slurmctld checks time limits every 30 s, so
the warning comes 10 to 40 s into each piece. Each job needs longer than that (90 to 110 s
of a core: about 50 s on 2 cores alone, longer together), so it is stopped at least once:
chesshpc keeps what it finished and exits 5, the script requeues the job, and the next
piece resumes, until the job completes:

- perft: Kiwipete to depth 7 split at ply 2 on 2 ranks of 1 core (srun's MPI ranks, not
  singletons): the total is the published count, every piece is one run of the file, and
  the units the first piece kept are not counted again;
- selfplay: 80 games of up to 30 plies at 100,000 nodes a move, one game a unit, on 1 rank
  of 2 cores: every game is in the file once, its positions are every ply, the parts are
  merged and gone, and the last piece resumed exactly the games the pieces before it kept;
- a selfplay array (ARRAY=0-1, MERGE=plain) of 4 games a task, Stockfish playing White with
  EXTRA_ARGS="--uci-options Threads=1,Hash=16" (a comma that sbatch's --export would split):
  each task completes with the batch of its seed, Stockfish set up as asked, and the merge
  job after them writes their exports one after another.

Skipped (exit 77, reason on stdout) where no cluster can be started: not root (slurmd starts
jobs as their users), slurm-wlm, munge or stockfish not installed (scripts/setup.sh installs
them), or
daemons that do not start here; under CI=true each of these fails instead.

usage: slurm_cluster.py CHESSHPC PERFT_SBATCH SELFPLAY_SBATCH
"""
import glob
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np
from procs import kill_pids, pids_with

SKIP = 77
DAEMONS = ("munged", "slurmctld", "slurmd")
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
DEPTH, SPLIT, PUBLISHED = 7, 2, 374190009323
GAMES, NODES = 80, 100000
# Submitted as a user would: the template's settings, and an sbatch option after it.
SUBMIT = {"TIME_LIMIT": "1", "NODES": "1"}
WARNING = "--signal=B:TERM@20"
PERFT_SHAPE = {"TASKS_PER_NODE": "2", "CPUS_PER_TASK": "1"}
SELFPLAY_SHAPE = {"TASKS_PER_NODE": "1", "CPUS_PER_TASK": "2"}
STOCKFISH = "/usr/games/stockfish"
ARRAY_SEED, ARRAY_GAMES, UCI_OPTIONS = 11, 4, "--uci-options Threads=1,Hash=16"
ARRAY = {"ARRAY": "0-1", "MERGE": "plain", "GAMES": str(ARRAY_GAMES), "SEED": str(ARRAY_SEED),
         "LIMIT": "--nodes 500", "WHITE": "uci:" + STOCKFISH, "EXTRA_ARGS": UCI_OPTIONS,
         "TASKS_PER_NODE": "1", "CPUS_PER_TASK": "1"}
# Job states that last (a requeued job passes through others, SIGNALING among them).
FINAL = ("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE")
DEADLINE = 780  # seconds for all the jobs, then the test fails (and still cleans up)

SLURM_CONF = """ClusterName=chesshpc-test
SlurmctldHost=localhost
SlurmctldPort={ctld_port}
SlurmdPort={slurmd_port}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={dir}/munge/munge.socket,cred_expire=10
StateSaveLocation={dir}/state
SlurmdSpoolDir={dir}/spool
SlurmctldPidFile={dir}/slurmctld.pid
SlurmdPidFile={dir}/slurmd.pid
SlurmctldLogFile={dir}/slurmctld.log
SlurmdLogFile={dir}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
SchedulerParameters=sched_interval=5
MpiDefault=pmix
SwitchType=switch/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
ReturnToService=2
KillWait=5
MinJobAge=3600
{node}
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE OverSubscribe=FORCE:2 State=UP
"""


class Skip(Exception):
    """No cluster can be started here: the reason."""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """munged, slurmctld and slurmd of a one-node cluster in folder; stop() ends them all."""

    def __init__(self, folder):
        self.dir = folder
        self.conf = os.path.join(folder, "slurm.conf")
        self.env = dict(os.environ, SLURM_CONF=self.conf)
        self.daemons = []

    def start(self):
        munge = os.path.join(self.dir, "munge")
        os.makedirs(munge)
        os.makedirs(os.path.join(self.dir, "state"))
        # munged checks the path to its socket: every folder on it must be searchable by all.
        for folder in (os.path.dirname(self.dir), self.dir, munge):
            os.chmod(folder, 0o755)
        key = os.path.join(munge, "munge.key")
        with open(key, "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(key, 0o400)
        socket_path = os.path.join(munge, "munge.socket")
        self.daemon("munged", "--foreground", "--key-file=" + key, "--socket=" + socket_path,
                    "--pid-file=" + os.path.join(munge, "munged.pid"), "--log-file=" + os.path.join(munge, "munged.log"),
                    "--seed-file=" + os.path.join(munge, "munged.seed"))
        self.wait_for(lambda: os.path.exists(socket_path), "munged's socket", 20)

        # This machine as slurmd sees it (CPUs, sockets, cores, memory), named localhost.
        found = subprocess.run(["slurmd", "-C"], capture_output=True, text=True, env=self.env).stdout.splitlines()[0]
        node = re.sub(r"^NodeName=\S+", "NodeName=localhost NodeAddr=127.0.0.1", found) + " State=UNKNOWN"
        with open(self.conf, "w") as f:
            f.write(SLURM_CONF.format(dir=self.dir, ctld_port=free_port(), slurmd_port=free_port(), node=node))
        self.daemon("slurmctld", "-D", "-f", self.conf)
        self.daemon("slurmd", "-D", "-N", "localhost", "-f", self.conf)
        self.wait_for(lambda: self.run("sinfo", "-h", "-o", "%t").strip() == "idle", "the node to be idle", 60)

    def daemon(self, *cmd):
        out = open(os.path.join(self.dir, cmd[0] + ".out"), "w")
        self.daemons.append(subprocess.Popen(cmd, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                                             stdin=subprocess.DEVNULL, start_new_session=True))

    def wait_for(self, ready, what, seconds):
        deadline = time.time() + seconds
        while not ready():
            for d in self.daemons:
                if d.poll() is not None:
                    raise Skip(f"{d.args[0]} exited with {d.returncode} while waiting for {what}: {self.logs()}")
            if time.time() > deadline:
                raise Skip(f"no {what} after {seconds} s: {self.logs()}")
            time.sleep(0.2)

    def run(self, *cmd, check=False):
        r = subprocess.run(cmd, capture_output=True, text=True, env=self.env, timeout=60)
        assert r.returncode == 0 or not check, f"{cmd} exited {r.returncode}: {r.stderr}"
        return r.stdout

    def logs(self):
        text = ""
        for name in ("munged.out", "slurmctld.out", "slurmd.out", "slurmctld.log", "slurmd.log"):
            path = os.path.join(self.dir, name)
            if os.path.exists(path):
                with open(path, errors="replace") as f:
                    text += f"\n--- {name} (last lines)\n" + "".join(f.readlines()[-15:])
        return text

    def stop(self):
        """Cancels every job, then ends the daemons and whatever of the jobs is left (their
        processes carry this cluster's SLURM_CONF), each by its process id."""
        if any(d.poll() is None for d in self.daemons) and os.path.exists(self.conf):
            subprocess.run(["scancel", "--user=" + str(os.getuid())], env=self.env, capture_output=True, timeout=30)
            deadline = time.time() + 20
            while time.time() < deadline and self.run("squeue", "-h", "-t", "RUNNING,COMPLETING").strip():
                time.sleep(0.5)
        for d in reversed(self.daemons):
            if d.poll() is None:
                d.terminate()
        for d in reversed(self.daemons):
            try:
                d.wait(timeout=15)
            except subprocess.TimeoutExpired:
                d.kill()
                d.wait()
        kill_pids(pids_with("SLURM_CONF=" + self.conf, "environ"))


def check_can_run():
    if os.geteuid() != 0:
        raise Skip("not root: slurmd starts each job as its user")
    missing = [d for d in DAEMONS + ("sbatch", STOCKFISH) if shutil.which(d) is None]
    if missing:
        raise Skip(f"{', '.join(missing)} not installed (scripts/setup.sh installs them)")


def job_states(cluster, job):
    """scontrol's fields of job, one dict per record (an array's tasks): JobState, Restarts..."""
    text = cluster.run("scontrol", "show", "job", job, check=True)
    return [dict(re.findall(r"(\w+)=(\S*)", record)) for record in text.strip().split("\n\n")]


def job_state(cluster, job):
    return job_states(cluster, job)[0]


def submit(cluster, script, settings, folder):
    """The ids of the jobs `bash script` submitted: the job, or an array and its merge job."""
    out = subprocess.run(["bash", script, WARNING], env=dict(cluster.env, **SUBMIT, **settings), cwd=folder,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, f"bash {script}: {out.stdout}{out.stderr}"
    return re.findall(r"^Submitted batch job (\d+)$", out.stdout, re.M)


def wait_done(cluster, jobs):
    deadline = time.time() + DEADLINE
    states = {}
    while True:
        records = {job: job_states(cluster, job) for job in jobs}
        states = {job: r[0] for job, r in records.items()}
        # A job after a failed one (the array's merge) never starts: its wait is over too.
        if all(s["JobState"] in FINAL or s.get("Reason") == "DependencyNeverSatisfied"
               for r in records.values() for s in r):
            return records
        assert time.time() < deadline, f"jobs not done in {DEADLINE} s: " + str(
            {j: (s["JobState"], s["Restarts"]) for j, s in states.items()})
        time.sleep(1)


def read(path):
    with open(path, errors="replace") as f:
        return f.read()


def stops(log, items):
    """The counts of each stop's 'stopped by SIGTERM after K of N ITEMS', in order."""
    return [int(k) for k in re.findall(r"stopped by SIGTERM after (\d+) of \d+ " + items, log)]


def check_pieces(state, log, kind, name):
    """The job completed after being stopped and requeued at least once, each stop by the
    warning (chesshpc exit 5 with what it finished kept), each piece but the last requeued."""
    restarts = int(state["Restarts"])
    assert state["JobState"] == "COMPLETED" and state["ExitCode"] == "0:0", (state, log)
    assert restarts >= 1, f"{name} was never stopped by the warning:\n{log}"
    assert len(stops(log, kind)) == restarts, (restarts, log)
    assert log.count("requeueing to continue") == restarts, log
    assert log.count(f"{name} finished:") == 1, log
    assert log.count("task 0: Exited with exit code 5") == restarts, log
    return restarts


def check_perft(state, log, out):
    restarts = check_pieces(state, log, "units", "perft")
    kept = stops(log, "units")
    with h5py.File(out, "r") as f:
        assert int(f.attrs["total"]) == PUBLISHED, (f.attrs["total"], log)
        assert int(f.attrs["runs"]) == restarts + 1, (f.attrs["runs"], restarts)
        runs = f["units/run"][:]
        assert int(np.sum(runs == 0)) == kept[0], (np.sum(runs == 0), kept)
        assert int(np.sum(runs >= 0)) == len(runs) == int(f.attrs["units"])
        # The last piece ran 2 MPI ranks under srun (a stopped piece records no /ranks rows).
        ranks = f["ranks"]
        assert sorted(ranks["rank"][:][ranks["run"][:] == restarts]) == [0, 1], {k: ranks[k][:] for k in ranks}
        assert int(f.attrs["ranks"]) == 2 and int(f.attrs["threads"]) == 1
    print(f"perft: {restarts} requeue(s), the first piece kept {kept[0]} units; total {PUBLISHED} = published, "
          f"on 2 ranks")


def check_selfplay(state, log, out):
    restarts = check_pieces(state, log, "games", "selfplay")
    kept = stops(log, "games")
    resumed = re.findall(r"selfplay: \d+ games \((\d+) resumed\)", log)
    assert resumed == [str(kept[-1])], (resumed, kept)
    assert not os.path.exists(out + ".parts"), os.listdir(out + ".parts")
    with h5py.File(out, "r") as f:
        games = f["games"]
        assert sorted(games["game"][:]) == list(range(GAMES)), games["game"][:]
        assert len(f["positions/game"]) == int(games["plies"][:].sum())
        terminations = {t.decode() for t in games["termination"][:]}
        assert not any(t.startswith("error") for t in terminations), terminations
        assert int(f.attrs["threads"]) == 2 and int(f.attrs["ranks"]) == 1
    print(f"selfplay: {restarts} requeue(s), the first piece kept {kept[0]} games; all {GAMES} games in the file, "
          f"the last piece resumed {kept[-1]}")


def check_array(binary, cluster, jobs, folder):
    """Both tasks completed with their seed's batch, Stockfish as EXTRA_ARGS set it up, and
    the merge job wrote their exports in task order."""
    tasks, merge = job_states(cluster, jobs[0]), job_state(cluster, jobs[1])
    assert sorted(s["ArrayTaskId"] for s in tasks) == ["0", "1"], tasks
    for s in tasks + [merge]:
        assert s["JobState"] == "COMPLETED" and s["ExitCode"] == "0:0", s
    exports = b""
    for task in (0, 1):
        batch = os.path.join(folder, f"selfplay-s{ARRAY_SEED + task}.h5")
        with h5py.File(batch, "r") as f:
            assert int(f.attrs["seed"]) == ARRAY_SEED + task and len(f["games/game"]) == ARRAY_GAMES
            settings = list(f["games/white_settings"].asstr()[::2])
            assert all(s.startswith("uci:" + STOCKFISH) and s.endswith(" Threads=1 Hash=16") for s in settings), settings
        exports += subprocess.run([binary, "export", "--format", "plain", batch], check=True, capture_output=True,
                                  timeout=60).stdout
    with open(os.path.join(folder, f"selfplay-s{ARRAY_SEED}-merged.plain"), "rb") as f:
        assert f.read() == exports
    print(f"array: 2 tasks of {ARRAY_GAMES} games (seeds {ARRAY_SEED}, {ARRAY_SEED + 1}; Stockfish with "
          f"'{UCI_OPTIONS}'), merged in task order")


def main(binary, perft_script, selfplay_script):
    with tempfile.TemporaryDirectory() as tmp:
        cluster = Cluster(os.path.join(tmp, "cluster"))
        os.mkdir(cluster.dir)
        # Ends the daemons also when ctest's timeout stops the test with SIGTERM.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped by SIGTERM"))
        try:
            check_can_run()
            cluster.start()
            jobs_dir = os.path.join(tmp, "jobs")
            os.mkdir(jobs_dir)
            perft_out, selfplay_out = os.path.join(jobs_dir, "perft.h5"), os.path.join(jobs_dir, "selfplay.h5")
            # The array first: its few games run while the other two wait a few seconds.
            array = submit(cluster, selfplay_script, dict(ARRAY, CHESSHPC=binary), jobs_dir)
            assert len(array) == 2, array
            [perft] = submit(cluster, perft_script,
                             dict(PERFT_SHAPE, FEN=KIWIPETE, DEPTH=str(DEPTH), SPLIT=str(SPLIT), HASH="16M",
                                  OUT=perft_out, CHESSHPC=binary), jobs_dir)
            [selfplay] = submit(cluster, selfplay_script,
                                dict(SELFPLAY_SHAPE, GAMES=str(GAMES), SEED="3", LIMIT=f"--nodes {NODES}",
                                     OUT=selfplay_out, CHESSHPC=binary,
                                     EXTRA_ARGS="--random-plies 4 --max-plies 30 --games-per-unit 1"), jobs_dir)
            states = {job: r[0] for job, r in wait_done(cluster, [perft, selfplay] + array).items()}
            check_perft(states[perft], read(os.path.join(jobs_dir, f"chesshpc-perft-{perft}.log")), perft_out)
            check_selfplay(states[selfplay], read(os.path.join(jobs_dir, f"chesshpc-selfplay-{selfplay}.log")),
                           selfplay_out)
            check_array(binary, cluster, array, jobs_dir)
        except Skip as e:
            if os.environ.get("CI") == "true":
                raise AssertionError(f"CI must run this test, but: {e}")
            print(f"skipped: {e}")
            return SKIP
        except BaseException:
            print(cluster.logs())
            for log in glob.glob(os.path.join(tmp, "jobs", "*.log")):
                print(f"--- {os.path.basename(log)} (last lines)\n" + "".join(read(log).splitlines(True)[-30:]))
            raise
        finally:
            cluster.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])))
