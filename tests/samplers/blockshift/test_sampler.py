"""The block-shift sampler: a proper dimod sampler, one-hot by construction, solving real puzzles.

Its sampling distribution is checked against exact enumeration in test_distribution.py.
"""

import math
import sys
import unittest
import warnings

import dimod
import dimod.testing
import numpy as np
import pytest
from conftest import INSTANCES

from qpicross import anneal, build_formulation, check, sample
from qpicross.puzzle.formats.registry import load_puzzle
from qpicross.samplers.blockshift import chains as _chains, restarts as _reads
from qpicross.samplers import control
from qpicross.samplers.blockshift.sampler import BlockShiftSampler, infer_groups, infer_lines
from puzzles import FOUR_DOTS_12, LETTER_A, LETTER_A_FILE

STAR = INSTANCES / "star10.px"


FALLBACK = "falls back to single flips"


class QuickBlockShiftSampler(BlockShiftSampler):
    """The block-shift sampler with 2 000 sweeps a read unless told otherwise: dimod's battery passes no
    parameters, and with no target energy every read of the default runs its whole budget (200 000 sweeps),
    about a second a call on its tiny models, for checks of what a sample set holds, not how good it is."""

    def sample(self, bqm, num_sweeps=2000, **parameters):
        return super().sample(bqm, num_sweeps=num_sweeps, **parameters)


# dimod's own battery of tests on generic BQMs (no structure: single-flip annealing, with a warning).
@pytest.mark.filterwarnings(f"ignore:.*{FALLBACK}:UserWarning")
@dimod.testing.load_sampler_bqm_tests(QuickBlockShiftSampler)
class TestDimodBattery(unittest.TestCase):
    pass


def test_sampler_api():
    dimod.testing.assert_sampler_api(BlockShiftSampler())


@pytest.fixture
def letter_bqm(letter_a):
    f = build_formulation(letter_a)
    return f, f.bqm()


def test_record_shape_and_energies_match_the_bqm(letter_bqm):
    _, bqm = letter_bqm
    ss = BlockShiftSampler().sample(bqm, num_reads=7, num_sweeps=20, seed=3)
    assert ss.record.sample.shape == (7, bqm.num_variables)
    dimod.testing.assert_sampleset_energies(ss, bqm)


@pytest.mark.parametrize("num_replicas, line_moves", [(1, 1.0), (3, 0.0), (1, 0.5)])
def test_same_seed_same_samples(letter_bqm, num_replicas, line_moves):
    _, bqm = letter_bqm
    kw = {"num_reads": 4, "num_sweeps": 30, "num_replicas": num_replicas, "line_moves": line_moves}
    a = BlockShiftSampler().sample(bqm, seed=42, **kw)
    b = BlockShiftSampler().sample(bqm, seed=42, **kw)
    c = BlockShiftSampler().sample(bqm, seed=43, num_reads=4, num_sweeps=1, num_replicas=1, line_moves=0.0,
                                   beta_range=(0.01, 0.01))
    assert np.array_equal(a.record.sample, b.record.sample)
    assert not np.array_equal(a.record.sample, c.record.sample)


@pytest.mark.parametrize("seed", [-1, 2**32, 1.5, "x"])
def test_bad_seed_is_a_clear_error(letter_bqm, seed):
    with pytest.raises(ValueError, match="seed"):
        BlockShiftSampler().sample(letter_bqm[1], num_reads=1, seed=seed)


@pytest.mark.parametrize("kwargs", [{"num_reads": 0}, {"shift_probability": 2.0}, {"line_moves": -1.0},
                                    {"beta_range": (0, 1)}, {"num_replicas": 0},
                                    {"return_state": "first"}, {"block_moves": "yes"},
                                    {"block_moves": False, "line_moves": 0.0}])
def test_bad_parameters_are_errors(letter_bqm, kwargs):
    with pytest.raises(ValueError):
        BlockShiftSampler().sample(letter_bqm[1], **kwargs)


