import dimod
import numpy as np
import pytest

from qpicross import PenaltyWeights, anneal, build_bqm, get_sampler, sample
from qpicross.samplers import EXACT_MAX_VARIABLES, GroundStateExactSolver
from puzzles import TWO_DIAGONALS


def test_same_seed_same_samples(letter_a):
    bqm = build_bqm(letter_a)
    a = sample(bqm, "sa", num_reads=120, num_sweeps=50, seed=11)
    b = sample(bqm, "sa", num_reads=120, num_sweeps=50, seed=11)
    c = sample(bqm, "sa", num_reads=120, num_sweeps=50, seed=12)
    assert (a.record.sample == b.record.sample).all()
    assert not (a.record.sample == c.record.sample).all()
    assert a.record.sample.shape == (120, bqm.num_variables)
    dimod.testing.assert_sampleset_energies(a, bqm)


def test_progress_is_reported_in_chunks(letter_a):
    calls = []
    sample(build_bqm(letter_a), "sa", num_reads=200, num_sweeps=10, seed=1, progress=lambda d, t, best: calls.append((d, t)))
    assert calls[0] == (0, 200) and calls[-1] == (200, 200) and len(calls) > 2


def test_exact_refuses_large_models(letter_a):
    with pytest.raises(ValueError, match="refuses"):
        get_sampler("exact").sample(build_bqm(letter_a))
    assert EXACT_MAX_VARIABLES == GroundStateExactSolver().max_variables


def test_unknown_sampler():
    with pytest.raises(ValueError, match="unknown sampler"):
        get_sampler("nope")


def test_any_dimod_sampler_can_be_injected():
    tiny = TWO_DIAGONALS
    result = anneal(tiny, sampler=dimod.ExactSolver())
    assert result.solved
    # ExactSolver returns all 2^8 assignments. A read succeeds only when it is a ground state
    # whose board solves the puzzle: the 2 encodings of the 2 diagonals. The other 2 x (2^4 - 1)
    # with a valid row board but other column variables are counted apart, never as successes.
    assert result.success_probability == pytest.approx(2 / 2**8)
    assert result.evaluation.num_valid_board_only == 2 * (2**4 - 1)


def test_exact_sampler_by_name_returns_ground_states():
    result = anneal(TWO_DIAGONALS, sampler="exact")
    assert result.solved and result.success_probability == 1.0 and result.num_reads == 2


def test_tabu_solves_the_letter_a(letter_a):
    result = anneal(letter_a, sampler="tabu", num_reads=20, seed=3, timeout=20)
    assert result.solved


def test_anneal_reports_and_seeds(letter_a):
    r1 = anneal(letter_a, num_reads=200, seed=5)
    r2 = anneal(letter_a, num_reads=200, seed=5)
    d1, d2 = r1.to_dict(), r2.to_dict()
    d1.pop("timing"), d2.pop("timing")
    assert d1 == d2
    assert r1.solved and 0 < r1.success_probability <= 1
    assert r1.energy == 0 and r1.best.boards_agree
    assert set(r1.timing) == {"build_s", "sample_s", "decode_s"}


class _AllZeros(dimod.Sampler):
    """A stub whose every read sets every variable to 0: never a solution."""

    parameters = {"num_reads": []}
    properties = {}

    def sample(self, bqm, num_reads=1, **kwargs):
        return dimod.SampleSet.from_samples_bqm((np.zeros((num_reads, bqm.num_variables), np.int8),
                                                 list(bqm.variables)), bqm)


def test_failed_anneal_reports_broken_lines(letter_a):
    # Reads that place no block at all: the best read is broken, and says where.
    result = anneal(letter_a, sampler=_AllZeros(), num_reads=3, weights=PenaltyWeights(match=0.1))
    assert not result.solved and result.success_probability == 0
    assert result.energy > 0
    assert result.best.violations
    assert result.to_dict()["broken_lines"] or not result.best.boards_agree


def test_success_probability_matches_energy_zero_reads(letter_a):
    result = anneal(letter_a, num_reads=300, num_sweeps=200, seed=9)
    ev = result.evaluation
    zero = np.isclose(ev.energy, 0)
    # Every zero-energy read passes the independent check (a read can also solve
    # the puzzle through its row variables alone while its columns are still wrong).
    assert zero.any() and ev.solved[zero].all()


