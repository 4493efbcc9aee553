"""Population annealing (``schedule="population"``): what its population samples, its bounds, its CLI.

The distribution tests reuse the profile chain's exact target on a 4x4 puzzle
(``tests/samplers/blockshift/test_distribution.py``): 144 clue-consistent row boards,
``exp(-BETA w m(rows))`` over them. A read with ``return_state="last"`` returns a
member of its final population drawn uniformly, so ``N`` reads give ``N`` draws.
"""

import numpy as np
import pytest

from qpicross import build_formulation
from qpicross.cli import main
from qpicross.samplers.blockshift import chains as _chains, population as _population, sampler as structured
from qpicross.samplers.blockshift.sampler import BlockShiftSampler
from test_distribution import BETA, PROFILE_PUZZLE, _profile_target, noise_threshold, tv

from puzzles import LETTER_A, LETTER_A_FILE

N = 20_000


def _drawn_boards(ss, boards):
    """Which of ``boards`` (the free rows' boards) each read returned."""
    drawn = np.zeros((len(ss), *boards.shape[1:]), np.int64)
    for label, column in zip(ss.variables, ss.record.sample.T):
        kind, i, start, k = label
        if kind == "row":
            drawn[column == 1, i, start:start + PROFILE_PUZZLE.rows[i][k]] = 1
    index = {board.tobytes(): n for n, board in enumerate(boards)}
    return np.array([index[board.tobytes()] for board in drawn])


@pytest.fixture(scope="module")
def target():
    return _profile_target(PROFILE_PUZZLE)


def _sample(f, **kwargs):
    # beta_range (2 BETA, BETA): every step of a run is linear from BETA to BETA
    return BlockShiftSampler().sample(f.bqm(), lines=f.one_hot_lines(), paints=f.paints(), num_reads=N,
                                      schedule="population", beta_range=(2 * BETA, BETA), return_state="last",
                                      profile_lines="rows", seed=3, **kwargs)


def test_resampling_alone_turns_the_uniform_population_into_the_target(target):
    """No sweeps: the population drawn at beta = 0 is only reweighted, in two steps of BETA / 2 each
    (``beta_range=(BETA, BETA)``: the steps run from BETA / 2 to BETA). Weighting each step by its
    beta instead of the step's increase would draw at 1.5 BETA; no resampling, the uniform draw."""
    boards, best, profile, _ = target
    f = build_formulation(PROFILE_PUZZLE)
    ss = BlockShiftSampler().sample(f.bqm(), lines=f.one_hot_lines(), paints=f.paints(), num_reads=N,
                                    schedule="population", beta_range=(BETA, BETA), population=100,
                                    population_steps=2, num_sweeps=0, return_state="last", profile_lines="rows",
                                    seed=5)
    empirical = np.bincount(_drawn_boards(ss, boards), minlength=len(boards)) / N
    threshold = noise_threshold(profile, N)
    too_cold = np.exp(-1.5 * BETA * (best - best.min()))
    uniform = np.full(len(boards), 1 / len(boards))
    assert tv(profile, too_cold / too_cold.sum()) > 3 * threshold and tv(profile, uniform) > 3 * threshold
    assert tv(empirical, profile) < threshold


def test_sweeps_keep_the_population_at_the_target(target):
    """A small population (resampling alone would be far off) that then sweeps at BETA."""
    boards, best, profile, joint = target
    f = build_formulation(PROFILE_PUZZLE)
    ss = _sample(f, population=4, population_steps=1, num_sweeps=20)
    assert ss.info["schedule"] == "population" and ss.info["chain"] == "profile"
    which = _drawn_boards(ss, boards)
    empirical = np.bincount(which, minlength=len(boards)) / N
    assert tv(empirical, profile) < noise_threshold(profile, N)
    assert tv(empirical, joint) > noise_threshold(profile, N)
    assert np.array_equal(ss.record.energy, best[which].astype(float))  # best columns for its rows