def test_unknown_parameter_warns_like_dimod_samplers(letter_bqm):
    with pytest.warns(dimod.exceptions.SamplerUnknownArgWarning):
        BlockShiftSampler().sample(letter_bqm[1], num_reads=1, num_sweeps=1, nonsense=1)


def test_every_block_stays_one_hot_even_when_hot(letter_bqm):
    f, bqm = letter_bqm
    ss = BlockShiftSampler().sample(bqm, num_reads=20, num_sweeps=5, beta_range=(0.01, 0.01), seed=0)
    samples = f.samples_to_array(ss)
    one_hot = f.terms["one_hot"].energies(samples)
    assert np.all(one_hot == 0)


def test_groups_from_labels_cover_every_formulation_variable(letter_bqm):
    f, _ = letter_bqm
    groups = infer_groups(f.labels)
    assert sorted(v for g in groups for v in g) == sorted(f.labels)
    lines = infer_lines(f.labels)
    assert len(lines) == sum(1 for _, _, clue, _ in f.puzzle.lines() if clue)


def test_explicit_groups_on_a_generic_bqm():
    # Two one-hot groups {a, b, c} and {d, e}; the linear biases favour c and d.
    bqm = dimod.BinaryQuadraticModel({"a": 1, "b": 0.5, "c": -1, "d": -2, "e": 3}, {("c", "d"): 0.5}, 0,
                                     "BINARY")
    ss = BlockShiftSampler().sample(bqm, groups=[["a", "b", "c"], ["d", "e"]], num_reads=5, num_sweeps=50,
                                    seed=1)
    dimod.testing.assert_sampleset_energies(ss, bqm)
    for s in ss.samples():
        assert s["a"] + s["b"] + s["c"] == 1 and s["d"] + s["e"] == 1
    assert dict(ss.first.sample) == {"a": 0, "b": 0, "c": 1, "d": 1, "e": 0}
    with pytest.raises(ValueError, match="lacks"):
        BlockShiftSampler().sample(bqm, groups=[["a", "zz"]])
    with pytest.raises(ValueError, match="more than one group"):
        BlockShiftSampler().sample(bqm, groups=[["a", "b"], ["b", "c"]])


def test_spin_bqm_energies():
    bqm = dimod.BinaryQuadraticModel({0: 1.0, 1: -0.5}, {(0, 1): -1.0}, 0.25, "SPIN")
    with pytest.warns(UserWarning, match=FALLBACK):
        ss = BlockShiftSampler().sample(bqm, num_reads=3, num_sweeps=50, seed=0)
    dimod.testing.assert_sampleset_energies(ss, bqm)
    assert ss.vartype is dimod.SPIN


def test_target_energy_stops_reads_early(letter_bqm):
    _, bqm = letter_bqm
    ss = BlockShiftSampler().sample(bqm, num_reads=5, num_sweeps=5000, target_energy=0, seed=2)
    assert np.all(ss.record.energy == 0)
    assert max(ss.info["sweeps"]) < 5000


@pytest.mark.parametrize("schedule, threads", [("fixed", 1), ("luby", 1), ("luby", 2)])
def test_the_restart_counters_add_up(letter_a, schedule, threads):
    """``info["restarts"]`` counts the restarts each read ran (a fixed schedule: one; Luby without a target: several,
    every stream's), and ``timing["restart_s"]`` their wall seconds: inside the reads' time on
    one stream, up to ``threads`` times it with more."""
    f = build_formulation(letter_a)
    ss = BlockShiftSampler().sample(f.bqm(), layout=f.layout(), num_reads=6, num_sweeps=300, restart_sweeps=10,
                                    schedule=schedule, threads=threads, seed=4)
    timing, restarts = ss.info["timing"], ss.info["restarts"]
    assert len(restarts) == 6
    if schedule == "fixed":
        assert restarts == [1] * 6
    else:  # 300 sweeps in Luby restarts of 10, 10, 20, 10, 10, 20, 40, ...: more than 5 a read
        assert min(restarts) >= 5
    reads_s = sum(ss.info["read_s"]) - timing["calibration_s"]  # the first read's time holds the calibration
    assert 0 < timing["restart_s"] <= threads * reads_s + 1e-6


