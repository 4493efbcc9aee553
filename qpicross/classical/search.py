"""What the exact solvers share: their backends, their result, the lines of a puzzle and a search that can stop.

* :func:`require_solver` imports a method's backend (OR-tools or python-sat, the ``classical`` extra);
* :class:`ExactResult` is what :func:`~qpicross.classical.exact.solve_exact` returns, whichever method ran;
* :func:`search` runs a solver's search on a thread of its own, stopped by the time limit
  (:func:`time_limit_end`) or Ctrl-C through the solver's own stop;
* :func:`puzzle_lines` and :func:`finish` give both models the same lines and the same checked result.

Examples:
    >>> from qpicross import Puzzle
    >>> [(kind, index, cells) for kind, index, _, cells in puzzle_lines(Puzzle([[1], [1]], [[1], [1]]))]
    [(0, 0, [0, 1]), (0, 1, [2, 3]), (1, 0, [0, 2]), (1, 1, [1, 3])]
"""

from __future__ import annotations

import dataclasses
import importlib
import math
import threading
import time
from collections.abc import Callable

import numpy as np

from qpicross.exceptions import ParameterError, SolverUnavailableError
from qpicross.names import EXACT_METHODS as METHODS
from qpicross.puzzle import Puzzle, board_to_strings, check

__all__ = ["BACKENDS", "ExactResult", "require_solver", "search", "time_limit_end", "puzzle_lines", "line_cells", "finish"]

#: The module each exact method imports, its package, and how to install it (python-sat is a core dependency).
BACKENDS = {"sat": ("pysat.solvers", "python-sat", "a core dependency of qpicross: pip install python-sat"),
            "cpsat": ("ortools.sat.python.cp_model", "OR-tools",
                      "in the 'classical' extra: pip install 'qpicross[classical]'")}


def require_solver(method: str):
    """Import the backend of ``method`` (``"sat"`` or ``"cpsat"``) and return it.

    Raises:
        SolverUnavailableError: If it is not installed (one line naming the ``classical`` extra).
        ValueError: On an unknown method.
    """
    if method not in BACKENDS:
        raise ParameterError(f"unknown method {method!r}; known: {', '.join(METHODS)}")
    module, package, install = BACKENDS[method]
    try:
        return importlib.import_module(module)
    except ImportError:
        raise SolverUnavailableError(f"--method {method} needs {package}, {install}") from None


@dataclasses.dataclass
class ExactResult:
    """What an exact solver found.

    Attributes:
        puzzle: The puzzle.
        method: ``"cpsat"`` or ``"sat"``.
        status: ``"unique"``, ``"multiple"`` (a second solution exists),
            ``"solved"`` (uniqueness not checked or not decided in time),
            ``"infeasible"`` (no solution) or ``"unknown"`` (out of time).
        board: The first solution found (``None`` if none).
        time_s: Total seconds, model building included.
        timing: ``build_s``, ``first_s`` (first solution), ``second_s``
            (looking for a second one).
        model: The CP-SAT constraint set (``None`` for SAT).
        size: Model size (variables, constraints or clauses).
        second_board: A second, different solution when ``status == "multiple"``.
        interrupted: Ctrl-C stopped the solve (``status`` says what it had found: ``"unknown"`` or
            ``"solved"``).
    """

    puzzle: Puzzle
    method: str
    status: str
    board: np.ndarray | None
    time_s: float
    timing: dict[str, float]
    model: str | None = None
    size: dict[str, int] = dataclasses.field(default_factory=dict)
    second_board: np.ndarray | None = None
    interrupted: bool = False

    @property
    def solved(self) -> bool:
        """A solution was found (and it passes the independent check)."""
        return self.board is not None

    @property
    def unique(self) -> bool | None:
        """True if proven unique, False if two solutions (or none) exist, None if undecided."""
        if self.status == "unique":
            return True
        if self.status in ("multiple", "infeasible"):
            return False
        return None

    @property
    def board_strings(self) -> list[str] | None:
        return None if self.board is None else board_to_strings(self.board)

    def to_dict(self) -> dict:
        """A JSON-ready summary (the CLI's ``solve --json``), keys shared with ``anneal``."""
        return {
            **self.puzzle.outcome(self.solved, self.board_strings),
            "unique": self.unique,
            "status": self.status,
            "method": self.method,
            "model": self.model,
            "time_s": self.time_s,
            "timing": dict(self.timing),
            "size": dict(self.size),
            "second_board": None if self.second_board is None else board_to_strings(self.second_board),
            "interrupted": self.interrupted,
        }


