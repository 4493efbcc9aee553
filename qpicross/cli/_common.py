"""Pieces shared by the sub-commands: loading puzzles, writing output, progress."""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import textwrap
import threading
from collections.abc import Callable
from pathlib import Path

from typing import TYPE_CHECKING

from qpicross.exceptions import UsageError

if TYPE_CHECKING:  # numpy: imported when a command runs, not while the arguments are parsed
    from qpicross.puzzle import Puzzle

__all__ = [
    "UsageError", "error", "add_puzzle_argument", "load_puzzle_arg", "print_json", "board_text", "Progress",
    "write_output", "check_output_path", "save_plot", "PLOT_SUFFIXES", "parse_beta_range", "printable",
    "check_puzzle_size", "size_error", "output_file", "connect_scheduler_arg", "note_written",
]

#: Characters never written to a terminal as they are: controls (C0, C1, DEL), lone surrogates, line and
#: paragraph separators, bidirectional overrides. A name read from a file could otherwise move the cursor,
#: recolour or clear the screen, or fake a line of output.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def printable(text: object) -> str:
    r"""Text from a file (a puzzle's name, a path) made safe to print: unprintable characters escaped.

    Every line the command line prints that holds a puzzle name, a label or a
    message goes through it.

    >>> printable("evil\n\x1b[31mred")
    'evil\\n\\x1b[31mred'
    >>> printable("caf\u00e9 \ud800")
    'café \\ud800'
    """
    return _UNPRINTABLE.sub(lambda m: m.group().encode("unicode_escape", "backslashreplace").decode("ascii"),
                            str(text))


def parse_beta_range(text: str | None) -> tuple[float, float] | None:
    """``--beta-range HOT,COLD`` as a pair of floats (None when not given)."""
    if not text:
        return None
    try:
        hot, cold = (float(v) for v in text.split(","))
    except ValueError:
        raise UsageError(f"--beta-range wants HOT,COLD, got {text!r}") from None
    return (hot, cold)


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


def connect_scheduler_arg(address: str):
    """``--scheduler ADDRESS`` as a connected :class:`distributed.Client` (within seconds), before any work.

    Raises:
        UsageError: Without dask.distributed, or when the scheduler cannot be reached: one line.
    """
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise UsageError("--scheduler needs dask.distributed: pip install 'qpicross[tune]'") from None
    from qpicross.experiments.runner import connect_scheduler

    if not address.strip():
        raise UsageError("--scheduler wants an address such as tcp://HOST:8786, got ''")
    try:
        return connect_scheduler(address)
    except (ConnectionError, RuntimeError) as exc:
        raise UsageError(f"--scheduler: {exc}") from None


def error(message: str, code: int = 2) -> int:
    """Print ``qpicross: error: MESSAGE`` on stderr (nothing when stderr cannot be written) and return ``code``."""
    try:
        print(f"qpicross: error: {printable(message)}", file=sys.stderr, flush=True)
    except OSError:  # stderr is /dev/full or a closed pipe: the exit status still says it
        pass
    return code


def add_puzzle_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("puzzle", metavar="PUZZLE",
                        help="puzzle file (.px, .non, .xml, .json, tournament .txt); FILE#N picks puzzle N "
                             "of a multi-puzzle file")
    parser.add_argument("--format", default=None,
                        help="file format, overriding the extension "
                             "(px, non, nonpack, tournament, xml, json)")


def load_puzzle_arg(args: argparse.Namespace, guard: str | None = None) -> Puzzle:
    """The puzzle named on the command line (``FILE`` or ``FILE#N``).

    Args:
        guard: Also run the size guard of this work on it (a method of
            :func:`~qpicross.model.size.estimate_solver_size`), before any is done.
    """
    from qpicross.puzzle.formats import load_puzzle

    puzzle = load_puzzle(args.puzzle, format=args.format)
    if guard is not None:
        check_puzzle_size(args.puzzle, puzzle, guard)
    return puzzle


def check_puzzle_size(path: str, puzzle: Puzzle, method: str) -> None:
    """The size guard of ``method`` (``"sat"``, ``"cpsat"``, ``"logic"``, ``"show"``) on a loaded puzzle.

    Raises:
        UsageError: Above the limit: one line naming the file and the estimate.
    """
    from qpicross.model.size import check_solver_size

    try:
        check_solver_size(puzzle, method)
    except ValueError as exc:
        raise UsageError(f"{path}: {exc}") from None


def size_error(path: str, exc: Exception) -> UsageError:
    """A size-guard (or other one-line) error of a run on ``path``, naming the file."""
    return UsageError(f"{path}: {exc}")


