"""A bench summary as report blocks: tables for Markdown and HTML, plots for HTML; and a
scaling sweep's throughput, speed-up and efficiency."""
import numpy as np

from . import bench, figures, formatting as fmt
from .blocks import Heading, Paragraph, Table


def sections(s):
    out = [Heading(f"bench: {s['path']}"), Paragraph(_headline(s)), _machine(s),
           Paragraph("Throughput over the repeats:"), _throughput(s)]
    if s["stockfish"]:
        out += [Paragraph("chesshpc's perft (1 thread) against Stockfish's `go perft` on the same set and depth:"),
                _stockfish(s), *stockfish_warning(s["stockfish"])]
    return out


def stockfish_warning(ratios):
    """The caveat beside the ratios whose Stockfish runs were short (bench.STOCKFISH_SHORT_SECONDS)."""
    short = [r for r in ratios if r["short"]]
    if not short:
        return []
    shown = [r["ratio"] for r in short if r["ratio"] is not None]
    spread = f" (here {fmt.ratio(min(shown))} to {fmt.ratio(max(shown))})" if shown else ""
    return [Paragraph(f"Warning: {len(short)} of {len(ratios)} ratios are marked *short*: Stockfish ran under "
                      f"{bench.STOCKFISH_SHORT_SECONDS:g} s, and it is timed over UCI, so its time is mostly the "
                      f"round trip (the pipe, `go perft`'s start, reading its output), not move generation. "
                      f"These ratios{spread} are noise, not a comparison of the two programs; only runs of "
                      f"{bench.STOCKFISH_SHORT_SECONDS:g} s or more (deeper perfts) compare them.")]


def _headline(s):
    return (f"Suite {s['suite']} (version {s['suite_version']}) on {s['ranks']} x {s['threads']} (ranks x threads), "
            f"{fmt.plural(s['repeats'], 'repeat')} of each measurement, {fmt.seconds(s['seconds'])} in all.")


def _machine(s):
    m = s["machine"]
    rows = [["cpu", m["cpu_model"] or "-"],
            ["logical cpus / allowed", f"{fmt.count(m['logical_cpus'])} / {fmt.count(m['cpus_allowed'])}"],
            ["memory", f"{m['memory_bytes'] / 2**30:.1f} GiB" if m["memory_bytes"] else "-"],
            ["host (hosts)", f"{m['hostname']} ({m['hosts']})"], ["os", m["os"]],
            ["compiler, build", f"{m['compiler']}, {m['build_type']}"], ["flags", f"`{m['build_flags']}`"],
            ["native, pext", f"{_yes(m['native'])}, {_yes(m['pext'])}"],
            ["chesshpc", m["chesshpc_version"]], ["stockfish", m["stockfish"] or "none"], ["started", m["started_utc"]]]
    return Table(["machine", ""], rows)


def _yes(flag):
    return "-" if flag is None else ("yes" if flag else "no")


def _throughput(s):
    rows = [[r["benchmark"], r["set"], r["depth"], f"{r['ranks']} x {r['threads']}", fmt.count(r["nodes"]),
             fmt.seconds(r["median_seconds"]), fmt.rate(r["median_nodes_per_second"], "n"),
             fmt.rate(r["min_nodes_per_second"], "n"), fmt.rate(r["max_nodes_per_second"], "n"), r["repeats"]]
            for r in s["rows"]]
    return Table(["benchmark", "set", "depth", "ranks x threads", "nodes", "median time", "median n/s", "min n/s",
                  "max n/s", "repeats"], rows, {2, 4, 5, 6, 7, 8, 9})


def _stockfish(s):
    rows = [[r["set"], r["depth"], fmt.rate(r["chesshpc_nodes_per_second"], "n"),
             fmt.rate(r["stockfish_nodes_per_second"], "n"), fmt.seconds(r["stockfish_seconds"]),
             fmt.ratio(r["ratio"]) + (" (short)" if r["short"] else "")] for r in s["stockfish"]]
    return Table(["set", "depth", "chesshpc n/s", "stockfish n/s", "stockfish time", "ratio"], rows, {1, 2, 3, 4, 5})


LOG_SPAN = 20  # a throughput plot whose medians span more than this factor has a log scale