def line_cells(kind: int, index: int, length: int, n_cols: int) -> list[int]:
    """Flat cell indices of a row (kind 0) or column (kind 1)."""
    if kind == 0:
        return [index * n_cols + p for p in range(length)]
    return [p * n_cols + index for p in range(length)]


def puzzle_lines(puzzle: Puzzle):
    """``(kind, index, clue, cells)`` for every row then column."""
    n_rows, n_cols = puzzle.shape
    for kind, clues, length in ((0, puzzle.rows, n_cols), (1, puzzle.cols, n_rows)):
        for index, clue in enumerate(clues):
            yield kind, index, clue, line_cells(kind, index, length, n_cols)


def finish(puzzle, method, model, status, first, second, t0, timing, size, interrupted=False) -> ExactResult:
    board = None if first is None else first.reshape(puzzle.shape).astype(np.uint8)
    if board is not None and check(puzzle, board):
        raise AssertionError(f"{method} returned a board that breaks the clues of {puzzle.name}")
    second_board = None if second is None else second.reshape(puzzle.shape).astype(np.uint8)
    return ExactResult(puzzle, method, status, board, time.perf_counter() - t0, timing, model, size,
                       second_board, interrupted)


def time_limit_end(time_limit_s) -> float:
    """The moment (:func:`time.perf_counter`) a solve started now must end by (``inf`` for None)."""
    if time_limit_s is None:
        return math.inf
    if isinstance(time_limit_s, bool) or not isinstance(time_limit_s, (int, float)) or not time_limit_s > 0:
        raise ParameterError(f"time_limit_s must be a positive number of seconds, got {time_limit_s!r}")
    return time.perf_counter() + float(time_limit_s)


def search(solve: Callable[[], object], stop: Callable[[], None], stop_at: float,
            progress: Callable[[float], None] | None, t0: float) -> tuple[object, str | None]:
    """Run ``solve()`` on a thread of its own and wait here, where the time limit and Ctrl-C can act.

    At ``stop_at`` (a :func:`time.perf_counter` moment) or at Ctrl-C (or a ``progress`` that raises
    :class:`KeyboardInterrupt`) it calls ``stop()``, the solver's own way to end a search, and waits
    for ``solve()`` to return (a second Ctrl-C meanwhile is raised once it has). Returns ``solve()``'s
    value and why it stopped early: None, ``"time_limit"`` or ``"interrupted"``.
    """
    outcome: dict = {}
    finished = threading.Event()  # waited on, not Thread.join: a join cut by Ctrl-C can return early later

    def target() -> None:
        try:
            outcome["value"] = solve()
        except BaseException as exc:  # noqa: B902 -- raised again on the caller's thread
            outcome["error"] = exc
        finally:
            finished.set()

    threading.Thread(target=target, name="qpicross-exact-search", daemon=True).start()
    stopped = None
    try:
        while not finished.wait(0.1):
            if progress is not None:
                progress(time.perf_counter() - t0)
            if stopped is None and time.perf_counter() >= stop_at:
                stopped = "time_limit"
                stop()
    except KeyboardInterrupt:
        stopped = "interrupted"
        stop()
        again = False
        while True:  # the search must end before its solver may be freed (freed under it, it crashes)
            try:
                finished.wait()
                break
            except KeyboardInterrupt:
                again = True
        if again:  # a second Ctrl-C: no result wanted, the caller stops at once
            raise KeyboardInterrupt
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value"), stopped
