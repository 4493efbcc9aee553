"""The batched driver (:mod:`qpicross.samplers.blockshift.driver`): the profile chain runs the CPU sampler's moves on
many ladders, and both chains' CUDA kernels give the CPU backend's samples in numba's CUDA simulator."""

import importlib.util
import json
import math
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from qpicross import Puzzle, build_formulation, check
from qpicross.decode import decode_sample
from qpicross.samplers.blockshift import chains, driver, launch
from qpicross.samplers.blockshift.batched import sample_many
from qpicross.samplers.blockshift.layouts import Signals, make_params
from qpicross.samplers.blockshift.plans import luby

from conftest import ROOT
from puzzles import CORNER, LETTER_A



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
    out = driver.run(launched, "cpu", num_sweeps, num_sweeps, (0.5, 1.0, False), (False, True, False),
                     sweeps_per_launch=4)
    betas = model.levels[0]
    units, slots = len(model.structure.group_ptr) - 1, len(model.structure.group_vars)
    for i in range(2):
        pmodel = model.profiles[i % 2]
        work = profile_work(len(betas), units, slots, model.board, pmodel)
        sample = np.zeros(slots, np.int8)
        status = np.zeros(2)
        params = make_params((0.5, 1.0, False), False, -np.inf, model.w, model.constant)
        done, _ = chains.PROFILE.read(sample, launched["seeds"][i], betas, num_sweeps, params, work,
                                      (model.structure, model.board, pmodel), Signals(np.zeros(1, np.int8), status))
        assert done == num_sweeps == out["done"][i] and out["restart"][i] == 1
        assert np.array_equal(out["sample"][i], sample)
        assert out["lowest"][i] == status[1]


# -- the CUDA kernels against the CPU backend: one launch of each chain, run by numba's CUDA simulator or on a GPU.
# The simulator must be on before numba.cuda is imported, hence a fresh interpreter for each run.

#: What each chain launches. Formulations (their paints) run the profile chain, its restarts included; which of
#: its two solutions a read of TWO_DIAGONALS ends on, and when each read solves, depend on every random number
#: drawn. A batch with a BQM that is no Picross model (a line of two blocks with a coupling inside it, a one-block
#: line and two free variables) runs the joint chain, with replica exchange.
LAUNCHES = {
    "profile": """
        models = [build_formulation(LETTER_A), build_formulation(TWO_DIAGONALS), build_formulation(PARTLY_LOGICAL)]
        kw = dict(num_reads=3, num_sweeps=24, restart_sweeps=4, seed=7, early_stop="read", threads_per_block=4,
                  sweeps_per_launch=8)
    """,
    "joint": """
        mixed = dimod.BinaryQuadraticModel(
            {"a0": 1, "a1": -1, "a2": 0.5, "b0": -0.5, "b1": 0.2, "b2": -1, "c0": 0.3, "c1": -0.3, "u": 0.4, "w": -0.2},
            {("a0", "b0"): 2, ("a1", "b1"): 2, ("a2", "b2"): 2, ("a0", "b2"): -0.7, ("b1", "c0"): 1, ("u", "w"): -1,
             ("u", "a1"): 0.5}, 0.0, "BINARY")
        letter, dot = build_formulation(LETTER_A), build_formulation(Puzzle([[1], []], [[1], []]))
        models = [letter, dot, mixed]
        mixed_lines = [[["a0", "a1", "a2"], ["b0", "b1", "b2"]], [["c0", "c1"]]]
        lines = [letter.one_hot_lines(), dot.one_hot_lines(), mixed_lines]
        kw = dict(lines=lines, num_reads=2, num_replicas=2, num_sweeps=40, seed=3, target_energy=[0, 0, None],
                  threads_per_block=8)
    """,
}

#: Runs one launch on both backends and prints, as JSON, how the CUDA kernels' samples (and the sweeps, restarts
#: and sweeps to the target of each read) compare with the CPU's.
KERNEL_RUN = """
import json
import dimod
import numpy as np
from qpicross import Puzzle, build_formulation, check
from qpicross.decode import decode_sample
from qpicross.samplers.blockshift.batched import sample_many
from puzzles import LETTER_A, PARTLY_LOGICAL, TWO_DIAGONALS
{launch}
cpu = sample_many(models, backend="cpu", **kw)
cuda = sample_many(models, backend="cuda", **kw)
formulations = [(s, m) for s, m in zip(cuda, models) if not isinstance(m, dimod.BinaryQuadraticModel)]
bqms = [m if isinstance(m, dimod.BinaryQuadraticModel) else m.bqm() for m in models]
print(json.dumps({{
    "same": all(np.array_equal(g.record.sample, c.record.sample)
                and all(g.info.get(key) == c.info.get(key) for key in ("sweeps", "restarts", "sweeps_to_target"))
                for g, c in zip(cuda, cpu)),
    "energies_match": all(np.allclose(s.record.energy, b.energies((s.record.sample, s.variables)))
                          for s, b in zip(cuda, bqms)),
    "solved": [check(m.puzzle, decode_sample(m, s.first.sample).board) == [] for s, m in formulations],
    "chains": [s.info["chain"] for s in cuda],
    "backend": cuda[0].info["backend"],
    "restarts": cpu[0].info.get("restarts"),
}}))
"""


