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

With --dedup FILE.h5 (a run of `chesshpc perft --dedup-ply L --out FILE.h5`) it models the
deduplicated path instead, one rank per core:

  phase A   level l costs children(l) x the measured core-seconds per child (expanding,
            encoding, merging, serialising), shared by P ranks; children(l) = U(l-1) x the
            measured children per unique position, rising 3% a ply past the measurement.
            U(l) is published to ply 9 (the published counts, OEIS A083276) and extrapolated
            past it with the last growth shrinking 5% a ply, as it does from ply 4 on
  network   (P-1)/P of a level's children cross the network, at the measured bytes per
            record; per rank bytes / bandwidth, plus P-1 messages of latency per round
            of 32 MB (MPI_Alltoallv), for --network ib (100 Gb/s, 2 us) or eth (10 Gb/s,
            30 us)
  phase B   U(L) unique positions, each perft(D - L): perft(D) / (perft(L) / U(L)) nodes
            at the measured seconds per node (the deepest measured remaining depth, a
            safe choice: hashing makes deeper subtrees cheaper per node), times the work
            factor 1 + c (P - 1) / P: what ranks count twice because a capture took a
            transposition out of its group, c from --dedup-base (the same run on one rank:
            c = (w - 1) P' / (P' - 1) for the measured factor w at P' ranks). A rank's
            share is whole buckets of whole groups (positions with one waiting side:
            bucket_hash waiting_side_v2): G(L) groups, counted by bench/dedup_balance to
            ply 6 and grown past it by the last growth shrinking 5% a ply, drawn with
            lognormal sizes of the deepest measured spread (cv), hashed into the 16,384
            buckets and balanced over P ranks as balance_buckets does (jobs/perft/dedup.h);
            the slowest rank sets the time
  memory    (1.1 U(L) + U(L-1)) / P x 100 bytes per rank must fit --memory-per-rank

  efficiency = (phase A + phase B at one rank, no network) / (P x time at P ranks)

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


# Unique positions after n plies (the published counts, OEIS A083276).
UNIQUE_PUBLISHED = {**UNIQUE, 8: 988187354, 9: 9183421888}
NETWORKS = {"ib": (100e9 / 8, 2e-6), "eth": (10e9 / 8, 30e-6)}  # bytes/s, seconds per message
ROUND_BYTES = 32 << 20  # DEDUP_ROUND_BYTES
# Groups of the dedup ply from the start position (build/bench/dedup_balance 6): distinct
# waiting sides, their size spread, and the largest group's share of the positions.
GROUPS = {4: 543, 5: 7581, 6: 40204}
GROUP_CV = 3.24
BUCKETS = 16384  # DEDUP_BUCKETS


def unique_at(ply):
    """Published to ply 9; past it the last growth, shrinking 5% a ply."""
    if ply in UNIQUE_PUBLISHED:
        return UNIQUE_PUBLISHED[ply]
    growth = UNIQUE_PUBLISHED[9] / UNIQUE_PUBLISHED[8]
    u = UNIQUE_PUBLISHED[9]
    for _ in range(9, ply):
        growth *= 0.95
        u *= growth
    return u


def perft_at(ply):
    return PERFT.get(ply) or PATHS[ply]


def groups_at(ply):
    """Measured to ply 6; past it the last growth, shrinking 5% a ply."""
    if ply in GROUPS:
        return GROUPS[ply]
    last = max(GROUPS)
    growth, g = GROUPS[last] / GROUPS[last - 1], GROUPS[last]
    for _ in range(last, ply):
        growth *= 0.95
        g *= growth
    return g


