#!/usr/bin/env python3
"""chesshpc-report: any chesshpc result file as a report.

usage: report.py FILE.h5 [FILE2.h5 ...] [--html report.html] [--json] [--title T]

Markdown on stdout (or one JSON object with --json); --html also writes a self-contained
page with the plots. Several files of one job are also set side by side (bench files: a
scaling sweep, and only of one suite).
Exit codes as chesshpc's: 0 done, 2 bad usage, 3 not a result file this report knows,
4 a file that cannot be read or written. Use the analysis/chesshpc-report launcher,
which finds a Python with h5py, numpy and matplotlib.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from chesshpc_report import report  # noqa: E402
from chesshpc_report.errors import ReportError  # noqa: E402


def parse(argv):
    p = argparse.ArgumentParser(prog="chesshpc-report", description="Any chesshpc result file as a report.")
    p.add_argument("files", nargs="+", metavar="FILE.h5", help="chesshpc result files (perft, drawstats, selfplay, bench, verify)")
    p.add_argument("--html", metavar="PAGE", help="also write a self-contained HTML page with the plots")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of Markdown")
    p.add_argument("--title", help="title of the HTML page")
    return p.parse_args(argv)


def main(argv):
    args = parse(argv)
    try:
        loaded = report.load(args.files)
        sys.stdout.write(report.to_json(loaded) + "\n" if args.json else report.to_markdown(loaded))
        sys.stdout.flush()
        if args.html:
            title = args.title or "chesshpc report: " + ", ".join(os.path.basename(p) for p in args.files)
            plots = report.write_html(loaded, args.html, title)
            print(f"chesshpc-report: wrote {args.html} ({plots} plot{'' if plots == 1 else 's'})", file=sys.stderr)
    except ReportError as e:
        print(f"chesshpc-report: {e}", file=sys.stderr)
        return e.exit_code
    except BrokenPipeError:  # stdout piped into head and the like: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
