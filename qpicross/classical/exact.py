r"""Exact classical solvers: the ground truth that annealing results are checked against.

Two independent models, both proving uniqueness by asking for a second solution
that differs from the first in at least one cell:

* :func:`solve_cpsat` -- the CP report's model in OR-tools CP-SAT: grid
  booleans :math:`g_{i,j}`, block starts :math:`x_{i,k}` (rows) and
  :math:`y_{j,\ell}` (columns) with one boolean per possible start
  (:math:`x_{i,k} = \sum_s s\,b_{i,k,s}`, :math:`\sum_s b_{i,k,s} = 1`), and the
  constraint sets of the report:

  * ``M1`` = (1a)-(1f): line sums :math:`\sum_j g_{i,j} = \sum_k h_k`; order
    :math:`x_{i,k} + h_k + 1 \le x_{i,k+1}`; channelling
    :math:`g_{i,j} \Leftrightarrow \bigvee_k (x_{i,k} \le j \wedge x_{i,k} \ge j - h_k + 1)`;
    starts range over the whole line;
  * ``M2`` = M1 + (1g)-(1j): starts limited to the left/right stacking bounds;
  * ``M3`` = M2 + (1k)-(1n): :math:`x_{i,k} = j \Rightarrow g_{i,j-1} = 0` and
    :math:`x_{i,k} = j \Rightarrow g_{i,j+h_k} = 0` (the default, the strongest).

* :func:`~qpicross.classical.sat.solve_sat` -- a compact CNF for python-sat (never the exponential
  DNF-to-CNF expansion of a line's placements). Per block, *order-encoding*
  variables :math:`u_{k,s}` = "block :math:`k` starts at or before :math:`s`"
  (:math:`u_{k,s} \Rightarrow u_{k,s+1}`, constants outside the stacking
  window), the order :math:`u_{k+1,s} \Rightarrow u_{k,s-h_k-1}`, cover
  variables :math:`c_{k,j} \Leftrightarrow u_{k,j} \wedge \neg u_{k,j-h_k}` and
  :math:`g_j \Leftrightarrow \bigvee_k c_{k,j}`: :math:`O(L \cdot K)` clauses per line.

OR-tools and python-sat are imported only when a solver runs (python-sat is a core dependency, OR-tools
is in the ``classical`` extra).

Both can be stopped inside a search: ``time_limit_s`` bounds a whole solve (the model, the first
solution and the uniqueness check together), and Ctrl-C ends it with what it has found
(``ExactResult.interrupted``). The search runs on a thread of its own while the caller's thread
waits, where the time limit and Ctrl-C act through each library's own stop (python-sat's
``interrupt``, CP-SAT's ``StopSearch`` and ``max_time_in_seconds``); :func:`estimate_size` says
how large a model will be before it is built.

Examples:
    >>> from qpicross import Puzzle
    >>> p = Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]], name="A")
    >>> r = solve_exact(p, method="sat")
    >>> r.solved, r.unique
    (True, True)
    >>> print("\n".join(r.board_strings))
    ..#..
    .#.#.
    .#.#.
    #####
    #...#
    >>> solve_exact(Puzzle([[1], [1]], [[1], [1]]), method="cpsat").unique  # two diagonals
    False
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Literal

import numpy as np

from qpicross.classical.search import BACKENDS, ExactResult, finish, puzzle_lines, require_solver, search, time_limit_end
from qpicross.exceptions import ParameterError, SolverUnavailableError
from qpicross.model.placements import placement_windows
from qpicross.names import EXACT_METHODS as METHODS  # exact methods, in the order the CLI lists them
from qpicross.names import EXACT_MODELS as MODELS  # the CP report's constraint sets, weakest first
from qpicross.puzzle import Puzzle, require_puzzle

__all__ = ["ExactResult", "solve_exact", "solve_cpsat", "estimate_size", "METHODS", "MODELS",
           "require_solver", "SolverUnavailableError"]


Model = Literal["M1", "M2", "M3"]

def solve_exact(
    puzzle: Puzzle,
    method: str = "cpsat",
    *,
    model: Model = "M3",
    check_unique: bool = True,
    time_limit_s: float | None = None,
    progress: Callable[[float], None] | None = None,
) -> ExactResult:
    """Solve a puzzle exactly with ``method`` (``"cpsat"`` or ``"sat"``).

    Args:
        puzzle: The puzzle.
        method: One of :data:`METHODS`.
        model: CP-SAT constraint set (ignored by ``"sat"``).
        check_unique: Look for a second solution to decide uniqueness.
        time_limit_s: Give up after about this long, the model's building and both solves together
            (None: no limit); status ``"unknown"`` (no solution yet) or ``"solved"`` (uniqueness undecided).
        progress: Called as ``progress(seconds_elapsed)`` about every 0.1 s while a search runs.

    Raises:
        ParameterError: On an unknown method or model, or a time limit that is not a positive number of seconds.
    """
    require_puzzle(puzzle)
    if time_limit_s is not None and (isinstance(time_limit_s, bool) or not isinstance(time_limit_s, (int, float))
                                     or not 0 < time_limit_s < float("inf")):
        raise ParameterError(f"time_limit_s must be a positive number of seconds or None, got {time_limit_s!r}")
    if method == "cpsat":
        return solve_cpsat(puzzle, model=model, check_unique=check_unique, time_limit_s=time_limit_s,
                           progress=progress)
    if method == "sat":
        from qpicross.classical.sat import solve_sat

        return solve_sat(puzzle, check_unique=check_unique, time_limit_s=time_limit_s, progress=progress)
    raise ParameterError(f"unknown method {method!r}; known: {', '.join(METHODS)}")


def estimate_size(puzzle: Puzzle, method: str) -> dict[str, int]:
    """About how large ``method``'s model of ``puzzle`` is, before it is built (cheap: the stacking windows).

    SAT: ``variables`` and ``clauses`` (an upper bound, a little above what :func:`~qpicross.classical.sat.encode_sat`
    builds); CP-SAT: ``variables`` (grid booleans and block starts) and ``constraints`` (model M3's
    count, the largest). Building and solving take time and memory roughly in proportion.

    >>> from qpicross import Puzzle
    >>> letter_a = Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]])
    >>> estimate_size(letter_a, "sat")
    {'variables': 109, 'clauses': 354}
    """
    if method not in BACKENDS:
        raise ParameterError(f"unknown method {method!r}; known: {', '.join(METHODS)}")
    require_puzzle(puzzle)
    cells = puzzle.num_rows * puzzle.num_cols
    variables, clauses = cells, 0
    for _, _, clue, cells_of_line in puzzle_lines(puzzle):
        length = len(cells_of_line)
        for k, (lo, hi) in enumerate(placement_windows(clue, length)):
            starts = max(hi - lo + 1, 0)
            if method == "sat":  # order variables and clauses, then cover variables with 4 clauses each
                variables += starts - 1 + starts + clue[k] - 1
                clauses += 2 * starts + 4 * (starts + clue[k] - 1)
            else:  # a start variable and one boolean per start, one blank implication on each side of a start
                variables += 1 + starts
                clauses += 2 + 2 * starts
        clauses += length if method == "sat" else length + 1
    return {"variables": variables, "clauses" if method == "sat" else "constraints": clauses}


# -- CP-SAT --------------------------------------------------------------------


def solve_cpsat(
    puzzle: Puzzle,
    *,
    model: Model = "M3",
    check_unique: bool = True,
    time_limit_s: float | None = None,
    workers: int = 1,
    seed: int = 0,
    progress: Callable[[float], None] | None = None,
) -> ExactResult:
    """The CP report's model (see the module docstring) solved by OR-tools CP-SAT.

    Args:
        puzzle: The puzzle.
        model: ``"M1"``, ``"M2"`` or ``"M3"`` (the report's constraint sets).
        check_unique: Solve again with the first solution excluded.
        time_limit_s: Seconds for the whole solve (see :func:`solve_exact`).
        workers: CP-SAT search workers (1: deterministic for a seed).
        seed: CP-SAT's random seed.
        progress: See :func:`solve_exact`.

    Examples:
        >>> from qpicross import Puzzle
        >>> r = solve_cpsat(Puzzle([[2], [1]], [[2], [1]]), model="M1")
        >>> r.board_strings, r.unique, r.model
        (['##', '#.'], True, 'M1')
    """
    cp_model = require_solver("cpsat")
    if model not in MODELS:
        raise ParameterError(f"unknown model {model!r}; known: {', '.join(MODELS)}")
    t0 = time.perf_counter()
    stop_at = time_limit_end(time_limit_s)
    n_rows, n_cols = puzzle.shape
    m = cp_model.CpModel()
    grid = [m.NewBoolVar(f"g{c // n_cols}_{c % n_cols}") for c in range(n_rows * n_cols)]
    num_starts = 0
    for kind, index, clue, cells in puzzle_lines(puzzle):
        if stop_at < math.inf and time.perf_counter() >= stop_at:  # out of time while building
            return finish(puzzle, "cpsat", model, "unknown", None, None, t0, {"build_s": time.perf_counter() - t0},
                           {})
        length = len(cells)
        name = f"{'rc'[kind]}{index}"
        m.Add(sum(grid[c] for c in cells) == sum(clue))  # (1a), (1b)
        if model == "M1":
            windows = [(0, length - 1)] * len(clue)  # starts anywhere in the line
        else:
            windows = placement_windows(clue, length)  # (1g)-(1j): stacking bounds
        covering: list[list] = [[] for _ in range(length)]
        starts = []
        for k, (h, (lo, hi)) in enumerate(zip(clue, windows)):
            x = m.NewIntVar(lo, hi, f"{name}x{k}")
            b = {s: m.NewBoolVar(f"{name}b{k}_{s}") for s in range(lo, hi + 1)}
            num_starts += len(b)
            m.AddExactlyOne(b.values())
            m.Add(x == sum(s * v for s, v in b.items()))
            starts.append(x)
            for s, v in b.items():
                for p in range(s, min(s + h, length)):
                    covering[p].append(v)
                if model == "M3":
                    if s > 0:
                        m.AddImplication(v, grid[cells[s - 1]].Not())  # (1k), (1l)
                    if s + h < length:
                        m.AddImplication(v, grid[cells[s + h]].Not())  # (1m), (1n)
        for k in range(len(clue) - 1):
            m.Add(starts[k] + clue[k] + 1 <= starts[k + 1])  # (1c), (1d)
        for p in range(length):
            # (1e)/(1f): the order (1c) lets at most one start cover a cell, so the
            # disjunction is a sum: g = 1 iff exactly one covering start is on.
            m.Add(grid[cells[p]] == sum(covering[p]))
    proto = m.Proto()
    size = {"grid_variables": len(grid), "start_booleans": num_starts,
            "variables": len(proto.variables), "constraints": len(proto.constraints)}
    timing = {"build_s": time.perf_counter() - t0}

    interrupted = False

    def run() -> tuple[str, np.ndarray | None]:
        nonlocal interrupted
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = workers
        solver.parameters.random_seed = seed
        solver.parameters.catch_sigint_signal = False  # Ctrl-C is Python's: an interrupt, not a time-out
        if stop_at < math.inf:
            solver.parameters.max_time_in_seconds = max(stop_at - time.perf_counter(), 1e-3)
        status, stopped = search(lambda: solver.Solve(m), solver.StopSearch, stop_at, progress, t0)
        interrupted = stopped == "interrupted"
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return "found", np.array([solver.BooleanValue(g) for g in grid], np.uint8)
        return ("infeasible" if status == cp_model.INFEASIBLE and not stopped else "unknown"), None

    t1 = time.perf_counter()
    outcome, first = run()
    timing["first_s"] = time.perf_counter() - t1
    if first is None:
        return finish(puzzle, "cpsat", model, outcome, None, None, t0, timing, size, interrupted)
    if not check_unique or interrupted:
        return finish(puzzle, "cpsat", model, "solved", first, None, t0, timing, size, interrupted)
    m.AddBoolOr([g.Not() if v else g for g, v in zip(grid, first)])
    t2 = time.perf_counter()
    outcome, second = run()
    timing["second_s"] = time.perf_counter() - t2
    status = {"found": "multiple", "infeasible": "unique"}.get(outcome, "solved")
    return finish(puzzle, "cpsat", model, status, first, second, t0, timing, size, interrupted)