def balance(sizes, ranks):
    """balance_buckets (jobs/perft/dedup.cpp): owners b % ranks, then the biggest bucket of
    the busiest rank at most half its gap to the idlest moves there, until the busiest is
    within 1% of the mean or no bucket fits. Returns the busiest rank's load over the mean."""
    owner = np.arange(len(sizes)) % ranks
    load = np.bincount(owner, weights=sizes, minlength=ranks)
    mean = sizes.sum() / ranks
    for _ in range(len(sizes)):
        busiest, idlest = int(load.argmax()), int(load.argmin())
        if load[busiest] <= 1.01 * mean:
            break
        fits = (owner == busiest) & (sizes > 0) & (sizes <= (load[busiest] - load[idlest]) / 2)
        if not fits.any():
            break
        best = int(np.flatnonzero(fits)[sizes[fits].argmax()])
        owner[best] = idlest
        load[busiest] -= sizes[best]
        load[idlest] += sizes[best]
    return load.max() / mean


def balanced_slowest(ply, ranks, seed=1):
    """The slowest rank over the mean after balancing, for G(ply) groups of lognormal sizes."""
    if ranks == 1:
        return 1.0
    rng = np.random.default_rng(seed)
    groups = int(min(groups_at(ply), 2e7))  # past 2e7 groups the buckets are smooth anyway
    sigma = np.sqrt(np.log(1 + GROUP_CV ** 2))
    sizes = rng.lognormal(-sigma ** 2 / 2, sigma, groups)
    buckets = np.bincount(rng.integers(0, BUCKETS, groups), weights=sizes, minlength=BUCKETS)
    return balance(buckets, ranks)


def bucket_seconds(path):
    with h5py.File(path, "r") as f:
        return f["buckets"]["seconds"][:].astype(float).sum()


def measured_dedup(path, base=None):
    """What a deduplicated run measured: per child, per record, per node; the work factor."""
    with h5py.File(path, "r") as f:
        lv = f["levels"]
        last = int(lv["run"][:].max())
        pick = lv["run"][:] == last
        col = {k: lv[k][:][pick] for k in ("rank", "ply", "unique", "children", "bytes_sent", "seconds",
                                              "exchange_seconds")}
        bucket_secs = f["buckets"]["seconds"][:].astype(float)
        meta = {k: int(f.attrs[k]) for k in ("depth", "dedup_ply", "split_depth")}
    ranks = int(col["rank"].max()) + 1
    routed = col["ply"] > meta["split_depth"]
    children = col["children"][routed].sum()
    compute = (col["seconds"] - col["exchange_seconds"])[routed].sum()
    remote = children * (ranks - 1) / ranks
    plies = sorted(set(col["ply"]))
    per_ply = {p: (col["unique"][col["ply"] == p].sum(), col["children"][col["ply"] == p].sum()) for p in plies}
    moves = [per_ply[p][1] / per_ply[p - 1][0] for p in plies if p - 1 in per_ply]
    L, D = meta["dedup_ply"], meta["depth"]
    nodes = PERFT.get(D) or PATHS[D]
    counted = nodes / (perft_at(L) / unique_at(L))  # nodes phase B walked
    one_rank = bucket_seconds(base) if base else bucket_secs.sum()
    factor = bucket_secs.sum() / one_rank
    return {
        "ranks": ranks, "depth": D, "dedup_ply": L,
        "seconds_per_child": compute / children,
        "bytes_per_record": col["bytes_sent"].sum() / remote if remote else 52.0,
        "children_per_position": moves[-1],
        "seconds_per_node": one_rank / counted,
        "work_factor": factor,
        "loss": max(0.0, (factor - 1) * ranks / (ranks - 1)) if ranks > 1 else 0.0,
    }


