"""The numbers of a verify result file (jobs/verify/file.cpp): the engine, the positions
checked, nodes and engine time, the faults by kind and each fault's drill-down path."""
from collections import Counter

from chesshpc.h5read import attr_int, attr_text, column, provenance


def summarise(f):
    p, q = f["positions"], f["faults"]
    kinds = column(p, "fault")
    seconds = column(p, "engine_seconds")
    nodes = column(p, "nodes")
    traps = Counter(t for t in column(p, "trap") if t)
    return {
        "engine": attr_text(f, "engine"),
        "protocol": attr_text(f, "protocol"),
        "positions": attr_int(f, "positions", len(kinds)),
        "faults": attr_int(f, "faults", len(column(q, "kind"))),
        "nodes": int(nodes.sum()) if len(nodes) else 0,
        "engine_seconds": float(seconds.sum()) if len(seconds) else 0.0,
        "queries": int(column(p, "queries").sum()) if len(kinds) else 0,
        "max_depth": int(column(p, "depth").max()) if len(kinds) else 0,
        "by_kind": dict(Counter(k for k in kinds if k != "none")),
        "traps": dict(traps),
        "fault_rows": [
            {"position": int(pos), "kind": kind, "fen": fen, "depth": int(depth), "path_san": san, "line": line}
            for pos, kind, fen, depth, san, line in zip(column(q, "position"), column(q, "kind"), column(q, "fen"),
                                                       column(q, "depth"), column(q, "path_san"), column(q, "line"))
        ],
        "provenance": provenance(f),
    }


def compare(summaries):
    """Faults and engine time of each file, in the files' order."""
    return {
        "files": [s["path"] for s in summaries],
        "engines": [s["engine"] for s in summaries],
        "positions": [s["positions"] for s in summaries],
        "faults": [s["faults"] for s in summaries],
        "engine_seconds": [s["engine_seconds"] for s in summaries],
    }