def _new_file_mode(path: Path) -> int:
    if path.exists():
        return path.stat().st_mode & 0o7777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


#: Figure formats the ``--plot`` options accept.
PLOT_SUFFIXES = (".png", ".svg", ".pdf")


def check_output_path(path: str | os.PathLike, force: bool, suffixes: tuple[str, ...] | None = None) -> Path:
    """Fail early (before any long run) if an output file would be refused.

    Only a regular file (or a new one) is ever written: ``--force`` replaces a regular file, never a
    device, a pipe or a socket. The folder is tried with an empty temporary file, so a folder the
    command may not write into is refused now rather than after a long run.

    Raises:
        UsageError: If ``path`` is a directory or lies in a folder that does not exist or cannot be
            written, exists and ``force`` is false, exists and is not a regular file, or its extension
            is not one of ``suffixes``.
    """
    path = Path(path)
    if suffixes is not None and path.suffix.lower() not in suffixes:
        raise UsageError(f"{path}: unsupported extension {path.suffix!r}; use one of {', '.join(suffixes)}")
    if path.is_dir():
        raise UsageError(f"{path} is a directory; name a file")
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise UsageError(f"cannot write {path}: no such directory {directory}")
    if path.exists() or path.is_symlink():
        if not force:
            raise UsageError(f"{path} exists; pass --force to overwrite it")
        if not path.is_file():
            raise UsageError(f"{path} exists and is not a regular file (a device, pipe or socket); "
                             f"name a regular file or a new one")
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".probe", dir=directory)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
    return path


def note_written(path: str | os.PathLike) -> None:
    """Say on stderr that a file was written (``wrote FILE``): stdout stays the command's output."""
    print(f"wrote {printable(path)}", file=sys.stderr)


def save_plot(fig, path: str | os.PathLike, force: bool) -> Path:
    """Save a matplotlib figure atomically through :func:`write_output`."""
    from qpicross.plot import save_figure

    check_output_path(path, force, PLOT_SUFFIXES)
    return write_output(path, lambda tmp: save_figure(fig, tmp), force)


def write_output(
    path: str | os.PathLike, content: bytes | str | Callable[[Path], object], force: bool
) -> Path:
    """Write a file the command produces atomically, refusing to overwrite without ``--force``.

    The content goes to a temporary file in the same directory (keeping the
    extension, so writers that infer the format from it still work), which is
    then renamed over ``path`` with :func:`os.replace`: a reader never sees a
    half-written file, and an interrupted write leaves the old file intact.

    Args:
        path: Where the file goes.
        content: Bytes or text, or a function called with the temporary path
            that writes the file there (e.g. ``lambda p: fig.savefig(p)``).
        force: Overwrite an existing file.

    Returns:
        ``path`` as a :class:`~pathlib.Path`.

    Raises:
        UsageError: If ``path`` exists and ``force`` is false, or cannot be written.
    """
    path = check_output_path(path, force)
    if path.is_dir():
        raise UsageError(f"{path} is a directory")
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise UsageError(f"cannot write {path}: no such directory {directory}")
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=f".tmp{path.suffix}", dir=directory)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as handle:
            if isinstance(content, (bytes, str)):
                handle.write(content.encode("utf-8") if isinstance(content, str) else content)
        if callable(content):
            content(tmp)
        os.chmod(tmp, _new_file_mode(path))  # mkstemp makes 0600; give the mode a plain open() would
        os.replace(tmp, path)
    except (OSError, ValueError) as exc:  # the message names the user's file, never the temporary one
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        reason = reason.replace(str(tmp), str(path)).replace(tmp.name, path.name)
        raise UsageError(reason if reason.startswith(str(path)) else f"cannot write {path}: {reason}") from None
    finally:
        if tmp.exists():
            tmp.unlink()
    return path


def print_json(obj) -> None:
    print(json.dumps(obj, indent=2, sort_keys=False))


