"""The numbers of a deduplicated perft file (jobs/perft/dedup_file.cpp, job "perft_dedup").

A run has two phases: A routes the positions level by level over the ranks (/levels, a
row per rank and ply), B counts the buckets of the dedup ply, each on its owner (/buckets,
and /ranks for the ranks' busy and idle time). Per run: each phase's wall time, phase A
per ply, and each rank's load as distributions across the ranks, so that a run on 1,000
ranks sums up in as many numbers as one on 2 (every rank's totals stay in "ranks")."""
import numpy as np

from . import perft
from .distribution import describe
from chesshpc.h5read import attr_int, attr_text, column, number, provenance

BUCKET_COLUMNS = ("positions", "nodes", "seconds", "rank", "run", "done")
LEVEL_COLUMNS = ("run", "rank", "ply", "unique", "records_sent", "records_received", "bytes_sent", "bytes_received",
                 "rounds", "seconds", "exchange_seconds")
RANK_COLUMNS = ("run", "rank", "host", "busy_seconds", "idle_seconds")

# Each rank's share of a run, in the order the report lists them: phase B, then phase A.
LOAD = ("busy_seconds", "idle_seconds", "buckets", "positions", "routing_seconds", "exchange_seconds",
        "routing_work_seconds", "bytes_sent", "bytes_received")


def summarise(f):
    buckets, levels, ranks = _buckets(f), _table(f, "levels", LEVEL_COLUMNS), _table(f, "ranks", RANK_COLUMNS)
    runs, rank_rows = [], []
    for run in _run_ids(buckets, levels, ranks):
        summary, rows = _run(run, _rows(levels, levels["run"] == run), _rows(ranks, ranks["run"] == run),
                             _rows(buckets, buckets["done"] & (buckets["run"] == run)))
        runs.append(summary)
        rank_rows += rows
    seconds, source = perft.wall_seconds(runs, buckets, perft.timestamps(f) if len(runs) == 1 else None,
                                         "phases A + B")
    counted = sum(r["nodes"] for r in runs)
    done = int(buckets["done"].sum())
    return {
        **perft.root(f),
        "dedup_ply": attr_int(f, "dedup_ply"),
        "buckets": len(buckets["done"]),
        "buckets_done": done,
        "buckets_left": len(buckets["done"]) - done,
        "bucket_hash": attr_text(f, "bucket_hash"),
        "unique_positions": int(buckets["positions"][buckets["done"]].sum()),
        "nodes_counted": counted,
        "seconds": seconds,
        "seconds_source": source,
        "nodes_per_second": perft.rate(runs, counted, seconds),
        "runs": runs,
        "resumed": len(runs) > 1,
        "buckets_resumed": sum(r["buckets"] for r in runs[:-1]),
        "load_balance": next((r["load_balance"] for r in reversed(runs) if r["load_balance"] is not None), None),
        "bucket_seconds": describe(buckets["seconds"][buckets["done"]]),
        "ranks": rank_rows,
        "hosts": [h for h in attr_text(f, "hosts").split(",") if h],
        "divide": perft.divide(f),
        "provenance": provenance(f),
    }


def bucket_seconds(f):
    """Seconds of every counted bucket (for the histogram)."""
    b = _buckets(f)
    return b["seconds"][b["done"]]


def bytes_sent_per_ply(f):
    """Per run, per ply: the bytes each rank sent (for the plots of their spread)."""
    levels = _table(f, "levels", LEVEL_COLUMNS)
    out = {}
    for run, ply, sent in zip(levels["run"].tolist(), levels["ply"].tolist(), levels["bytes_sent"].tolist()):
        out.setdefault(run, {}).setdefault(ply, []).append(sent)
    return out


def _table(f, name, names):
    """A group's columns as arrays; ValueError unless they are equally long, since a row
    is read across them."""
    table = {c: column(f[name], c) for c in names}
    if len({len(v) for v in table.values()}) > 1:
        raise ValueError(f"/{name}: its columns have different lengths")
    return table


def _buckets(f):
    b = _table(f, "buckets", BUCKET_COLUMNS)
    if len(b["done"]) != attr_int(f, "buckets", len(b["done"])):
        raise ValueError(f"/buckets has {len(b['done'])} rows, its 'buckets' attribute says {attr_int(f, 'buckets')}")
    b["done"] = b["done"].astype(bool)
    b["nodes"] = np.array([int(n) for n in b["nodes"]], dtype=object)  # exact: a bucket can pass 2**64
    return b


def _rows(table, mask):
    return {name: values[mask] for name, values in table.items()}


def _run_ids(buckets, levels, ranks):
    """Every run that routed, counted a bucket or left its ranks' times: a run stopped in
    phase B has no /ranks rows, one stopped in phase A no buckets."""
    ids = set(levels["run"].tolist()) | set(ranks["run"].tolist()) | set(buckets["run"][buckets["done"]].tolist())
    return sorted(ids)