@pytest.mark.parametrize("num_replicas", [1, 4])
def test_solves_the_star_where_single_flip_sa_does_not(shared_instances, num_replicas):
    from qpicross import load_puzzle

    puzzle = load_puzzle(STAR)
    result = anneal(puzzle, sampler="shift", num_reads=5, num_sweeps=300, seed=0, num_replicas=num_replicas)
    assert result.solved and not check(puzzle, result.board)


def test_registered_and_reachable_by_name(letter_bqm):
    _, bqm = letter_bqm
    ss = sample(bqm, "shift", num_reads=3, num_sweeps=100, seed=5)
    assert len(ss) == 3
    dimod.testing.assert_sampleset_energies(ss, bqm)


def test_presolved_formulation_with_fixed_variables(letter_a):
    # Fixing cells removes variables and folds them into linear biases; energies must still agree.
    known = -np.ones(letter_a.shape, int)
    known[3, :] = 1
    f = build_formulation(letter_a, known=known)
    bqm = f.bqm()
    ss = BlockShiftSampler().sample(bqm, num_reads=4, num_sweeps=200, seed=0)
    dimod.testing.assert_sampleset_energies(ss, bqm)
    assert ss.first.energy == 0


def test_parameters_and_properties_describe_the_move_sets():
    sampler = BlockShiftSampler()
    assert {"lines", "groups", "return_state", "target_energy", "line_moves", "chain"} <= set(sampler.parameters)
    moves = sampler.properties["moves"]
    assert "one-hot" in moves["block"] and "consistent with its clue" in moves["line"]
    assert set(sampler.properties["targets"]) == {"line_moves=0", "line_moves>0", "chain=profile"}


def _relabelled(f):
    mapping = {label: i for i, label in enumerate(f.labels)}
    lines = [[[mapping[v] for v in g] for g in line] for line in f.one_hot_lines()]
    back = {i: label for label, i in mapping.items()}
    return f.bqm().relabel_variables(mapping, inplace=False), lines, back


def test_relabelled_bqm_warns_once_per_call_and_lines_restore_the_structure():
    f = build_formulation(LETTER_A)
    bqm, lines, back = _relabelled(f)
    kw = {"num_reads": 5, "num_sweeps": 300, "seed": 4}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        BlockShiftSampler().sample(bqm, **kw)
    assert [w.category for w in caught] == [UserWarning]
    assert FALLBACK in str(caught[0].message) and "lines=" in str(caught[0].message)

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # structure given (even none at all): no warning
        ss = BlockShiftSampler().sample(bqm, lines=lines, **kw)
        BlockShiftSampler().sample(bqm, groups=[], num_reads=1, num_sweeps=1)
    assert np.all(ss.record.energy == 0)
    dimod.testing.assert_sampleset_energies(ss, bqm)
    # the same structure as the labels give: the same chains, the same samples
    labelled = BlockShiftSampler().sample(f.bqm(), **kw)
    restored = ss.relabel_variables(back, inplace=False)
    assert np.array_equal(f.samples_to_array(restored), f.samples_to_array(labelled))


def test_structure_precedence_lines_then_groups_then_labels(letter_bqm):
    bqm = dimod.BinaryQuadraticModel({v: -1.0 for v in "abcd"}, {}, 0, "BINARY")
    kw = {"num_reads": 10, "num_sweeps": 20, "seed": 0}
    ss = BlockShiftSampler().sample(bqm, lines=[[["a", "b"]], [["c", "d"]]], groups=[list("abcd")], **kw)
    assert all(s["a"] + s["b"] == 1 and s["c"] + s["d"] == 1 for s in ss.samples())
    ss = BlockShiftSampler().sample(bqm, groups=[list("abcd")], **kw)
    assert all(sum(s.values()) == 1 for s in ss.samples())
    # groups=[] overrides the formulation's labels: single flips break blocks when hot
    f, bqm = letter_bqm
    ss = BlockShiftSampler().sample(bqm, groups=[], num_reads=10, num_sweeps=5, beta_range=(0.01, 0.01),
                                    seed=0)
    assert np.any(f.terms["one_hot"].energies(f.samples_to_array(ss)) > 0)


