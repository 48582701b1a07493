"""The one exception every reader of the package raises, with chesshpc's exit code."""

EXIT_USAGE = 2
EXIT_BAD_INPUT = 3  # not a chesshpc file, or a file of the wrong kind or damaged contents
EXIT_IO = 4  # cannot read a file at all


class ChesshpcError(Exception):
    """A file that is no chesshpc file, or one that cannot be read: the message is one line
    that names the file; exit_code is the code chesshpc would end with (3 or 4)."""

    def __init__(self, message, exit_code=EXIT_BAD_INPUT):
        super().__init__(message)
        self.exit_code = exit_code
