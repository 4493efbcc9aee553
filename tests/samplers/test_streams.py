"""Restart streams of one read on a Dask cluster (:mod:`qpicross.samplers.streams`)."""

import math
import time

import pytest

from qpicross import Puzzle, build_formulation, check
from qpicross.decode import decode_sample
from qpicross.samplers import streams as dask_streams
from qpicross.samplers.blockshift import BlockShiftSampler
from puzzles import LETTER_A_FILE

distributed = pytest.importorskip("distributed", reason="restart streams on a cluster need the 'tune' extra")

KNIFE = Puzzle.from_board(["..##.", ".###.", "##.##", ".###.", "..#..", "#####", "#...#"])


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as lc:
        with distributed.Client(lc) as c:
            yield c


def test_each_read_runs_one_stream_per_worker_and_returns_a_solution(client):
    f = build_formulation(KNIFE)
    ss = dask_streams.StreamsComposite(BlockShiftSampler(), client).sample(f.bqm(), lines=f.one_hot_lines(), paints=f.paints(), num_reads=3, seed=4,
                                    target_energy=0)
    assert len(ss) == 3 and ss.info["streams"] == 2 and ss.info["threads"] == 2
    for row in range(3):
        sample = dict(zip(ss.variables, ss.record.sample[row]))
        assert check(f.puzzle, decode_sample(f, sample).board) == []
    assert ss.record.energy.max() == 0.0  # energies are the BQM's, in the BQM's variable order
    assert all(0 <= w < 2 for w in ss.info["winner"])
    assert all(math.isfinite(t) and t <= r for t, r in zip(ss.info["time_to_target_s"], ss.info["read_s"]))
    assert all(c > 0 for c in ss.info["core_s"])


def test_a_stream_stops_when_the_reads_stop_event_is_set(client):
    f = build_formulation(KNIFE)
    stop = distributed.Event("qpicross-test-stop", client=client)
    stop.set()
    params = dict(lines=f.one_hot_lines(), paints=f.paints(), target_energy=-1.0)  # unreachable: runs until stopped
    started = time.perf_counter()
    result = client.submit(dask_streams._stream, BlockShiftSampler(), f.bqm(), params, 1, stop.name, 60.0,
                           pure=False).result()
    assert time.perf_counter() - started < 20
    assert not result["reached"] and len(result["sample"]) == len(result["variables"]) == f.bqm().num_variables


def test_a_budget_ends_a_read_that_never_reaches_the_target(client):
    f = build_formulation(KNIFE)
    ss = dask_streams.StreamsComposite(BlockShiftSampler(), client).sample(f.bqm(), lines=f.one_hot_lines(), paints=f.paints(), num_reads=2, seed=4,
                                    target_energy=-1.0, time_limit=2.0,
        num_sweeps=10**9)  # the time limit, not the sweeps, ends it (200 000 take under 2 s here)
    assert ss.info["time_to_target_s"][0] == math.inf and ss.info["winner"][0] == -1
    # the read lasted its budget; its streams ran for it (a stream a loaded machine starts late is stopped half a
    # polling interval after the read's deadline, so their sum is not twice the budget on a busy machine)
    assert ss.info["read_s"][0] >= 1.9 and ss.info["stream_s"][0] >= 1.5
    # CPU seconds counted in whichever of its worker's threads the restarts ran: not the near nothing of a clock
    # read in another thread, and never more than the streams' wall seconds. How close to the wall's they come
    # depends on what else the machine runs (at load 3 on 2 cores, 0.14 of it: issue 59, item 3), so the
    # floor is one a machine at load 25 still clears.
    assert 0.02 * ss.info["stream_s"][0] <= ss.info["core_s"][0] <= 1.05 * ss.info["stream_s"][0] + 0.1


@pytest.mark.parametrize("bad", ["local:0", "local:x", "nonsense"])
def test_malformed_schedulers_are_refused(bad):
    with pytest.raises(ValueError, match="scheduler"):
        dask_streams.parse_scheduler(bad)


def test_an_address_where_nothing_listens_is_one_error_within_seconds():
    from qpicross.exceptions import SamplerUnavailableError

    started = time.perf_counter()
    with pytest.raises(SamplerUnavailableError, match="cannot reach the Dask scheduler"):
        dask_streams.client_for("tcp://127.0.0.1:9")
    assert time.perf_counter() - started < 3 * dask_streams.CONNECT_TIMEOUT_S


