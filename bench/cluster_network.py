"""Deduplicated perft over TCP between emulated machines (scripts/cluster.sh), against the
network term of bench/perft_model.py for the link measured.

It makes N nodes, measures the link between two of them (cluster.sh net: the median round
trip of one-byte TCP pings and a 64 MiB transfer), runs `chesshpc perft --dedup-ply` with
one rank a node, and prints for each rank and routed ply what the run's /levels recorded
(records and bytes sent, rounds of all-to-all, the messages they make: (P - 1) a round,
the seconds inside the exchange) beside the model's network term for those bytes and
rounds, bytes / bandwidth + rounds x (P - 1) x latency (latency: half the round trip), and
each node's eth0 counters over the run (what crossed the wire: Open MPI's framing, TCP
and its acknowledgements included). Everything the script made is removed at the end.

  python3 bench/cluster_network.py build/cluster/chesshpc [--nodes 3] [--depth 7] [--ply 5] [--fen FEN]

Needs root (namespaces), h5py.
"""
import argparse
import json
import os
import re
import subprocess
import sys

import h5py

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "scripts", "cluster.sh")
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def counters(cluster, node):
    prefix = open(os.path.join(cluster, "prefix")).read().strip()
    out = subprocess.run(["ip", "-n", f"{prefix}-{node}", "-s", "-j", "link", "show", "eth0"], capture_output=True,
                         text=True, check=True).stdout
    s = json.loads(out)[0]["stats64"]
    return {k: s[d][f] for k, (d, f) in {"tx_bytes": ("tx", "bytes"), "tx_packets": ("tx", "packets"),
                                           "rx_bytes": ("rx", "bytes"), "rx_packets": ("rx", "packets")}.items()}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("chesshpc")
    p.add_argument("--nodes", type=int, default=3)
    p.add_argument("--depth", type=int, default=7)
    p.add_argument("--ply", type=int, default=5)
    p.add_argument("--fen", default="startpos")
    a = p.parse_args()
    binary = os.path.abspath(a.chesshpc)
    up = subprocess.run([SCRIPT, "up", "--nodes", str(a.nodes), "--share", os.path.dirname(binary)],
                        capture_output=True, text=True)
    if up.returncode:
        sys.exit(up.stderr.strip())
    cluster = up.stdout.strip()
    try:
        net = subprocess.run([SCRIPT, "net", cluster], capture_output=True, text=True, check=True).stdout
        rtt, mbps = (float(x) for x in re.search(r"round trip (\d+) us.*bandwidth (\d+) MB/s", net).groups())
        latency, bandwidth = rtt / 2e6, mbps * 1e6
        print(net.strip())
        nodes = [f"c{k}" for k in range(a.nodes)]
        before = {n: counters(cluster, n) for n in nodes}
        cmd = [SCRIPT, "mpirun", cluster, "-np", str(a.nodes), binary, "perft", "--fen", a.fen, "--depth",
               str(a.depth), "--dedup-ply", str(a.ply), "--threads", "1", "--out", "p.h5", "--json", "--quiet"]
        r = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True, env=ENV).stdout)
        after = {n: counters(cluster, n) for n in nodes}
        print(f"perft({a.depth}) of {a.fen} at dedup ply {a.ply} on {a.nodes} nodes: {r['nodes']} nodes "
              f"in {r['seconds']:.2f} s")
        with h5py.File(os.path.join(cluster, "c0", "tmp", "work", "p.h5"), "r") as f:
            lv = {k: f["levels"][k][:] for k in ("rank", "ply", "records_sent", "bytes_sent", "rounds",
                                                  "exchange_seconds")}
            hosts = [h.decode() if isinstance(h, bytes) else h for h in f["ranks"]["host"][:]]
        print(f"{'rank':>4} {'node':>4} {'ply':>3} {'records':>9} {'MB sent':>8} {'rounds':>6} {'messages':>8} "
              f"{'exchange s':>10} {'model s':>8}")
        P = a.nodes
        for i in range(len(lv["rank"])):
            rank, ply = int(lv["rank"][i]), int(lv["ply"][i])
            sent, rounds = int(lv["bytes_sent"][i]), int(lv["rounds"][i])
            model = sent / bandwidth + rounds * (P - 1) * latency
            print(f"{rank:>4} {hosts[rank]:>4} {ply:>3} {int(lv['records_sent'][i]):>9} {sent / 1e6:>8.2f} "
                  f"{rounds:>6} {rounds * (P - 1):>8} {lv['exchange_seconds'][i]:>10.4f} {model:>8.4f}")
        print("eth0 over the whole run (launch, phase A, phase B, results):")
        for n in nodes:
            d = {k: after[n][k] - before[n][k] for k in after[n]}
            print(f"  {n}: sent {d['tx_bytes'] / 1e6:.2f} MB in {d['tx_packets']} packets, "
                  f"received {d['rx_bytes'] / 1e6:.2f} MB in {d['rx_packets']} packets")
    finally:
        subprocess.run([SCRIPT, "down", cluster], check=True)


if __name__ == "__main__":
    main()
