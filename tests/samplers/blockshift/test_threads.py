"""The structured annealer's reads on several threads (``threads``): restart streams run at once."""

import math
import threading
import time

import dimod.testing
import numpy as np
import pytest

from qpicross import anneal, build_formulation
from qpicross.experiments.bench import run_bench
from qpicross.pipeline.config import SolverConfig
from qpicross.puzzle.formats.registry import load_puzzle
from qpicross.samplers.blockshift import chains as _chains, plans as _plans, restarts as _reads, sampler as structured
from qpicross.samplers import control
from qpicross.samplers.blockshift.sampler import BlockShiftSampler, default_threads
from puzzles import FOUR_DOTS_12, LETTER_A_FILE


@pytest.fixture
def streams_always(monkeypatch):
    """Every restart long enough to need a thread, so ``threads > 1`` always runs streams."""
    monkeypatch.setattr(_reads, "INLINE_S", 0.0)


@pytest.fixture
def grid():
    f = build_formulation(FOUR_DOTS_12)
    return f, f.bqm(), {"lines": f.one_hot_lines(), "paints": f.paints()}


@pytest.fixture
def chain_runs(monkeypatch):
    """(chain, thread name, replicas, sweeps, free lines) of every call of the profile and joint board kernels,
    in call order; the free lines are "rows" or "columns" on the profile chain, None on the joint chain."""
    runs = []

    def spy(name, kernel):
        def run(out, seed, betas, sweeps, params, work, data, *args):
            free = None
            if name == "profile":  # its profiled lines' stride is 1 along a row: the columns are then the free lines
                free = "columns" if data[2].prof_stride == 1 else "rows"
            runs.append((name, threading.current_thread().name, len(betas), sweeps, free))
            return kernel(out, seed, betas, sweeps, params, work, data, *args)
        return run

    monkeypatch.setattr(_chains.PROFILE, "read", spy("profile", _chains.PROFILE.read))
    monkeypatch.setattr(_chains.BOARD, "read", spy("joint", _chains.BOARD.read))
    return runs


def test_stream_zero_has_the_seeds_of_a_one_thread_read_and_the_others_their_own():
    def take(seeds, k):
        return [next(seeds) for _ in range(k)]

    rng = np.random.SeedSequence(7)
    one_thread = [7] + [int(rng.spawn(1)[0].generate_state(1)[0] >> 1) for _ in range(4)]
    assert take(_reads._restart_seeds(7, 0), 5) == one_thread
    others = [take(_reads._restart_seeds(7, i), 5) for i in (1, 2)]
    assert len({tuple(one_thread), *map(tuple, others)}) == 3
    assert all(0 <= s < 2**63 for seeds in others for s in seeds)


def test_every_stream_spends_the_whole_plan_when_the_target_is_never_reached(streams_always, grid):
    f, bqm, structure = grid
    ss = BlockShiftSampler().sample(bqm, num_reads=2, num_sweeps=300, restart_sweeps=100, target_energy=-1,
                                    threads=3, seed=1, **structure)
    assert ss.info["sweeps"] == [900, 900] and ss.info["sweeps_to_target"] == [math.inf, math.inf]
    assert ss.info["threads"] == 3
    dimod.testing.assert_sampleset_energies(ss, bqm)


def test_the_first_stream_at_the_target_stops_the_others_and_its_state_is_returned(streams_always, grid):
    f, bqm, structure = grid
    ss = BlockShiftSampler().sample(bqm, num_reads=4, target_energy=0, threads=2, seed=3, **structure)
    dimod.testing.assert_sampleset_energies(ss, bqm)
    assert np.all(ss.record.energy == 0)
    for sweeps, to_target, seconds in zip(ss.info["sweeps"], ss.info["sweeps_to_target"],
                                          ss.info["time_to_target_s"]):
        assert 0 <= to_target <= sweeps and math.isfinite(seconds)


def test_without_a_target_the_lowest_energy_stream_is_returned(streams_always, grid):
    f, bqm, structure = grid
    ss = BlockShiftSampler().sample(bqm, num_reads=3, num_sweeps=50, restart_sweeps=50, threads=2, seed=5,
                                    **structure)
    dimod.testing.assert_sampleset_energies(ss, bqm)
    assert ss.info["sweeps"] == [100] * 3 and "sweeps_to_target" not in ss.info


