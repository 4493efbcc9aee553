"""The profile chain (``chain="profile"``, :mod:`qpicross.samplers.blockshift.profile`): what it returns and when it runs.

Its distribution is checked against exact enumeration in ``test_distribution.py``;
here: every sample is its rows with a best placement of every column (its energy is the
match weight times the fewest mismatches any clue-consistent columns leave against those
rows, computed here by brute force), each column's max-plus passes give the brute-force
minima (every start allowed, or some removed as presolve does), it solves the shipped
puzzles, and it runs exactly when it applies.
"""

import itertools
from pathlib import Path

import numpy as np
import pytest

from qpicross import PenaltyWeights, Puzzle, build_formulation, check, decode_sample, load_puzzle
from qpicross.samplers.blockshift import profile as _profile
from qpicross.samplers.blockshift.sampler import BlockShiftSampler

INSTANCES = Path(__file__).resolve().parents[3] / "instances"


def _placements(clue, n):
    """Every line of length ``n`` that ``clue`` paints (0/1 tuples)."""
    out = []
    for starts in itertools.combinations(range(n), len(clue)):
        ends = [s + h for s, h in zip(starts, clue)]
        if all(e <= n for e in ends) and all(ends[k] < starts[k + 1] for k in range(len(clue) - 1)):
            cells = [0] * n
            for s, h in zip(starts, clue):
                cells[s:s + h] = [1] * h
            out.append(cells)
    return np.array(out, np.int64).reshape(len(out), n)


def _board(puzzle, labels, sample, kind):
    """The board painted by the ``kind`` ("row" or "col") variables of one sample."""
    board = np.zeros((puzzle.num_rows, puzzle.num_cols), np.int64)
    for label, value in zip(labels, sample):
        if value and label[0] == kind:
            _, line, start, k = label
            if kind == "row":
                board[line, start:start + puzzle.rows[line][k]] = 1
            else:
                board[start:start + puzzle.cols[line][k], line] = 1
    return board


def _fewest_mismatches(puzzle, rows_board):
    return sum(int(np.abs(_placements(clue, puzzle.num_rows) - rows_board[:, j]).sum(axis=1).min())
               for j, clue in enumerate(puzzle.cols))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("weights", ["match=1", "match=2.5,one_hot=3"])
def test_each_sample_is_its_rows_with_best_columns(seed, weights):
    rng = np.random.default_rng(seed)
    shape = (int(rng.integers(3, 6)), int(rng.integers(3, 6)))
    puzzle = Puzzle.from_board((rng.random(shape) < 0.5).tolist())
    w = PenaltyWeights.parse(weights)
    f = build_formulation(puzzle)
    ss = BlockShiftSampler().sample(f.bqm(w), lines=f.one_hot_lines(), paints=f.paints(), num_reads=20,
                                    num_sweeps=3, num_replicas=2, beta_range=(0.2, 0.5), seed=seed)
    assert ss.info["chain"] == "profile"
    labels = list(ss.variables)
    for sample, energy in zip(ss.record.sample, ss.record.energy):
        rows = _board(puzzle, labels, sample, "row")
        columns = _board(puzzle, labels, sample, "col")
        for i, clue in enumerate(puzzle.rows):  # every row clue-consistent
            assert (_placements(clue, puzzle.num_cols) == rows[i]).all(axis=1).any()
        assert energy == pytest.approx(w.match * _fewest_mismatches(puzzle, rows))
        assert int(np.abs(rows - columns).sum()) == _fewest_mismatches(puzzle, rows)


def _starts(clue, n):
    """Every placement of ``clue`` on a line of ``n`` cells: its blocks' starts."""
    return [starts for starts in itertools.combinations(range(n), len(clue))
            if all(s + h <= n for s, h in zip(starts, clue))
            and all(starts[k] + clue[k] < starts[k + 1] for k in range(len(clue) - 1))]


