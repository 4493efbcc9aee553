"""The formulation's layout (qpicross.model.layout): the board it gives is the one the exact check derives,
and a sampler given ``layout=`` draws the same samples from the same seed as one given ``lines=`` and
``paints=``."""

import numpy as np
import pytest

from qpicross import Puzzle, build_formulation
from qpicross.classical.logic import propagate
from qpicross.exceptions import ModelStructureError
from qpicross.model.weights import PenaltyWeights
from qpicross.samplers.blockshift.board import board_model, layout_board
from qpicross.samplers.blockshift.sampler import BlockShiftSampler
from qpicross.samplers.blockshift.structure import read_structure

from puzzles import LETTER_A

HOUSE = Puzzle.from_board(["..#...", ".###..", "#####.", ".#.#..", ".###.#", "......"], name="house")
WEIGHTS = [PenaltyWeights(), PenaltyWeights(match=2.5, one_hot=3), PenaltyWeights(order=0),
           PenaltyWeights(one_hot=0), PenaltyWeights(at_most_one=0), PenaltyWeights(match=0)]


def _formulations():
    for puzzle in (LETTER_A, HOUSE):
        for bounds in ("stacking", "published"):
            yield build_formulation(puzzle, bounds=bounds)
    known = propagate(HOUSE).known.copy()
    known[:3] = -1
    yield build_formulation(HOUSE, known=known)  # presolve-fixed blocks: the layout cannot vouch


@pytest.mark.parametrize("weights", WEIGHTS, ids=str)
def test_the_layouts_board_is_the_one_the_exact_check_derives(weights):
    for f in _formulations():
        bqm = f.bqm(weights)
        layout = f.layout(weights)
        layout.check(bqm)
        variables = list(bqm.variables)
        structure, couplings = read_structure(bqm, variables, layout.lines)
        checked = board_model(variables, layout.paints(), structure, couplings)
        read = layout_board(layout, structure)
        if read is None:
            continue
        assert checked is not None, (f.puzzle.name, f.bounds, weights)
        assert (read[1], read[2]) == (checked[1], checked[2])
        for mine, theirs in zip(read[0], checked[0]):
            assert np.array_equal(mine, theirs)


def test_the_default_weights_vouch_for_the_board_and_presolve_fixed_blocks_do_not():
    assert build_formulation(LETTER_A).layout().match_weight == 1.0
    known = propagate(HOUSE).known.copy()
    known[:3] = -1
    assert build_formulation(HOUSE, known=known).layout().match_weight is None


def test_a_layout_refuses_a_bqm_it_was_not_made_for():
    f = build_formulation(LETTER_A)
    layout = f.layout()
    with pytest.raises(ModelStructureError, match="another weighting"):
        layout.check(f.bqm(PenaltyWeights(one_hot=2)))
    other = f.bqm()
    other.relabel_variables({("row", 0, 2, 0): "x"})
    with pytest.raises(ModelStructureError, match="another BQM"):
        BlockShiftSampler().sample(other, layout=layout, num_reads=1, num_sweeps=5, seed=0)


def test_the_lines_and_paints_are_the_formulations():
    f = build_formulation(HOUSE)
    layout = f.layout()
    assert layout.lines == [[list(g) for g in line] for line in f.one_hot_lines()]
    assert layout.paints() == f.paints()


@pytest.mark.parametrize("chain", ["profile", "joint"])
def test_layout_gives_the_same_samples_as_lines_and_paints(chain):
    f = build_formulation(HOUSE)
    bqm = f.bqm()
    common = dict(num_reads=3, num_sweeps=300, seed=11, chain=chain, schedule="luby", threads=1)
    given = BlockShiftSampler().sample(bqm, lines=f.one_hot_lines(), paints=f.paints(), **common)
    laid = BlockShiftSampler().sample(bqm, layout=f.layout(), **common)
    assert (laid.info["kernel"], laid.info["chain"]) == (given.info["kernel"], given.info["chain"]) == ("board", chain)
    assert np.array_equal(laid.record.sample, given.record.sample)
    assert laid.info["sweeps"] == given.info["sweeps"]


def test_batched_layout_gives_the_same_samples_as_lines_and_paints():
    from qpicross.samplers.blockshift.batched import sample_many

    fs = [build_formulation(HOUSE), build_formulation(LETTER_A)]
    common = dict(num_reads=2, num_sweeps=200, seed=3, backend="cpu", chain="profile", target_energy=0.0)
    given = sample_many([f.bqm() for f in fs], lines=[f.one_hot_lines() for f in fs],
                        paints=[f.paints() for f in fs], **common)
    laid = sample_many([f.bqm() for f in fs], layout=[f.layout() for f in fs], **common)
    for a, b in zip(given, laid):
        assert np.array_equal(a.record.sample, b.record.sample)
        assert a.info["chain"] == b.info["chain"] == "profile"


def test_decoding_reads_the_layouts_placements():
    f = build_formulation(LETTER_A)
    from qpicross.decode import decode_sample

    good = f.sample_from_board(["..#..", ".#.#.", ".#.#.", "#####", "#...#"])
    bad = {**good, ("row", 0, 2, 0): 0}
    assert decode_sample(f, good).solved
    assert [v.term for v in decode_sample(f, bad).violations][:1] == ["one_hot"]