@pytest.mark.parametrize("line_moves", [1.0, 0.2])
def test_with_line_moves_order_and_at_most_one_are_hard_constraints(letter_bqm, line_moves):
    f, bqm = letter_bqm
    for return_state in ("best", "last"):
        ss = BlockShiftSampler().sample(bqm, num_reads=20, num_sweeps=10, beta_range=(0.01, 0.01),
                                        line_moves=line_moves, return_state=return_state, seed=1)
        samples = f.samples_to_array(ss)
        for term in ("one_hot", "order", "at_most_one"):
            assert np.all(f.terms[term].energies(samples) == 0), term
    # without line moves both are annealed like any penalty: hot chains break them
    ss = BlockShiftSampler().sample(bqm, num_reads=20, num_sweeps=10, beta_range=(0.01, 0.01), line_moves=0.0,
                                    return_state="last", seed=1)
    assert np.any(f.terms["order"].energies(f.samples_to_array(ss)) > 0)


def test_formulation_lines_need_no_metropolis_correction(letter_bqm):
    from qpicross.samplers.blockshift.structure import _structure, _units

    f, bqm = letter_bqm
    index = {v: i for i, v in enumerate(bqm.variables)}
    units = _units(f.one_hot_lines(), index, len(index))
    _, (irow, icol, qdata), _ = bqm.to_numpy_vectors(variable_order=list(bqm.variables))
    *_, inner = _structure(*units, irow, icol, qdata, len(index))
    assert len(inner) == len(f.one_hot_lines()) and not inner.any()


@pytest.mark.parametrize("num_replicas", [1, 3])
def test_return_state_last_is_the_final_state_of_the_same_chain(letter_bqm, num_replicas):
    _, bqm = letter_bqm
    kw = {"num_reads": 8, "num_sweeps": 15, "beta_range": (0.05, 0.2), "num_replicas": num_replicas,
          "seed": 9}
    best = BlockShiftSampler().sample(bqm, **kw)
    last = BlockShiftSampler().sample(bqm, return_state="last", **kw)
    dimod.testing.assert_sampleset_energies(last, bqm)
    assert np.all(best.record.energy <= last.record.energy)  # same chains, same random numbers
    assert np.any(best.record.energy < last.record.energy)


def test_target_energy_records_sweeps_and_seconds_per_read(letter_bqm):
    _, bqm = letter_bqm
    ss = BlockShiftSampler().sample(bqm, num_reads=6, num_sweeps=5000, target_energy=0, seed=2)
    sweeps, seconds = ss.info["sweeps_to_target"], ss.info["time_to_target_s"]
    assert len(sweeps) == len(seconds) == 6
    assert sweeps == ss.info["sweeps"]  # every read stopped at the target
    assert all(isinstance(t, float) and 0 < t < ss.info["timing"]["sample_s"] for t in seconds)
    assert sum(seconds) <= ss.info["timing"]["sample_s"]

    ss = BlockShiftSampler().sample(bqm, num_reads=3, num_sweeps=7, target_energy=-1, seed=2)
    assert ss.info["sweeps_to_target"] == ss.info["time_to_target_s"] == [math.inf] * 3
    assert ss.info["sweeps"] == [7] * 3
    assert "sweeps_to_target" not in BlockShiftSampler().sample(bqm, num_reads=1, num_sweeps=1).info


# The self-tuning schedule (Luby restarts of tempering) and the in-read controls.


def test_luby_sequence_is_the_published_one():
    from qpicross.samplers.blockshift.sampler import luby

    terms = [luby(k) for k in range(1, 64)]
    for power in range(1, 7):  # the (2^p - 1)-th term is 2^(p-1) and the prefix sums to p 2^(p-1)
        assert terms[2**power - 2] == 2 ** (power - 1)
        assert sum(terms[: 2**power - 1]) == power * 2 ** (power - 1)
    assert terms[:15] == terms[:7] + terms[:7] + [8]
    with pytest.raises(ValueError):
        luby(0)


