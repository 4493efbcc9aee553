r"""The SAT solver of :mod:`qpicross.classical.exact`: a compact CNF of a puzzle, solved by python-sat.

Per block, *order-encoding* variables :math:`u_{k,s}` = "block :math:`k` starts at or before :math:`s`"
(:math:`u_{k,s} \Rightarrow u_{k,s+1}`, constants outside the stacking window), the order
:math:`u_{k+1,s} \Rightarrow u_{k,s-h_k-1}`, cover variables :math:`c_{k,j} \Leftrightarrow u_{k,j} \wedge
\neg u_{k,j-h_k}` and :math:`g_j \Leftrightarrow \bigvee_k c_{k,j}`: :math:`O(L \cdot K)` clauses per line,
never the exponential DNF-to-CNF expansion of a line's placements. :func:`solve_sat` solves it and asks
for a second solution to prove uniqueness; :func:`~qpicross.classical.exact.solve_exact` (``method="sat"``)
calls it.

Examples:
    >>> from qpicross import Puzzle
    >>> solve_sat(Puzzle([[1], [1]], [[1], [1]])).unique  # two diagonals
    False
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence

import numpy as np

from qpicross.classical.search import ExactResult, finish, puzzle_lines, require_solver, search, time_limit_end
from qpicross.model.placements import placement_windows
from qpicross.puzzle import Puzzle

__all__ = ["encode_sat", "solve_sat"]


class _Cnf:
    """Clauses over integer literals, with ``True``/``False`` constants simplified away."""

    def __init__(self, num_vars: int):
        self.num_vars = num_vars
        self.clauses: list[list[int]] = []

    def new(self) -> int:
        self.num_vars += 1
        return self.num_vars

    @staticmethod
    def neg(lit):
        return (not lit) if isinstance(lit, bool) else -lit

    def add(self, *lits) -> None:
        if any(lit is True for lit in lits):
            return
        self.clauses.append([lit for lit in lits if lit is not False])


#: What :func:`encode_sat` returns as its clauses when its ``stop_at`` passed first.
_OUT_OF_TIME: list = []


def encode_sat(puzzle: Puzzle, *, stop_at: float = math.inf) -> tuple[list[list[int]], int]:
    """The compact CNF of a puzzle: ``(clauses, num_vars)``; variable ``1 + r * num_cols + c`` is cell (r, c).

    An empty clause in the list means the clues cannot fit at all. ``stop_at``: a :func:`time.perf_counter`
    moment after which it stops between lines and returns ``([], 0)`` (the time limit of :func:`solve_sat`).

    Examples:
        >>> from qpicross import Puzzle
        >>> letter_a = Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]])
        >>> clauses, num_vars = encode_sat(letter_a)
        >>> len(clauses), num_vars  # 25 cells + order and cover variables
        (243, 109)
    """
    n_rows, n_cols = puzzle.shape
    cnf = _Cnf(n_rows * n_cols)
    for _, _, clue, cells in puzzle_lines(puzzle):
        if stop_at < math.inf and time.perf_counter() >= stop_at:
            return _OUT_OF_TIME, 0
        length = len(cells)
        cell_lit = [c + 1 for c in cells]
        covers: list[list[int]] = [[] for _ in range(length)]
        windows = placement_windows(clue, length)
        if windows and windows[0][0] > windows[0][1]:
            cnf.add()  # the clue does not fit in the line
            continue
        started = []  # started[k](s): literal "block k starts at or before s"
        for k, (lo, hi) in enumerate(windows):
            first_var = cnf.num_vars + 1
            cnf.num_vars += hi - lo  # u_{k,lo} .. u_{k,hi-1}

            def u(s, lo=lo, hi=hi, first_var=first_var):
                return False if s < lo else True if s >= hi else first_var + s - lo

            started.append(u)
            for s in range(lo, hi - 1):
                cnf.add(-u(s), u(s + 1))
            if k > 0:
                gap = clue[k - 1] + 1
                for s in range(lo, hi):
                    cnf.add(-u(s), started[k - 1](s - gap))
            h = clue[k]
            for j in range(lo, hi + h):
                a, b = u(j), u(j - h)
                if a is False or b is True:
                    continue  # block k cannot cover j
                c = cnf.new()
                cnf.add(-c, a)
                cnf.add(-c, cnf.neg(b))
                cnf.add(c, cnf.neg(a), b)
                covers[j].append(c)
        for j in range(length):
            for c in covers[j]:
                cnf.add(-c, cell_lit[j])
            cnf.add(-cell_lit[j], *covers[j])
    return cnf.clauses, cnf.num_vars


def solve_sat(puzzle: Puzzle, *, check_unique: bool = True, solver: str = "glucose4",
              time_limit_s: float | None = None, progress: Callable[[float], None] | None = None) -> ExactResult:
    """The compact CNF of :func:`encode_sat` solved by a python-sat solver.

    Args:
        puzzle: The puzzle.
        check_unique: Solve again (incrementally) with the first solution excluded.
        solver: A python-sat solver name; one that python-sat can interrupt (Glucose, MiniSat, Maple...,
            not CaDiCaL or Lingeling), so that the time limit and Ctrl-C stop its search.
        time_limit_s, progress: See :func:`solve_exact`.

    Examples:
        >>> from qpicross import Puzzle
        >>> solve_sat(Puzzle([[1, 1], [1], [1, 1]], [[3], [1], [1]])).status  # no solution
        'infeasible'
    """
    Solver = require_solver("sat").Solver  # noqa: N806 (python-sat's class)
    t0 = time.perf_counter()
    stop_at = time_limit_end(time_limit_s)
    clauses, num_vars = encode_sat(puzzle, stop_at=stop_at)
    n_cells = puzzle.num_rows * puzzle.num_cols
    size = {"variables": num_vars, "clauses": len(clauses)}
    timing = {"build_s": time.perf_counter() - t0}
    if clauses is _OUT_OF_TIME:
        return finish(puzzle, "sat", None, "unknown", None, None, t0, timing, {})
    if any(len(c) == 0 for c in clauses):
        timing["first_s"] = 0.0
        return finish(puzzle, "sat", None, "infeasible", None, None, t0, timing, size)
    with Solver(name=solver, bootstrap_with=clauses) as sat:
        del clauses  # held by the solver now

        def solve_once() -> tuple[bool | None, str | None]:
            return search(lambda: sat.solve_limited(expect_interrupt=True), sat.interrupt, stop_at, progress, t0)

        t1 = time.perf_counter()
        found, stopped = solve_once()
        timing["first_s"] = time.perf_counter() - t1
        if found is None or not found:  # None: stopped before an answer
            status = "infeasible" if found is False and stopped is None else "unknown"
            return finish(puzzle, "sat", None, status, None, None, t0, timing, size, stopped == "interrupted")
        first = _cells_of(sat.get_model(), n_cells)
        if not check_unique or stopped == "interrupted":
            return finish(puzzle, "sat", None, "solved", first, None, t0, timing, size, stopped == "interrupted")
        sat.add_clause([-(c + 1) if v else (c + 1) for c, v in enumerate(first)])
        t2 = time.perf_counter()
        found, stopped = solve_once()
        timing["second_s"] = time.perf_counter() - t2
        second = _cells_of(sat.get_model(), n_cells) if found else None
    status = "solved" if found is None else "multiple" if found else "unique"
    return finish(puzzle, "sat", None, status, first, second, t0, timing, size, stopped == "interrupted")


def _cells_of(model: Sequence[int], n_cells: int) -> np.ndarray:
    values = np.zeros(n_cells, np.uint8)
    for lit in model[:n_cells]:
        if lit > 0 and lit <= n_cells:
            values[lit - 1] = 1
    return values
