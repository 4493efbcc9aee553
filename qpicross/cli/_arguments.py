"""Argument helpers of the sub-commands: the puzzle argument, argparse types, and options parsed into values.

Each turns what the user typed into a value or a one-line :class:`~qpicross.exceptions.UsageError`
before any work is done.

>>> parse_beta_range("0.1,5")
(0.1, 5.0)
"""

from __future__ import annotations

import argparse

from qpicross.exceptions import UsageError

__all__ = ["add_puzzle_argument", "add_puzzles_argument", "add_force_and_json", "output_file", "parse_beta_range",
           "check_dask_installed", "connect_scheduler_arg"]


def add_puzzle_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("puzzle", metavar="PUZZLE",
                        help="puzzle file (.px, .non, .xml, .json, tournament or clue-only .txt); FILE#N picks puzzle N "
                             "of a multi-puzzle file")
    parser.add_argument("--format", default=None,
                        help="file format, overriding the extension "
                             "(px, non, nonpack, tournament, clues, xml, json)")


def add_puzzles_argument(parser: argparse.ArgumentParser, help: str, dest: str = "puzzles") -> None:
    """A command's several puzzles (files, ``FILE#a-b`` ranges, directories; ``help`` says what becomes of
    them) and ``--format``."""
    parser.add_argument(dest, nargs="+", metavar="PUZZLE", help=help)
    parser.add_argument("--format", default=None, help="file format, overriding the extension")


def add_force_and_json(parser: argparse.ArgumentParser, force: str, json: str = "print one JSON object") -> None:
    """``--force`` (``force`` says what it allows) and ``--json`` (``json`` says what it prints)."""
    parser.add_argument("--force", action="store_true", help=force)
    parser.add_argument("--json", action="store_true", help=json)


def output_file(text: str) -> str:
    """An output file named on the command line (an argparse ``type``): an empty name is refused.

    >>> output_file("out.csv")
    'out.csv'
    >>> output_file("")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: wants a file name, got ''
    """
    if not text.strip():
        raise argparse.ArgumentTypeError(f"wants a file name, got {text!r}")
    return text


def parse_beta_range(text: str | None) -> tuple[float, float] | None:
    """``--beta-range HOT,COLD`` as a pair of floats (None when not given)."""
    if not text:
        return None
    from qpicross.samplers.parameters import check_beta_range

    try:
        hot, cold = (float(v) for v in text.split(","))
    except ValueError:
        raise UsageError(f"--beta-range wants HOT,COLD, got {text!r}") from None
    try:
        return check_beta_range((hot, cold), "--beta-range")
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def check_dask_installed() -> None:
    """Refuse ``--scheduler`` in one line where dask.distributed (the ``tune`` extra) is not installed.

    Raises:
        UsageError: Naming the extra to install.
    """
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise UsageError("--scheduler needs dask.distributed: pip install 'qpicross[tune]'") from None


def connect_scheduler_arg(address: str):
    """``--scheduler ADDRESS`` as a connected :class:`distributed.Client` (within seconds), before any work.

    Raises:
        UsageError: Without dask.distributed, or when the scheduler cannot be reached: one line.
    """
    check_dask_installed()
    from qpicross.samplers.workers import connect_scheduler

    if not address.strip():
        raise UsageError("--scheduler wants an address such as tcp://HOST:8786, got ''")
    if address.startswith("local:"):
        raise UsageError(f"--scheduler here takes a scheduler's address, not {address!r} (local:N is anneal's); "
                         "--workers N runs N local processes")
    from qpicross.samplers.streams import parse_scheduler

    try:
        parse_scheduler(address)
        return connect_scheduler(address)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise UsageError(f"--scheduler: {exc}") from None
