"""The report of each job, by the value of a result file's root attribute 'job'.

A new job plugs in with one entry: how to summarise one file into
JSON-ready numbers, how to show that summary (tables, then plots read from the file),
and how to set several summaries side by side."""
from dataclasses import dataclass
from typing import Callable

from . import (bench, bench_view, drawstats, drawstats_view, perft, perft_dedup, perft_dedup_view, perft_view, selfplay,
               selfplay_view, stats, stats_view, verify, verify_view)


@dataclass(frozen=True)
class JobReport:
    summarise: Callable  # (h5py.File) -> dict
    sections: Callable  # (summary) -> [Block]
    plots: Callable  # (summary, h5py.File) -> [Plot]
    compare: Callable  # ([summary]) -> dict
    compare_sections: Callable  # (comparison) -> [Block]
    compare_plots: Callable  # (comparison, [h5py.File]) -> [Plot]


JOBS = {
    "perft": JobReport(
        summarise=perft.summarise,
        sections=perft_view.sections,
        plots=lambda s, f: perft_view.plots(s, perft.unit_seconds(f)),
        compare=perft.compare,
        compare_sections=perft_view.compare_sections,
        compare_plots=lambda c, files: perft_view.compare_plots(c),
    ),
    "perft_dedup": JobReport(
        summarise=perft_dedup.summarise,
        sections=perft_dedup_view.sections,
        plots=lambda s, f: perft_dedup_view.plots(s, perft_dedup.bytes_sent_per_ply(f), perft_dedup.bucket_seconds(f)),
        compare=perft_dedup.compare,
        compare_sections=perft_dedup_view.compare_sections,
        compare_plots=lambda c, files: perft_view.compare_plots(c),
    ),
    "drawstats": JobReport(
        summarise=drawstats.summarise,
        sections=drawstats_view.sections,
        plots=drawstats_view.plots,
        compare=drawstats.compare,
        compare_sections=drawstats_view.compare_sections,
        compare_plots=drawstats_view.compare_plots,
    ),
    "selfplay": JobReport(
        summarise=selfplay.summarise,
        sections=selfplay_view.sections,
        plots=selfplay_view.plots,
        compare=selfplay.compare,
        compare_sections=selfplay_view.compare_sections,
        compare_plots=selfplay_view.compare_plots,
    ),
    "bench": JobReport(
        summarise=bench.summarise,
        sections=bench_view.sections,
        plots=lambda s, f: bench_view.plots(s),
        compare=bench.compare,
        compare_sections=bench_view.compare_sections,
        compare_plots=lambda c, files: bench_view.compare_plots(c),
    ),
    "verify": JobReport(
        summarise=verify.summarise,
        sections=verify_view.sections,
        plots=lambda s, f: [],
        compare=verify.compare,
        compare_sections=verify_view.compare_sections,
        compare_plots=lambda c, files: [],
    ),
    "stats": JobReport(
        summarise=stats.summarise,
        sections=stats_view.sections,
        plots=stats_view.plots,
        compare=stats.compare,
        compare_sections=stats_view.compare_sections,
        compare_plots=stats_view.compare_plots,
    ),
}