def dedup_time(m, depth, ply, ranks, network):
    """Seconds of perft(depth) deduplicated at ply on ranks ranks (one core each), and its
    phase A compute, network and phase B parts."""
    bandwidth, latency = NETWORKS[network] if network else (float("inf"), 0.0)
    moves = m["children_per_position"]
    compute = comm = 0.0
    for level in range(4, ply + 1):  # split depth 3
        moves_here = moves * 1.03 ** max(0, level - m["dedup_ply"])
        children = unique_at(level - 1) * moves_here
        compute += children * m["seconds_per_child"] / ranks
        if ranks > 1:
            per_rank = children * (ranks - 1) / ranks * m["bytes_per_record"] / ranks
            rounds = max(1.0, per_rank / ROUND_BYTES)
            comm += per_rank / bandwidth + rounds * (ranks - 1) * latency
    counted = perft_at(depth) / (perft_at(ply) / unique_at(ply))
    mean = counted * m["seconds_per_node"] * (1 + m["loss"] * (ranks - 1) / ranks) / ranks
    slowest = balanced_slowest(ply, ranks)
    phase_b = mean * slowest
    return compute + comm + phase_b, compute, comm, phase_b


def dedup_rows(m, depths, rank_counts, plies, networks, memory):
    rows = []
    for depth in depths:
        for ranks in rank_counts:
            for ply in plies:
                if ply > depth - 3:
                    continue
                need = (1.1 * unique_at(ply) + unique_at(ply - 1)) / ranks * 100
                if need > memory:
                    continue
                one = dedup_time(m, depth, ply, 1, None)[0]
                for net in networks:
                    total, a, c, b = dedup_time(m, depth, ply, ranks, net)
                    rows.append({"depth": depth, "ranks": ranks, "dedup_ply": ply, "network": net,
                                 "seconds": total, "phase_a": a, "network_seconds": c, "phase_b": b,
                                 "bytes_per_rank": need, "efficiency": one / (ranks * total),
                                 "core_hours": ranks * total / 3600})
    return rows


def dedup_main(args):
    m = measured_dedup(args.dedup, args.dedup_base)
    print(f"measured: perft({m['depth']}) at dedup ply {m['dedup_ply']} on {m['ranks']} ranks: "
          f"{m['seconds_per_child'] * 1e9:.0f} ns per child routed, {m['bytes_per_record']:.1f} bytes per record, "
          f"{m['children_per_position']:.1f} children per unique position, "
          f"{m['seconds_per_node'] * 1e9:.2f} ns per node counted, work factor {m['work_factor']:.3f} "
          f"(c = {m['loss']:.3f})")
    rows = dedup_rows(m, [int(d) for d in args.depths.split(",")], [int(r) for r in args.ranks.split(",")],
                      [int(p) for p in args.plies.split(",")], args.network.split(","), args.memory_per_rank)
    print(f"{'perft':>5} {'ranks':>6} {'ply':>3} {'net':>4} {'GB/rank':>7} {'phase A':>9} {'network':>9} "
          f"{'phase B':>10} {'hours':>9} {'core-h':>10} {'eff':>6}")
    for r in rows:
        print(f"{r['depth']:>5} {r['ranks']:>6} {r['dedup_ply']:>3} {r['network']:>4} {r['bytes_per_rank'] / 1e9:>7.2f} "
              f"{r['phase_a']:>9.0f} {r['network_seconds']:>9.0f} {r['phase_b']:>10.0f} "
              f"{r['seconds'] / 3600:>9.2f} {r['core_hours']:>10.0f} {r['efficiency']:>6.3f}")
    if args.json:
        print(json.dumps({"measured": m, "rows": rows}))


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
    p.add_argument("--units", help="result file of a measured run split into units")
    p.add_argument("--dedup", help="result file of a measured deduplicated run (--dedup-ply)")
    p.add_argument("--dedup-base", help="with --dedup: the same run on one rank, for the work factor")
    p.add_argument("--plies", default="7,8,9", help="with --dedup: dedup plies to model (default 7,8,9)")
    p.add_argument("--network", default="ib,eth", help="with --dedup: ib (100 Gb/s), eth (10 Gb/s) or both")
    p.add_argument("--memory-per-rank", type=float, default=4e9,
                   help="with --dedup: bytes of positions a rank may hold (default 4e9)")
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
    if args.dedup:
        return dedup_main(args)
    if not args.units:
        p.error("give --units FILE (split run) or --dedup FILE (deduplicated run)")
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