def test_the_command_line_takes_a_scheduler_for_shift_only(capsys):
    from qpicross.cli import main

    five = LETTER_A_FILE
    assert main(["anneal", five, "--sampler", "sa", "--scheduler", "local:2"]) == 2
    assert "--scheduler runs the restart streams of the shift sampler" in capsys.readouterr().err
    assert main(["anneal", five, "--scheduler", "local:zero"]) == 2
    assert main(["anneal", five, "--scheduler", "local:1", "--seed", "3"]) == 0
    assert "SOLVED" in capsys.readouterr().out


def test_a_spin_bqm_comes_back_in_spins(client):
    f = build_formulation(KNIFE)
    spin = f.bqm().change_vartype("SPIN", inplace=False)
    ss = dask_streams.StreamsComposite(BlockShiftSampler(), client).sample(spin, lines=f.one_hot_lines(), paints=f.paints(), num_reads=1, seed=2,
                                    target_energy=0)
    assert set(ss.record.sample.ravel().tolist()) == {-1, 1} and ss.first.energy == pytest.approx(0.0)


def test_a_local_cluster_leaves_no_file_in_the_temporary_folder(tmp_path, monkeypatch):
    """Dask's workers keep lock files in a scratch space under the temporary folder for good; the local cluster's
    is a folder of its own, removed when its clients close (at the process's exit)."""
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    client = dask_streams.client_for("local:2")
    assert client.submit(sum, [1, 2]).result() == 3
    assert [p.name for p in tmp_path.iterdir()] != []  # the scratch space is there while the cluster runs
    dask_streams._close_clients()
    assert list(tmp_path.iterdir()) == []


def test_the_streams_are_a_composite_around_any_sampler_that_can_be_polled(client):
    from dwave.samplers import SimulatedAnnealingSampler

    f = build_formulation(KNIFE)
    streams = dask_streams.StreamsComposite(BlockShiftSampler(), client)
    assert streams.properties["independent_reads"] and "scheduler" not in streams.parameters
    ss = streams.sample(f.bqm(), layout=f.layout(), num_reads=2, seed=1, target_energy=0)
    assert ss.info["streams"] == 2 and all(check(f.puzzle, decode_sample(f, dict(zip(ss.variables, row))).board) == []
                                           for row in ss.record.sample)
    with pytest.raises(ValueError, match="takes time_limit, target_energy"):
        dask_streams.StreamsComposite(SimulatedAnnealingSampler(), client)


def test_a_read_stopped_by_the_stop_input_or_ctrl_c_keeps_its_best_stream(client):
    """Issue 59, item 8: an interrupted read on a cluster returns the best state its streams reached (it was
    dropped); the composite's stop input (``interrupt_function``) stops it the same way."""
    import _thread
    import threading

    f = build_formulation(KNIFE)
    composite = dask_streams.StreamsComposite(BlockShiftSampler(), client)
    unreachable = dict(layout=f.layout(), num_reads=3, seed=1, target_energy=-1.0)  # runs until stopped
    started = time.perf_counter()
    ss = composite.sample(f.bqm(), interrupt_function=lambda: time.perf_counter() - started > 1.0, **unreachable)
    assert ss.info["halted"] and not ss.info["interrupted"] and len(ss) == 1
    assert ss.first.energy < math.inf and time.perf_counter() - started < 20
    timer = threading.Timer(1.0, _thread.interrupt_main)
    timer.start()
    ss = composite.sample(f.bqm(), **unreachable)
    timer.join()
    assert ss.info["interrupted"] and len(ss) == 1 and ss.info["winner"] == [-1]


def test_local_workers_ignore_ctrl_c():
    """A terminal's Ctrl-C reaches every process of its group: the workers of a local cluster ignore it (their
    own handler printed dozens of lines of tracebacks while the cluster started: issue 59, item 8), and this
    process's handler is back once they have started."""
    import signal

    client = dask_streams.client_for("local:1")
    try:
        assert set(client.run(lambda: signal.getsignal(signal.SIGINT) == signal.SIG_IGN).values()) == {True}
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        dask_streams._close_clients()