@pytest.mark.parametrize("total, unit", [(1, 250), (1000, 250), (123_457, 250), (5000, 7)])
def test_restart_plan_spends_exactly_the_budget_with_bounded_ladders(total, unit):
    from qpicross.samplers.blockshift.sampler import luby, restart_plan

    plan = restart_plan(total, unit, (2.0, 5.0))
    assert sum(sweeps for _, sweeps in plan) == total
    for k, (betas, sweeps) in enumerate(plan[:-1], start=1):
        assert sweeps == unit * luby(k)
        assert 4 <= len(betas) <= 12 and betas[-1] == pytest.approx(5.0) and betas[0] <= 2.0
        assert np.all(np.diff(betas) > 0)
    longest = max(plan, key=lambda step: step[1])
    assert longest[0][0] == min(betas[0] for betas, _ in plan)  # the longest restart has the hottest top


def test_schedule_auto_is_luby_unless_a_ladder_is_given(letter_bqm):
    _, bqm = letter_bqm
    sampler = BlockShiftSampler()
    assert sampler.sample(bqm, num_reads=1, num_sweeps=10, seed=1).info["schedule"] == "luby"
    assert sampler.sample(bqm, num_reads=1, num_sweeps=10, seed=1, num_replicas=2).info["schedule"] == "fixed"
    assert sampler.sample(bqm, num_reads=1, num_sweeps=10, seed=1, beta_range=(1, 2)).info["schedule"] == "fixed"
    with pytest.raises(ValueError, match="schedule"):
        sampler.sample(bqm, num_reads=1, schedule="nosuch")
    with pytest.raises(ValueError, match="restart_sweeps"):
        sampler.sample(bqm, num_reads=1, restart_sweeps=0)


@pytest.mark.parametrize("schedule, threads", [("luby", 1), ("luby", 2), ("fixed", 1)])
def test_a_budget_of_no_sweeps_returns_the_random_initial_states(letter_bqm, schedule, threads):
    """num_sweeps=0 is allowed: each read is its random start (the Luby plans used to be empty and raise)."""
    _, bqm = letter_bqm
    ss = BlockShiftSampler().sample(bqm, num_reads=3, num_sweeps=0, schedule=schedule, threads=threads, seed=2)
    assert ss.info["sweeps"] == [0, 0, 0] and len(ss) == 3
    dimod.testing.assert_sampleset_energies(ss, bqm)


def test_luby_reads_spend_their_sweeps_across_restarts(letter_bqm):
    _, bqm = letter_bqm
    ss = BlockShiftSampler().sample(bqm, num_reads=3, num_sweeps=1000, restart_sweeps=30, target_energy=-1, seed=4)
    assert ss.info["sweeps"] == [1000] * 3  # unreachable target: the whole budget, over many restarts
    dimod.testing.assert_sampleset_energies(ss, bqm)
    ss = BlockShiftSampler().sample(bqm, num_reads=5, target_energy=0, seed=4)
    assert np.all(ss.record.energy == 0) and ss.info["sweeps"] == ss.info["sweeps_to_target"]
    again = BlockShiftSampler().sample(bqm, num_reads=5, target_energy=0, seed=4)
    assert np.array_equal(ss.record.sample, again.record.sample) and ss.info["sweeps"] == again.info["sweeps"]


def test_luby_default_solves_the_star(shared_instances):
    from qpicross import load_puzzle

    puzzle = load_puzzle(STAR)
    result = anneal(puzzle, num_reads=3, seed=0)  # no ladder, no sweeps: the defaults
    assert result.solved and not check(puzzle, result.board)


@pytest.fixture
def slow_read(monkeypatch):
    """A read far longer than the polling interval, polled every millisecond."""
    monkeypatch.setattr(control, "PROGRESS_INTERVAL_S", 0.001)
    f = build_formulation(FOUR_DOTS_12)
    return f.bqm(), {"lines": f.one_hot_lines(), "num_sweeps": 10**8, "target_energy": -1}  # never reached