def test_one_thread_reads_are_reproducible_and_threads_one_is_the_default(grid):
    f, bqm, structure = grid
    kwargs = dict(num_reads=3, num_sweeps=400, restart_sweeps=100, target_energy=-1, seed=9, **structure)
    a = BlockShiftSampler().sample(bqm, **kwargs)
    b = BlockShiftSampler().sample(bqm, threads=1, **kwargs)
    assert np.array_equal(a.record.sample, b.record.sample) and a.info["threads"] == 1


def test_ctrl_c_and_the_time_limit_stop_every_stream(monkeypatch, streams_always, grid):
    monkeypatch.setattr(control, "PROGRESS_INTERVAL_S", 0.001)
    f, bqm, structure = grid
    params = dict(num_sweeps=10**8, target_energy=-1, threads=2, **structure)
    ss = BlockShiftSampler().sample(bqm, num_reads=3, seed=0, time_limit=0.3, **params)
    assert ss.info["timed_out"] and len(ss) == 1 and ss.info["timing"]["sample_s"] < 5
    calls = []

    def progress(done, total, energy):
        calls.append((done, energy))
        if len(calls) == 3:
            raise KeyboardInterrupt

    ss = BlockShiftSampler().sample(bqm, num_reads=3, seed=0, progress=progress, **params)
    assert ss.info["interrupted"] and len(ss) == 1 and ss.info["sweeps"][0] < 10**8
    assert [s for s, _ in calls] == sorted(s for s, _ in calls)
    dimod.testing.assert_sampleset_energies(ss, bqm)


def test_progress_polled_before_a_stream_begins_its_first_restart_reports_no_energy_yet(monkeypatch, streams_always,
                                                                                       grid):
    monkeypatch.setattr(control, "PROGRESS_INTERVAL_S", 0.001)
    buffers = _reads.ReadRunner._buffers

    def slow_buffers(self, *args, **kwargs):  # each stream's thread is late to its first restart
        if threading.current_thread() is not threading.main_thread():
            time.sleep(0.2)
        return buffers(self, *args, **kwargs)

    monkeypatch.setattr(_reads.ReadRunner, "_buffers", slow_buffers)
    calls = []
    f, bqm, structure = grid
    ss = BlockShiftSampler().sample(bqm, num_reads=1, num_sweeps=40, restart_sweeps=20, target_energy=-1, threads=2,
                                    seed=0, progress=lambda done, total, energy: calls.append((done, total, energy)),
                                    **structure)
    assert ss.info["sweeps"] == [80] and calls and calls[0] == (0, 1, math.inf)
    assert all(done == 0 and total == 1 for done, total, _ in calls)


def test_an_error_in_progress_stops_every_stream_before_it_propagates(streams_always, grid, chain_runs):
    def progress(done, total, energy):
        raise ValueError("a progress display failed")

    f, bqm, structure = grid
    with pytest.raises(ValueError, match="progress display"):
        BlockShiftSampler().sample(bqm, num_reads=1, num_sweeps=10**8, target_energy=-1, threads=2, seed=0,
                                   progress=progress, **structure)
    runs = len(chain_runs)
    time.sleep(0.3)  # a stream left running would start restarts meanwhile
    assert len(chain_runs) == runs and not any("(run_stream)" in t.name for t in threading.enumerate())


@pytest.mark.parametrize("threads", [0, -1, 1.5, "2", True, 1000])
def test_bad_threads_are_errors(grid, threads):
    f, bqm, structure = grid
    with pytest.raises(ValueError, match="threads"):
        BlockShiftSampler().sample(bqm, num_reads=1, threads=threads, **structure)


def test_the_pipeline_gives_a_read_every_core_and_the_bench_shares_them_among_workers():
    puzzle = load_puzzle(LETTER_A_FILE)
    result = anneal(puzzle, seed=1)
    assert result.solved and result.sampleset.info["threads"] == default_threads()
    assert anneal(puzzle, seed=1, threads=1).sampleset.info["threads"] == 1
    [bench] = run_bench([puzzle], [SolverConfig(num_reads=2)], workers=2, check_sizes=False)
    assert bench.solved and f"threads={max(1, default_threads() // 2)}" in bench.options.split(",")
    [bench] = run_bench([puzzle], [SolverConfig(num_reads=2, options={"threads": 3})], check_sizes=False)
    assert "threads=3" in bench.options.split(",")


