"""``exact``: :class:`dimod.ExactSolver` behind a size guard, returning only the ground states."""

from __future__ import annotations

import dimod

from qpicross.exceptions import ParameterError

__all__ = ["GroundStateExactSolver", "EXACT_MAX_VARIABLES"]

#: The largest BQM the ``exact`` sampler agrees to enumerate.
EXACT_MAX_VARIABLES = 25



class GroundStateExactSolver(dimod.Sampler):
    """:class:`dimod.ExactSolver` that refuses large models and returns only the ground states.

    Args:
        max_variables: Refuse BQMs with more variables than this (an integer from 0 to 30: 2**30 states is
            already more than dimod's enumeration holds in memory).

    Raises:
        ParameterError: If ``max_variables`` is not such an integer.
    """

    def __init__(self, max_variables: int = EXACT_MAX_VARIABLES):
        if isinstance(max_variables, bool) or not isinstance(max_variables, int) or not 0 <= max_variables <= 30:
            raise ParameterError(f"max_variables must be an integer from 0 to 30, got {max_variables!r}")
        self.max_variables = max_variables

    @property
    def parameters(self) -> dict:
        return {}

    @property
    def properties(self) -> dict:
        return {"max_variables": self.max_variables}

    def check(self, bqm: dimod.BinaryQuadraticModel) -> None:
        """Refuse a model above ``max_variables`` (what :meth:`sample` does first; a pipeline asks before it starts).

        Raises:
            ParameterError: For more than ``max_variables`` variables.
        """
        if bqm.num_variables > self.max_variables:
            raise ParameterError(
                f"the exact sampler enumerates 2^n assignments and refuses n = {bqm.num_variables} "
                f"> {self.max_variables} variables; use the default sampler 'shift' (or 'sa', 'tabu')"
            )

    def sample(self, bqm: dimod.BinaryQuadraticModel, **kwargs) -> dimod.SampleSet:
        self.check(bqm)
        return dimod.ExactSolver().sample(bqm).lowest()
