#!/usr/bin/env python3
"""How a deep perft would scale past this machine: a simulation fed with measured unit times.

Input: the result file of a measured run (`chesshpc perft --split-depth K --out FILE.h5`),
whose /units hold every unit's time in the order the farm handed them out (biggest
estimate first). The model predicts, for perft(D) on P ranks of C cores each:

  units     the unique positions at the split depth (published counts, OEIS A083276)
  work      perft(D) / the measured nodes per second per core
  sizes     each unit's share of the work, from the measured units: unit j of the target
            run takes the relative size of measured unit floor(j * measured / units), so the
            target keeps the measured spread and the measured quality of the biggest-first
            order (an assumption: the spread of subtree sizes changes slowly with depth)
  farm      list scheduling exactly as cluster/task_farm.cpp does it: the next unit goes to
            the rank that asks first; rank 0 answers one request at a time, `--service`
            seconds each, so it becomes the bottleneck when units are too many or too small
  sharing   a rank's table holds only the subtrees of its own units: a subtree that units on
            two ranks reach by transposition is counted on both. `--sharing FILE` takes the
            JSON of `perft_scaling.py --hash-per-rank H --json` over 1, 2, 4, ... ranks: the
            CPU time at P ranks over the time at 1 rank, interpolated in log P and extended
            past the last point along the last two points' slope (an assumption: the loss
            depends on the share of the tree a rank sees, 1/P, more than on depth, split or
            table size)
  start-up  every rank plans all units, walking every path to the split depth
            (`--plan-rate` paths per second, measured), and rank 0 writes the result file at
            the end (`--write-rate` units per second, measured)

  efficiency = work / (P x C x makespan)

  python3 bench/perft_model.py --units perft9.h5
  python3 bench/perft_model.py --units perft9.h5 --cores-per-rank 32 --json

Needs h5py and numpy (Debian: python3-h5py).
"""
import argparse
import heapq
import json
import sys

import h5py
import numpy as np

PERFT = {8: 84998978956, 9: 2439530234167, 10: 69352859712417, 11: 2097651003696806,
         12: 62854969236701747, 13: 1981066775000396239, 14: 61885021521585529237}
# Unique positions after n plies from the start position (OEIS A083276).
UNIQUE = {1: 20, 2: 400, 3: 5362, 4: 72078, 5: 822518, 6: 9417681, 7: 96400068}
PATHS = {k: PERFT.get(k, n) for k, n in {1: 20, 2: 400, 3: 8902, 4: 197281, 5: 4865609, 6: 119060324,
                                          7: 3195901860}.items()}


def default_split(depth, ranks, per_worker=300):
    """chesshpc's default (jobs/perft/units.cpp): the shallowest k with perft(k) >= 300 x ranks."""
    k = 1
    while k + 1 < depth and PATHS[k] < per_worker * ranks:
        k += 1
    return k


def measured_units(path):
    with h5py.File(path, "r") as f:
        u = f["units"]
        secs = u["seconds"][:].astype(float)
        nodes = sum(int(m) * int(n) for m, n in zip(u["multiplicity"][:], u["nodes"][:]))
        threads = int(f.attrs["threads"])
        meta = {k: int(f.attrs[k]) for k in ("depth", "split_depth", "units")}
    if not (secs > 0).all():
        sys.exit(f"{path}: not every unit has a time; use the file of a finished run")
    rate = nodes / (secs.sum() * threads)  # nodes per second per core
    return secs / secs.mean(), rate, meta


def sharing_curve(path):
    """[(ranks, extra work factor)] from a perft_scaling.py JSON, by ranks."""
    with open(path) as f:
        rows = json.load(f)["rows"]
    base = next(r for r in rows if r["ranks"] == 1 and r["threads"] == 1)
    return sorted((r["ranks"], r["cpu_seconds"] / base["cpu_seconds"]) for r in rows
                  if r["cpu_seconds"] and r["threads"] == 1)


