"""The batched sampler's profile chain (:mod:`qpicross.samplers.blockshift.driver`): the CPU sampler's moves on
many ladders, the same samples on the CPU backend and in numba's CUDA simulator, and the distribution it claims."""

import importlib.util
import math
import os
import textwrap
from pathlib import Path

import numpy as np
import pytest

from qpicross import Puzzle, build_formulation, check
from qpicross.decode import decode_sample
from qpicross.samplers.blockshift import chains, driver, launch
from qpicross.samplers.blockshift.batched import sample_many
from qpicross.samplers.blockshift.plans import luby

from conftest import run_kernel_script
from puzzles import CORNER, LETTER_A

ROOT = Path(__file__).resolve().parents[3]


def test_formulations_run_the_profile_chain_and_are_solved():
    f = build_formulation(LETTER_A)
    knife = build_formulation(Puzzle.from_board(["..##.", ".###.", "##.##", ".###.", "..#.."]))
    sets = sample_many([f, knife], backend="cpu", num_reads=4, seed=2, target_energy=0)
    for ss, form in zip(sets, (f, knife)):
        assert ss.info["chain"] == "profile" and ss.info["parallel_reads"] == 4
        assert np.allclose(ss.record.energy, form.bqm().energies((ss.record.sample, ss.variables)))
        assert check(form.puzzle, decode_sample(form, ss.first.sample).board) == []
        hits = [h for h in ss.info["sweeps_to_target"] if h >= 0]
        assert hits and all(math.isfinite(t) for t, h in zip(ss.info["time_to_target_s"],
                                                              ss.info["sweeps_to_target"]) if h >= 0)


def test_same_seed_same_samples_whatever_the_batch():
    f, g = build_formulation(LETTER_A), build_formulation(CORNER)
    alone = sample_many([f], backend="cpu", num_reads=3, num_sweeps=60, seed=5, early_stop="read")[0]
    again = sample_many([f], backend="cpu", num_reads=3, num_sweeps=60, seed=5, early_stop="read")[0]
    batched = sample_many([f, g], backend="cpu", num_reads=3, num_sweeps=60, seed=5, early_stop="read")[0]
    for other in (again, batched):  # the other puzzles of a launch change nothing of this one's ladders
        assert np.array_equal(alone.record.sample, other.record.sample)
        assert alone.info["sweeps"] == other.info["sweeps"]


def test_a_joint_only_model_falls_back_and_profile_is_refused_for_it():
    import dimod

    bqm = dimod.BinaryQuadraticModel({"a": 1.0, "b": -1.0}, {("a", "b"): 2.0}, 0.0, dimod.BINARY)
    assert sample_many([bqm], lines=[[]], backend="cpu", num_reads=2, num_sweeps=5, seed=0)[0].info["chain"] == "joint"
    with pytest.raises(ValueError, match="chain='profile'"):
        sample_many([bqm], lines=[[]], backend="cpu", num_reads=2, num_sweeps=5, seed=0, chain="profile")


def test_a_budget_of_zero_returns_the_random_starts():
    ss = sample_many([build_formulation(LETTER_A)], backend="cpu", num_reads=3, num_sweeps=0, seed=1)[0]
    assert len(ss) == 3 and ss.info["sweeps"] == [0, 0, 0] and ss.info["restarts"] == [1, 1, 1]


@pytest.mark.parametrize("num_sweeps", [1, 7, 30])
def test_a_ladders_first_restart_is_the_cpu_samplers_restart(num_sweeps):
    """Ladder ``i`` of a launch runs, as its first restart, exactly the CPU sampler's read from the ladder's
    seed on free axis ``i % 2``: the same moves, the same random numbers, the same sample. The CPU chain's
    distribution is checked against exact enumeration in tests/samplers/blockshift/test_distribution.py."""
    from qpicross.samplers.blockshift.profile import profile_work

    f = build_formulation(Puzzle.from_board([".##..", "#####", "#.#.#", "..##.", ".#..."]))
    model = launch.prepare_profile(f.bqm(), f.one_hot_lines(), f.paints(), None, None)
    launched = launch.pack([model], np.random.SeedSequence(3), 2)
    out = driver.run(launched, "cpu", num_sweeps, num_sweeps, (0.5, 1.0, False), (False, True, False), 4, None)
    betas = model.levels[0]
    units, slots = len(model.structure.group_ptr) - 1, len(model.structure.group_vars)
    for i in range(2):
        pmodel = model.profiles[i % 2]
        work = profile_work(len(betas), units, slots, model.board, pmodel)
        sample = np.zeros(slots, np.int8)
        status = np.zeros(2)
        done, _ = chains.PROFILE.read(sample, launched["seeds"][i], betas, num_sweeps, (0.5, 1.0, False), False,
                                      -np.inf, model.w, model.constant, work, (model.structure, model.board, pmodel),
                                      np.zeros(1, np.int8), status)
        assert done == num_sweeps == out["done"][i] and out["restart"][i] == 1
        assert np.array_equal(out["sample"][i], sample)
        assert out["lowest"][i] == status[1]


