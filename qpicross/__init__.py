"""qpicross: Picross puzzles (nonograms) as QUBO / Ising problems, solved by annealing.

The pipeline, one module per stage:

* :mod:`qpicross.puzzle` -- :class:`Puzzle`, :func:`check` (the independent verifier);
* :mod:`qpicross.formats` -- reading and writing puzzle files (:func:`load_puzzle`);
* :mod:`qpicross.formulation` -- the QUBO as a :class:`dimod.BinaryQuadraticModel`;
* :mod:`qpicross.samplers` -- named samplers (``sa``, ``tabu``, ``exact``, ...);
* :mod:`qpicross.decode` -- samples back to boards, and what each read breaks;
* :mod:`qpicross.anneal` -- all of the above in one call (:func:`anneal`);
* :mod:`qpicross.plot` -- matplotlib figures;
* :mod:`qpicross.logic` -- line logic to a fixpoint (:func:`propagate`), the presolve;
* :mod:`qpicross.exact` -- exact SAT / CP-SAT solvers with a uniqueness check (:func:`solve_exact`);
* :mod:`qpicross.hybrid` -- annealing and logic in turns (:func:`anneal_with_logic`);
* :mod:`qpicross.generate` -- random puzzles (:func:`generate_puzzle`);
* :mod:`qpicross.cli` -- the ``qpicross`` command.
"""

from .anneal import AnnealResult, anneal
from .decode import DecodedRead, Violation, decode_sample, evaluate_samples
from .exact import ExactResult, solve_exact
from .formats import load_puzzle, save_puzzle
from .formulation import TERMS, PenaltyWeights, PicrossFormulation, build_bqm, build_formulation
from .generate import generate_puzzle
from .hybrid import anneal_with_logic
from .logic import Contradiction, LogicResult, propagate, solve_line
from .puzzle import BrokenLine, Puzzle, PuzzleFormatError, board_from_strings, board_to_strings, check
from .samplers import SAMPLERS, get_sampler, register_sampler, sample

__version__ = "0.1.0"

__all__ = [
    "AnnealResult",
    "anneal",
    "DecodedRead",
    "Violation",
    "decode_sample",
    "evaluate_samples",
    "load_puzzle",
    "save_puzzle",
    "TERMS",
    "PenaltyWeights",
    "PicrossFormulation",
    "build_bqm",
    "build_formulation",
    "BrokenLine",
    "Puzzle",
    "PuzzleFormatError",
    "board_from_strings",
    "board_to_strings",
    "check",
    "SAMPLERS",
    "get_sampler",
    "register_sampler",
    "sample",
    "ExactResult",
    "solve_exact",
    "generate_puzzle",
    "anneal_with_logic",
    "Contradiction",
    "LogicResult",
    "propagate",
    "solve_line",
]
