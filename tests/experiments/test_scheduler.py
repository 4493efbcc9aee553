"""Issue 35, ``--scheduler``: an address where no Dask scheduler answers is one line within seconds, exit 2."""

from __future__ import annotations

import time

import pytest

from qpicross.cli import main
from qpicross.samplers.workers import SCHEDULER_TIMEOUT_S, connect_scheduler
from puzzles import LETTER_A_FILE

pytest.importorskip("distributed")


@pytest.mark.parametrize("address, words", [
    ("tcp://127.0.0.1:1", "nothing answered within"),  # was 33 s and a traceback
    ("127.0.0.1:1", "nothing answered within"),
    ("ucx://127.0.0.1:1", "ucx:// needs UCX support"),  # was a traceback
    ("tls://127.0.0.1:1", "tls:// needs dask's TLS settings"),  # was a traceback
    ("foo://x", "unknown address scheme 'foo'"),
    ("", "--scheduler wants an address"),
])
@pytest.mark.parametrize("command", [["bench", LETTER_A_FILE, "--reads", "2"],
                                     ["tune", LETTER_A_FILE, "--grid", "match=1:2:2"]])
def test_unreachable_scheduler_is_one_line_within_seconds(command, address, words, capsys):
    start = time.perf_counter()
    assert main([*command, "--scheduler", address]) == 2
    elapsed = time.perf_counter() - start
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("qpicross: error: --scheduler"), lines
    assert words in lines[0]
    assert elapsed < SCHEDULER_TIMEOUT_S + 5, elapsed


@pytest.mark.parametrize("address, words", [
    ("tcp://127.0.0.1:1", "nothing answered within"),
    ("ucx://127.0.0.1:1", "ucx:// needs UCX support"),  # was a traceback
    ("tls://127.0.0.1:1", "tls:// needs dask's TLS settings"),  # was a traceback
    ("tcp://127.0.0.1:99999", "99999 is not a port number"),  # was reported as a time-out
])
def test_anneal_on_an_unreachable_scheduler_is_one_line(address, words, capsys):
    assert main(["anneal", LETTER_A_FILE, "--scheduler", address]) == 2
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("qpicross: error: "), lines
    assert words in lines[0]
    assert out == ""  # refused before the model's size line


@pytest.mark.parametrize("command", [["bench", LETTER_A_FILE, "--reads", "2"],
                                     ["tune", LETTER_A_FILE, "--grid", "match=1:2:2"]])
def test_bench_and_tune_say_they_take_no_local_workers_as_a_scheduler(command, capsys):
    start = time.perf_counter()
    assert main([*command, "--scheduler", "local:2"]) == 2
    err = capsys.readouterr().err
    assert "--workers N" in err and "nothing answered" not in err and len(err.splitlines()) == 1
    assert time.perf_counter() - start < SCHEDULER_TIMEOUT_S  # refused, not tried


def test_connect_scheduler_raises_connection_error():
    with pytest.raises(ConnectionError, match="cannot reach the Dask scheduler at 'tcp://127.0.0.1:1'"):
        connect_scheduler("tcp://127.0.0.1:1", timeout=0.5)


def test_connect_scheduler_works_inside_a_running_event_loop():
    """A notebook runs the caller inside an event loop: the probe must not need the caller's."""
    import asyncio

    async def inside():
        with pytest.raises(ConnectionError, match="nothing answered within"):
            connect_scheduler("tcp://127.0.0.1:1", timeout=0.5)

    asyncio.run(inside())
