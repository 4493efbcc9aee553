"""benchmarks.feedback_ladder: the feedback step keeps a ladder's ends and order and moves its rungs to where the
replicas stop flowing; a ladder put on a running restart is the one its replicas then sweep on."""

import math

import numpy as np
import pytest

from benchmarks.feedback_ladder import _set_ladder, compare_ladders, feedback_betas, flow
from benchmarks.stall import start_ladder, watch_sweeps
from qpicross import Puzzle
from qpicross.samplers.blockshift.plans import RUNGS

#: A random 30x30 board's clues: a few hundred sweeps leave it unsolved, so replicas flow between unequal energies.
RANDOM_30 = Puzzle.from_board(["".join(".#"[b] for b in row) for row in np.random.default_rng(3).integers(0, 2, (30, 30))])


def test_the_step_keeps_the_ends_and_the_order_and_leaves_an_even_flow_alone():
    betas = np.geomspace(1.0, 5.0, 8)
    even = np.linspace(1, 0, 8)  # f dropping by as much at every pair: the step's fixed point
    assert np.allclose(feedback_betas(betas, even), betas)
    assert not np.allclose(feedback_betas(betas, (1 / betas - 0.2) / 0.8), betas)  # linear in T is not, here
    for f in ([1, 1, 1, 0.9, 0.1, 0, 0, 0], [1, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0], [1, 1, 1, 1, 1, 1, 1, 0]):
        new = feedback_betas(betas, f)
        assert new[0] == pytest.approx(betas[0]) and new[-1] == pytest.approx(betas[-1])
        assert np.all(np.diff(new) > 0)


def test_the_rungs_gather_where_the_flow_drops():
    betas = np.geomspace(1.0, 5.0, 8)
    f = np.array([1, 1, 1, 0.95, 0.05, 0, 0, 0])  # nearly all of the drop between rungs 3 and 4
    new = feedback_betas(betas, f)
    inside = np.sum((new > betas[3] + 1e-9) & (new < betas[4] - 1e-9))
    assert inside >= 4  # of the 6 inner rungs; before the step none was strictly between them
    # a rung no labelled replica reached takes f from its neighbours: the same step as with the gap filled in
    gap = f.copy()
    gap[6] = math.nan  # between two rungs of f 0
    assert np.allclose(feedback_betas(betas, gap), feedback_betas(betas, f))


def test_a_ladder_put_on_a_running_restart_is_the_one_swept():
    run = start_ladder(RANDOM_30, 2, RUNGS, seed=5)
    last_end = np.full(len(run.betas), -1)
    for _ in watch_sweeps(run, run.betas, 50, last_end):  # exchanges have moved replicas between rungs
        pass
    assert not np.array_equal(run.work.slot_of, np.arange(len(run.betas)))
    tuned = np.geomspace(run.betas[0], run.betas[-1] * 1.5, len(run.betas))
    _set_ladder(run, tuned)
    w = run.params.w
    for r in range(len(tuned)):
        assert run.work.beta_of[r] == tuned[run.work.slot_of[r]]
        k = np.arange(len(run.work.tables[r]))
        expected = np.where(tuned[r] * w * k < 50, np.exp(-tuned[r] * w * k), 0.0)
        assert np.allclose(run.work.tables[r], expected)
    seen = flow(run, tuned, 20, last_end)
    assert len(seen["f"]) == len(tuned) and len(seen["exchange_acceptance"]) == len(tuned) - 1
    assert all(math.isnan(x) or 0 <= x <= 1 for x in seen["f"]) and seen["best_energy"] >= 0


def test_both_restarts_compared_start_alike_and_report_what_they_reached():
    row = compare_ladders(RANDOM_30, seed=1, rounds=(40, 80), sweeps=60)
    default, tuned = row["runs"]
    assert (default["ladder"], tuned["ladder"]) == ("default", "feedback")
    assert default["betas"][0] == pytest.approx(tuned["betas"][0]) and default["betas"][-1] == pytest.approx(tuned["betas"][-1])
    assert default["betas"] == row["tuning"][0]["betas"] and len(row["tuning"]) == 2
    for run in (default, tuned):
        assert run["best_energy"] >= 0 and (run["first_zero_sweep"] is None) == (run["best_energy"] > 1e-9)
