"""A deduplicated perft summary as report blocks: the phases of each run, phase A per ply,
what the ranks sent, and the ranks' load as distributions; a row per rank only while the
ranks are few (perft_view.MAX_RANK_ROWS), and plots whose size does not grow with them."""
import numpy as np

from . import figures, formatting as fmt, perft_view
from .blocks import Heading, Paragraph, Table

# Each of the load's metrics (perft_dedup.LOAD) as the report names and prints it.
LOAD_ROWS = {
    "busy_seconds": ("phase B busy", fmt.seconds),
    "idle_seconds": ("phase B idle", fmt.seconds),
    "buckets": ("buckets counted", lambda x: fmt.count(round(x))),
    "positions": ("positions counted", lambda x: fmt.count(round(x))),
    "routing_seconds": ("phase A routing", fmt.seconds),
    "exchange_seconds": ("phase A in the exchange", fmt.seconds),
    "routing_work_seconds": ("phase A outside the exchange", fmt.seconds),
    "bytes_sent": ("bytes sent", fmt.size),
    "bytes_received": ("bytes received", fmt.size),
}
# The seconds of the load plotted side by side, under shorter names than the table's.
SECONDS_PLOTTED = {"busy_seconds": "B: busy", "idle_seconds": "B: idle", "routing_seconds": "A: routing",
                   "exchange_seconds": "A: in the\nexchange", "routing_work_seconds": "A: outside\nthe exchange"}
MAX_RANK_POINTS = 64  # up to this, every rank is a point on its box; beyond, a histogram shows the shape


def sections(s):
    where = f"`{s['fen']}`, depth {s['depth']}, split depth {s['split_depth']}, dedup ply {s['dedup_ply']}"
    return [
        Heading(f"perft, deduplicated: {s['path']}"),
        Paragraph(perft_view.headline(s, where, "buckets")),
        perft_view.overview(s, "buckets", [_unique_row(s)], "load balance (max/mean busy, phase B)"),
        *perft_view.divide_blocks(s),
        *_phases(s),
        *_routing(s),
        *_communication(s),
        *[block for run in _spread_runs(s) for block in _load(run)],
        *_rank_rows(s),
        *perft_view.time_table("Bucket times (phase B):", "buckets", s["bucket_seconds"]),
    ]


def _spread_runs(s):
    """The runs over more than one rank: one process sends nothing, and its load has no spread."""
    return [r for r in s["runs"] if r["ranks"] > 1]


def _unique_row(s):
    where = f"unique positions at ply {s['dedup_ply']}" + ("" if s["complete"] else " (buckets done)")
    return [where, fmt.count(s["unique_positions"])]


def _phases(s):
    if not s["runs"]:
        return []
    rows = [[r["run"], fmt.count(r["ranks"]), fmt.count(r["buckets"]), _part(r["phase_a_seconds"], r["wall_seconds"]),
             _part(r["phase_b_seconds"], r["wall_seconds"]), fmt.seconds(r["wall_seconds"])] for r in s["runs"]]
    return [Paragraph("Wall time per run by phase: A routes the positions over the ranks level by level (a ply "
                      "lasts as long as its slowest rank), B counts the buckets (the longest rank's busy + idle "
                      "time); planning and the first write of the file come before both. A stopped run has no "
                      "time for the phase it did not finish."),
            Table(["run", "ranks", "buckets counted", "phase A (routing)", "phase B (counting)", "A + B"], rows,
                  {1, 2, 3, 4, 5})]


def _part(seconds, whole):
    share = f" ({fmt.percent(seconds / whole)})" if seconds is not None and whole else ""
    return fmt.seconds(seconds) + share


def _routing(s):
    rows = [[r["run"], p["ply"], fmt.count(p["ranks"]), fmt.count(p["unique"]), p["rounds"],
             fmt.seconds(p["seconds"]["max"]), fmt.seconds(p["seconds"]["median"]), fmt.percent(p["exchange_share"])]
            for r in s["runs"] for p in r["plies"]]
    if not rows:
        return []
    return [Paragraph("Phase A by ply: unique positions over all ranks; seconds of the slowest and of the median "
                      "rank; exchange share: the part of the ranks' time inside the all-to-all exchange, waiting "
                      "for the slowest rank included."),
            Table(["run", "ply", "ranks", "unique positions", "rounds", "seconds max", "seconds median",
                   "exchange share"], rows, {1, 2, 3, 4, 5, 6, 7})]


