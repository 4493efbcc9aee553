"""The block-shift sampler: a proper dimod sampler, one-hot by construction, solving real puzzles."""

import unittest

import dimod
import dimod.testing
import numpy as np
import pytest

from qpicross import anneal, build_formulation, check, sample
from qpicross.samplers.structured import BlockShiftSampler, infer_groups, infer_lines

from conftest import INSTANCES

STAR = INSTANCES / "star10.px"


# dimod's own battery of tests on generic BQMs (no structure: single-flip annealing).
@dimod.testing.load_sampler_bqm_tests(BlockShiftSampler)
class TestDimodBattery(unittest.TestCase):
    pass


def test_sampler_api():
    dimod.testing.assert_sampler_api(BlockShiftSampler())


@pytest.fixture
def letter_bqm(letter_a):
    f = build_formulation(letter_a)
    return f, f.bqm()


def test_record_shape_and_energies_match_the_bqm(letter_bqm):
    _, bqm = letter_bqm
    ss = BlockShiftSampler().sample(bqm, num_reads=7, num_sweeps=20, seed=3)
    assert ss.record.sample.shape == (7, bqm.num_variables)
    dimod.testing.assert_sampleset_energies(ss, bqm)


@pytest.mark.parametrize("num_replicas, line_moves", [(1, 1.0), (3, 0.0), (1, 0.5)])
def test_same_seed_same_samples(letter_bqm, num_replicas, line_moves):
    _, bqm = letter_bqm
    kw = dict(num_reads=4, num_sweeps=30, num_replicas=num_replicas, line_moves=line_moves)
    a = BlockShiftSampler().sample(bqm, seed=42, **kw)
    b = BlockShiftSampler().sample(bqm, seed=42, **kw)
    c = BlockShiftSampler().sample(bqm, seed=43, num_reads=4, num_sweeps=1, num_replicas=1, line_moves=0.0,
                                   beta_range=(0.01, 0.01))
    assert np.array_equal(a.record.sample, b.record.sample)
    assert not np.array_equal(a.record.sample, c.record.sample)


@pytest.mark.parametrize("seed", [-1, 2**32, 1.5, "x"])
def test_bad_seed_is_a_clear_error(letter_bqm, seed):
    with pytest.raises(ValueError, match="seed"):
        BlockShiftSampler().sample(letter_bqm[1], num_reads=1, seed=seed)


@pytest.mark.parametrize("kwargs", [dict(num_reads=0), dict(shift_probability=2.0), dict(line_moves=-1.0),
                                    dict(beta_range=(0, 1)), dict(num_replicas=0)])
def test_bad_parameters_are_errors(letter_bqm, kwargs):
    with pytest.raises(ValueError):
        BlockShiftSampler().sample(letter_bqm[1], **kwargs)


def test_unknown_parameter_warns_like_dimod_samplers(letter_bqm):
    with pytest.warns(dimod.exceptions.SamplerUnknownArgWarning):
        BlockShiftSampler().sample(letter_bqm[1], num_reads=1, num_sweeps=1, nonsense=1)


def test_every_block_stays_one_hot_even_when_hot(letter_bqm):
    f, bqm = letter_bqm
    ss = BlockShiftSampler().sample(bqm, num_reads=20, num_sweeps=5, beta_range=(0.01, 0.01), seed=0)
    samples = f.samples_to_array(ss)
    one_hot = f.terms["one_hot"].energies(samples)
    assert np.all(one_hot == 0)


def test_groups_from_labels_cover_every_formulation_variable(letter_bqm):
    f, _ = letter_bqm
    groups = infer_groups(f.labels)
    assert sorted(v for g in groups for v in g) == sorted(f.labels)
    lines = infer_lines(f.labels)
    assert len(lines) == sum(1 for _, _, clue, _ in f.puzzle.lines() if clue)


def test_explicit_groups_on_a_generic_bqm():
    # Two one-hot groups {a, b, c} and {d, e}; the linear biases favour c and d.
    bqm = dimod.BinaryQuadraticModel({"a": 1, "b": 0.5, "c": -1, "d": -2, "e": 3}, {("c", "d"): 0.5}, 0, "BINARY")
    ss = BlockShiftSampler().sample(bqm, groups=[["a", "b", "c"], ["d", "e"]], num_reads=5, num_sweeps=50, seed=1)
    dimod.testing.assert_sampleset_energies(ss, bqm)
    for s in ss.samples():
        assert s["a"] + s["b"] + s["c"] == 1 and s["d"] + s["e"] == 1
    assert dict(ss.first.sample) == {"a": 0, "b": 0, "c": 1, "d": 1, "e": 0}
    with pytest.raises(ValueError, match="lacks"):
        BlockShiftSampler().sample(bqm, groups=[["a", "zz"]])
    with pytest.raises(ValueError, match="more than one group"):
        BlockShiftSampler().sample(bqm, groups=[["a", "b"], ["b", "c"]])


def test_spin_bqm_energies():
    bqm = dimod.BinaryQuadraticModel({0: 1.0, 1: -0.5}, {(0, 1): -1.0}, 0.25, "SPIN")
    ss = BlockShiftSampler().sample(bqm, num_reads=3, num_sweeps=50, seed=0)
    dimod.testing.assert_sampleset_energies(ss, bqm)
    assert ss.vartype is dimod.SPIN


def test_target_energy_stops_reads_early(letter_bqm):
    _, bqm = letter_bqm
    ss = BlockShiftSampler().sample(bqm, num_reads=5, num_sweeps=5000, target_energy=0, seed=2)
    assert np.all(ss.record.energy == 0)
    assert max(ss.info["sweeps"]) < 5000


@pytest.mark.parametrize("num_replicas", [1, 4])
def test_solves_the_star_where_single_flip_sa_does_not(shared_instances, num_replicas):
    from qpicross import load_puzzle

    puzzle = load_puzzle(STAR)
    result = anneal(puzzle, sampler="shift", num_reads=5, num_sweeps=300, seed=0, num_replicas=num_replicas)
    assert result.solved and not check(puzzle, result.board)


def test_registered_and_reachable_by_name(letter_bqm):
    _, bqm = letter_bqm
    ss = sample(bqm, "shift", num_reads=3, num_sweeps=100, seed=5)
    assert len(ss) == 3
    dimod.testing.assert_sampleset_energies(ss, bqm)


def test_presolved_formulation_with_fixed_variables(letter_a):
    # Fixing cells removes variables and folds them into linear biases; energies must still agree.
    known = -np.ones(letter_a.shape, int)
    known[3, :] = 1
    f = build_formulation(letter_a, known=known)
    bqm = f.bqm()
    ss = BlockShiftSampler().sample(bqm, num_reads=4, num_sweeps=200, seed=0)
    dimod.testing.assert_sampleset_energies(ss, bqm)
    assert ss.first.energy == 0
