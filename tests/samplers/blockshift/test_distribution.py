"""The block-shift sampler samples the distribution its docs name: checked against exact enumeration.

At a fixed inverse temperature (``beta_range=(b, b)``, one replica) each read
is a Markov chain; with ``return_state="last"`` its final state is one draw
from the chain's distribution after ``SWEEPS`` sweeps (with tempering: the
state of the replica at ``b``, the cold end of the ladder). The claims
(:mod:`qpicross.samplers.blockshift.sampler`):

* ``line_moves=0``: ``p(x) ~ exp(-b E(x))`` over the one-hot states;
* ``line_moves>0``: ``p(x) ~ exp(-b E(x))`` over the clue-consistent states.

Both state spaces are small enough to enumerate, so the empirical distribution
of ``N`` reads is compared with the exact one by total-variation distance (TV).
Sampling noise alone gives an expected TV of about
``sum_i sqrt(p_i (1 - p_i) / (2 pi N))`` (each count is off by a half-normal
``sqrt(2/pi) sigma_i`` on average and TV halves the sum); for ``K`` equally likely
states that is ``sqrt(K / (2 pi N))``. The threshold is twice that expected
noise, and each test also checks that the two targets are much further apart
than the threshold, so the test can tell them apart.

Seen when these tests were written (N = 20000): the Picross model's TVs were
0.072 (one-hot, threshold 0.143) and 0.023 / 0.028 (clue-consistent,
line_moves 1 / 0.3, threshold 0.052), while the two targets are 0.70 apart.
With the line move drawing from every placement of the line's blocks (order
ignored) the clue-consistent TV became 0.93 / 0.72; without the rejection of
block moves that leave the consistent set, 0.067 / 0.34; without the Metropolis
correction for couplings inside a line, the generic model's 0.029 became 0.24.
"""

import itertools
import math

import dimod
import dimod.testing
import numpy as np
import pytest

from qpicross import Puzzle, build_formulation
from qpicross.samplers.blockshift.sampler import BlockShiftSampler

BETA = 1.0
N = 20_000  # reads
SWEEPS = 20  # per read: from 5 sweeps on, the TVs below no longer change beyond sampling noise


def tv(p, q):
    return 0.5 * float(np.abs(np.asarray(p) - np.asarray(q)).sum())


def noise_threshold(p, n=N):
    """Twice the expected TV between ``p`` and the empirical distribution of ``n`` draws from it."""
    return 2.0 * float(np.sqrt(p * (1 - p)).sum()) / math.sqrt(2 * math.pi * n)


class Enumerated:
    """Every one-hot state of a BQM with one-hot ``lines`` (and free variables), with exact energies."""

    def __init__(self, bqm, lines):
        self.bqm = bqm
        self.variables = list(bqm.variables)
        index = {v: i for i, v in enumerate(self.variables)}
        self.groups = [[index[v] for v in g] for line in lines for g in line]
        grouped = {i for g in self.groups for i in g}
        self.free = [i for i in range(len(self.variables)) if i not in grouped]
        self.dims = [len(g) for g in self.groups] + [2] * len(self.free)
        choices = np.array(list(itertools.product(*[range(d) for d in self.dims])), np.int64)
        self.states = np.zeros((len(choices), len(self.variables)), np.int8)
        rows = np.arange(len(choices))
        for k, g in enumerate(self.groups):
            self.states[rows, np.asarray(g)[choices[:, k]]] = 1
        for k, i in enumerate(self.free):
            self.states[:, i] = choices[:, len(self.groups) + k]
        self.energies = bqm.energies((self.states, self.variables))

    def boltzmann(self, allowed):
        w = np.where(allowed, np.exp(-BETA * (self.energies - self.energies.min())), 0.0)
        return w / w.sum()

    def empirical(self, sampleset):
        record = sampleset.record.sample[:, [list(sampleset.variables).index(v) for v in self.variables]]
        choices = []
        for g in self.groups:
            assert np.all(record[:, g].sum(axis=1) == 1), "a sample broke a one-hot group"
            choices.append(record[:, g].argmax(axis=1))
        choices += [record[:, i] for i in self.free]
        counts = np.bincount(np.ravel_multi_index(choices, self.dims), minlength=len(self.states))
        return counts / counts.sum()


