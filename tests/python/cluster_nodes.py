"""chesshpc across 3 emulated machines (scripts/cluster.sh: each node its own network, disk,
host name and processes; Open MPI over TCP from a login node), with nodes failing.

1. The rank-to-node map: rank K runs on node cK, in the node's own working folder.
2. Deduplicated perft on 3 nodes: start-position perft(7) at ply 5 and Kiwipete perft(5)
   at ply 3 give the published totals and the divide of one process; the result file is on
   rank 0's node only, its /ranks name the three nodes.
   The first shows phase A's progress while it routes ply 5; the second, --quiet, prints
   nothing.
3. selfplay on 3 nodes: the same dataset as one process. verify on 3 nodes with its EPD
   suite on rank 0's node only (rank 0 reads it and sends it to every rank): the same fault
   line and summary as one process. bench's cluster_perft on 3 nodes: the published count.
4. Faults of start-position perft(7) at ply 5: kill -9 of node c1 while routing ply 5
   (phase A) and while counting buckets (phase B), c1's link set down in phase B, and rank
   0's node killed in phase B; selfplay with node c2 killed after its first part while
   mpirun is held for 2 s (SIGSTOP, as a loaded machine may delay it). Each time
   the job ends within 30 s, its last line chesshpc's naming the rank and node lost and
   what the checkpoint keeps, no line of Open MPI's, and mpirun's exit code 205 (a daemon
   lost: mpirun's own, the ranks left waiting for mpirun to end them), and --resume on the nodes left (rank 0's node booted again with its disk, when
   it was the one killed) gives the exact total and divide, or the identical dataset.

Skipped (exit 77, with cluster.sh's one line) where namespaces cannot be made.

usage: cluster_nodes.py CLUSTER_SH CHESSHPC VERIFY_ENGINE
"""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
PERFT7 = 3195901860
BUCKETS = 16384
# A lost node ends the job with mpirun's code for a lost daemon (205, Open MPI 4.1): the ranks
# left, told by their watch, stop until mpirun ends them (cluster/signals.h,
# exit_after_launcher), so their own 5 never ends the job before mpirun has noticed.
MPIRUN_LOST_NODE = 205
HOLD = 2  # seconds mpirun is held (SIGSTOP) at the selfplay kill, as a loaded machine may delay it
BOUND = 30  # seconds from a fault to the end of the job


class Cluster:
    """The nodes scripts/cluster.sh makes, removed in close()."""

    def __init__(self, script, nodes, shares):
        self.script = script
        args = [script, "up", "--nodes", str(nodes)] + [a for s in shares for a in ("--share", s)]
        r = subprocess.run(args, capture_output=True, text=True)
        if r.returncode == 77:
            print(f"skipped: {r.stderr.strip()}")
            sys.exit(77)
        assert r.returncode == 0, f"cluster.sh up exited {r.returncode}: {r.stderr}"
        self.dir = r.stdout.strip()

    def close(self):
        subprocess.run([self.script, "down", self.dir], check=True)

    def work(self, node):
        """Node's working folder as this machine sees it (its disk)."""
        return os.path.join(self.dir, node, "tmp", "work")

    def mpirun(self, np_, args, hosts=None):
        return [self.script, "mpirun", self.dir, "-np", str(np_)] + (["--host", hosts] if hosts else []) + args

    def do(self, *args):
        subprocess.run([self.script, args[0], self.dir, *args[1:]], check=True)


def run_json(cmd, code=0):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=ENV)
    assert r.returncode == code, f"{cmd} exited {r.returncode}: {r.stderr}"
    return json.loads(r.stdout)


def rank_map(c):
    r = subprocess.run(c.mpirun(3, ["sh", "-c", 'echo "$OMPI_COMM_WORLD_RANK $(hostname) $(pwd)"']),
                       capture_output=True, text=True, timeout=60, env=ENV)
    assert r.returncode == 0, r.stderr
    rows = sorted(l.split() for l in r.stdout.splitlines())
    print("rank to node: " + ", ".join(f"rank {k} on {h} in {w}" for k, h, w in rows))
    assert rows == [[str(k), f"c{k}", "/tmp/work"] for k in range(3)], rows


def perft(fen, depth, ply, *extra):
    return ["perft", "--fen", fen, "--depth", str(depth), "--dedup-ply", str(ply), "--divide", "--threads", "1",
            "--json", *extra]