def _run(run, levels, ranks, counted):
    """A run's summary and its ranks' rows."""
    load = _per_rank(levels, ranks, counted)
    plies = [_ply(_rows(levels, levels["ply"] == p)) for p in sorted(set(levels["ply"].tolist()))]
    # The ranks leave each ply together (the exchange is collective): its slowest rank's time is its wall time.
    phase_a = sum(p["seconds"]["max"] for p in plies) if plies else None
    phase_b = float((ranks["busy_seconds"] + ranks["idle_seconds"]).max()) if len(ranks["rank"]) else None
    wall = phase_a + phase_b if phase_a is not None and phase_b is not None else None
    spread = {name: describe(_known(load[name])) for name in LOAD if name in load}
    summary = {
        "run": run,
        "ranks": len(load["rank"]),
        "buckets": len(counted["done"]),
        "positions": int(counted["positions"].sum()),
        "nodes": sum(counted["nodes"]),
        "phase_a_seconds": phase_a,
        "phase_b_seconds": phase_b,
        "wall_seconds": wall,
        "phase_a_share": phase_a / wall if wall else None,
        "plies": plies,
        "load": spread,
        "load_balance": spread.get("busy_seconds", {}).get("max_over_mean"),
    }
    rows = [{"run": run, **{name: number(load[name][r]) for name in ("rank", "host") + LOAD if name in load}}
            for r in range(len(load["rank"]))]
    return summary, rows


def _known(values):
    """The values of the ranks that recorded one (NaN: a rank without a row)."""
    return values[~np.isnan(values)] if values.dtype.kind == "f" else values


def _per_rank(levels, ranks, counted):
    """Per rank of the run (0 to its highest rank), each of LOAD the run recorded: phase B
    from /ranks and the buckets it counted, phase A summed over the plies."""
    for name, table in (("levels", levels), ("ranks", ranks), ("buckets", counted)):
        if (table["rank"] < 0).any():
            raise ValueError(f"/{name}: a negative rank")
    n = 1 + max((int(t["rank"].max()) for t in (levels, ranks, counted) if len(t["rank"])), default=-1)
    load = {"rank": np.arange(n)}
    if len(ranks["rank"]):
        for name in ("host", "busy_seconds", "idle_seconds"):
            load[name] = _placed(n, ranks["rank"], ranks[name])
    if len(counted["rank"]):
        load["buckets"] = np.bincount(counted["rank"], minlength=n)
        load["positions"] = _summed(n, counted["rank"], counted["positions"])
    if len(levels["rank"]):
        for name in ("seconds", "exchange_seconds", "bytes_sent", "bytes_received"):
            load["routing_seconds" if name == "seconds" else name] = _summed(n, levels["rank"], levels[name])
        # Outside the exchange: the rank's own expanding and merging, where phase A's imbalance shows
        # (inside, every rank waits for the slowest).
        load["routing_work_seconds"] = load["routing_seconds"] - load["exchange_seconds"]
    return load


def _placed(n, ranks, values):
    """values at their ranks' places; NaN (or None) where a rank has no row."""
    out = np.full(n, np.nan) if values.dtype.kind == "f" else np.full(n, None, dtype=object)
    out[ranks] = values
    return out


def _summed(n, ranks, values):
    """Per rank, the sum of its values: exact for integers."""
    out = np.zeros(n, dtype=np.int64 if values.dtype.kind in "iu" else float)
    np.add.at(out, ranks, values.astype(out.dtype))
    return out


def _ply(rows):
    """One ply of phase A over the ranks: what they hold and sent in all, and how their
    seconds and bytes spread."""
    seconds, exchange = rows["seconds"], rows["exchange_seconds"]
    return {
        "ply": int(rows["ply"][0]),
        "ranks": len(seconds),
        "unique": int(rows["unique"].sum()),
        "records_sent": int(rows["records_sent"].sum()),
        "records_received": int(rows["records_received"].sum()),
        "bytes_sent": describe(rows["bytes_sent"].astype(np.int64)),
        "bytes_received": describe(rows["bytes_received"].astype(np.int64)),
        "rounds": int(rows["rounds"].max()),
        "seconds": describe(seconds),
        "exchange_seconds": describe(exchange),
        # Of the ranks' time in all, the part inside the exchange, waiting for the slowest included.
        "exchange_share": float(exchange.sum() / seconds.sum()) if seconds.sum() > 0 else None,
    }


def compare(summaries):
    """One row per file for a side-by-side table (e.g. 2 against 1,000 ranks), and whether
    the complete files of the same FEN and depth agree on the total."""
    rows = [perft.compare_row(s, dedup_ply=s["dedup_ply"], buckets_done=s["buckets_done"],
                              phase_a_share=s["runs"][-1]["phase_a_share"] if s["runs"] else None)
            for s in summaries]
    return {"files": rows, "totals_agree": perft.totals_agree(summaries)}