def test_reads_composite_calls_a_child_without_independent_reads_once():
    """A child whose reads are not known to be independent restarts (one call decides its samples) is called
    once, whatever the run asks; one whose reads are is split into calls, and the split keeps the seed's samples."""
    import dimod
    from dwave.samplers import SimulatedAnnealingSampler

    from qpicross.samplers.reads import ReadsComposite

    class Counting(dimod.Sampler):
        parameters = {"num_reads": []}
        properties = {}

        def __init__(self):
            self.calls = []

        def sample(self, bqm, num_reads=1):
            self.calls.append(num_reads)
            return dimod.ExactSolver().sample(bqm).truncate(1).aggregate()

    bqm = dimod.BinaryQuadraticModel({"a": -1, "b": 1}, {("a", "b"): 2}, 0, "BINARY")
    child = Counting()
    composite = ReadsComposite(child)
    assert not composite.properties["independent_reads"]
    composite.sample(bqm, num_reads=500, target_energy=-1.0, early_stop="puzzle")
    assert child.calls == [500]
    split = ReadsComposite(SimulatedAnnealingSampler())
    assert split.properties["independent_reads"] and "num_sweeps" in split.parameters
    updates = []
    first = split.sample(bqm, num_reads=200, seed=3, num_sweeps=20, progress=lambda done, *_: updates.append(done))
    again = split.sample(bqm, num_reads=200, seed=3, num_sweeps=20)
    assert updates == [0, 50, 100, 150, 200]  # four calls of 50 reads
    assert len(first) == 200 and (first.record.sample == again.record.sample).all()


def test_ctrl_c_stops_simulated_annealing_inside_a_call_and_keeps_its_reads(letter_a, monkeypatch):
    """dwave-samplers' annealer calls back between reads, where its compiled loop drops a KeyboardInterrupt:
    a Ctrl-C (a real SIGINT, raised from the progress hook inside the call) ends the call at the next read,
    and the reads drawn so far are the seed's reads, the same as a run's that was not stopped."""
    import signal

    from dwave.samplers import SimulatedAnnealingSampler

    import qpicross.samplers.control as control
    from qpicross.samplers.reads import ReadsComposite

    monkeypatch.setattr(control, "PROGRESS_INTERVAL_S", 0.0)  # a report after every read
    bqm = build_bqm(letter_a)
    seen = []

    def ctrl_c_at_60(done, total, best):
        seen.append(done)
        if done == 60:
            signal.raise_signal(signal.SIGINT)

    composite = ReadsComposite(SimulatedAnnealingSampler())
    stopped = composite.sample(bqm, num_reads=200, seed=4, num_sweeps=10, progress=ctrl_c_at_60)
    assert stopped.info["interrupted"] and 60 <= len(stopped) < 100
    assert 55 in seen  # reported inside the call of reads 50 to 100, not only after it
    whole = composite.sample(bqm, num_reads=200, seed=4, num_sweeps=10)
    assert not whole.info["interrupted"]
    assert (stopped.record.sample == whole.record.sample[:len(stopped)]).all()
    one_call = SimulatedAnnealingSampler().sample(bqm, num_reads=50, seed=4, num_sweeps=10)
    assert (composite.sample(bqm, num_reads=50, seed=4, num_sweeps=10).record.sample == one_call.record.sample).all()


def test_a_progress_hook_that_raises_stops_simulated_annealing_inside_a_call(letter_a, monkeypatch):
    from dwave.samplers import SimulatedAnnealingSampler

    import qpicross.samplers.control as control
    from qpicross.samplers.reads import ReadsComposite

    monkeypatch.setattr(control, "PROGRESS_INTERVAL_S", 0.0)
    bqm = build_bqm(letter_a)

    def stop_at(reads, error):
        def hook(done, total, best):
            if done == reads:
                raise error
        return hook

    composite = ReadsComposite(SimulatedAnnealingSampler())
    stopped = composite.sample(bqm, num_reads=200, seed=4, num_sweeps=10, progress=stop_at(10, KeyboardInterrupt))
    assert stopped.info["interrupted"] and 10 <= len(stopped) < 50
    with pytest.raises(ZeroDivisionError):  # any other error of the hook is the caller's, as it was raised
        composite.sample(bqm, num_reads=200, seed=4, num_sweeps=10, progress=stop_at(10, ZeroDivisionError))
    with pytest.raises(KeyboardInterrupt):  # stopped before the first read: no read to keep
        composite.sample(bqm, num_reads=200, seed=4, num_sweeps=10, progress=stop_at(0, KeyboardInterrupt))