def draw(model, lines, line_moves, seed, num_replicas=1, paints=None, block_moves=None):
    """``N`` final states at ``BETA``: one chain each, or the coldest of a tempering ladder from ``0.3``."""
    hot = BETA if num_replicas == 1 else 0.3
    ss = BlockShiftSampler().sample(
        model.bqm, lines=lines, num_reads=N, num_sweeps=SWEEPS, beta_range=(hot, BETA),
        num_replicas=num_replicas, line_moves=line_moves, return_state="last", seed=seed, paints=paints,
        block_moves=block_moves, chain="joint",
    )
    assert ss.info["kernel"] == ("bqm" if paints is None else "board")
    dimod.testing.assert_sampleset_energies(ss.slice(300, sorted_by=None), model.bqm)  # (slow per sample)
    assert ss.info["sweeps"] == [SWEEPS] * N
    return ss


# -- the Picross formulation -----------------------------------------------------------------
# 3x3, published bounds (every start kept): the row clue [1, 1] has 9 one-hot placements of
# which 1 keeps its order, so the one-hot space has 1458 states and the consistent one 162.
PUZZLE = Puzzle([[1, 1], [1], [1]], [[1], [2], [1]])


@pytest.fixture(scope="module")
def picross():
    f = build_formulation(PUZZLE, bounds="published")
    model = Enumerated(f.bqm(), f.one_hot_lines())
    labels = [model.variables.index(v) for v in f.labels]
    states = model.states[:, labels]
    order, at_most_one = (f.terms[name].energies(states) for name in ("order", "at_most_one"))
    model.consistent = (order == 0) & (at_most_one == 0)
    model.one_hot = model.boltzmann(np.ones(len(states), bool))
    model.clue = model.boltzmann(model.consistent)
    model.lines = f.one_hot_lines()
    model.paints = f.paints()
    return model


def test_the_two_targets_are_far_apart(picross):
    assert (len(picross.states), int(picross.consistent.sum())) == (1458, 162)
    # the one-hot target puts 70 % of its mass on states the clue-consistent one excludes
    assert tv(picross.one_hot, picross.clue) == pytest.approx(1 - picross.one_hot[picross.consistent].sum())
    assert tv(picross.one_hot, picross.clue) > 0.6
    assert noise_threshold(picross.one_hot) < 0.15 and noise_threshold(picross.clue) < 0.06


@pytest.mark.parametrize("num_replicas", [1, 3])
def test_block_moves_sample_the_bqm_restricted_to_one_hot_states(picross, num_replicas):
    ss = draw(picross, picross.lines, line_moves=0.0, seed=11, num_replicas=num_replicas)
    empirical = picross.empirical(ss)
    assert tv(empirical, picross.one_hot) < noise_threshold(picross.one_hot)
    assert tv(empirical, picross.clue) > 0.5


# block_moves=None: block moves only with line_moves < 1 (the default); True and False force them on or off
@pytest.mark.parametrize("line_moves, num_replicas, kernel, block_moves", [
    (1.0, 1, "bqm", None), (0.3, 1, "bqm", None), (1.0, 3, "bqm", None), (1.0, 1, "bqm", True),
    (1.0, 1, "board", None), (0.3, 3, "board", None), (1.0, 3, "board", True), (0.3, 1, "board", False)])
def test_line_moves_sample_the_bqm_restricted_to_clue_consistent_lines(picross, line_moves, num_replicas, kernel,
                                                                       block_moves):
    paints = picross.paints if kernel == "board" else None
    ss = draw(picross, picross.lines, line_moves=line_moves, seed=12, num_replicas=num_replicas, paints=paints,
              block_moves=block_moves)
    empirical = picross.empirical(ss)
    assert empirical[~picross.consistent].sum() == 0  # order and at_most_one are hard constraints
    assert tv(empirical, picross.clue) < noise_threshold(picross.clue)
    assert tv(empirical, picross.one_hot) > 0.5