def test_progress_reports_during_a_read_and_ctrl_c_stops_it_with_the_best_state(slow_read):
    bqm, params = slow_read
    calls = []

    def progress(done, total, energy):
        calls.append((done, energy))
        if len(calls) == 3:
            raise KeyboardInterrupt  # what Ctrl-C raises in the main thread

    ss = BlockShiftSampler().sample(bqm, num_reads=5, seed=0, progress=progress, **params)
    assert len(calls) == 3 and all(energy < math.inf for _, energy in calls[1:]) and calls[0][0] == 0
    assert ss.info["interrupted"] and len(ss) == 1 and ss.info["sweeps"][0] < 10**8
    dimod.testing.assert_sampleset_energies(ss, bqm)
    assert ss.first.energy <= calls[-1][1] + 1e-9


def test_time_limit_stops_a_running_read(slow_read):
    bqm, params = slow_read
    ss = BlockShiftSampler().sample(bqm, num_reads=4, seed=0, time_limit=0.3, **params)
    assert ss.info["timed_out"] and not ss.info["interrupted"] and len(ss) == 1
    assert ss.info["timing"]["sample_s"] < 5 and ss.info["sweeps_to_target"] == [math.inf]
    with pytest.raises(ValueError, match="time_limit"):
        BlockShiftSampler().sample(bqm, num_reads=1, time_limit=0)


def test_time_limit_stops_a_read_made_of_many_short_restarts(letter_bqm):
    f, bqm = letter_bqm  # restarts of 5 sweeps end long before any polling interval
    ss = BlockShiftSampler().sample(bqm, lines=f.one_hot_lines(), num_reads=3, num_sweeps=10**9, restart_sweeps=5,
                                    target_energy=-1, time_limit=0.5, seed=0)
    assert ss.info["timed_out"] and len(ss) == 1 and ss.info["timing"]["sample_s"] < 10


def test_registry_passes_budget_and_progress_into_reads_and_keeps_interrupted_reads(slow_read):
    bqm, params = slow_read
    ss = sample(bqm, "shift", num_reads=50, seed=0, time_limit=0.3, **params)
    assert ss.info["timed_out"] and len(ss) == 1 and ss.info["timing"]["sample_s"] < 5

    seen = []

    def progress(done, total, best):
        seen.append((done, total, best))
        if len(seen) == 4:
            raise KeyboardInterrupt

    ss = sample(bqm, "shift", num_reads=50, seed=0, progress=progress, **params)
    assert seen[0] == (0, 50, math.inf) and all(total == 50 for _, total, _ in seen)
    assert len(ss) == 1 and ss.info["interrupted"]


def test_annealing_runs_one_replica(monkeypatch):
    """``num_replicas=1`` is one chain along the beta schedule, not one replica per sweep."""
    f = build_formulation(load_puzzle(STAR))
    seen = []
    original = _chains.FIELDS.read

    def spy(out, seed, betas, num_sweeps, params, work, *rest):
        seen.append((len(betas), work.x.shape[0]))
        return original(out, seed, betas, num_sweeps, params, work, *rest)

    monkeypatch.setattr(_chains.FIELDS, "read", spy)
    BlockShiftSampler().sample(f.bqm(), lines=f.one_hot_lines(), num_reads=2, num_sweeps=50, num_replicas=1, seed=0)
    assert seen and all(replicas == 1 for _, replicas in seen)
    assert all(length == 50 for length, _ in seen)


def test_block_moves_run_by_default_only_when_some_line_is_not_redrawn_every_sweep():
    """``block_moves=None`` means ``line_moves < 1``: the same samples as saying so."""
    f = build_formulation(load_puzzle(LETTER_A_FILE))
    bqm, lines = f.bqm(), f.one_hot_lines()

    def samples(**kwargs):
        ss = BlockShiftSampler().sample(bqm, lines=lines, num_reads=3, num_sweeps=30, num_replicas=2, seed=3,
                                        beta_range=(0.05, 0.1), return_state="last", **kwargs)  # hot: states differ
        return ss.record.sample

    assert np.array_equal(samples(), samples(block_moves=False))
    assert not np.array_equal(samples(), samples(block_moves=True))
    assert np.array_equal(samples(line_moves=0.5), samples(line_moves=0.5, block_moves=True))
    assert not np.array_equal(samples(line_moves=0.5), samples(line_moves=0.5, block_moves=False))


