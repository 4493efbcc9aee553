"""Models: a puzzle's clues as a QUBO, its variants, its size, and exports.

* :mod:`qpicross.model.formulation` -- the q_row/q_col one-hot formulation (:func:`build_formulation`);
* :mod:`qpicross.model.weights` -- the penalty terms' names and weights (:class:`PenaltyWeights`);
* :mod:`qpicross.model.placements` -- the start variables as arrays (:func:`placement_windows`, :func:`enumerate_starts`);
* :mod:`qpicross.model.terms` -- each penalty term as coordinate arrays;
* :mod:`qpicross.model.pruning` -- starts dropped or fixed by cells already known;
* :mod:`qpicross.model.boards` -- boards as samples and samples as boards;
* :mod:`qpicross.model.layout` -- the model's lines, placements, paints and board energy (samplers, decoding);
* :mod:`qpicross.model.size` -- the size guard, from the clues, before building;
* :mod:`qpicross.model.domain_wall` -- the domain-wall encoding of the same model;
* :mod:`qpicross.model.thermometer` -- block starts in unary with 2-local order and coverage (for generic samplers);
* :mod:`qpicross.model.cqm` -- the formulation as a constrained model (Leap's CQM solver);
* :mod:`qpicross.model.export` -- files for other annealers (json, bqm, coo, cqm).
"""

from qpicross.model.domain_wall import DomainWallModel, domain_wall_bqm, to_one_hot_sampleset
from qpicross.model.formulation import PicrossFormulation, build_bqm, build_formulation
from qpicross.model.layout import PicrossLayout
from qpicross.model.placements import enumerate_starts, placement_windows
from qpicross.model.thermometer import ThermometerModel, thermometer_bqm
from qpicross.model.size import ModelTooLargeError, check_size, estimate_size, max_couplers_limit
from qpicross.model.weights import TERMS, PenaltyWeights

__all__ = ["TERMS", "PenaltyWeights", "PicrossFormulation", "PicrossLayout", "build_formulation", "build_bqm",
           "enumerate_starts", "placement_windows", "estimate_size", "check_size", "max_couplers_limit",
           "ModelTooLargeError", "DomainWallModel", "domain_wall_bqm", "to_one_hot_sampleset", "ThermometerModel",
           "thermometer_bqm"]
