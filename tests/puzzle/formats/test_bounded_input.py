"""Input files are read with bounded work: only regular files, at most MAX_FILE_BYTES, never a blocking FIFO."""

from __future__ import annotations

import os
import time

import pytest

from qpicross import PuzzleFormatError, load_puzzle
from qpicross._files import UnreadableFileError, read_bounded
from qpicross.puzzle.formats import split_spec
from qpicross.puzzle.formats._text import MAX_FILE_BYTES

from cli_subprocess import one_line_error, run_cli
from conftest import INSTANCES

COMMANDS = [["show"], ["info"], ["solve"], ["anneal"], ["export", "-o", "{tmp}/m.json"], ["bench"],
            ["tune", "--grid", "match=1"]]


def _special_files(tmp_path):
    fifo = tmp_path / "pipe.px"
    os.mkfifo(fifo)
    link = tmp_path / "zero.px"
    link.symlink_to("/dev/zero")
    random_link = tmp_path / "random.json"
    random_link.symlink_to("/dev/urandom")
    return {"/dev/zero": ("/dev/zero", "character device"), "zero-link": (str(link), "character device"),
            "urandom-link": (str(random_link), "character device"), "fifo": (str(fifo), "FIFO"),
            "directory": (str(tmp_path), "directory")}


def test_max_file_bytes_is_a_few_mib():
    assert MAX_FILE_BYTES == 16 * 1024 * 1024


@pytest.mark.parametrize("kind", ["/dev/zero", "zero-link", "urandom-link", "fifo"])
def test_load_refuses_non_regular_files_at_once(tmp_path, kind):
    path, what = _special_files(tmp_path)[kind]
    start = time.perf_counter()
    with pytest.raises(PuzzleFormatError, match=what):
        load_puzzle(path, format="px")
    assert time.perf_counter() - start < 2


@pytest.mark.parametrize("command", COMMANDS, ids=[c[0] for c in COMMANDS])
@pytest.mark.parametrize("kind", ["zero-link", "fifo"])
def test_every_command_refuses_devices_and_fifos_in_one_line(tmp_path, command, kind):
    path, what = _special_files(tmp_path)[kind]
    args = [a.format(tmp=tmp_path) for a in command]
    proc = run_cli(args[0], path, *args[1:], timeout=60)
    line = one_line_error(proc)
    assert what in line and path in line


def test_a_file_above_the_limit_is_refused_after_reading_limit_plus_one_bytes(tmp_path, monkeypatch):
    big = tmp_path / "big.px"
    big.write_bytes(b"1,1\n1\n1\n" + b"\n" * 100)
    monkeypatch.setattr("qpicross.puzzle.formats.registry.MAX_FILE_BYTES", 50)
    with pytest.raises(PuzzleFormatError, match="larger than the 50-byte limit"):
        load_puzzle(big)


def test_read_bounded_reads_no_more_than_the_limit(monkeypatch):
    reads = []
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda fd, n: reads.append(n) or real_read(fd, n))
    with pytest.raises(UnreadableFileError, match="limit"):
        read_bounded(INSTANCES / "5x5.px", 10)
    assert sum(reads) <= 11


def test_read_bounded_checks_the_file_again_once_open(tmp_path, monkeypatch):
    """A path swapped for a FIFO between the check and the open is still refused, without blocking."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    regular = os.stat(INSTANCES / "5x5.px")
    real_stat = os.stat
    monkeypatch.setattr(os, "stat", lambda p, *a, **k: regular if str(p) == str(fifo) else real_stat(p, *a, **k))
    with pytest.raises(UnreadableFileError, match="FIFO"):
        read_bounded(fifo, 100)


@pytest.mark.parametrize("spec", ["set.txt#\u0661", "set.txt#\u0661-\u0662", "set.txt#1-\u0662", "set.txt#\uff11"])
def test_spec_numbers_are_ascii_digits_only(tmp_path, spec):
    assert split_spec(spec) == (split_spec(spec)[0], None)
    assert str(split_spec(spec)[0]) == spec


def test_non_ascii_digit_spec_is_not_puzzle_one(tmp_path):
    (tmp_path / "two.json").write_text('[{"rows": [[1]], "cols": [[1]]}, {"rows": [[]], "cols": [[]]}]')
    with pytest.raises(PuzzleFormatError, match="two.json#\u0661: no such file or directory"):
        load_puzzle(f"{tmp_path / 'two.json'}#\u0661")