def run_kernels(chain: str, simulator: bool) -> dict:
    """Launch ``chain``'s :data:`LAUNCHES` on the CPU and CUDA backends in a fresh interpreter (numba's CUDA
    simulator on or off) and return what :data:`KERNEL_RUN` reports."""
    code = KERNEL_RUN.format(launch=textwrap.dedent(LAUNCHES[chain]))
    # the caller's path after ours: where the dependencies were installed with pip --target (make bench-gpu)
    path = [str(ROOT), str(ROOT / "tests"), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    env.pop("NUMBA_ENABLE_CUDASIM", None)
    if simulator:
        env["NUMBA_ENABLE_CUDASIM"] = "1"
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("chain", LAUNCHES)
def test_cuda_kernels_in_the_simulator_give_the_cpu_backends_samples(chain):
    if importlib.util.find_spec("numba.cuda") is None:
        pytest.skip("numba has no CUDA target (numba.cuda) here, so no simulator; install numba-cuda")
    report = run_kernels(chain, simulator=True)
    assert report["same"] and report["energies_match"] and all(report["solved"])
    assert set(report["chains"]) == {chain} and report["backend"] == "cuda"
    if chain == "profile":
        assert min(report["restarts"]) >= 2  # the plan's restarts ran (and so did both free axes)


@pytest.mark.parametrize("chain", LAUNCHES)
def test_cuda_kernels_on_a_gpu(chain):
    from qpicross.samplers.blockshift import cuda_available

    if os.environ.get("NUMBA_ENABLE_CUDASIM") == "1" or not cuda_available():
        pytest.skip("no CUDA GPU here (the simulator test above runs the same kernels); make bench-gpu runs this")
    report = run_kernels(chain, simulator=False)
    assert report["energies_match"] and all(report["solved"])
    assert set(report["chains"]) == {chain} and report["backend"] == "cuda"
    if chain == "profile":  # the joint chain's exp() on the GPU may differ from the CPU's in the last bit
        assert report["same"]


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


def test_one_restart_plan_for_the_cpu_sampler_the_read_runner_and_the_ladders():
    """Restart k's sweeps, level (its ladder) and free axis come from one kernel, engine.restart_of: the CPU
    sampler's plan (plans.LubyRestarts) runs the ladders the batched driver's restarts run, and a stream's
    restarts take the free axes in turn as the ladders do (restart k of stream i: axis (i + k - 1) % 2), with
    the batched ladders' rungs (the CPU plan's default differs only in its rungs after the first restart)."""
    from qpicross.samplers.blockshift.engine import restart_of
    from qpicross.samplers.blockshift.launch import BATCHED_RUNGS
    from qpicross.samplers.blockshift.plans import FIRST_RUNGS, LubyRestarts, ladder

    default = list(LubyRestarts(40 * 7, 7, (2.0, 5.0)))
    assert len(default[0][0]) == FIRST_RUNGS and [len(b) for b, _ in default[1:3]] == [8, 12]
    plan = list(LubyRestarts(40 * 7, 7, (2.0, 5.0), rungs=BATCHED_RUNGS))
    assert [s for _, s in plan] == [s for _, s in default]
    assert [sweeps for _, sweeps in plan] == [7 * m for m in _luby_plan(40)]
    for k, (betas, sweeps) in enumerate(plan, 1):
        for stream in (0, 1):
            s, level, axis = restart_of(k, stream, 7, 10**9, 2)
            assert np.array_equal(betas, ladder((2.0, 5.0), level, BATCHED_RUNGS)) and axis == (stream + k - 1) % 2
            assert s == 7 * luby(k) and (sweeps == s or k == len(plan))


def _luby_plan(units):
    done, k, plan = 0, 1, []
    while done < units:
        plan.append(min(luby(k), units - done))
        done += plan[-1]
        k += 1
    return plan
