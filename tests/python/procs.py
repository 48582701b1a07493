"""What the tests that stop or kill running jobs share: waiting until a job has recorded
its first piece of work, reading a perft file's units done while it is being rewritten,
finding the process of one MPI rank, and killing a whole mpirun job at once, as kill -9
would."""
import os
import signal
import subprocess
import time

import h5py


def units_done(path, attr="units_done"):
    """Units the perft file records as done (attr: "buckets_done" for a deduplicated run's
    buckets), or -1 while it cannot be read."""
    try:
        with h5py.File(path, "r") as f:
            return int(f.attrs[attr])
    except (OSError, KeyError):
        return -1


def wait_until_recorded(count, proc, what, seconds, poll=0.01, output=lambda: ""):
    """Polls count() until it is at least 1; fails if proc ends first or seconds pass,
    with what output() says (e.g. the job's own log)."""
    deadline = time.time() + seconds
    while count() < 1:
        assert proc.poll() is None, f"{what} ended before it recorded anything {output()}"
        assert time.time() < deadline, f"{what}: nothing recorded in {seconds} s {output()}"
        time.sleep(poll)


def stop_after_first_record(cmd, count, what, env):
    """Starts cmd, sends it SIGTERM once count() is at least 1, and returns its standard
    error once it has exited with 5 (stopped, what it finished kept)."""
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wait_until_recorded(count, proc, what, 120)
    proc.send_signal(signal.SIGTERM)
    err = proc.communicate(timeout=60)[1]
    assert proc.returncode == 5, f"SIGTERM: exit code {proc.returncode}, stderr {err!r}"
    return err


def rank_pid(marker, rank):
    """The pid of the process of this MPI rank whose command line holds marker."""
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if marker.encode() not in f.read():
                    continue
            with open(f"/proc/{pid}/environ", "rb") as f:
                if f"OMPI_COMM_WORLD_RANK={rank}".encode() in f.read().split(b"\0"):
                    return int(pid)
        except (FileNotFoundError, ProcessLookupError, PermissionError, NotADirectoryError):
            pass
    return None


def kill_all(proc, marker):
    """SIGKILL to mpirun (proc) and every process whose command line holds marker (the
    ranks: Open MPI puts each rank in its own process group, so killpg misses them)."""
    pids = []
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if marker.encode() in f.read():
                    pids.append(int(pid))
        except (FileNotFoundError, ProcessLookupError, PermissionError, NotADirectoryError):
            pass
    for pid in pids + [proc.pid]:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.wait()
