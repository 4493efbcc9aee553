"""The batched annealer (shift-batched) on its CPU backend: a dimod sampler, in the pipeline and the bench, and
the distributions it claims. Its CUDA kernels against the CPU backend: ``test_driver.py``."""

import os
import subprocess
import sys
import unittest

import dimod
import dimod.testing
import numpy as np
import pytest

from qpicross import Puzzle, anneal, build_formulation, check, load_puzzle
from qpicross.decode import decode_sample
from qpicross.samplers import SamplerUnavailableError, get_sampler, is_batched
from qpicross.samplers.blockshift.batched import BatchedShiftSampler, cuda_available, sample_many

from conftest import INSTANCES, ROOT
from test_sampler import FALLBACK
from puzzles import LETTER_A, LETTER_A_FILE


class CPUShiftSampler(BatchedShiftSampler):
    def __init__(self):
        super().__init__(backend="cpu")


# dimod's own battery on generic BQMs (no one-hot structure: single flips, with a warning).
@pytest.mark.filterwarnings(f"ignore:.*{FALLBACK}:UserWarning")
@dimod.testing.load_sampler_bqm_tests(CPUShiftSampler)
class TestDimodBattery(unittest.TestCase):
    pass


def test_sampler_api():
    dimod.testing.assert_sampler_api(CPUShiftSampler())


@pytest.fixture(scope="module")
def formulations():
    return [build_formulation(LETTER_A), build_formulation(load_puzzle(INSTANCES / "star10.px")),
            build_formulation(load_puzzle(INSTANCES / "smile7.px"))]


def test_letter_a_solved_with_bqm_energies(formulations):
    f = formulations[0]
    bqm = f.bqm()
    ss = CPUShiftSampler().sample(bqm, num_reads=6, num_sweeps=200, seed=1, target_energy=0)
    assert ss.record.sample.shape == (6, bqm.num_variables)
    dimod.testing.assert_sampleset_energies(ss, bqm)
    assert ss.first.energy == 0
    assert check(LETTER_A, decode_sample(f, ss.first.sample).board) == []
    assert ss.info["parallel_reads"] == 6 and len(ss.info["time_to_target_s"]) == 6


def test_same_seed_same_samples(formulations):
    kw = dict(num_reads=4, num_sweeps=20, backend="cpu", beta_range=(0.3, 1.0))
    a = sample_many(formulations[:2], seed=5, **kw)
    b = sample_many(formulations[:2], seed=5, **kw)
    c = sample_many(formulations[:2], seed=6, **kw)
    for x, y in zip(a, b):
        assert np.array_equal(x.record.sample, y.record.sample)
    assert not all(np.array_equal(x.record.sample, y.record.sample) for x, y in zip(a, c))


def test_several_puzzles_in_one_launch(formulations):
    out = sample_many(formulations, num_reads=8, num_sweeps=2000, seed=2, target_energy=0, backend="cpu")
    assert len(out) == 3
    for f, ss in zip(formulations, out):
        dimod.testing.assert_sampleset_energies(ss, f.bqm())
        assert ss.first.energy == 0
        assert check(f.puzzle, decode_sample(f, ss.first.sample).board) == []
        assert ss.info["batch"]["models"] == 3
    # a puzzle's samples do not depend on the other puzzles of its batch
    alone = sample_many(formulations[:1], num_reads=8, num_sweeps=2000, seed=2, target_energy=0, backend="cpu")[0]
    assert np.array_equal(alone.record.sample, out[0].record.sample)


@pytest.mark.parametrize("num_replicas, line_moves", [(1, 1.0), (3, 0.0), (2, 0.5)])
def test_blocks_stay_one_hot_and_lines_fit(formulations, num_replicas, line_moves):
    f = formulations[1]
    ss = sample_many([f], num_reads=5, num_sweeps=5, num_replicas=num_replicas, line_moves=line_moves,
                     beta_range=(0.01, 0.01), seed=0, backend="cpu")[0]
    samples = f.samples_to_array(ss)
    assert np.all(f.terms["one_hot"].energies(samples) == 0)
    if line_moves > 0:  # block moves never break the fit of consecutive blocks
        assert np.all(f.terms["order"].energies(samples) == 0)