def test_restarts_run_without_a_thread_still_report_progress(monkeypatch):
    """A read of restarts run in the calling thread calls ``progress`` between them."""
    started = []
    real_thread = _reads.threading.Thread

    def counting_thread(*args, **kwargs):
        # threading.Thread is the process's: count the threads the restarts module starts, not those another
        # library starts meanwhile (numba compiling into a fresh cache, a thread pool a test before left)
        if sys._getframe(1).f_globals.get("__name__") == _reads.__name__:
            started.append(1)
        return real_thread(*args, **kwargs)

    monkeypatch.setattr(_reads.threading, "Thread", counting_thread)
    monkeypatch.setattr(_reads, "INLINE_S", 1e9)  # every restart inline, however long
    f = build_formulation(load_puzzle(LETTER_A_FILE))
    calls = []
    ss = BlockShiftSampler().sample(f.bqm(), lines=f.one_hot_lines(), paints=f.paints(), num_reads=1,
                                    target_energy=-1, time_limit=2.5, seed=2, restart_sweeps=200,
                                    num_sweeps=10**9,
                                    progress=lambda done, total, energy: calls.append((done, energy)))
    # a target below the ground state: restarts until the time limit; short ones (a small unit), so that progress,
    # called between restarts at most every PROGRESS_INTERVAL_S, is called several times however slow the machine;
    # a sweep budget no machine spends in 2.5 s (the default, 200 000 sweeps, ran out first on a fast one)
    assert not started
    assert ss.info["timed_out"], {k: ss.info[k] for k in ("sweeps", "restarts", "read_s", "interrupted")}
    assert len(calls) >= 2 and all(energy == 0 for _, energy in calls)
    assert [s for s, _ in calls] == sorted(s for s, _ in calls)


def test_warm_up_times_whole_sweeps_not_a_read_that_stops_early(monkeypatch):
    """The sweep-cost estimate that decides thread or not comes from runs that ignore the target:
    timing a read that stops after a few sweeps would time the call, not the sweeps."""
    seen = []
    original = _reads.ReadRunner._kernel

    def spy(self, out, seed, betas, sweeps, work, target=None, **streams):
        result = original(self, out, seed, betas, sweeps, work, target=target, **streams)
        seen.append((sweeps, target, result[0]))
        return result

    monkeypatch.setattr(_reads.ReadRunner, "_kernel", spy)
    f = build_formulation(load_puzzle(LETTER_A_FILE))
    BlockShiftSampler().sample(f.bqm(), lines=f.one_hot_lines(), num_reads=1, target_energy=0, seed=2)
    timed = [(sweeps, done) for sweeps, target, done in seen if target == -math.inf]
    assert timed and timed[0][0] == _reads.CALIBRATION_SWEEPS
    assert all(done == sweeps for sweeps, done in timed)  # never stopped early
    assert [s for s, _ in timed] == [_reads.CALIBRATION_SWEEPS * 2**k for k in range(len(timed))]


def test_errors_say_whose_fault_they_are():
    """A bad parameter is a ParameterError (a ValueError); a structure the BQM does not have is a
    ModelStructureError (dimod's structure error, a ValueError too); both are qpicross errors."""
    import dimod

    from qpicross.exceptions import ModelStructureError, ParameterError, QpicrossError

    bqm = dimod.BinaryQuadraticModel({"a": 1.0, "b": -1.0}, {}, 0.0, "BINARY")
    with pytest.raises(ParameterError, match="shift_probability"):
        BlockShiftSampler().sample(bqm, groups=[], shift_probability=2.0)
    with pytest.raises(ModelStructureError, match="lacks") as info:
        BlockShiftSampler().sample(bqm, groups=[["a", "zz"]])
    assert isinstance(info.value, dimod.exceptions.BinaryQuadraticModelStructureError)
    assert all(issubclass(e, (QpicrossError, ValueError)) for e in (ParameterError, ModelStructureError))