def ranks_hosts(path):
    with h5py.File(path, "r") as f:
        return [h.decode() if isinstance(h, bytes) else h for h in f["ranks"]["host"][:]]


def open_mpi_notes(err):
    """err without the one line Open MPI 4.1's mpirun prints now and then under cluster.sh's
    rsh agent, --quiet or not (a race of its own launcher: setpgid after the child's exec)."""
    return "".join(l for l in err.splitlines(True) if "plm:rsh: Warning: setpgid(" not in l)


def routing_progress(err, ply):
    """The progress lines of phase A routing ply, each checked: rank 0's positions of ply - 1
    expanded, out of its share (its unique positions at ply - 1)."""
    share = re.search(rf"^chesshpc perft: ply {ply - 1}: (\d+) unique positions on rank 0, ", err, re.M)
    lines = re.findall(rf"^perft: routing ply {ply}: (\d+)/(\d+) positions of ply {ply - 1} expanded on rank 0, "
                       r"[\d.]+ positions/s, elapsed \d+:\d\d, ETA \S+$", err, re.M)
    assert share and all(int(total) == int(share[1]) and int(done) <= int(total) for done, total in lines), err
    return len(lines)


def dedup_exact(c, binary, references):
    for (fen, depth, ply, published), reference in zip(CASES, references):
        # The first with progress every 20 ms (phase A's while it routes, phase B's), the
        # second --quiet: nothing on stderr.
        report = ["--progress", "0.02"] if depth == 7 else ["--quiet"]
        run = subprocess.run(c.mpirun(3, [binary] + perft(fen, depth, ply, *report, "--out", "p.h5")),
                             capture_output=True, text=True, timeout=300, env=ENV)
        assert run.returncode == 0, run.stderr
        r, err = json.loads(run.stdout), open_mpi_notes(run.stderr)
        if depth == 7:
            progress = routing_progress(err, ply)
            assert progress > 0, err
            print(f"phase A's progress: {progress} lines while routing ply {ply}")
        else:
            assert err == "", err
        assert r["nodes"] == published and r["divide"] == reference["divide"] and r["ranks"] == 3, r
        files = [os.path.exists(os.path.join(c.work(n), "p.h5")) for n in ("c0", "c1", "c2")]
        assert files == [True, False, False], f"p.h5 on nodes c0, c1, c2: {files}"
        path = os.path.join(c.work("c0"), "p.h5")
        with h5py.File(path, "r") as f:
            assert int(f.attrs["complete"]) == 1 and int(f.attrs["total"]) == published
        hosts = ranks_hosts(path)
        assert hosts == ["c0", "c1", "c2"], hosts
        os.remove(path)
        print(f"perft({depth}) of {fen} at ply {ply} on 3 nodes: {r['nodes']} and the divide of one process; "
              f"p.h5 on c0 only, /ranks hosts {','.join(hosts)}")


CASES = [("startpos", 7, 5, PERFT7), (KIWIPETE, 5, 3, 193690690)]


def selfplay(binary, out, *extra):
    return [binary, "selfplay", "--games", "12", "--nodes", "500", "--seed", "42", "--random-plies", "6",
            "--white", "uci:/usr/games/stockfish", "--black", "uci:/usr/games/stockfish",
            "--uci-options", "Threads=1,Hash=4", "--resign-score", "900", "--max-plies", "160",
            "--games-per-unit", "2", "--threads", "1", "--out", out, "--json", "--quiet", *extra]


def columns(path):
    with h5py.File(path, "r") as f:
        return {f"{g}/{k}": f[g][k][:] for g in ("games", "positions") for k in f[g] if k != "time_ms"}


def same(a, b):
    assert a.keys() == b.keys(), (a.keys(), b.keys())
    for k in a:
        x, y = a[k], b[k]
        assert x.shape == y.shape and np.array_equal(x, y, equal_nan=x.dtype.kind == "f"), f"{k} differs"


def games_in_parts(parts):
    n = 0
    for name in sorted(os.listdir(parts)) if os.path.isdir(parts) else []:
        try:
            with h5py.File(os.path.join(parts, name), "r") as f:
                n += len(f["games/game"])
        except OSError:
            pass
    return n


EPD = """4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D2 66
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D3 8902
7k/3p4/8/4P3/8/8/4K3/8 w - - 0 1 ;D5 19979
"""


