"""What a command prints: text made safe for a terminal, errors in one line, JSON, boards, notes on stderr."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import textwrap
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy: imported when a command runs, not while the arguments are parsed
    from qpicross.puzzle import Puzzle

__all__ = ["printable", "error", "print_json", "note_written", "board_text", "racing_note", "count", "compile_note"]


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


def error(message: str, code: int = 2) -> int:
    """Print ``qpicross: error: MESSAGE`` on stderr (nothing when stderr cannot be written) and return ``code``."""
    try:
        print(f"qpicross: error: {printable(message)}", file=sys.stderr, flush=True)
    except OSError:  # stderr is /dev/full or a closed pipe: the exit status still says it
        pass
    return code


def count(number: int, noun: str, plural: str | None = None) -> str:
    """``number`` and ``noun``, plural unless it is one.

    >>> count(1, "interaction"), count(3, "interaction"), count(0, "broken line")
    ('1 interaction', '3 interactions', '0 broken lines')
    """
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def print_json(obj) -> None:
    print(json.dumps(obj, indent=2, sort_keys=False))


def note_written(path: str | os.PathLike) -> None:
    """Say on stderr that a file was written (``wrote FILE``): stdout stays the command's output."""
    print(f"wrote {printable(path)}", file=sys.stderr)


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


#: What a run says (on stderr, terminal or not) before numba compiles the annealer's kernels, by sampler.
COMPILE_NOTES = {"shift": "note: compiling kernels before the clock (once, about 20 s)",
                 "shift-batched-cpu": "note: compiling the batched kernels before the clock (once, a minute or more)"}


def kernels_compiled(sampler_name: str) -> bool:
    """Whether ``sampler_name``'s kernels are in numba's on-disk cache (True for a sampler without kernels of
    ours: nothing to compile).

    >>> kernels_compiled("sa")
    True
    """
    if sampler_name == "shift":
        from qpicross.samplers.blockshift.chains import compiled
    elif sampler_name == "shift-batched-cpu":
        from qpicross.samplers.blockshift.driver import compiled
    else:
        return True
    return compiled()


def compile_note(sampler_name: str, stream=None) -> bool:
    """Say ``sampler_name``'s line of :data:`COMPILE_NOTES` on ``stream`` (stderr), on a terminal or piped, when
    its kernels are not in numba's on-disk cache (:func:`kernels_compiled`), so that a run that waits minutes says
    why. Returns whether it said it (the caller then compiles before the clock: compiling is not sampling).

    >>> import io
    >>> compile_note("sa", io.StringIO())  # plain SA: dwave-samplers' compiled code, nothing of ours to compile
    False
    """
    if kernels_compiled(sampler_name):
        return False
    print(COMPILE_NOTES[sampler_name], file=stream or sys.stderr, flush=True)
    return True


def racing_note(config, seed, workers: int = 1) -> str | None:
    """The one line that says why ``seed`` does not fix a run's reads, or ``None`` where it does.

    ``shift`` with several restart streams (threads, or ``--scheduler`` workers) returns the stream that
    reaches the ground state first by the clock; deciding by sweeps would hold every stream back to the
    slowest, so the command says so instead. ``tabu`` (and ``sb`` given a ``timeout``) stops each read by the
    wall clock: the same.

    >>> from qpicross.pipeline.config import SolverConfig
    >>> racing_note(SolverConfig(options={"threads": 1}), 7) is None, racing_note(SolverConfig(), None) is None
    (True, True)
    >>> print(racing_note(SolverConfig(options={"threads": 2}), 7))
    note: shift races 2 restart streams and returns the first at the ground state, so the same --seed can give other reads on another run; --option threads=1 gives the same reads every run
    """
    if seed is None:
        return None
    options = config.sampler_options
    if config.sampler_name == "tabu" or (config.sampler_name in ("sb", "sb+descent") and options.get("timeout")):
        return (f"note: {config.sampler_name} stops each read at its timeout, by the wall clock, so the same --seed "
                "can give other reads on another run")
    if config.sampler_name != "shift":
        return None
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