def _ladders_run(monkeypatch, bqm, structure, **kwargs):
    """(replicas, sweeps) of every restart the kernels were asked to run, warm-up aside."""
    seen = []
    original = _reads.ReadRunner._kernel

    def spy(self, out, seed, betas, sweeps, work, target=None, **streams):
        if target is None and sweeps:  # the warm-up compiles with 0 sweeps, times sweeps with target=-inf
            seen.append((len(betas), sweeps))
        return original(self, out, seed, betas, sweeps, work, target=target, **streams)

    monkeypatch.setattr(_reads.ReadRunner, "_kernel", spy)
    BlockShiftSampler().sample(bqm, num_reads=1, num_sweeps=300, restart_sweeps=10, target_energy=-1, seed=2,
                               **structure, **kwargs)
    return seen


@pytest.mark.parametrize("lead_s", [0.0, 1e9])
def test_mixed_streams_race_long_restarts_of_the_wide_ladder_against_the_luby_plan(monkeypatch, streams_always,
                                                                                    grid, lead_s):
    """No lead: stream 1 runs only long restarts; a lead longer than the read: only the Luby plan's."""
    monkeypatch.setattr(_plans, "LEAD_S", lead_s)
    monkeypatch.setattr(_plans, "LONG_SWEEPS", 40)  # several long restarts within the read's 300 sweeps
    f, bqm, structure = grid
    mixed = _ladders_run(monkeypatch, bqm, structure, threads=2)
    plan = [(len(b), s) for b, s in structured.restart_plan(300, 10, (2.0, 5.0))]
    long = [(len(b), s) for b, s in _plans.long_restarts(300, 10, (2.0, 5.0))]
    if lead_s:
        assert long == plan
    else:
        assert [n for n, _ in long] == [8] + [12] * (len(long) - 1) and sum(s for _, s in long) == 300
        assert [s for _, s in long][:3] == [40, 40, 80]  # Luby restarts of unit LONG_SWEEPS, not of unit 10
    assert sorted(mixed) == sorted(plan + long)  # stream 0, stream 1
    same = _ladders_run(monkeypatch, bqm, structure, threads=2, stream_plans="same")
    assert sorted(same) == sorted(2 * plan)
    assert _ladders_run(monkeypatch, bqm, structure, threads=1) == plan
    only_long = [(len(b), s) for b, s in _plans.long_restarts(300, 10, (2.0, 5.0), lead_s=0)]
    assert sorted(_ladders_run(monkeypatch, bqm, structure, threads=2, stream_plans="long")) == sorted(2 * only_long)
    assert _ladders_run(monkeypatch, bqm, structure, threads=1, stream_plans="long") == only_long


def test_the_second_streams_lead_ends_at_the_first_restart_past_its_time(monkeypatch):
    clock = iter(range(100))  # each look at the clock: one second later
    monkeypatch.setattr(_reads.time, "perf_counter", lambda: float(next(clock)))
    plan = [(len(b), s) for b, s in _plans.long_restarts(10**6, 10, (2.0, 5.0), lead_s=2.5)]
    assert plan[:3] == [(4, 10), (8, 10), (12, 20)]  # begun at 0, 1 and 2 s; the third ends past 2.5 s
    assert [n for n, _ in plan[3:]] == [8] + [12] * (len(plan) - 4) and plan[3][1] == _plans.LONG_SWEEPS
    assert sum(s for _, s in plan) == 10**6


def test_stream_plans_change_nothing_with_one_thread_and_bad_values_are_errors(grid):
    f, bqm, structure = grid
    kwargs = dict(num_reads=2, num_sweeps=200, restart_sweeps=50, target_energy=-1, seed=4, **structure)
    a = BlockShiftSampler().sample(bqm, stream_plans="mixed", **kwargs)
    b = BlockShiftSampler().sample(bqm, stream_plans="same", **kwargs)
    assert np.array_equal(a.record.sample, b.record.sample)
    with pytest.raises(ValueError, match="stream_plans"):
        BlockShiftSampler().sample(bqm, stream_plans="other", **kwargs)


