"""The structured annealer's board kernel runs the BQM kernel's chain, and only where the BQM allows it.

``BlockShiftSampler(paints=...)`` switches to :mod:`qpicross.samplers.blockshift.board` when the
BQM is, on clue-consistent states, a constant plus ``w`` times the mismatched cells.
There it must give the very samples the BQM kernel gives for the same seed (same
proposals, same acceptance tests, same random numbers); anywhere else it must not
run at all. Its sampling distribution is checked against exact enumeration in
``test_distribution.py``.
"""

import numpy as np
import pytest
from conftest import INSTANCES

from qpicross import PenaltyWeights, build_formulation
from qpicross.classical.logic import propagate
from qpicross.puzzle.formats.registry import load_puzzle
from qpicross.samplers.blockshift.sampler import BlockShiftSampler

CONFIGS = [
    {"num_sweeps": 60, "num_replicas": 4},
    {"num_sweeps": 60, "num_replicas": 1},
    {"num_sweeps": 3000, "target_energy": 0},  # the default Luby restarts, stopping at the ground state
    {"num_sweeps": 40, "num_replicas": 3, "return_state": "last"},
    {"num_sweeps": 40, "num_replicas": 2, "line_moves": 0.4, "shift_probability": 0.8},
    {"num_sweeps": 60, "num_replicas": 4, "block_moves": True},  # the chain before they went off by default
    {"num_sweeps": 40, "num_replicas": 2, "line_moves": 0.4, "block_moves": False},
]


def _both(f, bqm, **params):
    sampler = BlockShiftSampler()
    plain = sampler.sample(bqm, lines=f.one_hot_lines(), seed=7, num_reads=3, **params)
    board = sampler.sample(bqm, lines=f.one_hot_lines(), paints=f.paints(), seed=7, num_reads=3, chain="joint",
                           **params)
    return plain, board


@pytest.mark.parametrize("params", CONFIGS)
def test_same_seed_same_samples_as_the_bqm_kernel(params):
    f = build_formulation(load_puzzle(INSTANCES / "star10.px"))
    plain, board = _both(f, f.bqm(), **params)
    assert (plain.info["kernel"], board.info["kernel"]) == ("bqm", "board")
    assert np.array_equal(plain.record.sample, board.record.sample)
    assert np.array_equal(plain.record.energy, board.record.energy)
    assert plain.info["sweeps"] == board.info["sweeps"]
    if "target_energy" in params:
        assert plain.info["sweeps_to_target"] == board.info["sweeps_to_target"]


@pytest.mark.parametrize("weights", ["match=2,one_hot=3", "match=0.5,order=4,at_most_one=2"])
def test_other_weights_still_qualify_and_agree(weights):
    f = build_formulation(load_puzzle(INSTANCES / "star10.px"))
    plain, board = _both(f, f.bqm(PenaltyWeights.parse(weights)), num_sweeps=200, num_replicas=4)
    assert board.info["kernel"] == "board"
    assert np.array_equal(plain.record.sample, board.record.sample)


def _kernel(f, bqm, **params):
    ss = BlockShiftSampler().sample(bqm, lines=f.one_hot_lines(), paints=f.paints(), num_reads=1, num_sweeps=5,
                                    seed=1, **params)
    return ss.info["kernel"]


def test_models_that_are_not_board_energies_keep_the_bqm_kernel():
    puzzle = load_puzzle(INSTANCES / "star10.px")
    f = build_formulation(puzzle)
    bqm = f.bqm()
    assert _kernel(f, bqm) == "board"
    assert _kernel(f, bqm, line_moves=0.0) == "bqm"  # unconstrained states: order and overlaps count

    a, b = ("row", 0, 3, 0), ("col", 9, 0, 0)
    assert a in bqm.variables and b in bqm.variables and bqm.get_quadratic(a, b, default=0) == 0
    extra = bqm.copy()
    extra.add_interaction(a, b, -2.0)  # a coupling between lines that paint no common cell
    assert _kernel(f, extra) == "bqm"

    tilted = bqm.copy()
    tilted.add_linear(a, 0.25)  # one start of a block preferred: not one constant per group
    assert _kernel(f, tilted) == "bqm"

    wrong = dict(f.paints())
    axis, line, start, length = wrong[a]
    wrong[a] = (axis, line, start, length + 1)  # what a variable paints must match its couplings
    ss = BlockShiftSampler().sample(bqm, lines=f.one_hot_lines(), paints=wrong, num_reads=1, num_sweeps=5, seed=1)
    assert ss.info["kernel"] == "bqm"

    known = propagate(puzzle).known  # presolve fixes starts: their cells become linear biases
    partly = np.where(np.arange(known.size).reshape(known.shape) % 3 == 0, known, -1)
    reduced = build_formulation(puzzle, known=partly)
    assert reduced.fixed_labels
    assert _kernel(reduced, reduced.bqm()) == "bqm"
