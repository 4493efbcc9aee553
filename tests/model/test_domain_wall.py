"""Domain-wall encoding: same energy as one-hot on every wall-consistent assignment, and a round trip."""

import dimod
import dimod.testing
import numpy as np
import pytest

from qpicross import PenaltyWeights, build_formulation, load_puzzle
from qpicross import SolverConfig
from qpicross.experiments.bench import bench_puzzle
from qpicross.model.domain_wall import domain_wall_bqm, to_one_hot_sampleset
from qpicross.samplers.blockshift.sampler import infer_groups

from conftest import INSTANCES
from puzzles import LETTER_A_FILE


@pytest.mark.parametrize("name", ["5x5.px", "smile7.px", "star10.px"])
@pytest.mark.parametrize("weights", [PenaltyWeights(), PenaltyWeights(one_hot=7, order=2, match=0.5)])
def test_energy_equals_one_hot_energy_on_one_hot_assignments(name, weights):
    f = build_formulation(load_puzzle(INSTANCES / name))
    bqm = f.bqm(weights)
    model = domain_wall_bqm(f, weights)
    groups = infer_groups(f.labels)
    assert model.bqm.num_variables == f.num_variables - len(groups)
    rng = np.random.default_rng(1)
    for _ in range(15):
        x = {label: 0 for label in f.labels}
        for g in groups:
            x[g[rng.integers(len(g))]] = 1
        walls = model.from_one_hot(x)
        assert model.bqm.energy(walls) == pytest.approx(bqm.energy(x))
        back = model.to_one_hot(np.array([[walls[v] for v in model.bqm.variables]]))[0]
        assert back.tolist() == [x[label] for label in f.labels]


def test_broken_wall_pays_the_wall_weight():
    f = build_formulation(load_puzzle(LETTER_A_FILE))
    w = 3.0
    # every other term off: a consistent wall costs 0, each 0 -> 1 step along a block costs w
    model = domain_wall_bqm(f, PenaltyWeights(one_hot=w, at_most_one=0, order=0, match=0))
    walls = list(model.bqm.variables)
    assert model.bqm.energy({v: 0 for v in walls}) == 0
    block = [v for v in walls if v[1:4] == ("col", 0, 0)]  # column 0, clue 2: four wall bits
    assert len(block) == 3
    broken = {v: 0 for v in walls}
    broken[block[1]] = 1  # d_1 = 0, d_2 = 1
    assert model.bqm.energy(broken) == pytest.approx(w)
    broken[block[0]] = 1  # d_1 = d_2 = 1: consistent again
    assert model.bqm.energy(broken) == 0


def test_sampleset_maps_back_with_one_hot_energies():
    from dwave.samplers import SimulatedAnnealingSampler

    f = build_formulation(load_puzzle(LETTER_A_FILE))
    bqm = f.bqm()
    model = domain_wall_bqm(f, PenaltyWeights(one_hot=16))
    ss = SimulatedAnnealingSampler().sample(model.bqm, num_reads=5, num_sweeps=200, seed=0)
    mapped = to_one_hot_sampleset(model, ss, bqm)
    assert mapped.record.sample.shape == (5, f.num_variables)
    dimod.testing.assert_sampleset_energies(mapped, bqm)


def test_bench_with_domain_wall_encoding(letter_a):
    r = bench_puzzle(letter_a, SolverConfig(sampler="sa", name="dw", num_sweeps=300, weights=PenaltyWeights(one_hot=16),
                                             encoding="domain_wall"), num_reads=10, seed=0)
    assert r.num_variables == 30 and r.num_reads == 10
    assert sum(r.residual_histogram.values()) == 10