def test_stream_chains_race_the_profile_chain_against_the_joint_chain(streams_always, grid, chain_runs):
    f, bqm, structure = grid
    ss = BlockShiftSampler().sample(bqm, num_reads=2, num_sweeps=200, restart_sweeps=50, target_energy=-1, seed=5,
                                    threads=2, stream_chains=("profile", "joint"), **structure)
    assert ss.info["stream_chains"] == ["profile", "joint"] and ss.info["chain"] == "profile"
    dimod.testing.assert_sampleset_energies(ss, bqm)
    calls = {name: {thread for chain, thread, _, sweeps, _ in chain_runs if chain == name and sweeps}  # the streams
             for name in ("profile", "joint")}  # each kernel ran for, not the warm-up's compile-only calls
    streams = {name: threads - {threading.main_thread().name} for name, threads in calls.items()}  # warm-up aside
    assert streams["profile"] and streams["joint"] == calls["joint"]  # the joint chain only in its streams
    assert not streams["profile"] & streams["joint"]  # each stream's thread runs one chain
    one = BlockShiftSampler().sample(bqm, num_reads=1, num_sweeps=2, threads=1, stream_chains=("joint",),
                                     **structure)
    assert one.info["stream_chains"] == ["joint"] and one.info["chain"] == "joint"
    for bad in ("joint", (), ("profile", "rows"), 2):
        with pytest.raises(ValueError, match="stream_chains"):
            BlockShiftSampler().sample(bqm, num_reads=1, num_sweeps=2, stream_chains=bad, **structure)


@pytest.mark.parametrize("lead_s", [0.0, 1e9])
def test_the_defaults_long_restarts_run_the_joint_chain_and_its_luby_restarts_the_profile_chain(
        monkeypatch, streams_always, grid, chain_runs, lead_s):
    """No lead: stream 1 runs only long restarts (joint chain); a lead longer than the read: none."""
    monkeypatch.setattr(_plans, "LEAD_S", lead_s)
    f, bqm, structure = grid
    main = threading.main_thread().name  # the warm-up's thread: not a stream's restart
    kwargs = dict(num_reads=1, num_sweeps=300, restart_sweeps=10, target_energy=-1, seed=2, threads=2, **structure)
    ss = BlockShiftSampler().sample(bqm, **kwargs)
    assert ss.info["chain"] == "profile" and ss.info["stream_chains"] == ["profile", "profile then joint"]
    plan = [(len(b), s) for b, s in structured.restart_plan(300, 10, (2.0, 5.0))]
    long = [(len(b), s) for b, s in _plans.long_restarts(300, 10, (2.0, 5.0), lead_s=0)]
    ran = {name: sorted((r, s) for chain, thread, r, s, _ in chain_runs if chain == name and thread != main)
           for name in ("profile", "joint")}
    assert ran == ({"profile": sorted(2 * plan), "joint": []} if lead_s else
                   {"profile": sorted(plan), "joint": sorted(long)})
    chain_runs.clear()
    ss = BlockShiftSampler().sample(bqm, chain="profile", **kwargs)  # asked for: every restart on it
    assert {chain for chain, thread, *_ in chain_runs if thread != main} == {"profile"}
    assert ss.info["stream_chains"] == ["profile", "profile"]


def _turns(first, count):
    axes = ["rows", "columns"] if first == "rows" else ["columns", "rows"]
    return [axes[k % 2] for k in range(count)]


