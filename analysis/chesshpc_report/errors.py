"""Failures that end the report with one of chesshpc's exit codes."""

EXIT_USAGE = 2
EXIT_BAD_INPUT = 3  # not a chesshpc result file, or one of a job with no report
EXIT_IO = 4  # cannot read or write a file


class ReportError(Exception):
    def __init__(self, message, exit_code):
        super().__init__(message)
        self.exit_code = exit_code