def inflation(points, ranks):
    if len(points) < 2:
        return 1.0
    xs = np.log2([p[0] for p in points])
    ys = [p[1] for p in points]
    x = np.log2(ranks)
    if x <= xs[-1]:
        return float(np.interp(x, xs, ys))
    slope = (ys[-1] - ys[-2]) / (xs[-1] - xs[-2])
    return float(ys[-1] + slope * (x - xs[-1]))


def simulate(rel, units, ranks, unit_mean, service):
    """Makespan of the farm handing out `units` units of mean time unit_mean to `ranks` ranks."""
    idx = (np.arange(units, dtype=np.int64) * len(rel)) // units
    sizes = rel[idx] * unit_mean
    free = [(0.0, r) for r in range(ranks)]  # (time the rank asks for work, rank)
    heapq.heapify(free)
    coordinator = 0.0
    busy_end = 0.0
    for s in sizes:
        t, r = heapq.heappop(free)
        coordinator = max(coordinator, t) + service
        end = coordinator + s
        busy_end = max(busy_end, end)
        heapq.heappush(free, (end, r))
    return busy_end


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--units", required=True, help="result file of a measured run")
    p.add_argument("--depths", default="11,13")
    p.add_argument("--ranks", default="64,1024,16384")
    p.add_argument("--cores-per-rank", type=int, default=1)
    p.add_argument("--thread-efficiency", type=float, default=1.0,
                   help="speed of C threads over C x one thread, as measured (default 1)")
    p.add_argument("--service", type=float, default=2e-5,
                   help="rank 0's seconds per request (default 2e-5: a few MPI calls and a lock, with margin)")
    p.add_argument("--plan-rate", type=float, default=1.15e6,
                   help="paths to the split depth planned per second (default: 4,865,609 in 4.2 s here)")
    p.add_argument("--write-rate", type=float, default=9e5,
                   help="units written to the result file per second (default: 822,518 in 0.9 s here)")
    p.add_argument("--max-units", type=int, default=10_000_000, help="skip splits with more units (default 1e7)")
    p.add_argument("--sharing", help="perft_scaling.py JSON at a fixed table size per rank (see above)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    curve = sharing_curve(args.sharing) if args.sharing else []
    if curve:
        print("extra work from tables per rank (ranks: factor): " + ", ".join(f"{p}: {w:.2f}" for p, w in curve))

    rel, rate, meta = measured_units(args.units)
    print(f"measured: perft({meta['depth']}) split {meta['split_depth']}, {meta['units']} units, "
          f"{rate / 1e6:.0f} M nodes/s per core, unit time spread (max/mean) {rel.max():.1f}, "
          f"coefficient of variation {rel.std():.2f}")
    print(f"{'perft':>5} {'ranks':>6} {'split':>5} {'units':>9} {'per rank':>8} {'extra':>6} {'hours':>9} "
          f"{'efficiency':>10}  note")
    rows = []
    for depth in (int(d) for d in args.depths.split(",")):
        for ranks in (int(r) for r in args.ranks.split(",")):
            k0 = default_split(depth, ranks)
            for k in sorted({k0 - 1, k0, k0 + 1} & set(UNIQUE)):
                units = UNIQUE[k]
                if units > args.max_units:
                    continue
                speed = rate * args.cores_per_rank * args.thread_efficiency
                work = PERFT[depth] / rate  # core-seconds on one rank, whose table sees every unit
                extra = inflation(curve, ranks)
                farm = simulate(rel, units, ranks, extra * PERFT[depth] / speed / units, args.service)
                total = PATHS[k] / args.plan_rate + farm + units / args.write_rate
                eff = work / (ranks * args.cores_per_rank * total)
                note = "default" if k == k0 else ""
                rows.append({"depth": depth, "ranks": ranks, "split": k, "units": units, "default": k == k0,
                             "units_per_rank": units / ranks, "extra_work": extra, "hours": total / 3600,
                             "efficiency": eff})
                print(f"{depth:>5} {ranks:>6} {k:>5} {units:>9} {units / ranks:>8.0f} {extra:>6.2f} "
                      f"{total / 3600:>9.2f} {eff:>10.3f}  {note}")
    if args.json:
        print(json.dumps({"rate_per_core": rate, "measured": meta, "rows": rows}))


if __name__ == "__main__":
    main()
