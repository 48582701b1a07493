"""The numbers of a bench result file (the contract: BENCH_FORMAT.md, job = "bench"): the
machine, per benchmark, set and depth the median throughput over the repeats with its min
and max, chesshpc's perft against Stockfish's, and for several files (a sweep over ranks
and threads) each benchmark's speed-up and efficiency against the smallest run.

Every number is computed from /measurements (one row per repeat); /summary is not read."""
import numpy as np

from .errors import EXIT_BAD_INPUT, ReportError
from chesshpc.h5read import attr_int, attr_real, attr_text, column

BENCHMARKS = ("movegen", "perft", "perft_threads", "hashed_perft", "search", "cluster_perft", "stockfish_perft")
MULTI_CORE = ("perft_threads", "hashed_perft", "search", "cluster_perft")
OVER_RANKS = ("cluster_perft",)  # the others run on rank 0 alone, whatever the rank count
MACHINE_TEXT = ("chesshpc_version", "started_utc", "cpu_model", "hostname", "hosts", "os", "compiler", "build_type",
                "build_flags", "stockfish")
MACHINE_INT = ("logical_cpus", "cpus_allowed", "memory_bytes", "native", "pext")
COLUMNS = ("benchmark", "set", "depth", "repeat", "threads", "ranks", "nodes", "seconds", "nodes_per_second")


def summarise(f):
    rows = measurement_rows(f)
    return {
        "suite": attr_text(f, "suite"),
        "suite_version": attr_int(f, "suite_version"),
        "ranks": attr_int(f, "ranks"),
        "threads": attr_int(f, "threads"),
        "repeats": attr_int(f, "repeats"),
        "seconds": attr_real(f, "seconds"),
        "machine": {**{k: attr_text(f, k) for k in MACHINE_TEXT}, **{k: attr_int(f, k) for k in MACHINE_INT}},
        "rows": rows,
        "stockfish": stockfish_ratios(rows),
        "benchmarks": benchmark_rates(rows),
    }


def measurement_rows(f):
    """One row per (benchmark, set, depth), in the file's order: the repeats' median, min
    and max nodes per second, and their median nodes and seconds."""
    m = {name: column(f["measurements"], name) for name in COLUMNS}
    if len(m["benchmark"]) == 0:
        raise ValueError("/measurements has no rows")
    keys = list(dict.fromkeys(zip(m["benchmark"], m["set"], m["depth"].tolist())))
    rows = []
    for bench, set_name, depth in keys:
        mine = (m["benchmark"] == bench) & (m["set"] == set_name) & (m["depth"] == depth)
        nps = m["nodes_per_second"][mine].astype(float)
        rows.append({"benchmark": str(bench), "set": str(set_name), "depth": int(depth), "repeats": int(mine.sum()),
                     "threads": int(m["threads"][mine].max()), "ranks": int(m["ranks"][mine].max()),
                     "nodes": int(np.median(m["nodes"][mine].astype(float))),
                     "median_seconds": float(np.median(m["seconds"][mine])),
                     "median_nodes_per_second": float(np.median(nps)),
                     "min_nodes_per_second": float(nps.min()), "max_nodes_per_second": float(nps.max())})
    return rows


# Stockfish is timed from outside, over UCI: each run pays a pipe round trip, `go perft`'s
# start and its output's parsing. Under this median time that overhead, not move generation,
# sets its n/s (the quick suite's ratios of 4.6x to 36.7x were that), so the ratio is flagged.
STOCKFISH_SHORT_SECONDS = 1.0


def stockfish_ratios(rows):
    """chesshpc's perft median n/s over Stockfish's perft median n/s on the same set and depth;
    short: Stockfish's median time is under STOCKFISH_SHORT_SECONDS, so the ratio is mostly
    the UCI round trip's cost."""
    ours = {(r["set"], r["depth"]): r["median_nodes_per_second"] for r in rows if r["benchmark"] == "perft"}
    out = []
    for r in rows:
        key = (r["set"], r["depth"])
        if r["benchmark"] == "stockfish_perft" and key in ours:
            theirs = r["median_nodes_per_second"]
            out.append({"set": key[0], "depth": key[1], "chesshpc_nodes_per_second": ours[key],
                        "stockfish_nodes_per_second": theirs, "ratio": ours[key] / theirs if theirs > 0 else None,
                        "stockfish_seconds": r["median_seconds"],
                        "short": r["median_seconds"] < STOCKFISH_SHORT_SECONDS})
    return out


def benchmark_rates(rows):
    """Per benchmark over all its sets: summed median nodes over summed median seconds (the
    whole benchmark's throughput in a median repeat), and the cores it ran on."""
    out = {}
    for bench in ordered(r["benchmark"] for r in rows):
        mine = [r for r in rows if r["benchmark"] == bench]
        nodes, seconds = sum(r["nodes"] for r in mine), sum(r["median_seconds"] for r in mine)
        out[bench] = {"nodes": nodes, "seconds": seconds, "nodes_per_second": nodes / seconds if seconds > 0 else None,
                      "cores": max(r["threads"] * r["ranks"] for r in mine)}
    return out


def ordered(names):
    """Benchmark names in the suite's order, unknown ones after."""
    names = set(names)
    return [b for b in BENCHMARKS if b in names] + sorted(names - set(BENCHMARKS))


def compare(summaries):
    """A scaling sweep: files ordered by ranks x threads, each benchmark's throughput, and
    for the multi-core benchmarks speed-up and efficiency against the smallest file."""
    _same_suite(summaries)
    files = sorted(summaries, key=lambda s: (s["ranks"] * s["threads"], s["ranks"], s["threads"]))
    base = files[0]
    benchmarks = ordered(b for s in files for b in s["benchmarks"])
    rate = {b: [s["benchmarks"].get(b, {}).get("nodes_per_second") for s in files] for b in benchmarks}
    speedup, efficiency = {}, {}
    for b in (b for b in MULTI_CORE if b in benchmarks):
        cores = [s["benchmarks"].get(b, {}).get("cores") for s in files]
        speedup[b] = [_ratio(r, rate[b][0]) for r in rate[b]]
        efficiency[b] = [_ratio(sp, _ratio(n, cores[0])) for sp, n in zip(speedup[b], cores)]
    return {
        "suite": base["suite"],
        "files": [{"path": s["path"], "ranks": s["ranks"], "threads": s["threads"], "cores": s["ranks"] * s["threads"],
                   "hostname": s["machine"]["hostname"]} for s in files],
        "baseline": base["path"],
        "benchmarks": benchmarks,
        "nodes_per_second": rate,
        "speedup": speedup,
        "efficiency": efficiency,
        "against_threads": [s["path"] for s in files if s["ranks"] == 1],
        "against_ranks": _ranks_sweeps(files),
    }


def _ratio(a, b):
    return a / b if a is not None and b else None


def _ranks_sweeps(files):
    """Per thread count, the files with that many threads, when they differ in ranks."""
    out = {}
    for threads in sorted({s["threads"] for s in files}):
        mine = [s for s in files if s["threads"] == threads]
        if len({s["ranks"] for s in mine}) > 1:
            out[str(threads)] = [s["path"] for s in mine]
    return out


def _same_suite(summaries):
    suites = {(s["suite"], s["suite_version"]) for s in summaries}
    if len(suites) > 1:
        kinds = ", ".join(f"{s['path']}: {s['suite']} v{s['suite_version']}" for s in summaries)
        raise ReportError(f"bench files of different suites cannot be set side by side ({kinds}); "
                          "give files of one suite and suite_version", EXIT_BAD_INPUT)