def board_text(puzzle: Puzzle, board=None, width: int | None = None) -> str:
    """The clues and a board as text: ``#`` filled, ``.`` empty, ``?`` unknown.

    Row clues follow each row; column clues are written downwards under the board. A board wider
    than ``width`` (default: the terminal's columns when stdout is a terminal, else no limit) is
    drawn compactly: one character per cell, and the column clues listed below it, wrapped.

    >>> from qpicross import Puzzle
    >>> print(board_text(Puzzle([[1], [2]], [[2], [1]], name="x"), ["#.", "##"], width=80))
    # .  | 1
    # #  | 2
    ---
    2 1
    >>> print(board_text(Puzzle([[1], [2]], [[2], [1]], name="x"), ["#.", "##"], width=5))
    #. | 1
    ## | 2
    columns: 2 | 1
    """
    n_rows, n_cols = puzzle.shape
    if board is None:
        rows = ["?" * n_cols] * n_rows
    elif isinstance(board, (list, tuple)) and board and isinstance(board[0], str):
        rows = list(board)  # already text, possibly with '?' (line logic)
    else:
        from qpicross.puzzle import board_to_strings

        rows = board_to_strings(board)
    row_clues = [" ".join(map(str, clue or (0,))) for clue in puzzle.rows]
    digits = max(len(str(v)) for c in puzzle.cols for v in (c or (0,)))
    if width is None:
        width = shutil.get_terminal_size((0, 0)).columns if sys.stdout.isatty() else 0
    widest_clue = max(map(len, row_clues), default=0)
    if width and (digits + 1) * n_cols - 1 + 4 + widest_clue > width:
        lines = [r + " | " + clue for r, clue in zip(rows, row_clues)]
        columns = " | ".join(",".join(map(str, clue or (0,))) for clue in puzzle.cols)
        lines += textwrap.wrap("columns: " + columns, width=max(width, 20), break_on_hyphens=False)
        return "\n".join(lines)
    lines = [" ".join(ch.rjust(digits) for ch in r) + "  | " + clue for r, clue in zip(rows, row_clues)]
    lines.append("-" * ((digits + 1) * n_cols - 1))
    for d in range(max(len(c) or 1 for c in puzzle.cols)):
        cells = []
        for clue in puzzle.cols:
            numbers = clue or (0,)
            cells.append(str(numbers[d]).rjust(digits) if d < len(numbers) else " " * digits)
        lines.append(" ".join(cells).rstrip())
    return "\n".join(lines)


class Progress:
    """A progress bar on stderr, only when it is a terminal (tqdm).

    Called as ``progress(done, total)`` or ``progress(done, total, best_energy)``; ``open_ended``: the
    run stops at the first solution, so ``total`` is only a cap and the bar counts reads without it. A
    background thread redraws it twice a second, so the elapsed time moves even
    while one long read runs (the structured annealer releases the GIL). Use it as
    a context manager, or call :meth:`close`.
    """

    def __init__(self, label: str, stream=None, unit: str = "read", open_ended: bool = False):
        self.label = label
        self.open_ended = open_ended  # a run that stops at the first solution: its cap is no total to show
        self.unit = unit
        self.stream = stream or sys.stderr
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.bar = None
        self._stop = threading.Event()

    def __call__(self, done: int, total: int, best: float | None = None) -> None:
        if not self.enabled:
            return
        if self.bar is None:
            from tqdm import tqdm

            self.bar = tqdm(total=None if self.open_ended else total, desc=self.label, file=self.stream,
                            unit=self.unit, leave=False, dynamic_ncols=True, mininterval=0.2)
            threading.Thread(target=self._tick, daemon=True).start()
        if not self.open_ended:
            self.bar.total = total
        self.bar.n = done
        if best is not None and best != float("inf"):
            self.bar.set_postfix_str(f"best energy {best:g}", refresh=False)
        self.bar.refresh()
        if done >= total:
            self.close()

    def _tick(self) -> None:
        while not self._stop.wait(0.5):
            bar = self.bar
            if bar is not None:
                bar.refresh()

    def close(self) -> None:
        self._stop.set()
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def racing_note(config, seed, workers: int = 1) -> str | None:
    """The one line that says why ``seed`` does not fix a run's reads, or ``None`` where it does.

    ``shift`` with several restart streams (threads, or ``--scheduler`` workers) returns the stream that
    reaches the ground state first by the clock; deciding by sweeps would hold every stream back to the
    slowest, so the command says so instead.

    >>> from qpicross.pipeline.config import SolverConfig
    >>> racing_note(SolverConfig(options={"threads": 1}), 7) is None, racing_note(SolverConfig(), None) is None
    (True, True)
    >>> print(racing_note(SolverConfig(options={"threads": 2}), 7))
    note: shift races 2 restart streams and returns the first at the ground state, so the same --seed can give other reads on another run; --option threads=1 gives the same reads every run
    """
    if seed is None or config.sampler_name != "shift":
        return None
    options = config.sampler_options
    if options.get("scheduler"):
        streams = f"restart streams on the workers of {options['scheduler']}"
    else:
        from qpicross.samplers.blockshift.restarts import default_threads

        threads = options.get("threads", max(1, default_threads() // max(1, workers)))
        if threads <= 1:
            return None
        streams = f"{threads} restart streams"
    return (f"note: shift races {streams} and returns the first at the ground state, so the same --seed can give "
            f"other reads on another run; --option threads=1 gives the same reads every run")