def other_commands(c, binary, engine, tmp):
    one = os.path.join(tmp, "one.h5")
    run_json(selfplay(binary, one))
    reference = columns(one)
    r = run_json(c.mpirun(3, selfplay(binary, "games.h5")))
    assert r["games"] == 12 and r["ranks"] == 3, r
    same(reference, columns(os.path.join(c.work("c0"), "games.h5")))
    assert not any(os.path.exists(os.path.join(c.work(n), "games.h5")) for n in ("c1", "c2"))
    print(f"selfplay on 3 nodes: the same 12 games and {len(reference['positions/fen'])} positions as one process")

    # Rank 0 reads the suite and sends it to every rank: on rank 0's node only is enough.
    for where in (tmp, c.work("c0")):
        with open(os.path.join(where, "suite.epd"), "w") as f:
            f.write(EPD)
    verify = [binary, "verify", "--engine", f"{engine} --fault no-ep-in-check", "--epd", "suite.epd", "--quiet"]
    local = subprocess.run(verify, capture_output=True, text=True, timeout=120, cwd=tmp)
    nodes = subprocess.run(c.mpirun(3, verify), capture_output=True, text=True, timeout=120, env=ENV)
    summary = lambda out: [l.split(", engine ")[0] for l in out.splitlines()]
    assert local.returncode == 1 and nodes.returncode == 1, (local.returncode, nodes.returncode, nodes.stderr)
    assert summary(nodes.stdout) == summary(local.stdout), (nodes.stdout, local.stdout)
    print(f"verify on 3 nodes, the suite on c0 only: {summary(nodes.stdout)[-1]}, as one process")

    r = subprocess.run(c.mpirun(3, [binary, "bench", "--suite", "quick", "--repeats", "1", "--threads", "1",
                                    "--stockfish", "none", "--json", "--quiet"]),
                       capture_output=True, text=True, timeout=300, env=ENV)
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)["summary"]
    cluster = [s for s in summary if s["benchmark"] == "cluster_perft"]
    assert len(cluster) == 1 and cluster[0]["ranks"] == 3 and cluster[0]["nodes"] == 4865609, cluster
    print(f"bench cluster_perft on 3 nodes: {cluster[0]['nodes']} nodes")


def buckets_done(path):
    try:
        with h5py.File(path, "r") as f:
            return int(f.attrs["buckets_done"])
    except (OSError, KeyError):
        return -1


def start(cmd, log):
    err = open(log, "w")
    return subprocess.Popen(cmd, env=ENV, stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)


def wait_for(cond, proc, what, seconds=120):
    deadline = time.time() + seconds
    while not cond():
        assert proc.poll() is None, f"{what}: the job ended first"
        assert time.time() < deadline, f"{what}: not reached in {seconds} s"
        time.sleep(0.02)


def ended(proc, log, expected, code, what):
    """The job ended within BOUND seconds of the fault with exit code code, its last line
    chesshpc's line expected() (read once it ended), and no line of Open MPI's (cluster.sh
    runs mpirun --quiet)."""
    t = time.time()
    try:
        proc.wait(timeout=BOUND)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError(f"{what}: the job still runs {BOUND} s after the fault")
    seconds = time.time() - t
    err, line = open_mpi_notes(open(log).read()), expected()
    last = [l for l in err.splitlines() if l.strip()][-1:]
    assert proc.returncode == code, f"{what}: exit {proc.returncode}, {err}"
    assert last == [line], f"{what}: the last line is {last}, not {line!r}: {err}"
    assert "ORTE" not in err and "mpirun" not in err, f"{what}: Open MPI's lines: {err}"
    print(f"{what}: the job ended {seconds:.1f} s later, exit {proc.returncode}, '{line}'")
    return err


