"""The numbers of a stats result file (jobs/dataset/stats.cpp): the dataset described, its
records and duplicates, and each distribution's bins (label, low end, count)."""
from chesshpc.h5read import attr_int, attr_text, column, provenance

# The distributions in the order the file's tables and chesshpc's text give them.
DISTRIBUTIONS = ("pieces", "ply", "score", "wdl", "phase")
TITLES = {
    "pieces": "pieces on the board (kings included)",
    "ply": "game ply, in bins of 10",
    "score": "score (centipawns, mover's view)",
    "wdl": "game result for the mover",
    "phase": "game phase (N, B 1; R 2; Q 4; 24 the start)",
}


def summarise(f):
    out = {
        "input": attr_text(f, "input"),
        "format": attr_text(f, "format"),
        "records": attr_int(f, "records", 0),
        "duplicates": attr_int(f, "duplicates", 0),
        "provenance": provenance(f),
    }
    for name in DISTRIBUTIONS:
        g = f[name]
        out[name] = [{"label": str(label), "from": int(lo), "count": int(n)}
                     for label, lo, n in zip(column(g, "label"), column(g, "from"), column(g, "count"))]
    return out


def compare(summaries):
    """Records, the duplicates' share and the results' shares of each file, in the files' order."""
    def share(s, label):
        n = next((b["count"] for b in s["wdl"] if b["label"] == label), 0)
        return n / s["records"] if s["records"] else 0.0

    return {
        "files": [s["path"] for s in summaries],
        "inputs": [s["input"] for s in summaries],
        "records": [s["records"] for s in summaries],
        "duplicates": [s["duplicates"] / s["records"] if s["records"] else 0.0 for s in summaries],
        "wdl": {label: [share(s, label) for s in summaries] for label in ("win", "draw", "loss", "none")},
        "summaries": [{k: s[k] for k in DISTRIBUTIONS} for s in summaries],
    }