SIMULATED = textwrap.dedent("""
    import json
    import numpy as np
    from qpicross import Puzzle, build_formulation
    from qpicross.samplers.blockshift.batched import sample_many
    letter = build_formulation(Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]]))
    pair = build_formulation(Puzzle([[2], [1]], [[2], [1]]))
    kw = dict(num_reads=3, num_sweeps=24, restart_sweeps=4, seed=7, early_stop="read", threads_per_block=4,
              sweeps_per_launch=8)
    cpu = sample_many([letter, pair], backend="cpu", **kw)
    gpu = sample_many([letter, pair], backend="cuda", **kw)
    print(json.dumps({"same": all(np.array_equal(g.record.sample, c.record.sample) and g.info["sweeps"] == c.info["sweeps"]
                                  and g.info["restarts"] == c.info["restarts"] for g, c in zip(gpu, cpu)),
                      "chain": gpu[0].info["chain"], "backend": gpu[0].info["backend"],
                      "restarts": cpu[0].info["restarts"]}))
""")


def test_cuda_kernel_in_the_simulator_gives_the_cpu_backends_samples():
    if importlib.util.find_spec("numba.cuda") is None:
        pytest.skip("numba has no CUDA target (numba.cuda) here, so no simulator; install numba-cuda")
    report = run_kernel_script(SIMULATED, simulator=True)
    assert report["same"] and report["chain"] == "profile" and report["backend"] == "cuda"
    assert min(report["restarts"]) >= 2  # the plan's restarts ran (and so did both free axes)


def test_cuda_kernel_on_a_gpu_gives_the_cpu_backends_samples():
    from qpicross.samplers.blockshift import cuda_available

    if os.environ.get("NUMBA_ENABLE_CUDASIM") == "1" or not cuda_available():
        pytest.skip("no CUDA GPU here (the simulator test above runs the same kernel); make bench-gpu runs this")
    report = run_kernel_script(SIMULATED, simulator=False)
    assert report["same"] and report["chain"] == "profile" and report["backend"] == "cuda"


def test_a_launch_above_the_memory_limit_is_refused_before_allocating(monkeypatch):
    monkeypatch.setenv("QPICROSS_MAX_MEMORY", "256KiB")
    model = launch.prepare_profile(*(lambda f: (f.bqm(), f.one_hot_lines(), f.paints()))(build_formulation(LETTER_A)),
                                   None, 0.0)
    assert launch.memory_bytes([model], 64) > 2**18
    with pytest.raises(ValueError, match="ladders would take about"):
        sample_many([build_formulation(LETTER_A)], backend="cpu", num_reads=64, seed=0)


def test_long_budgets_reach_the_wide_ladders_of_high_levels():
    """A budget of 40 units reaches Luby level 3 (8 units, 10 rungs); every ladder keeps its restart's level."""
    f = build_formulation(Puzzle([[1], [2]], [[1], [2]]))
    out = sample_many([f], backend="cpu", num_reads=2, num_sweeps=40, restart_sweeps=1, target_energy=-1.0,
                      seed=0, sweeps_per_launch=3)[0]
    assert out.info["sweeps"] == [40, 40] and out.info["restarts"] == [len(_luby_plan(40)), len(_luby_plan(40))]


def _luby_plan(units):
    done, k, plan = 0, 1, []
    while done < units:
        plan.append(min(luby(k), units - done))
        done += plan[-1]
        k += 1
    return plan
