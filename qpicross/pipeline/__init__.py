"""The pipeline: one configuration, one run function, and annealing alternated with logic.

* :mod:`qpicross.pipeline.config` -- :class:`SolverConfig`, shared by anneal, bench and tune;
* :mod:`qpicross.pipeline.run` -- :func:`run_many`, the one pipeline (build, presolve, sample, judge), and
  :func:`run` / :func:`anneal` for one puzzle;
* :mod:`qpicross.pipeline.models` -- the models a run anneals: presolve, the encoding's BQM, the structure a
  sampler is told;
* :mod:`qpicross.pipeline.result` -- :class:`AnnealResult`, what a run found;
* :mod:`qpicross.pipeline.hybrid` -- :func:`anneal_with_logic`: reads point at cells, logic proves them.
"""

from qpicross.pipeline.config import ENCODINGS, SolverConfig
from qpicross.pipeline.hybrid import anneal_with_logic
from qpicross.pipeline.result import AnnealResult
from qpicross.pipeline.run import anneal, run, run_many

__all__ = ["SolverConfig", "ENCODINGS", "AnnealResult", "anneal", "run", "run_many", "anneal_with_logic"]
