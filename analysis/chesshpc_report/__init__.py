"""Reports over chesshpc result files: Markdown, JSON and a self-contained HTML page.

Each job (perft, drawstats; later selfplay, bench) is one module registered in jobs.py.
"""
