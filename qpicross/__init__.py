"""qpicross: Picross puzzles (nonograms) as QUBO / Ising problems, solved by annealing.

The pipeline, one subpackage per stage:

* :mod:`qpicross.puzzle` -- :class:`Puzzle`, :func:`check` (the independent verifier), file formats;
* :mod:`qpicross.model` -- the QUBO as a :class:`dimod.BinaryQuadraticModel`, its variants, its size;
* :mod:`qpicross.samplers` -- named samplers (``sa``, ``shift``, ``exact``, cloud, ...) and
  :class:`BlockShiftSampler`, the package's structured annealer;
* :mod:`qpicross.classical` -- line logic, exact solvers, presolve;
* :mod:`qpicross.decode` -- samples back to boards, and what each read breaks;
* :mod:`qpicross.plot` -- matplotlib figures;
* :mod:`qpicross.pipeline` -- :class:`SolverConfig` and :func:`anneal` / :func:`run`: all of the above in one call;
* :mod:`qpicross.experiments` -- benchmarks, TTS statistics, tuning, figures (on top of the pipeline);
* :mod:`qpicross.cli` -- the ``qpicross`` command, a thin layer over the above.

Examples:
    >>> import qpicross
    >>> puzzle = qpicross.Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]])
    >>> qpicross.anneal(puzzle, num_reads=20, seed=1).solved
    True
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

#: Where each public name lives: imported on first use (PEP 562), so that ``import qpicross`` (and the
#: command line's start, ``--version``, a Ctrl-C while it starts) does not wait for numpy, numba and dimod.
_EXPORTS = {
    "qpicross.classical": ["Contradiction", "ExactResult", "LogicResult", "PresolveComposite", "propagate",
                           "solve_exact", "solve_line"],
    "qpicross.decode": ["DecodedRead", "SampleEvaluation", "Violation", "decode_sample", "evaluate_samples"],
    "qpicross.model": ["TERMS", "ModelTooLargeError", "PenaltyWeights", "PicrossFormulation", "build_bqm",
                       "build_formulation", "estimate_size"],
    "qpicross.pipeline": ["AnnealResult", "SolverConfig", "anneal", "anneal_with_logic", "run"],
    "qpicross.puzzle": ["BrokenLine", "Puzzle", "PuzzleFormatError", "board_from_strings", "board_to_strings",
                        "check", "load_puzzle", "load_puzzles", "save_puzzle"],
    "qpicross.samplers": ["SAMPLERS", "BlockShiftSampler", "get_sampler", "register_sampler", "sample"],
}
_MODULE_OF = {name: module for module, names in _EXPORTS.items() for name in names}
_SUBPACKAGES = ("classical", "decode", "model", "pipeline", "puzzle", "samplers", "plot", "experiments", "cli",
                "exceptions")

if TYPE_CHECKING:  # what the names are, for type checkers and editors
    from qpicross.classical import (
        Contradiction,
        ExactResult,
        LogicResult,
        PresolveComposite,
        propagate,
        solve_exact,
        solve_line,
    )
    from qpicross.decode import DecodedRead, SampleEvaluation, Violation, decode_sample, evaluate_samples
    from qpicross.model import (
        TERMS,
        ModelTooLargeError,
        PenaltyWeights,
        PicrossFormulation,
        build_bqm,
        build_formulation,
        estimate_size,
    )
    from qpicross.pipeline import AnnealResult, SolverConfig, anneal, anneal_with_logic, run
    from qpicross.puzzle import (
        BrokenLine,
        Puzzle,
        PuzzleFormatError,
        board_from_strings,
        board_to_strings,
        check,
        load_puzzle,
        load_puzzles,
        save_puzzle,
    )
    from qpicross.samplers import SAMPLERS, BlockShiftSampler, get_sampler, register_sampler, sample


def __getattr__(name: str):
    module = _MODULE_OF.get(name)
    if module is not None:
        value = getattr(importlib.import_module(module), name)
        globals()[name] = value  # later uses find it directly
        return value
    if name in _SUBPACKAGES:
        return importlib.import_module(f"qpicross.{name}")
    raise AttributeError(f"module 'qpicross' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_MODULE_OF))


__version__ = "0.1.0"

__all__ = [
    # puzzle
    "Puzzle",
    "PuzzleFormatError",
    "BrokenLine",
    "check",
    "board_from_strings",
    "board_to_strings",
    "load_puzzle",
    "load_puzzles",
    "save_puzzle",
    # model
    "TERMS",
    "PenaltyWeights",
    "PicrossFormulation",
    "build_formulation",
    "build_bqm",
    "estimate_size",
    "ModelTooLargeError",
    # samplers
    "SAMPLERS",
    "BlockShiftSampler",
    "get_sampler",
    "register_sampler",
    "sample",
    # classical
    "Contradiction",
    "LogicResult",
    "propagate",
    "solve_line",
    "ExactResult",
    "solve_exact",
    "PresolveComposite",
    # decode
    "DecodedRead",
    "SampleEvaluation",
    "Violation",
    "decode_sample",
    "evaluate_samples",
    # pipeline
    "SolverConfig",
    "AnnealResult",
    "anneal",
    "run",
    "anneal_with_logic",
]
