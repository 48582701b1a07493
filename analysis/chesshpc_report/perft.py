"""The numbers of a perft result file (jobs/perft/file.cpp): total, verification, divide,
unit times, and per run the units counted and each rank's busy and idle time. What the
deduplicated perft file shares with it (perft_dedup.py) is read here too."""
from datetime import datetime

from . import published
from .distribution import describe
from chesshpc.h5read import attr_int, attr_text, column, provenance


def summarise(f):
    units = _units(f)
    ranks = _ranks(f)
    runs = _runs(units, ranks)
    seconds, source = wall_seconds(runs, units, timestamps(f) if len(runs) == 1 else None)
    counted = sum(r["nodes"] for r in runs)
    done = int(units["done"].sum())
    return {
        **root(f),
        "units": attr_int(f, "units", len(units["done"])),
        "units_done": done,
        "units_left": len(units["done"]) - done,
        "nodes_counted": counted,
        "seconds": seconds,
        "seconds_source": source,
        "nodes_per_second": rate(runs, counted, seconds),
        "runs": runs,
        "resumed": len(runs) > 1,
        "units_resumed": sum(r["units"] for r in runs[:-1]),
        "load_balance": next((r["load_balance"] for r in reversed(runs) if r["load_balance"] is not None), None),
        "unit_seconds": describe(units["seconds"][units["done"]]),
        "ranks": [dict(zip(("run", "rank", "host", "busy_seconds", "idle_seconds"), row)) for row in ranks],
        "hosts": [h for h in attr_text(f, "hosts").split(",") if h],
        "divide": divide(f),
        "provenance": provenance(f),
    }


def root(f):
    """What every perft file says of its job: the position, the depths, and the total of a
    complete file with its verification against the published count."""
    complete = bool(attr_int(f, "complete", 0))
    total = attr_int(f, "total") if complete else None
    fen, depth = attr_text(f, "fen"), attr_int(f, "depth")
    return {
        "fen": fen,
        "depth": depth,
        "split_depth": attr_int(f, "split_depth"),
        "complete": complete,
        "total": total,
        "published": published.published_count(fen, depth),
        "verification": published.verify(fen, depth, total),
    }


def unit_seconds(f):
    """Seconds of every counted unit (for the histogram)."""
    u = _units(f)
    return u["seconds"][u["done"]]


def _units(f):
    g = f["units"]
    done = column(g, "done").astype(bool)
    return {
        "done": done,
        "multiplicity": column(g, "multiplicity"),
        "nodes": column(g, "nodes"),
        "seconds": column(g, "seconds").astype(float),
        "run": column(g, "run").astype(int),
    }


def _ranks(f):
    if "ranks" not in f:
        return []
    g = f["ranks"]
    cols = [column(g, c) for c in ("run", "rank", "host", "busy_seconds", "idle_seconds")]
    return [(int(r), int(k), str(h), float(b), float(i)) for r, k, h, b, i in zip(*cols)]


def _runs(units, ranks):
    """One entry per run that counted units or left rank times: what it counted, its wall
    time (the longest rank's busy + idle) and its load balance (max busy / mean busy)."""
    ids = sorted(set(units["run"][units["done"]].tolist()) | {r[0] for r in ranks})
    runs = []
    for run in ids:
        mine = units["done"] & (units["run"] == run)
        nodes = sum(int(m) * int(n) for m, n in zip(units["multiplicity"][mine], units["nodes"][mine]))
        busy = [r[3] for r in ranks if r[0] == run]
        wall = max((r[3] + r[4] for r in ranks if r[0] == run), default=None)
        mean = sum(busy) / len(busy) if busy else 0
        runs.append({
            "run": run,
            "units": int(mine.sum()),
            "nodes": nodes,
            "unit_seconds": float(units["seconds"][mine].sum()),
            "ranks": len(busy),
            "wall_seconds": wall,
            "load_balance": max(busy) / mean if mean > 0 else None,
        })
    return runs


def wall_seconds(runs, units, timestamps, timed_by="ranks"):
    """Wall time of the runs that recorded their ranks' times (to the microsecond; the
    source named timed_by); else finished - started of a single run (to the second); else
    the sum of unit times."""
    walls = [r["wall_seconds"] for r in runs if r["wall_seconds"] is not None]
    untimed = [str(r["run"]) for r in runs if r["wall_seconds"] is None]
    if walls:  # a run stopped before its end leaves no rank times
        return sum(walls), timed_by + (f"; run {', '.join(untimed)} not timed" if untimed else "")
    if timestamps:
        return timestamps, "started/finished"
    if units["done"].any():
        return float(units["seconds"][units["done"]].sum()), "unit seconds"
    return None, "none"


def timestamps(f):
    """finished - started in seconds, or None when the run has not finished or took under a second."""
    try:
        start, end = (datetime.strptime(attr_text(f, k), "%Y-%m-%dT%H:%M:%SZ") for k in ("started", "finished"))
    except ValueError:
        return None
    seconds = (end - start).total_seconds()
    return seconds if seconds > 0 else None


def rate(runs, counted, seconds):
    if not seconds:
        return None
    # Where runs are timed the seconds are theirs only, and so must the nodes be.
    timed = [r["nodes"] for r in runs if r["wall_seconds"] is not None]
    return (sum(timed) if timed else counted) / seconds


def divide(f):
    """Root move to exact count, biggest first; empty until the file is complete."""
    if "divide" not in f:
        return {}
    moves, nodes = column(f["divide"], "move"), column(f["divide"], "nodes")
    pairs = sorted(((str(m), int(n)) for m, n in zip(moves, nodes)), key=lambda p: (-p[1], p[0]))
    return dict(pairs)


def compare(summaries):
    """One row per file for a side-by-side table (e.g. 1 against 8 ranks), and whether the
    complete files of the same FEN and depth agree on the total."""
    rows = [compare_row(s, units=s["units"], units_done=s["units_done"]) for s in summaries]
    return {"files": rows, "totals_agree": totals_agree(summaries)}


def compare_row(s, **own):
    """A file's row of the side-by-side table, with what its job adds (own) after its runs."""
    return {
        "path": s["path"],
        "fen": s["fen"],
        "depth": s["depth"],
        "ranks": s["provenance"].get("ranks"),
        "threads": s["provenance"].get("threads"),
        "runs": len(s["runs"]),
        **own,
        "total": s["total"],
        "seconds": s["seconds"],
        "nodes_per_second": s["nodes_per_second"],
        "load_balance": s["load_balance"],
    }


def totals_agree(summaries):
    """Whether the complete files of each FEN and depth give one total."""
    jobs = {}
    for s in summaries:
        if s["total"] is not None:
            jobs.setdefault((s["fen"], s["depth"]), set()).add(s["total"])
    return all(len(t) == 1 for t in jobs.values())
