"""A stats summary as report blocks: a table and a bar plot per distribution."""
from . import figures, formatting as fmt, stats
from .blocks import Heading, Paragraph, Table


def sections(s):
    n = s["records"]
    out = [
        Heading(f"stats: {s['path']}"),
        Paragraph(f"`{s['input']}` ({s['format']}): {fmt.count(n)} records, {fmt.count(s['duplicates'])} of them "
                  f"positions an earlier record has ({fmt.percent(s['duplicates'] / n if n else 0.0)})."),
    ]
    for name in stats.DISTRIBUTIONS:
        rows = [[b["label"], fmt.count(b["count"]), fmt.percent(b["count"] / n if n else 0.0)]
                for b in s[name] if b["count"]]
        out += [Paragraph(f"Records by {stats.TITLES[name]}:"), Table([name, "records", "share"], rows, {1, 2})]
    return out


def _bars(title, bins, series):
    return figures.grouped_bars(title, [b["label"] for b in bins], series, "records")


def plots(s, f):
    return [_bars(f"{stats.TITLES[name].capitalize()}: {s['path']}", s[name], [(s["path"], [b["count"] for b in s[name]])])
            for name in stats.DISTRIBUTIONS]


def compare_sections(c):
    rows = [[f, i, fmt.count(n), fmt.percent(d), *(fmt.percent(c["wdl"][k][j]) for k in ("win", "draw", "loss"))]
            for j, (f, i, n, d) in enumerate(zip(c["files"], c["inputs"], c["records"], c["duplicates"]))]
    return [Heading("stats files side by side"),
            Table(["file", "dataset", "records", "duplicates", "wins", "draws", "losses"], rows, {2, 3, 4, 5, 6})]


def compare_plots(c, files):
    out = []
    for name in stats.DISTRIBUTIONS:
        bins = c["summaries"][0][name]
        series = []
        for path, s in zip(c["files"], c["summaries"]):
            total = sum(b["count"] for b in s[name]) or 1
            series.append((path, [b["count"] / total for b in s[name]]))
        out.append(figures.grouped_bars(f"{stats.TITLES[name].capitalize()}, share of records", [b["label"] for b in bins],
                                        series, "share of records"))
    return out
