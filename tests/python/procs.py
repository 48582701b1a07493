"""What the MPI kill tests share: killing a whole mpirun job at once, as kill -9 would."""
import os
import signal


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