def _communication(s):
    rows = []
    for r in _spread_runs(s):
        rows += [[r["run"], p["ply"], fmt.count(p["records_sent"]), fmt.size(p["bytes_sent"]["total"]),
                  fmt.size(p["bytes_received"]["total"]), _spread(p["bytes_sent"], fmt.size),
                  _spread(p["bytes_received"], fmt.size)] for p in r["plies"]]
        if len(r["plies"]) > 1:
            load = r["load"]
            rows.append([r["run"], "all", fmt.count(sum(p["records_sent"] for p in r["plies"])),
                         fmt.size(load["bytes_sent"]["total"]), fmt.size(load["bytes_received"]["total"]),
                         _spread(load["bytes_sent"], fmt.size), _spread(load["bytes_received"], fmt.size)])
    if not rows:
        return []
    return [Paragraph("Phase A communication by ply: records and bytes in all, and per rank (min / median / max):"),
            Table(["run", "ply", "records sent", "sent", "received", "sent per rank", "received per rank"], rows,
                  {2, 3, 4, 5, 6})]


def _spread(d, show):
    return " / ".join(show(d[k]) for k in ("min", "median", "max")) if d["count"] else "-"


def _load(run):
    rows = [[label, *(show(d[k]) for k in ("min", "median", "mean", "p90", "max")), fmt.ratio(d["max_over_mean"])]
            for name, (label, show) in LOAD_ROWS.items() if (d := run["load"].get(name)) and d["count"]]
    return [Paragraph(f"Load across the {fmt.count(run['ranks'])} ranks of run {run['run']} (max/mean: the "
                      "imbalance, 1.00 when every rank carries the mean):"),
            Table(["", "min", "median", "mean", "p90", "max", "max/mean"], rows, {1, 2, 3, 4, 5, 6})]


def _rank_rows(s):
    """A row per rank while they are few; past that the distributions above stand for them."""
    if len(s["ranks"]) > perft_view.MAX_RANK_ROWS:
        return [Paragraph(f"Each rank's own numbers ({fmt.count(len(s['ranks']))} rows) are in the JSON output "
                          "(--json: \"ranks\").")]
    columns = ("busy_seconds", "idle_seconds", "buckets", "routing_seconds", "exchange_seconds", "bytes_sent",
               "bytes_received")
    rows = [[r["run"], r["rank"], r.get("host") or "-",
             *(LOAD_ROWS[c][1](r[c]) if r.get(c) is not None else "-" for c in columns)] for r in s["ranks"]]
    return [Paragraph("Ranks:"),
            Table(["run", "rank", "host", "busy", "idle", "buckets", "routing", "exchange", "sent", "received"],
                  rows, set(range(3, 10)))] if rows else []


def plots(s, bytes_sent_per_ply, bucket_seconds):
    out = [_phase_plot(s)] if s["runs"] else []
    for run in _spread_runs(s):
        out.append(_load_plot(s, run))
        if run["run"] in bytes_sent_per_ply:
            out.append(_bytes_plot(s, run, bytes_sent_per_ply[run["run"]]))
    if len(bucket_seconds):
        out.append(perft_view.time_histogram(s["path"], bucket_seconds, "bucket"))
    return out


def _phase_plot(s):
    """Per run one bar: phase A's plies, then phase B."""
    fig, ax = figures.figure(8, 1.4 + 0.6 * len(s["runs"]))
    plies = sorted({p["ply"] for r in s["runs"] for p in r["plies"]})
    shades = {ply: figures.COLORS[0] if i % 2 == 0 else "#6baed6" for i, ply in enumerate(plies)}
    longest = max(sum(p["seconds"]["max"] for p in r["plies"]) + (r["phase_b_seconds"] or 0) for r in s["runs"])
    for y, r in enumerate(s["runs"]):
        left = 0.0
        segments = [(f"A{p['ply']}", p["seconds"]["max"], shades[p["ply"]]) for p in r["plies"]]
        if r["phase_b_seconds"] is not None:
            segments.append(("B", r["phase_b_seconds"], figures.COLORS[1]))
        for label, width, color in segments:
            ax.barh(y, width, left=left, color=color, edgecolor="white")
            if width > 0.04 * longest:  # a narrower segment has no room for its name
                ax.text(left + width / 2, y, label, ha="center", va="center", fontsize=8)
            left += width
    figures.label_y(ax, np.arange(len(s["runs"])), [_run_label(r) for r in s["runs"]])
    ax.invert_yaxis()
    ax.set_xlabel("seconds (A: routing ply by ply, B: counting buckets)")
    title = f"Wall time by phase: {s['path']}"
    ax.set_title(title, fontsize=10)
    return figures.plot(title, fig)