def test_early_stop_modes(formulations):
    f = formulations[0]
    kw = dict(num_reads=6, num_sweeps=300, seed=3, target_energy=0, backend="cpu")
    every = sample_many([f], early_stop="read", **kw)[0]
    assert np.all(np.isfinite(every.info["time_to_target_s"])) and np.all(every.record.energy == 0)
    assert every.info["sweeps"] == every.info["sweeps_to_target"]
    never = sample_many([f], early_stop="none", **kw)[0]
    assert never.info["sweeps"] == [300] * 6
    first = sample_many([f], **kw)[0]  # "puzzle": stop once one read is there
    assert max(first.info["sweeps"]) < 300 and min(first.record.energy) == 0


def test_spin_bqm_and_explicit_groups():
    bqm = dimod.BinaryQuadraticModel({"a": 0.5, "b": -1, "c": 0.2}, {("a", "b"): 1, ("b", "c"): -0.5}, 1.0, "SPIN")
    with pytest.warns(UserWarning, match=FALLBACK):  # no groups in the labels: said, then single flips
        ss = CPUShiftSampler().sample(bqm, num_reads=4, num_sweeps=50, seed=0)
    dimod.testing.assert_sampleset_energies(ss, bqm)
    assert ss.first.energy == dimod.ExactSolver().sample(bqm).first.energy
    binary = dimod.BinaryQuadraticModel({"x": 1, "y": -2, "z": 0.5}, {}, 0, "BINARY")
    ss = CPUShiftSampler().sample(binary, groups=[["x", "y", "z"]], num_reads=3, num_sweeps=10, seed=0)
    assert np.all(ss.record.sample.sum(axis=1) == 1) and ss.first.energy == -2


@pytest.mark.parametrize("kwargs", [dict(num_reads=0), dict(seed=-1), dict(seed=2**32), dict(seed=1.5),
                                    dict(shift_probability=2.0), dict(line_moves=-1.0), dict(beta_range=(0, 1)),
                                    dict(num_replicas=0), dict(early_stop="never"), dict(backend="tpu"),
                                    dict(time_limit=0), dict(return_state="first")])
def test_bad_parameters_are_errors(formulations, kwargs):
    with pytest.raises(ValueError):
        sample_many([formulations[0]], **{"backend": "cpu", **kwargs})


def test_cuda_backend_without_a_gpu_is_unavailable(formulations):
    if cuda_available():
        pytest.skip("a CUDA GPU (or the simulator) is available here")
    with pytest.raises(SamplerUnavailableError, match="backend='cpu'") as info:
        get_sampler("shift-batched").sample(formulations[0].bqm(), num_reads=1)
    assert "\n" not in str(info.value)


