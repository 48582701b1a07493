"""One report over result files: summaries, comparisons of files of the same job, and
their rendering as Markdown, JSON and HTML."""
import json

from . import html, markdown
from .blocks import Plot
from .errors import EXIT_BAD_INPUT, EXIT_IO, ReportError
from .jobs import JOBS
from chesshpc.h5read import job_of, open_result


class Loaded:
    """An open result file and its summary."""

    def __init__(self, path):
        self.path = path
        self.file = open_result(path)
        self.job = job_of(self.file)
        if self.job not in JOBS:
            raise ReportError(f"'{path}' holds a '{self.job}' result; reports exist for: {', '.join(sorted(JOBS))}",
                              EXIT_BAD_INPUT)
        try:
            self.summary = {"path": path, "job": self.job, **JOBS[self.job].summarise(self.file)}
        except (KeyError, ValueError, TypeError) as e:
            raise ReportError(f"'{path}' is not a well-formed chesshpc {self.job} file: {e}", EXIT_BAD_INPUT)
        except OSError as e:  # HDF5 cannot read a damaged dataset (a chunk that no longer inflates)
            raise ReportError(f"cannot read '{path}': its data is damaged: {' '.join(str(e).split())}", EXIT_IO)


def load(paths):
    return [Loaded(p) for p in paths]


def by_job(loaded):
    """Files grouped by job, in order of first appearance."""
    groups = {}
    for item in loaded:
        groups.setdefault(item.job, []).append(item)
    return groups


def comparisons(loaded):
    return {job: JOBS[job].compare([i.summary for i in items])
            for job, items in by_job(loaded).items() if len(items) > 1}


def to_json(loaded):
    return json.dumps({"files": [i.summary for i in loaded], "comparisons": comparisons(loaded)}, indent=1)


def blocks(loaded, with_plots):
    """Each file's tables (and plots), then the side-by-side tables (and plots) per job."""
    out = []
    for item in loaded:
        job = JOBS[item.job]
        out += job.sections(item.summary)
        if with_plots:
            out += job.plots(item.summary, item.file)
    for name, c in comparisons(loaded).items():
        job = JOBS[name]
        out += job.compare_sections(c)
        if with_plots:
            out += job.compare_plots(c, [i.file for i in by_job(loaded)[name]])
    return out


def to_markdown(loaded):
    return markdown.render(blocks(loaded, with_plots=False))


def write_html(loaded, path, title):
    page_blocks = blocks(loaded, with_plots=True)
    page = html.render(title, page_blocks)
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(page)
    except OSError as e:
        raise ReportError(f"cannot write '{path}': {e.strerror}", EXIT_IO)
    return sum(isinstance(b, Plot) for b in page_blocks)