def plots(s):
    """Median n/s per benchmark, set and depth, with the repeats' min and max as error bars."""
    rows = s["rows"]
    fig, ax = figures.figure(8, 1.2 + 0.35 * len(rows))
    y = np.arange(len(rows))
    median = np.array([r["median_nodes_per_second"] for r in rows])
    spread = [median - [r["min_nodes_per_second"] for r in rows], [r["max_nodes_per_second"] for r in rows] - median]
    colors = [figures.COLORS[bench.ordered([r["benchmark"] for r in rows]).index(r["benchmark"]) % len(figures.COLORS)]
              for r in rows]
    ax.barh(y, median, xerr=spread, color=colors, capsize=2)
    short = {(r["set"], r["depth"]) for r in s["stockfish"] if r["short"]}
    figures.label_y(ax, y, [f"{r['benchmark']} {r['set']} d{r['depth']}" +
                            (" (short: UCI round trip)" if r["benchmark"] == "stockfish_perft" and
                             (r["set"], r["depth"]) in short else "") for r in rows])
    ax.invert_yaxis()
    scale = "linear"
    if median.min() > 0 and median.max() / median.min() > LOG_SPAN:
        scale = "log"
        ax.set_xscale("log")
        ax.set_xlim(left=median.min() / 4)
    ax.set_xlabel(f"nodes per second ({scale} scale; bars: median, whiskers: min and max over the repeats)")
    title = f"Throughput: {s['path']}"
    ax.set_title(title)
    return [figures.plot(title, fig)]


def compare_sections(c):
    files = c["files"]
    rows = [[f["path"], f["ranks"], f["threads"]] +
            [fmt.rate(c["nodes_per_second"][b][i], "n") for b in c["benchmarks"]] for i, f in enumerate(files)]
    scaled = list(c["speedup"])
    scaling = [[f["path"], f"{f['ranks']} x {f['threads']}"] +
               [f"{fmt.ratio(c['speedup'][b][i])} ({fmt.percent(c['efficiency'][b][i])})" for b in scaled]
               for i, f in enumerate(files)]
    out = [Heading("bench files side by side"),
           Paragraph(f"{len(files)} files of the {c['suite']} suite, by ranks x threads. A benchmark's n/s is its "
                     "summed nodes over its summed median times, over all its sets."),
           Table(["file", "ranks", "threads"] + c["benchmarks"], rows, set(range(1, 3 + len(c["benchmarks"]))))]
    if scaled:
        out += [Paragraph(f"Speed-up (efficiency: speed-up per core the benchmark used) against `{c['baseline']}`:"),
                Table(["file", "ranks x threads"] + scaled, scaling, set(range(1, 2 + len(scaled))))]
    return out


def compare_plots(c):
    out = []
    index = {f["path"]: i for i, f in enumerate(c["files"])}
    if len(c["against_threads"]) > 1:
        rows = [index[p] for p in c["against_threads"]]
        out.append(_scaling(c, "threads", [("", rows)], list(c["speedup"]),
                            "Speed-up and efficiency against threads (ranks = 1)"))
    if c["against_ranks"]:
        sweeps = [(f"{t} threads", [index[p] for p in paths]) for t, paths in c["against_ranks"].items()]
        over_ranks = [b for b in c["speedup"] if b in bench.OVER_RANKS]
        out.append(_scaling(c, "ranks", sweeps, over_ranks, "Speed-up and efficiency against ranks (threads equal)"))
    return out


def _scaling(c, axis, sweeps, benchmarks, title):
    """Speed-up (left, with the ideal line) and efficiency (right) of the given
    benchmarks along one axis, a line per benchmark and sweep."""
    fig, (left, right) = figures.figure(11, 4.5, ncols=2)
    base = c["files"][0]
    styles = ["-", "--", ":", "-."]
    for j, (sweep, rows) in enumerate(sweeps):
        x = [c["files"][i][axis] for i in rows]
        for k, b in enumerate(benchmarks):
            kw = {"color": figures.COLORS[k % len(figures.COLORS)], "linestyle": styles[j % len(styles)], "marker": "o",
                  "label": f"{b} {sweep}".strip()}
            left.plot(x, [_nan(c["speedup"][b][i]) for i in rows], **kw)
            right.plot(x, [_nan(c["efficiency"][b][i]) for i in rows], **kw)
        ideal = [c["files"][i]["cores"] / base["cores"] for i in rows]
        left.plot(x, ideal, color="#444", linewidth=0.8, linestyle=styles[j % len(styles)],
                  label=f"ideal {sweep}".strip())
    ticks = sorted({c["files"][i][axis] for _, rows in sweeps for i in rows})
    for ax in (left, right):
        ax.set_xlabel(axis)
        ax.set_xticks(ticks)
    left.set_ylabel(f"speed-up against {base['ranks']} x {base['threads']}")
    right.set_ylabel("efficiency (speed-up per core)")
    highest = max((e for b in c["efficiency"].values() for e in b if e is not None), default=1)
    right.set_ylim(0, max(1.2, 1.1 * highest))
    left.legend(fontsize=7)
    fig.suptitle(title)
    return figures.plot(title, fig)


def _nan(x):
    return float("nan") if x is None else x