@pytest.mark.parametrize("blocked", [False, True], ids=["every-start", "some-starts-removed"])
@pytest.mark.parametrize("seed", range(8))
def test_column_passes_give_the_fewest_mismatches_and_each_cells_minima(seed, blocked, monkeypatch):
    """``_column`` (max-plus passes over block offsets) and ``_best_columns`` against every placement of
    the column, on random boards; with ``blocked``, some starts removed (as presolve does)."""
    rng = np.random.default_rng(seed)
    shape = (int(rng.integers(4, 9)), int(rng.integers(3, 7)))
    puzzle = Puzzle.from_board((rng.random(shape) < 0.6).tolist())
    f = build_formulation(puzzle)
    seen = []

    def spy(board_arrays, model, free_axis=0):
        seen.append((board_arrays, model))
        return original(board_arrays, model, free_axis)

    original = _profile.profile_model
    monkeypatch.setattr(_profile, "profile_model", spy)
    BlockShiftSampler().sample(f.bqm(), lines=f.one_hot_lines(), paints=f.paints(), num_reads=1, num_sweeps=1)
    board, model = seen[0]
    pmodel = original(board, model)
    pos_of, prof_chain, chain_ptr = pmodel.pos_of, pmodel.prof_chain, model.chain_ptr
    if blocked:  # remove a third of the starts; a column left with no placement is allowed too
        pos_of[(pos_of >= 0) & (rng.random(pos_of.shape) < 0.33)] = -1
    n_rows, n_cols = shape
    dp = np.zeros((2, (int(pmodel.blocks) + 1) * (int(pmodel.longest) + 1)), np.int64)
    scratch, marg = np.zeros(4 * (int(pmodel.longest) + 1), np.int64), np.zeros((2, n_rows * n_cols), np.int64)
    for _ in range(5):
        rows = (rng.random(shape) < 0.5).astype(np.int16)
        cur = np.zeros(len(model.group_ptr) - 1, np.int64)
        _profile.best_columns(rows.ravel(), cur, dp, scratch, marg, (model, board, pmodel))
        for j, clue in enumerate(puzzle.cols):
            g0 = chain_ptr[prof_chain[j]]
            starts = [s for s in _starts(clue, n_rows) if all(pos_of[g0 + k, s[k]] >= 0 for k in range(len(clue)))]
            lines = np.zeros((len(starts), n_rows), np.int64)
            for row, placement in zip(lines, starts):
                for s, h in zip(placement, clue):
                    row[s:s + h] = 1
            wrong = np.abs(lines - rows[:, j])
            total = _profile.column(j, rows.ravel(), dp, scratch, marg, True, (model, board, pmodel))
            assert total == (wrong.sum(axis=1).min() if starts else _profile.NONE)
            for i in range(n_rows):
                others = wrong.sum(axis=1) - wrong[:, i]
                for value in (0, 1):
                    fits = lines[:, i] == value
                    expected = others[fits].min() if fits.any() else _profile.NONE
                    assert marg[value, i * n_cols + j] == expected
            if starts:  # the best placement _best_columns chose: allowed, and with the fewest mismatches
                chosen = tuple(int(np.flatnonzero(pos_of[g0 + k] == cur[g0 + k])[0]) for k in range(len(clue)))
                assert chosen in starts and wrong[starts.index(chosen)].sum() == total


@pytest.mark.parametrize("name", ["5x5", "smile7", "house8", "star10", "boat12"])
def test_it_solves_the_shipped_puzzles(name):
    puzzle = load_puzzle(INSTANCES / f"{name}.px")
    f = build_formulation(puzzle)
    ss = BlockShiftSampler().sample(f.bqm(), lines=f.one_hot_lines(), paints=f.paints(), num_reads=1,
                                    target_energy=0, seed=3)
    assert ss.info["chain"] == "profile" and ss.first.energy == 0
    read = decode_sample(f, ss.first.sample)
    assert read.boards_agree and check(puzzle, read.board) == []


