"""The models a run anneals, built from its formulation: line logic first where asked, the encoding's BQM, and what a
sampler is told of the model's structure.

:func:`~qpicross.pipeline.run.run_many` calls these for every puzzle; they are public so that a benchmark or a user's
own loop builds exactly what the pipeline anneals.

Examples:
    >>> from qpicross import Puzzle, SolverConfig, build_formulation
    >>> f = build_formulation(Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]]))
    >>> bqm, sampled, wall_model = encode(f, SolverConfig(encoding="thermometer"))
    >>> bqm.num_variables, sampled.num_variables, type(wall_model).__name__
    (44, 30, 'ThermometerModel')
"""

from __future__ import annotations

import dimod
import numpy as np

from qpicross.exceptions import ParameterError
from qpicross.model.formulation import PicrossFormulation
from qpicross.model.weights import PenaltyWeights
from qpicross.pipeline.config import SolverConfig

__all__ = ["presolved_formulation", "encoded_num_variables", "encode", "structure_parameters"]


def presolved_formulation(formulation: PicrossFormulation, config: SolverConfig,
                          known: np.ndarray | None = None) -> tuple[PicrossFormulation, dict | None]:
    """The formulation an encoding is built from, and line logic's report where it ran first.

    With ``presolve``, an encoding built from the formulation (thermometer) gets the formulation line logic
    prunes (:func:`~qpicross.classical.presolve.presolve_formulation`: the settled starts are constants); the
    one-hot model keeps its formulation, and :class:`~qpicross.classical.presolve.PresolveComposite` fixes its
    settled variables at sampling time (report None).
    """
    if not config.presolve or config.encoding == "one_hot":
        return formulation, None
    from qpicross.classical.presolve import presolve_formulation

    return presolve_formulation(formulation, known)


def encoded_num_variables(formulation: PicrossFormulation, encoding: str) -> int:
    """The variables of ``encoding``'s model of a formulation (the model a presolved run would have annealed
    without line logic), without building it.

    >>> from qpicross import Puzzle, build_formulation
    >>> f = build_formulation(Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]]))
    >>> encoded_num_variables(f, "one_hot"), encoded_num_variables(f, "thermometer")
    (44, 30)
    """
    if encoding == "thermometer":
        from qpicross.model.thermometer import thermometer_num_variables

        return thermometer_num_variables(formulation)
    if encoding == "one_hot":
        return formulation.num_variables
    raise ParameterError(f"presolve works on the one-hot and thermometer encodings only, not {encoding!r}")


def encode(formulation: PicrossFormulation, config: SolverConfig):
    """The one-hot BQM every read is judged on, the BQM the sampler anneals (``config.encoding``) and the
    encoding's model (None for one-hot): ``(bqm, sampled, wall_model)``."""
    bqm = formulation.bqm(config.weights)
    if config.encoding == "domain_wall":
        from qpicross.model.domain_wall import domain_wall_bqm

        wall_model = domain_wall_bqm(formulation, config.weights)
        return bqm, wall_model.bqm, wall_model
    if config.encoding == "thermometer":
        from qpicross.model.thermometer import thermometer_bqm

        wall_model = thermometer_bqm(formulation, config.weights)
        return bqm, wall_model.bqm, wall_model
    return bqm, bqm, None


def structure_parameters(sampler: dimod.Sampler, formulation: PicrossFormulation, weights: PenaltyWeights,
                          wall_model) -> dict:
    """What the model knows about itself, for samplers that ask: the formulation, and for the one-hot model its
    layout (lines, placements, board energy: :meth:`~qpicross.model.formulation.PicrossFormulation.layout`), or
    its one-hot lines and paints where the sampler takes those and no layout."""
    params = {}
    if "formulation" in sampler.parameters:
        params["formulation"] = formulation
    if wall_model is not None:
        return params
    if "layout" in sampler.parameters:
        params["layout"] = formulation.layout(weights)
        return params
    if "lines" in sampler.parameters:
        params["lines"] = formulation.one_hot_lines()
    if "paints" in sampler.parameters:
        params["paints"] = formulation.paints()
    return params
