"""The report reads every file through the chesshpc package's reader (chesshpc/h5read.py)."""
from chesshpc.h5read import attr, attr_int, attr_real, attr_text, column, job_of, number, open_result, provenance  # noqa: F401