@pytest.mark.parametrize("threads", [1, 2])
def test_a_reads_restarts_take_rows_and_columns_in_turn_each_stream_from_its_own(
        monkeypatch, streams_always, grid, chain_runs, threads):
    monkeypatch.setattr(_plans, "LEAD_S", 1e9)  # stream 1 too runs only the Luby plan, on the profile chain
    f, bqm, structure = grid
    main = threading.main_thread().name  # the warm-up's thread: not a read's restart
    kwargs = dict(num_reads=2, num_sweeps=300, restart_sweeps=10, target_energy=-1, seed=2, threads=threads,
                  **structure)
    ss = BlockShiftSampler().sample(bqm, **kwargs)
    assert ss.info["profile_lines"] == "alternate"
    restarts = len(structured.restart_plan(300, 10, (2.0, 5.0)))
    ran = [(thread, free) for chain, thread, _, _, free in chain_runs if chain == "profile" and thread != main]
    if threads == 1:  # each restart in the runner's thread, one after the other; each read starts on rows
        assert [axis for _, axis in ran] == 2 * _turns("rows", restarts)
    else:  # stream i runs in the runner's thread i: stream 0 starts on rows, stream 1 on columns, each read anew
        streams = {}
        for thread, axis in ran:
            streams.setdefault(thread, []).append(axis)
        assert sorted(streams.values()) == sorted([2 * _turns("rows", restarts), 2 * _turns("columns", restarts)])
    for lines in ("rows", "columns"):  # asked for: every restart on that axis
        chain_runs.clear()
        ss = BlockShiftSampler().sample(bqm, profile_lines=lines, **kwargs)
        assert {free for chain, *_, free in chain_runs if chain == "profile"} == {lines}
        assert ss.info["profile_lines"] == lines


def test_profile_lines_is_checked_and_is_none_on_the_joint_chain(grid):
    f, bqm, structure = grid
    with pytest.raises(ValueError, match="profile_lines must be"):
        BlockShiftSampler().sample(bqm, num_reads=1, num_sweeps=2, profile_lines="diagonals", **structure)
    ss = BlockShiftSampler().sample(bqm, num_reads=1, num_sweeps=2, chain="joint", **structure)
    assert ss.info["profile_lines"] is None


def _restart_threads():
    return [t for t in threading.enumerate() if t.name.startswith("qpicross-restarts-")]


@pytest.mark.parametrize("threads", [1, 2])
def test_a_calls_restart_threads_serve_all_its_reads_and_end_with_it(streams_always, grid, chain_runs, threads):
    """The runner starts its threads once (one per stream), not one per restart, and they end when the call
    returns: a process that samples many puzzles keeps no thread of the calls before."""
    f, bqm, structure = grid
    before = set(_restart_threads())
    BlockShiftSampler().sample(bqm, num_reads=3, num_sweeps=200, restart_sweeps=50, target_energy=-1, seed=5,
                               threads=threads, **structure)
    ran = {thread for _, thread, _, sweeps, _ in chain_runs if sweeps} - {threading.main_thread().name}
    assert len(ran) == threads and all(name.startswith("qpicross-restarts-") for name in ran)
    deadline = time.monotonic() + 10
    while set(_restart_threads()) - before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not set(_restart_threads()) - before


@pytest.mark.parametrize("threads, failing", [(1, {0}), (2, {0, 1}), (2, {1})])
def test_a_compiled_read_that_raises_fails_the_call_with_its_error(monkeypatch, streams_always, grid, threads,
                                                                   failing):
    """Also when the other stream runs on: a stream that raised is a bug, not a read."""
    f, bqm, structure = grid
    real = _reads.ReadRunner._kernel

    def kernel(self, out, seed, betas, sweeps, work, **kwargs):
        # the warm-up runs in the caller's thread (it compiles); the reads' restarts in the runner's
        if threading.current_thread() is not threading.main_thread() and kwargs.get("stream", 0) in failing:
            raise MemoryError("a kernel's failure")
        return real(self, out, seed, betas, sweeps, work, **kwargs)

    monkeypatch.setattr(_reads.ReadRunner, "_kernel", kernel)
    with pytest.raises(RuntimeError, match="read failed") as raised:
        BlockShiftSampler().sample(bqm, num_reads=2, num_sweeps=200, restart_sweeps=50, target_energy=-1, seed=5,
                                   threads=threads, **structure)
    assert isinstance(raised.value.__cause__, MemoryError)


def test_the_ladders_restarts_share_are_not_the_ones_ladder_hands_out():
    first = _plans.ladder((2.0, 5.0), 1)
    first[:] = 0
    assert _plans.ladder((2.0, 5.0), 1).min() > 0
    betas = [b for b, _ in _plans.LubyRestarts(3000, 1000, (2.0, 5.0), rungs=4)]
    assert betas[0] is betas[1] and np.array_equal(betas[0], _plans.ladder((2.0, 5.0), 0, rungs=4))