@pytest.mark.parametrize("energy, dbeta, u, expected", [
    ([0, 0, 0, 0], 1.0, 0.5, [0, 1, 2, 3]),
    ([0, 50, 50, 50], 1.0, 0.5, [0, 0, 0, 0]),
    ([0, 50, 50, 50], 0.0, 0.5, [0, 1, 2, 3]),  # no change of temperature: no change of population
    # shares 1/8, 3/8, 1/8, 3/8: 0.5, 1.5, 0.5, 1.5 copies; the points (u + k) / 4 fall in them
    ([1, 0, 1, 0], np.log(3.0), 0.3, [0, 1, 2, 3]),
    ([1, 0, 1, 0], np.log(3.0), 0.7, [1, 1, 3, 3]),
])
def test_systematic_resampling_copies_each_member_its_share(energy, dbeta, u, expected):
    src = np.zeros(4, np.int64)
    _population.resample(np.array(energy), dbeta, 1.0, u, src)
    assert src.tolist() == expected


def test_it_solves_and_runs_on_threads():
    f = build_formulation(LETTER_A)
    ss = BlockShiftSampler().sample(f.bqm(), lines=f.one_hot_lines(), paints=f.paints(), num_reads=3,
                                    schedule="population", population=30, target_energy=0, seed=2, threads=2)
    assert (ss.record.energy == 0).all() and all(np.isfinite(ss.info["time_to_target_s"]))


@pytest.mark.parametrize("kwargs, fragment", [
    (dict(population=0), "population must be"), (dict(population=2.5), "population must be"),
    (dict(population_steps=0), "population_steps must be"),
    (dict(population=5), "cells in all"),  # with the ceiling lowered to 100 cells below
    (dict(chain="joint"), "profile chain"), (dict(paints=None), "profile chain"),
])
def test_bad_population_settings_are_refused_before_sampling(kwargs, fragment, monkeypatch):
    monkeypatch.setattr(structured, "MAX_POPULATION_CELLS", 100)  # 5 members of 25 cells are above it
    f = build_formulation(LETTER_A)
    options = dict(lines=f.one_hot_lines(), paints=f.paints(), num_reads=1, schedule="population")
    with pytest.raises(ValueError, match=fragment):
        BlockShiftSampler().sample(f.bqm(), **{**options, **kwargs})


def test_the_cli_runs_it_and_refuses_a_bad_population(capsys):
    puzzle = LETTER_A_FILE
    assert main(["anneal", puzzle, "--option", "schedule=population", "--seed", "1"]) == 0
    assert "SOLVED" in capsys.readouterr().out
    assert main(["anneal", puzzle, "--option", "schedule=population", "--option", "population=0"]) == 2
    err = capsys.readouterr().err
    assert "population must be" in err and err.count("\n") == 1


def test_a_stop_while_the_population_starts_ends_the_run_within_a_member(monkeypatch):
    """Drawing a large population's start takes seconds: the stop flag (Ctrl-C, the deadline) is
    checked after each member, so a run stopped then returns its first member and draws no more."""
    real, seen = _chains.PROFILE.population_read, []

    def stopped_at_once(out, seed, betas, sweeps, *rest):
        _, work, _, signals = rest
        stop = signals.stop
        work.energy[:] = -7  # the members' energies: those never drawn keep it
        stop[0] = 1
        try:
            result = real(out, seed, betas, sweeps, *rest)
        finally:
            stop[0] = 0
        seen.append((result, work.energy.copy()))
        return result

    monkeypatch.setattr(_chains.PROFILE, "population_read", stopped_at_once)
    f = build_formulation(LETTER_A)
    ss = BlockShiftSampler().sample(f.bqm(), lines=f.one_hot_lines(), paints=f.paints(), num_reads=1,
                                    num_sweeps=100, schedule="population", population=50, seed=1)
    assert seen and ss.info["sweeps"] == [0]
    for (done, reached), energies in seen:
        assert (done, reached) == (0, -1)
        assert energies[0] >= 0 and (energies[1:] == -7).all()
    assert np.isfinite(ss.first.energy)  # the first member's state, a state of the BQM
