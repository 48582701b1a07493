#!/usr/bin/env python3
"""Deep perft at 1 and 2 ranks and 1 and 2 threads per rank: time, nodes/s, efficiency,
and where the time that is not counting goes (waiting on MPI, writing HDF5, start-up).

Each configuration runs `chesshpc perft --depth D --hash H --out FILE --json` (under
mpirun for 2 ranks, --bind-to none so that threads are not pinned to one core). The hash
is per rank: pass --hash-total to give every configuration the same memory in all.

  python3 bench/perft_scaling.py --depth 8 --hash-total 1G
  python3 bench/perft_scaling.py --depth 9 --hash-total 8G --repeat 1 --json
  python3 bench/perft_scaling.py --depth 9 --dedup-ply 7 --configs 1x1,2x1,4x1,8x1

With --dedup-ply L the runs are deduplicated over the ranks (perft --dedup-ply): the
table then serves only below L (none when D - L <= 2), and the rows add the routing's
time (slowest rank), its part inside the exchange, and the bytes each rank sent.

Efficiency is the time of 1 rank x 1 thread over (workers x the time), where workers is
ranks x threads capped at the cores this machine has. Work efficiency is the CPU time of
1 x 1 over the configuration's CPU time (from `perf stat`, when installed): it shows
extra work, such as ranks recounting subtrees another rank's table holds, apart from
what other processes on a shared machine take. Python 3 standard library only.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

SIZES = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def parse_size(text):
    return int(text[:-1]) * SIZES[text[-1]] if text[-1] in SIZES else int(text)


def run_one(args, ranks, threads, hash_bytes, out):
    cmd = [args.binary, "perft", "--fen", args.fen, "--depth", str(args.depth), "--threads", str(threads),
           "--hash", f"{max(hash_bytes >> 20, 1)}M", "--out", out, "--json", "--quiet"]
    if args.split_depth:
        cmd += ["--split-depth", str(args.split_depth)]
    elif not args.dedup_ply:
        cmd += ["--split-depth", "3"] if ranks == 1 else []
    if args.dedup_ply:
        cmd += ["--dedup-ply", str(args.dedup_ply)]
    if ranks > 1:
        cmd = [args.mpirun, "-np", str(ranks), "--bind-to", "none", "--oversubscribe"] + cmd
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    if os.path.exists(out):
        os.remove(out)
    stat = out + ".perf"
    if shutil.which("perf"):  # CPU time of every process, children included
        cmd = ["perf", "stat", "-x,", "-e", "task-clock", "-o", stat] + cmd
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({r.returncode}): {r.stderr}")
    result = json.loads(r.stdout)
    result["cpu_seconds"] = None
    if os.path.exists(stat):
        with open(stat) as f:
            for line in f:
                fields = line.split(",")
                if len(fields) > 2 and fields[2] == "task-clock" and fields[0] not in ("", "<not counted>"):
                    result["cpu_seconds"] = float(fields[0]) / 1000
    return result


def summarise(runs, ranks, threads, cores):
    best = min(runs, key=lambda r: r["seconds"])  # the least disturbed run on a shared machine
    wall = best["seconds"]
    capacity = ranks * wall
    return {
        "ranks": ranks, "threads": threads, "nodes": best["nodes"], "units": best["units"],
        "split_depth": best["split_depth"], "seconds": wall, "median_seconds": statistics.median(r["seconds"] for r in runs),
        "nps": best["nodes"] / wall, "workers": min(ranks * threads, cores),
        "busy_share": sum(best["busy_seconds"]) / capacity,
        "mpi_wait_share": sum(best["idle_seconds"]) / capacity,
        "hdf5_share": best["checkpoint_seconds"] / capacity,
        "checkpoints": best["checkpoints"],
        # CPU time is what a shared machine disturbs least: other processes take wall time
        # from a run, not CPU time; more CPU time means more work (e.g. hash tables per rank).
        "cpu_seconds": min((r["cpu_seconds"] for r in runs if r["cpu_seconds"]), default=None),
        "median_cpu_seconds": statistics.median(r["cpu_seconds"] or 0 for r in runs),
        # Deduplicated runs: the routing (phase A) of the slowest rank, its exchange, bytes per rank.
        "routing_seconds": max(best.get("routing_seconds", [0])),
        "exchange_seconds": max(best.get("exchange_seconds", [0])),
        "mb_sent_per_rank": statistics.mean(best.get("bytes_sent", [0])) / 2**20,
    }


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--binary", default="build/cluster/chesshpc")
    p.add_argument("--mpirun", default="mpirun")
    p.add_argument("--fen", default="startpos")
    p.add_argument("--depth", type=int, default=8)
    p.add_argument("--split-depth", type=int, default=0, help="default: 3 at one rank, chesshpc's choice otherwise")
    p.add_argument("--hash-total", default="1G", help="table memory of all ranks together (default 1G)")
    p.add_argument("--hash-per-rank", help="table memory of each rank instead, as on a cluster where every node "
                   "brings its own (e.g. 256M); more ranks than cores are fine for the CPU-time column")
    p.add_argument("--dedup-ply", type=int, default=0, help="deduplicate over the ranks at every ply to L")
    p.add_argument("--repeat", type=int, default=1, help="runs per configuration; the fastest is shown")
    p.add_argument("--configs", default="1x1,1x2,2x1,2x2", help="RANKSxTHREADS list (default 1x1,1x2,2x1,2x2)")
    p.add_argument("--json", action="store_true", help="also print the rows as one JSON object")
    p.add_argument("--keep", metavar="DIR", help="keep each configuration's result file in DIR (for perft_model.py)")
    args = p.parse_args()
    cores = len(os.sched_getaffinity(0))
    total = parse_size(args.hash_total)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for config in args.configs.split(","):
            ranks, threads = (int(x) for x in config.split("x"))
            runs = []
            for i in range(args.repeat):
                print(f"{ranks} rank(s) x {threads} thread(s), run {i + 1}/{args.repeat}...", file=sys.stderr, flush=True)
                out = os.path.join(tmp, f"perft-{ranks}x{threads}-{i}.h5")  # chesshpc overwrites no file
                per_rank = parse_size(args.hash_per_rank) if args.hash_per_rank else total // ranks
                runs.append(run_one(args, ranks, threads, per_rank, out))
                if args.keep:
                    os.makedirs(args.keep, exist_ok=True)
                    shutil.copy(out, os.path.join(args.keep, f"perft{args.depth}-{ranks}x{threads}-{i}.h5"))
            rows.append(summarise(runs, ranks, threads, cores))
    base = next((r for r in rows if r["ranks"] == 1 and r["threads"] == 1), None)
    nodes = {r["nodes"] for r in rows}
    if len(nodes) != 1:
        sys.exit(f"node counts differ between configurations: {nodes}")
    memory = f"hash {args.hash_per_rank} per rank" if args.hash_per_rank else f"hash {args.hash_total} in all"
    print(f"perft {args.depth} of {args.fen}: {rows[0]['nodes']:,} nodes; {memory}; {cores} cores")
    print(f"{'ranks':>5} {'thr':>3} {'split':>5} {'units':>7} {'seconds':>9} {'median':>8} {'Mnps':>8} {'eff':>6} "
          f"{'cpu s':>8} {'work eff':>8} {'busy':>6} {'MPI':>6} {'HDF5':>6}"
          + (f" {'route s':>8} {'exch s':>7} {'MB/rank':>8}" if args.dedup_ply else ""))
    for r in rows:
        r["efficiency"] = base["seconds"] / (r["workers"] * r["seconds"]) if base else None
        r["work_efficiency"] = base["cpu_seconds"] / r["cpu_seconds"] if base and r["cpu_seconds"] else None
        eff = f"{r['efficiency']:.2f}" if base else "-"
        cpu = f"{r['cpu_seconds']:.1f}" if r["cpu_seconds"] else "-"
        work = f"{r['work_efficiency']:.2f}" if r["work_efficiency"] else "-"
        print(f"{r['ranks']:>5} {r['threads']:>3} {r['split_depth']:>5} {r['units']:>7} {r['seconds']:>9.2f} "
              f"{r['median_seconds']:>8.2f} {r['nps'] / 1e6:>8.0f} {eff:>6} {cpu:>8} {work:>8} {r['busy_share']:>6.1%} "
              f"{r['mpi_wait_share']:>6.2%} {r['hdf5_share']:>6.2%}"
              + (f" {r['routing_seconds']:>8.2f} {r['exchange_seconds']:>7.2f} {r['mb_sent_per_rank']:>8.0f}"
                 if args.dedup_ply else ""))
    if args.json:
        print(json.dumps({"depth": args.depth, "fen": args.fen, "hash_total": total, "cores": cores, "rows": rows}))


if __name__ == "__main__":
    main()