def _run_label(r):
    ranks = f"{r['ranks']} rank" + ("s" if r["ranks"] != 1 else "")
    return f"run {r['run']}\n{ranks}" + ("\nB not timed" if r["phase_b_seconds"] is None else "")


def _load_plot(s, run):
    """The spread of the ranks' seconds; past MAX_RANK_POINTS ranks also the histogram of
    the first of them (phase B's busy time when the run has it)."""
    ranks = [r for r in s["ranks"] if r["run"] == run["run"]]
    names = [n for n in SECONDS_PLOTTED if n in run["load"]]
    values = [np.array([r[n] for r in ranks if r.get(n) is not None], dtype=float) for n in names]
    many = len(ranks) > MAX_RANK_POINTS
    fig, axes = figures.figure(11 if many else 8, 4.2, ncols=2 if many else 1)
    boxes = axes[0] if many else axes
    _boxes(boxes, values, [SECONDS_PLOTTED[n] for n in names])
    boxes.set_ylabel("seconds per rank")
    if many:
        _histogram(axes[1], run["load"][names[0]], values[0], LOAD_ROWS[names[0]][0])
    title = f"Load across ranks: {s['path']}, run {run['run']} ({len(ranks)} ranks)"
    fig.suptitle(title, fontsize=10)
    return figures.plot(title, fig)


def _boxes(ax, series, labels):
    """A box per series (quartiles; whiskers at min and max), with a point per rank while
    they are few."""
    ax.boxplot(series, whis=(0, 100), showfliers=False)
    for i, v in enumerate(series):
        if len(v) <= MAX_RANK_POINTS:
            ax.scatter(i + 1 + np.linspace(-0.12, 0.12, len(v)), v, s=12, alpha=0.7, color=figures.COLORS[3], zorder=3)
    figures.label_x(ax, np.arange(1, len(series) + 1), labels)


def _histogram(ax, d, v, label):
    ax.hist(v, bins=40, color=figures.COLORS[0])
    ax.axvline(d["mean"], color=figures.COLORS[2], linestyle="--", label=f"mean {fmt.seconds(d['mean'])}")
    ax.axvline(d["max"], color=figures.COLORS[3], label=f"max {fmt.seconds(d['max'])}")
    ax.set_xlabel(f"{label}, seconds per rank")
    ax.set_ylabel("ranks")
    figures.counts_axis(ax)
    ax.set_title(f"max/mean {fmt.ratio(d['max_over_mean'])}", fontsize=9)
    ax.legend(fontsize=8)


def _bytes_plot(s, run, per_ply):
    """Per ply, the spread of the bytes each rank sent, with the ply's total."""
    fig, ax = figures.figure(8, 4)
    plies = sorted(per_ply)
    totals = {p["ply"]: p["bytes_sent"]["total"] for p in run["plies"]}
    sent = [np.array(per_ply[p], dtype=float) / 2 ** 20 for p in plies]
    _boxes(ax, sent, [f"ply {p}\n{fmt.size(totals.get(p))} in all" for p in plies])
    if all(v.min() > 0 for v in sent):  # each ply sends about ten times the last: on a linear scale the first vanish
        ax.set_yscale("log")
    ax.set_ylabel("MiB sent per rank (log scale)" if ax.get_yscale() == "log" else "MiB sent per rank")
    title = f"Bytes sent per rank and ply: {s['path']}, run {run['run']} ({run['ranks']} ranks)"
    ax.set_title(title, fontsize=10)
    return figures.plot(title, fig)


def compare_sections(c):
    rows = [[r["path"], r["depth"], r["dedup_ply"], r["ranks"] or "-", r["threads"] or "-", r["runs"],
             fmt.count(r["buckets_done"]), fmt.count(r["total"]), fmt.seconds(r["seconds"]),
             fmt.percent(r["phase_a_share"]), fmt.rate(r["nodes_per_second"], "nodes"), fmt.ratio(r["load_balance"])]
            for r in c["files"]]
    return [Heading("perft, deduplicated: files side by side"),
            Table(["file", "depth", "dedup ply", "ranks", "threads", "runs", "buckets done", "total", "seconds",
                   "phase A share", "nodes/s", "load balance"], rows, set(range(1, 12))),
            perft_view.totals_agreement(c)]