# -- the profile chain (chain="profile"): rows sampled, columns minimised out --------------------
# 4x4: 3 * 3 * 4 * 4 = 144 clue-consistent row boards. The target over them is exp(-BETA w m(rows)),
# m the fewest mismatches of any clue-consistent columns against the rows (by brute force here);
# the joint chain's marginal over the rows, sum over columns of exp(-BETA w m(rows, columns)), is
# the distribution it must be told apart from.
PROFILE_PUZZLE = Puzzle([[1, 1], [2], [1], [1]], [[1], [2], [1, 1], [1]])


def _placements(clue, n):
    """Every board line of length ``n`` that ``clue`` paints, as a tuple of 0/1."""
    lines = []
    for starts in itertools.combinations(range(n), len(clue)):
        cells = [0] * n
        ends = [s + h for s, h in zip(starts, clue)]
        if all(e <= n for e in ends) and all(ends[k] < starts[k + 1] for k in range(len(clue) - 1)):
            for s, h in zip(starts, clue):
                cells[s:s + h] = [1] * h
            lines.append(tuple(cells))
    return lines


def _profile_target(puzzle):
    """The free rows' boards of ``puzzle``, their fewest mismatches, the profile target, the joint marginal."""
    rows = list(itertools.product(*[_placements(c, puzzle.num_cols) for c in puzzle.rows]))
    columns = [np.array(_placements(c, puzzle.num_rows)) for c in puzzle.cols]
    boards = np.array(rows, np.int64)  # (row boards, rows, cols)
    # mismatches of each column placement against each board's column, summed over the best per column
    best = sum(np.abs(boards[:, None, :, j] - columns[j][None, :, :]).sum(axis=2).min(axis=1)
               for j in range(puzzle.num_cols))
    joint = np.ones(len(rows))
    for j in range(puzzle.num_cols):  # the joint chain's marginal: columns summed out
        joint *= np.exp(-BETA * np.abs(boards[:, None, :, j] - columns[j][None, :, :]).sum(axis=2)).sum(axis=1)
    target = np.exp(-BETA * (best - best.min()))
    return boards, best, target / target.sum(), joint / joint.sum()


@pytest.fixture(scope="module")
def profile():
    return _profile_target(PROFILE_PUZZLE)


@pytest.fixture(scope="module")
def profile_of_columns():
    """The same over its columns: the rows of the transposed puzzle."""
    return _profile_target(Puzzle(PROFILE_PUZZLE.cols, PROFILE_PUZZLE.rows))


@pytest.mark.parametrize("num_replicas, bounds, lines, window", [
    (1, "stacking", "rows", 0), (3, "published", "rows", 0), (1, "stacking", "columns", 0),
    (3, "published", "columns", 0), (3, "published", "rows", 3), (4, "stacking", "columns", 2)])
