"""The pipeline: one configuration, one run function, and annealing alternated with logic.

* :mod:`qpicross.pipeline.config` -- :class:`SolverConfig`, shared by anneal, bench and tune;
* :mod:`qpicross.pipeline.run` -- :func:`run` / :func:`anneal`: build, presolve, sample, judge;
* :mod:`qpicross.pipeline.hybrid` -- :func:`anneal_with_logic`: reads point at cells, logic proves them.
"""

from qpicross.pipeline.config import ENCODINGS, SolverConfig
from qpicross.pipeline.hybrid import anneal_with_logic
from qpicross.pipeline.run import AnnealResult, anneal, run

__all__ = ["SolverConfig", "ENCODINGS", "AnnealResult", "anneal", "run", "anneal_with_logic"]
