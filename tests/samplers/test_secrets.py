"""Issue 15: no credential is ever printed, logged or quoted, whatever the token file holds; token files
are read with bounded work; a cloud failure is one line. A planted secret is grepped for in all output."""

from __future__ import annotations

import io
import logging
import os

import pytest

from qpicross.cli import main
from qpicross.samplers import SamplerUnavailableError
from qpicross.samplers._secrets import MAX_TOKEN_BYTES, read_token_file, redact_logs, scrub

SECRET = "PLANTED-7f3a9c-SECRET"


@pytest.fixture
def captured_log():
    """What a debug handler on the D-Wave client's logger writes (as DWAVE_LOG_LEVEL=debug sets up)."""
    pytest.importorskip("dwave.system")  # its import sets the client's log level
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    logger = logging.getLogger("dwave.cloud")
    old_level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    yield stream
    logger.removeHandler(handler)
    logger.setLevel(old_level)


@pytest.mark.parametrize("content", [
    f"{SECRET}\n{SECRET}-second-line\n".encode(),
    f"{SECRET} and more".encode(),
    f"{SECRET}\x00".encode(),
    f"\xff\xfe{SECRET}".encode("latin-1"),
    b"x" * (MAX_TOKEN_BYTES + 1),
])
def test_a_malformed_token_file_is_refused_without_quoting_it(content, tmp_path):
    path = tmp_path / "token"
    path.write_bytes(content)
    with pytest.raises(SamplerUnavailableError) as info:
        read_token_file(path)
    message = str(info.value)
    assert "\n" not in message and str(path) in message
    assert SECRET not in message and "xxxx" not in message


def test_token_files_that_are_not_regular_files_are_refused_at_once(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path, words in ((fifo, "FIFO"), ("/dev/zero", "character device"), (tmp_path, "directory"),
                        (tmp_path / "absent", "cannot read")):
        with pytest.raises(SamplerUnavailableError, match=words):
            read_token_file(path)


def test_a_good_token_file_is_read(tmp_path):
    path = tmp_path / "token"
    path.write_text(f"  {SECRET}\n")
    assert read_token_file(path) == SECRET


def test_scrub_removes_tokens_in_any_quoting(monkeypatch):
    monkeypatch.setenv("AMPLIFY_TOKEN", "ENVTOKEN-99")
    two_lines = f"{SECRET}\nmore"
    assert SECRET not in scrub(f"bad header value: {two_lines!r}", two_lines)
    assert "ENVTOKEN-99" not in scrub("sent ENVTOKEN-99 to the server")
    assert scrub("Client init called with: {'token': 'abc', 'x': 1}") == "Client init called with: {'token': '***', 'x': 1}"
    assert scrub("url?token=abc&x=1") == "url?token=***"
    assert scrub("TOKEN = abc more") == "TOKEN = *** more"
    assert scrub("line one\nline two") == "line one line two"


def test_debug_logging_of_the_client_never_shows_the_token(monkeypatch, captured_log, capsys, letter_a_path,
                                                            no_credentials, tmp_path):
    system = pytest.importorskip("dwave.system")
    monkeypatch.setenv("DWAVE_API_TOKEN", SECRET)

    def connect(**config):  # what dwave-cloud-client does: log its configuration, then fail
        logging.getLogger("dwave.cloud.client.base").debug("Client init called with: %r",
                                                           {"token": os.environ["DWAVE_API_TOKEN"], **config})
        raise OSError(f"cannot connect with {os.environ['DWAVE_API_TOKEN']!r}")

    monkeypatch.setattr(system, "LeapHybridSampler", connect)
    token_file = tmp_path / "token"
    token_file.write_text(SECRET + "\n")
    assert main(["anneal", letter_a_path, "--sampler", "hybrid", "--token-file", str(token_file)]) == 2
    out = capsys.readouterr()
    log = captured_log.getvalue()
    assert "Client init called with" in log, out.err and "***" in log
    for text in (out.out, out.err, log):
        assert SECRET not in text
    assert out.err.count("\n") == 1 and "cannot use D-Wave Leap" in out.err


@pytest.mark.parametrize("sampler", ["qpu", "hybrid", "hybrid-cqm", "amplify"])
def test_a_two_line_token_file_never_reaches_the_output(sampler, tmp_path, capsys, letter_a_path, no_credentials):
    path = tmp_path / "token"
    path.write_text(f"{SECRET}\n{SECRET}2\n")
    assert main(["anneal", letter_a_path, "--sampler", sampler, "--token-file", str(path)]) == 2
    out = capsys.readouterr()
    assert SECRET not in out.out + out.err
    assert out.err.count("\n") == 1 and "does not hold one token" in out.err


def test_amplify_retries_print_no_warnings_and_the_error_is_one_line(monkeypatch, capsys, letter_a):
    amplify = pytest.importorskip("amplify")
    from qpicross import build_formulation
    from qpicross.samplers.amplify import AmplifyAESampler

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    logging.getLogger("amplify").addHandler(handler)
    level = logging.getLogger("amplify").level

    def solve(poly, client):
        for attempt in range(3):
            logging.getLogger("amplify").warning("Connection failed, retrying (%d/3)", attempt + 1)
        raise RuntimeError(f"maximum retries exceeded for token {SECRET}")

    monkeypatch.setattr(amplify, "solve", solve)
    bqm = build_formulation(letter_a).bqm()
    try:
        with pytest.raises(SamplerUnavailableError) as info:
            AmplifyAESampler(client=object()).sample(bqm, token=SECRET)
    finally:
        logging.getLogger("amplify").removeHandler(handler)
    assert stream.getvalue() == "" and capsys.readouterr().err == ""
    assert "\n" not in str(info.value) and SECRET not in str(info.value)
    assert "maximum retries exceeded" in str(info.value)
    assert logging.getLogger("amplify").level == level  # quiet only while it solves


def test_redact_logs_is_idempotent():
    first = redact_logs("a-token")
    assert redact_logs("a-token") is first
    handler_filters = [f for h in logging.getLogger("dwave.cloud").handlers for f in h.filters if f is first]
    assert len(handler_filters) == len(logging.getLogger("dwave.cloud").handlers)
