"""A verify summary as report blocks: the run, the faults by kind, each fault's line."""
from . import formatting as fmt
from .blocks import Heading, Paragraph, Table


def sections(s):
    out = [
        Heading(f"verify: {s['path']}"),
        Paragraph(f"Engine `{s['engine']}` ({s['protocol']}): {fmt.count(s['positions'])} positions to depth "
                  f"{s['max_depth']}, {fmt.count(s['nodes'])} nodes, {fmt.count(s['queries'])} engine queries, "
                  f"engine time {fmt.seconds(s['engine_seconds'])}; {fmt.count(s['faults'])} faults."),
    ]
    if s["by_kind"]:
        out.append(Table(["fault", "positions"], [[k, n] for k, n in sorted(s["by_kind"].items())], {1}))
    if s["traps"]:
        out.append(Table(["trap (--random)", "positions"], [[k, n] for k, n in sorted(s["traps"].items())], {1}))
    if s["fault_rows"]:
        out.append(Table(["position", "kind", "where", "depth", "path"],
                         [[r["position"], r["kind"], r["fen"], r["depth"], r["path_san"]] for r in s["fault_rows"]],
                         {0, 3}))
        out += [Paragraph(f"`{r['line']}`") for r in s["fault_rows"]]
    return out


def compare_sections(c):
    rows = [[f, e, p, n, fmt.seconds(t)]
            for f, e, p, n, t in zip(c["files"], c["engines"], c["positions"], c["faults"], c["engine_seconds"])]
    return [Heading("verify files side by side"),
            Table(["file", "engine", "positions", "faults", "engine time"], rows, {2, 3})]