def perft_faults(c, binary, reference, tmp):
    path = os.path.join(c.work("c0"), "f.h5")
    cmd = [binary] + perft("startpos", 7, 5, "--out", "f.h5", "--checkpoint", "0.05")
    resume = cmd + ["--resume", "--quiet"]
    in_a = lambda log: lambda: "chesshpc perft: ply 4:" in open(log).read()
    in_b = lambda log: lambda: buckets_done(path) > 0
    for node, fault, phase, when in (("c1", "kill", "A (routing ply 5)", in_a), ("c1", "kill", "B (buckets)", in_b),
                                     ("c1", "link", "B (buckets)", in_b), ("c0", "kill", "B (buckets)", in_b)):
        what = f"{'kill -9 of' if fault == 'kill' else 'link down of'} node {node} in phase {phase}"
        log = os.path.join(tmp, "fault.log")
        if os.path.exists(path):
            os.remove(path)  # the last resume's complete file would read as buckets done
        proc = start(c.mpirun(3, cmd), log)
        wait_for(when(log), proc, what)
        c.do(*(("kill", node) if fault == "kill" else ("link", node, "down")))
        if node == "c0":
            line = lambda: ("chesshpc perft: lost rank 0 on node c0 (its processes ended); 'f.h5' on c0 keeps the "
                            "buckets of its last checkpoint: rerun with --resume")
        else:
            cause = "its processes ended" if fault == "kill" else "no answer for 4 s"
            line = lambda: (f"chesshpc perft: lost rank 1 on node c1 ({cause}); 'f.h5' keeps {buckets_done(path)} of "
                            f"{BUCKETS} buckets: rerun with --resume")
        # mpirun's code is its own, 205 (a daemon lost), also when rank 0 saw the silence of a
        # link down first (4 s against Open MPI's 5 s here) and ended the job with 5.
        ended(proc, log, line, MPIRUN_LOST_NODE, what)
        kept = buckets_done(path)
        assert (kept == 0) if phase.startswith("A") else (0 < kept < BUCKETS), f"{what}: {kept} buckets kept"
        c.do(*(("restart", node) if fault == "kill" else ("link", node, "up")))
        left = "c0,c2" if node == "c1" else "c0,c1,c2"
        r = run_json(c.mpirun(len(left.split(",")), resume, hosts=left))
        assert r["nodes"] == PERFT7 and r["divide"] == reference["divide"], r
        assert r["units_resumed"] == kept and r["units_computed"] == BUCKETS - kept, r
        print(f"  --resume on {left}: {kept} buckets kept, {r['units_computed']} counted, total {r['nodes']}")


def selfplay_fault(c, binary, tmp):
    reference = columns(os.path.join(tmp, "one.h5"))
    cmd = selfplay(binary, "killed.h5", "--checkpoint", "0.05")
    parts = os.path.join(c.work("c0"), "killed.h5.parts")
    log = os.path.join(tmp, "selfplay.log")
    proc = start(c.mpirun(3, cmd), log)
    wait_for(lambda: games_in_parts(parts) > 0, proc, "selfplay")
    # mpirun (proc itself: cluster.sh and ip netns exec exec it) is held while the node dies
    # and the ranks' watch sees it: ranks that exited 5 meanwhile would end the job with 5.
    os.kill(proc.pid, signal.SIGSTOP)
    c.do("kill", "c2")
    time.sleep(HOLD)
    os.kill(proc.pid, signal.SIGCONT)
    line = lambda: (f"chesshpc selfplay: lost rank 2 on node c2 (its processes ended); 'killed.h5.parts' keeps "
                    f"{games_in_parts(parts)} of 12 games: rerun with --resume")
    ended(proc, log, line, MPIRUN_LOST_NODE, f"kill -9 of node c2 mid-selfplay, mpirun held {HOLD} s")
    kept = games_in_parts(parts)
    r = run_json(c.mpirun(2, cmd + ["--resume"], hosts="c0,c1"))
    assert r["games_resumed"] == kept and r["games_played"] == 12 - kept, r
    same(reference, columns(os.path.join(c.work("c0"), "killed.h5")))
    print(f"  --resume on c0,c1: {kept} games kept, {r['games_played']} played, the same dataset")


def main(script, binary, engine):
    binary, engine = os.path.abspath(binary), os.path.abspath(engine)
    c = Cluster(script, 3, sorted({os.path.dirname(binary), os.path.dirname(engine)}))
    try:
        with tempfile.TemporaryDirectory() as tmp:
            rank_map(c)
            references = [run_json([binary, "perft", "--fen", fen, "--depth", str(d), "--divide", "--json", "--quiet",
                                    "--threads", "1", "--hash", "64M"]) for fen, d, _, _ in CASES]
            assert [r["nodes"] for r in references] == [case[3] for case in CASES]
            dedup_exact(c, binary, references)
            other_commands(c, binary, engine, tmp)
            perft_faults(c, binary, references[0], tmp)
            selfplay_fault(c, binary, tmp)
    finally:
        c.close()
    print("all ok")


if __name__ == "__main__":
    main(*sys.argv[1:4])
