"""Classical ground truth: line logic, exact solvers, and the presolve built on line logic.

* :mod:`qpicross.classical.logic` -- the line solver and propagation to a fixpoint (:func:`propagate`);
* :mod:`qpicross.classical.exact` -- CP-SAT and SAT with a uniqueness check (:func:`solve_exact`; SAT's
  python-sat is a core dependency, CP-SAT's OR-tools the ``classical`` extra, both imported when called), the SAT
  encoding in :mod:`qpicross.classical.sat`;
* :mod:`qpicross.classical.presolve` -- fix what logic settles, anneal the rest (:class:`PresolveComposite`);
* :mod:`qpicross.classical.generate` -- random puzzles, with a unique solution where asked (``qpicross generate``).
"""

from qpicross.classical.exact import ExactResult, solve_exact
from qpicross.classical.logic import Contradiction, LogicResult, line_placements, propagate, solve_line
from qpicross.classical.presolve import Presolve, PresolveComposite, fix_variables, presolve

__all__ = [
    "Contradiction",
    "LogicResult",
    "line_placements",
    "propagate",
    "solve_line",
    "ExactResult",
    "solve_exact",
    "Presolve",
    "PresolveComposite",
    "fix_variables",
    "presolve",
]
