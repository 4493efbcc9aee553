"""The run control every read loop shares (:mod:`qpicross.samplers.control`): its deadline, its progress reports,
the polling loop that stops compiled reads in other threads, and the batched driver's use of it."""

import math
import threading
import time

import dimod.testing
import numpy as np
import pytest

from qpicross import build_formulation
from qpicross.samplers import control
from qpicross.samplers.blockshift.batched import sample_many
from qpicross.samplers.control import RunControl, stop_flag

from puzzles import CORNER, LETTER_A


def test_between_reports_only_when_due_and_notes_a_spent_time_limit(monkeypatch):
    seen = []
    run = RunControl(None, lambda *call: seen.append(call), num_reads=3)
    monkeypatch.setattr(control, "PROGRESS_INTERVAL_S", 3600.0)
    assert run.between(-1.0) is False and seen == []  # not due
    monkeypatch.setattr(control, "PROGRESS_INTERVAL_S", 0.0)
    run.reads_done = 5  # more than the run's reads: reported as all of them
    assert run.between(-1.0) is False and seen == [(3, 3, -1.0)]
    spent = RunControl(1e-3)
    time.sleep(0.01)
    assert spent.between() is True and spent.timed_out and not spent.interrupted


def _compiled_read_stand_in(flag, finished):
    """A thread that runs until its stop flag is set, as a compiled read does (it checks the flag every sweep)."""

    def loop():
        while not flag[0]:
            time.sleep(0.001)
        finished.set()

    threading.Thread(target=loop, daemon=True).start()


def test_watch_stops_the_running_reads_at_the_deadline_and_reports_meanwhile(monkeypatch):
    monkeypatch.setattr(control, "PROGRESS_INTERVAL_S", 0.01)
    seen = []
    run = RunControl(0.1, lambda *call: seen.append(call), num_reads=1)
    flag, finished = stop_flag(), threading.Event()
    _compiled_read_stand_in(flag, finished)
    run.watch(finished, [flag], lambda: -2.0)
    assert flag[0] == 1 and run.timed_out and not run.interrupted
    assert seen and all(call == (0, 1, -2.0) for call in seen)


@pytest.mark.parametrize("raised", [KeyboardInterrupt, RuntimeError])
def test_a_ctrl_c_or_a_failing_hook_in_watch_stops_every_running_read(monkeypatch, raised):
    monkeypatch.setattr(control, "PROGRESS_INTERVAL_S", 0.01)

    def progress(*call):
        raise raised("stop")

    run = RunControl(None, progress)
    flags, finished = [stop_flag(), stop_flag()], threading.Event()
    _compiled_read_stand_in(flags[0], finished)
    if raised is KeyboardInterrupt:  # noted; the reads drawn are kept
        run.watch(finished, flags)
        assert run.interrupted and not run.timed_out
    else:  # the hook's error propagates, but only once no read runs
        with pytest.raises(RuntimeError):
            run.watch(finished, flags)
    assert finished.is_set() and all(flag[0] == 1 for flag in flags)


def test_the_batched_driver_reports_progress_and_keeps_its_reads_at_a_ctrl_c(monkeypatch):
    monkeypatch.setattr(control, "PROGRESS_INTERVAL_S", 0.0)  # a report after every launch
    forms = [build_formulation(LETTER_A), build_formulation(CORNER)]
    calls = []
    sets = sample_many(forms, backend="cpu", num_reads=3, seed=4, target_energy=0,
                       progress=lambda *call: calls.append(call))
    done = [call[0] for call in calls]
    assert calls[0] == (0, 6, math.inf) and calls[-1][:2] == (6, 6) and done == sorted(done)
    assert calls[-1][2] == min(float(ss.first.energy) for ss in sets) == 0.0
    assert not any(ss.info["interrupted"] or ss.info["timed_out"] for ss in sets)

    def ctrl_c_at_the_third_report(*call):
        calls.append(call)
        if len(calls) == 3:
            raise KeyboardInterrupt

    calls.clear()
    ss = sample_many(forms[:1], backend="cpu", num_reads=2, num_sweeps=10**7, seed=0, target_energy=-1.0,
                     progress=ctrl_c_at_the_third_report)[0]  # an unreachable target: only the Ctrl-C ends it
    assert ss.info["interrupted"] and not ss.info["timed_out"] and len(ss) == 2
    assert max(ss.info["sweeps"]) < 10**7 and ss.info["batch"]["launches"] == 2
    dimod.testing.assert_sampleset_energies(ss, forms[0].bqm())


def test_the_batched_driver_says_which_models_the_time_limit_cut():
    forms = [build_formulation(LETTER_A)]
    ss = sample_many(forms, backend="cpu", num_reads=2, num_sweeps=10**7, seed=0, target_energy=-1.0,
                     time_limit=0.2)[0]
    assert ss.info["timed_out"] and not ss.info["interrupted"] and max(ss.info["sweeps"]) < 10**7
    solved = sample_many(forms, backend="cpu", num_reads=2, seed=0, target_energy=0.0, time_limit=60)[0]
    assert not solved.info["timed_out"] and np.isclose(solved.first.energy, 0.0)