def test_nothing_else_imports_cuda():
    code = ("import sys, qpicross, qpicross.cli, qpicross.samplers.blockshift.batched; "
            "print('numba.cuda' in sys.modules, any('cuda' in name for name in sys.modules if name.startswith('qpicross')))")
    out = subprocess.run([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["False", "False"], out.stderr[-2000:]


def test_registered_batched_and_usable_through_the_pipeline():
    assert is_batched("shift-batched") and is_batched("shift-batched-cpu") and not is_batched("shift")
    result = anneal(LETTER_A, sampler="shift-batched-cpu", num_reads=4, num_sweeps=300, seed=1, target_energy=0)
    assert result.solved


def test_bench_batches_the_puzzles_and_reports_parallel_tts():
    from qpicross.experiments.bench import run_bench
    from qpicross.pipeline.config import SolverConfig

    dot = Puzzle([[1], []], [[1], []], name="dot")
    configs = [SolverConfig(sampler="shift-batched-cpu", num_reads=4, num_sweeps=500,
                            options={"target_energy": 0}, early_stop="read"),
               SolverConfig(sampler="shift", num_reads=2, num_sweeps=500, options={"target_energy": 0})]
    results = run_bench([LETTER_A, dot], configs, seed=1)
    batched = [r for r in results if r.config == "shift-batched-cpu"]
    assert [r.puzzle for r in results] == ["A", "A", "dot", "dot"]
    assert all(r.solved and r.batch_wall_s > 0 and r.tts_method == "parallel-time-to-target" for r in batched)
    assert all(r.batch_wall_s is None for r in results if r.config == "shift")


def test_bench_command_line_batches_and_says_the_wall_time(capsys):
    from qpicross.cli import main

    code = main(["bench", LETTER_A_FILE, str(INSTANCES / "smile7.px"), "--sampler", "shift,shift-batched-cpu",
                 "--reads", "4", "--sweeps", "500", "--option", "target_energy=0"])
    out = capsys.readouterr().out
    assert code == 0
    assert "shift-batched-cpu: all 2 puzzles in one call" in out and out.count("| shift-batched-cpu |") >= 2


def test_bench_without_a_gpu_reports_one_line_per_puzzle():
    if cuda_available():
        pytest.skip("a CUDA GPU (or the simulator) is available here")
    from qpicross.experiments.bench import run_bench
    from qpicross.pipeline.config import SolverConfig

    results = run_bench([LETTER_A, LETTER_A], [SolverConfig(sampler="shift-batched", num_reads=2, num_sweeps=10)])
    assert all(r.error.startswith("SamplerUnavailableError: shift-batched: no CUDA GPU") for r in results)


def test_bench_with_presolve_in_one_call():
    from qpicross.experiments.batch import bench_batch
    from qpicross.pipeline.config import SolverConfig

    config = SolverConfig(sampler="shift-batched-cpu", presolve=True, num_reads=4, num_sweeps=500, seed=0,
                          options={"target_energy": 0})
    knife = load_puzzle(INSTANCES / "boat12.px")
    results = bench_batch([("", LETTER_A, config), ("", knife, config)])
    assert all(r.solved for r in results)
    assert results[0].num_variables == 0  # line logic solves the letter


def test_the_batch_warm_up_runs_the_chain_a_picross_batch_runs(monkeypatch):
    """Compiling happens before the clock: a benchmark batch of puzzles runs the profile chain's launch, so the
    warm-up must run that one (a tiny generic model runs only the joint chain's, and a cold numba cache then
    timed two minutes of compilation as the batch's sampling)."""
    from qpicross.experiments import batch
    from qpicross.pipeline.config import SolverConfig

    chains, run_many = [], batch.run_many

    def recording(puzzles, config):
        runs = run_many(puzzles, config)
        chains.extend(run.sampleset.info["chain"] for run in runs)
        return runs

    monkeypatch.setattr(batch, "run_many", recording)
    monkeypatch.setattr(batch, "_WARM", set())
    batch._warm_up(SolverConfig(sampler="shift-batched-cpu"))
    assert chains and set(chains) == {"profile"}


# -- the target distributions, against exact enumeration (as test_distribution.py checks the CPU
# sampler): final states of N chains at BETA after SWEEPS sweeps, one ladder per read.
from test_distribution import BETA, N, SWEEPS, generic, noise_threshold, picross, tv  # noqa: E402,F401


def _draw(model, line_moves, seed, num_replicas=1):
    hot = BETA if num_replicas == 1 else 0.3
    ss = sample_many([model.bqm], lines=[model.lines], num_reads=N, num_sweeps=SWEEPS, beta_range=(hot, BETA),
                     num_replicas=num_replicas, line_moves=line_moves, return_state="last", seed=seed,
                     backend="cpu")[0]
    dimod.testing.assert_sampleset_energies(ss.slice(300, sorted_by=None), model.bqm)
    assert ss.info["sweeps"] == [SWEEPS] * N
    return ss


@pytest.mark.parametrize("line_moves, num_replicas", [(0.0, 1), (0.0, 3), (1.0, 1), (0.3, 1), (1.0, 3)])
def test_picross_targets(picross, line_moves, num_replicas):
    empirical = picross.empirical(_draw(picross, line_moves, seed=11, num_replicas=num_replicas))
    target, other = (picross.one_hot, picross.clue) if line_moves == 0 else (picross.clue, picross.one_hot)
    if line_moves > 0:  # order and at_most_one are hard constraints
        assert empirical[~picross.consistent].sum() == 0
    assert tv(empirical, target) < noise_threshold(target)
    assert tv(empirical, other) > 0.5


@pytest.mark.parametrize("line_moves", [0.0, 1.0])
def test_generic_model_with_couplings_inside_lines(generic, line_moves):
    target = generic.one_hot if line_moves == 0 else generic.clue  # 1.0: the line move's Metropolis correction
    empirical = generic.empirical(_draw(generic, line_moves, seed=13))
    assert tv(empirical, target) < noise_threshold(target)