def test_the_profile_chain_samples_its_free_lines_with_the_others_minimised_out(profile, profile_of_columns,
                                                                                num_replicas, bounds, lines, window):
    """Rows free (default axis) and columns free (``profile_lines="columns"``): each its own target; the same with
    window exchanges between the rungs (``window_exchange``; seen when written: TV 0.025 and 0.027 against a
    threshold of 0.053; with every window kept, no Metropolis, 0.33 and 0.29)."""
    boards, best, target, joint = profile if lines == "rows" else profile_of_columns
    assert len(boards) == 144
    assert tv(target, joint) > 3 * noise_threshold(target)  # the test can tell the two apart
    f = build_formulation(PROFILE_PUZZLE, bounds=bounds)
    hot = BETA if num_replicas == 1 else 0.3
    ss = BlockShiftSampler().sample(f.bqm(), lines=f.one_hot_lines(), paints=f.paints(), num_reads=N,
                                    num_sweeps=SWEEPS, beta_range=(hot, BETA), num_replicas=num_replicas,
                                    return_state="last", seed=21, profile_lines=lines, window_exchange=window)
    assert ss.info["chain"] == "profile" and ss.info["sweeps"] == [SWEEPS] * N
    assert ss.info["profile_lines"] == lines
    drawn = np.zeros((N, *boards.shape[1:]), np.int64)  # the free lines' boards, one line per row
    kind_drawn, clues = ("row", PROFILE_PUZZLE.rows) if lines == "rows" else ("col", PROFILE_PUZZLE.cols)
    for label, column in zip(ss.variables, ss.record.sample.T):
        kind, i, start, k = label
        if kind == kind_drawn:
            drawn[column == 1, i, start:start + clues[i][k]] = 1
    index = {board.tobytes(): n for n, board in enumerate(boards)}
    which = np.array([index[board.tobytes()] for board in drawn])
    empirical = np.bincount(which, minlength=len(boards)) / N
    assert tv(empirical, target) < noise_threshold(target)
    assert tv(empirical, joint) > noise_threshold(target)
    # each sample's columns are a best response to its rows: its energy is the match weight times m(rows)
    assert np.array_equal(ss.record.energy, best[which].astype(float))


# -- a generic model: couplings inside a line, free variables ---------------------------------
# Line 0 has three blocks of five starts; a positive coupling makes each block start after the
# previous one (the "clue"), and random couplings between its blocks on allowed placements make
# the line move's Metropolis correction matter. Line 1 is one block of four starts; two free
# variables are flipped singly. 2000 one-hot states, 160 consistent ones.
def _generic():
    rng = np.random.default_rng(5)
    lines = [[[f"l0b{k}s{p}" for p in range(5)] for k in range(3)], [[f"l1s{p}" for p in range(4)]]]
    variables = [v for line in lines for g in line for v in g] + ["u", "w"]
    bqm = dimod.BinaryQuadraticModel({v: rng.normal() for v in variables}, {}, 0.0, "BINARY")
    (b0, b1, b2), (d,) = lines
    for first, second in ((b0, b1), (b1, b2)):
        for i, j in itertools.product(range(5), repeat=2):
            bqm.add_interaction(first[i], second[j], 2.0 if j <= i else -abs(rng.normal()))
    for u, v in itertools.product(b0, b2):
        bqm.add_interaction(u, v, rng.normal())  # non-consecutive blocks: allowed either sign
    for u, v in itertools.product(b0 + b1 + b2, d + ["u", "w"]):
        bqm.add_interaction(u, v, 0.5 * rng.normal())
    bqm.add_interaction("u", "w", -1.0)
    return bqm, lines


@pytest.fixture(scope="module")
def generic():
    bqm, lines = _generic()
    model = Enumerated(bqm, lines)
    positions = [model.states[:, g].argmax(axis=1) for g in model.groups[:3]]
    model.consistent = (positions[0] < positions[1]) & (positions[1] < positions[2])
    model.one_hot = model.boltzmann(np.ones(len(model.states), bool))
    model.clue = model.boltzmann(model.consistent)
    model.lines = lines
    return model


@pytest.mark.parametrize("line_moves, block_moves", [(0.0, None), (1.0, None), (1.0, True)])
def test_generic_model_with_couplings_inside_lines(generic, line_moves, block_moves):
    assert (len(generic.states), int(generic.consistent.sum())) == (2000, 160)
    target, other = (generic.one_hot, generic.clue) if line_moves == 0 else (generic.clue, generic.one_hot)
    assert tv(target, other) > 5 * noise_threshold(target)
    ss = draw(generic, generic.lines, line_moves=line_moves, seed=13, block_moves=block_moves)
    empirical = generic.empirical(ss)
    assert tv(empirical, target) < noise_threshold(target)
