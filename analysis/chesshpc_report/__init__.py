"""Reports over chesshpc result files: Markdown, JSON and a self-contained HTML page.

Each job (perft, perft_dedup, drawstats, selfplay, bench) is a module of numbers and a module of views
(NAME.py, NAME_view.py), registered in jobs.py; rule_stats, checks and figures are shared.
"""
