"""benchmarks.stall: the restart it watches sweep by sweep is the sampler's first restart, and its counts add up."""

import numpy as np
import pytest

from benchmarks.stall import exchanges, watch_restart
from qpicross import build_formulation
from qpicross.samplers.blockshift.sampler import BlockShiftSampler

from qpicross import Puzzle

#: A random 30x30 board's clues: a few sweeps leave broken lines, so the energies compared are not all zero.
RANDOM_30 = Puzzle.from_board(["".join(".#"[b] for b in row) for row in np.random.default_rng(3).integers(0, 2, (30, 30))])


@pytest.mark.parametrize("sweeps", [3, 40])
def test_the_watched_restart_is_the_first_restart_of_a_read(sweeps):
    puzzle = RANDOM_30
    f = build_formulation(puzzle)
    bqm = f.bqm()
    ss = BlockShiftSampler().sample(bqm, layout=f.layout(), seed=4, threads=1, num_reads=1, num_sweeps=sweeps)
    assert ss.info["restarts"] == [1] and ss.info["sweeps"] == [sweeps]
    read_seed = int(np.random.SeedSequence(4).generate_state(1).astype(np.int64)[0])
    run = watch_restart(puzzle, 0, sweeps, seed=read_seed)
    assert run["best_energy"] == pytest.approx(ss.first.energy) and ss.first.energy > 0
    assert [c["sweep"] for c in run["checkpoints"]] == sorted({2**k for k in range(8) if 2**k <= sweeps} | {sweeps})
    assert run["checkpoints"][-1]["best"] == run["best_energy"] and 0 <= run["last_improvement_sweep"] <= sweeps
    assert len(run["checkpoints"][0]["rung_mean"]) == run["rungs"] == 4
    assert run["replica_sweep_s"] > 0 and 0 <= run["round_trips"] <= sweeps


def test_a_rung_arrangement_no_exchange_pass_makes_is_refused():
    assert exchanges(np.array([0, 1, 2, 3]), np.array([1, 0, 3, 2])).tolist() == [True, False, True]
    with pytest.raises(AssertionError, match="no exchange pass"):
        exchanges(np.array([0, 1, 2]), np.array([2, 1, 0]))  # the coldest replica cannot reach the hottest rung