def test_it_runs_exactly_where_it_applies():
    f = build_formulation(load_puzzle(INSTANCES / "star10.px"))
    bqm, lines, paints = f.bqm(), f.one_hot_lines(), f.paints()

    def chain(**params):
        return BlockShiftSampler().sample(bqm, lines=lines, num_reads=1, num_sweeps=2, seed=1, **params).info["chain"]

    assert chain(paints=paints) == "profile"
    assert chain(paints=paints, chain="joint") == "joint"
    assert chain() == "joint"  # no paints: the BQM kernel, the joint chain
    assert chain(paints=paints, block_moves=True) == "joint"
    assert chain(paints=paints, line_moves=0.5) == "joint"  # block moves on by default there
    assert chain(paints=paints, line_moves=0.5, block_moves=False) == "profile"
    for params in ({}, {"block_moves": True}):
        with pytest.raises(ValueError, match="chain='profile' needs"):
            chain(chain="profile", **({"paints": paints} if params else {}), **params)
    with pytest.raises(ValueError, match="chain must be"):
        chain(paints=paints, chain="rows")


@pytest.mark.parametrize("seed", range(3))
def test_window_exchanges_keep_each_replicas_board_energy_and_column_minima(seed):
    """After sweeps with window exchanges (``window_exchange``), every replica's board is the one its block positions
    paint, and its energy, each column's fewest mismatches and each cell's minima are those recomputed from scratch;
    some exchanges were kept, so the check is not of an unchanged ladder."""
    from qpicross.samplers.blockshift import chains
    from qpicross.samplers.blockshift.engine import seed_rng
    from qpicross.samplers.blockshift.layouts import Signals
    from qpicross.samplers.blockshift.sampler import _Model, _settings

    rng = np.random.default_rng(seed)
    puzzle = Puzzle.from_board((rng.random((9, 8)) < 0.55).tolist())
    f = build_formulation(puzzle)
    bqm = f.bqm()
    model = _Model(bqm, _settings(bqm, {"layout": f.layout(), "window_exchange": 4}))
    arrays, w, constant = model.board
    pmodel = model.profile[0]
    data = (model.model, arrays, pmodel)
    betas = np.geomspace(0.2, 2.0, 5)
    work = _profile.profile_work(len(betas), len(model.model.group_ptr) - 1, len(model.model.group_vars), arrays,
                                 pmodel)
    params = model.params._replace(w=w, constant=constant, target=-np.inf)
    assert params.moves.window == 4
    signals = Signals(np.zeros(1, np.int8), np.zeros(2))
    seed_rng(work.rng, seed)
    best = chains.PROFILE.restart_begin(betas, w, params.moves, work, data)
    kept = 0
    for s in range(40):
        _, best = chains.PROFILE.restart_sweeps(s, 1, betas, best, params, work, data, signals)
        kept += chains.PROFILE.window_exchange(w, params.moves, work, data)
    assert kept > 0
    n_prof = len(pmodel.prof_chain)
    dp, scratch = np.zeros_like(work.dp), np.zeros_like(work.scratch)
    marg = np.zeros_like(work.marg[0])
    for r in range(len(betas)):
        painted = np.zeros(puzzle.num_rows * puzzle.num_cols, np.int64)
        for i, clue in enumerate(puzzle.rows):  # rows free: each row's blocks from the replica's positions
            c = pmodel.free_chains[i]
            for k, g in enumerate(range(model.model.chain_ptr[c], model.model.chain_ptr[c + 1])):
                start = arrays.seg_start[model.model.group_ptr[g] + work.cur[r, g]]
                painted[i * puzzle.num_cols + start: i * puzzle.num_cols + start + clue[k]] = 1
        assert np.array_equal(work.boards[r, 0], painted)
        costs = [_profile.column(j, work.boards[r, 0], dp, scratch, marg, True, data) for j in range(n_prof)]
        assert work.pcost[r].tolist() == costs and work.energy[r] == sum(costs)
        assert np.array_equal(work.marg[r], marg)
