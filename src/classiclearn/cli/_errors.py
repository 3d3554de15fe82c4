"""The command line's user-facing error: one line on stderr and exit status 2."""

__all__ = ["CLIError"]


class CLIError(Exception):
    """A problem with the user's input, reported as one line, exit status 2.

    Examples
    --------
    >>> str(CLIError("no such file: 'x.csv'"))
    "no such file: 'x.csv'"
    """
