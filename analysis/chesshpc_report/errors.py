"""Failures that end the report with one of chesshpc's exit codes: the package's own."""
from chesshpc.errors import EXIT_BAD_INPUT, EXIT_IO, EXIT_USAGE, ChesshpcError

ReportError = ChesshpcError  # one exception for the reader and the report

__all__ = ["EXIT_BAD_INPUT", "EXIT_IO", "EXIT_USAGE", "ReportError"]
