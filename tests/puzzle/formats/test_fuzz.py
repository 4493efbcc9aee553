"""Fuzzing every reader: whatever the bytes, the answer is a valid Puzzle or a PuzzleFormatError.

A longer coverage-guided run lives in ``fuzz/fuzz_readers.py`` (atheris, the
``fuzz`` extra); inputs it found that once crashed a reader are pinned below.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qpicross import Puzzle, PuzzleFormatError
from qpicross.puzzle.formats import MULTI_READERS
from qpicross.puzzle.formats._text import _decode_text

FORMATS = sorted(MULTI_READERS)

VALID = {
    "px": "3,3\n1\n1,1\n3\n2\n1\n3\n",
    "non": 'title "t"\nwidth 3\nheight 3\n\nrows\n1\n1,1\n3\n\ncolumns\n2\n1\n3\n\ngoal "010101111"\n',
    "nonpack": "width 1\nheight 1\nrows\n1\ncolumns\n1\n====\nwidth 1\nheight 1\nrows\n0\ncolumns\n\n",
    "tournament": "$1\n2\n1\n3\n1\n1\t1\n3\n$2\n1\n1\n1\n1\n1\n1\n",
    "clues": "1\n1 1\n3\n\n2\n1\n3\n",
    "xml": ('<?xml version="1.0"?>\n<puzzleset><puzzle type="grid" defaultcolor="black">\n'
            '<color name="white" char=".">FFFFFF</color>\n<clues type="columns">\n'
            "<line><count>2</count></line>\n<line><count>1</count></line>\n<line><count>3</count></line>\n"
            '</clues>\n<clues type="rows">\n<line><count>1</count></line>\n'
            "<line><count>1</count><count>1</count></line>\n<line><count>3</count></line>\n</clues>\n"
            '<solution type="goal"><image>\n|.X.|\n|X.X|\n|XXX|\n</image></solution>\n</puzzle></puzzleset>\n'),
    "json": '{\n  "name": "t",\n  "rows": [[1], [1, 1], [3]],\n  "cols": [[2], [1], [3]],\n'
            '  "goal": [".#.", "#.#", "###"]\n}\n',
}

#: Tokens each format is made of, so that random documents get past the first line.
VOCAB = {
    "px": ["3,3", "1", "2", "0", ",", "1,1", "-1", "99999999999", "x", "\n", "\r\n", " ", "\ufeff"],
    "non": ["width 3", "height 3", "rows", "columns", "goal \"010\"", "1", "1,1", "0", "3a", "\n", "====",
            "catalogue \"x\"", "width 0", "height -1", "\t", " "],
    "nonpack": ["width 1", "height 1", "rows", "columns", "1", "0", "====", "\n", "goal \"1\""],
    "tournament": ["$1", "$2", "$", "1", "2", "0", "\t", "1\t1", "\n", "\r\n", "-3", "x", "99999999999"],
    "clues": ["1", "2", "3", "0", " ", "\t", "1 1", "\n", "\n\n", "\r\n", "-1", "x", ",", "99999999999", "\ufeff"],
    "xml": ["<puzzleset>", "</puzzleset>", "<puzzle>", "</puzzle>", '<clues type="rows">',
            '<clues type="columns">', "</clues>", "<line>", "</line>", "<line/>", "<count>", "</count>",
            "1", "2", "0", '<count color="red">', "<solution>", "<image>", "</image>", "</solution>",
            "|X.|", "\n", "&amp;", "<!DOCTYPE p>", "<![CDATA[1]]>"],
    "json": ["{", "}", "[", "]", ",", ":", '"rows"', '"cols"', '"goal"', '"name"', "1", "0", "-1", "1.5",
             "true", "null", '"#."', "NaN", "1e999", "\n", " "],
}


def read_all(data: bytes, fmt: str) -> list[tuple[int, Puzzle]]:
    """What ``load_puzzle`` does after opening the file."""
    return MULTI_READERS[fmt](_decode_text(data, "fuzz"), "fuzz", "fuzz")


def assert_puzzle_or_format_error(data: bytes, fmt: str) -> None:
    try:
        puzzles = read_all(data, fmt)
    except PuzzleFormatError as exc:
        assert "\n" not in str(exc)  # the CLI prints it as one line
        return
    assert puzzles
    for number, puzzle in puzzles:
        assert isinstance(number, int) and isinstance(puzzle, Puzzle)
        Puzzle(puzzle.rows, puzzle.cols, goal=puzzle.goal)  # still valid when rebuilt
        if puzzle.goal is not None:
            assert puzzle.goal.shape == puzzle.shape


def mutated(text: str):
    """Documents a few random edits away from a valid one."""
    edit = st.tuples(st.integers(0, max(len(text) - 1, 0)), st.integers(0, 4), st.text(max_size=4))

    def apply(edits):
        out = text
        for at, cut, insert in edits:
            at = min(at, len(out))
            out = out[:at] + insert + out[at + cut:]
        return out

    return st.lists(edit, min_size=1, max_size=4).map(apply)


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("fmt", FORMATS)
def test_valid_samples_parse(fmt):
    puzzles = read_all(VALID[fmt].encode(), fmt)
    assert all(isinstance(p, Puzzle) for _, p in puzzles)


@pytest.mark.parametrize("fmt", FORMATS)
@FUZZ
@given(data=st.binary(max_size=200))
def test_random_bytes(fmt, data):
    assert_puzzle_or_format_error(data, fmt)


@pytest.mark.parametrize("fmt", FORMATS)
@FUZZ
@given(data=st.data())
def test_random_documents_from_the_format_vocabulary(fmt, data):
    text = "".join(data.draw(st.lists(st.sampled_from(VOCAB[fmt]), max_size=40)))
    assert_puzzle_or_format_error(text.encode("utf-8"), fmt)


@pytest.mark.parametrize("fmt", FORMATS)
@FUZZ
@given(data=st.data())
def test_mutated_valid_documents(fmt, data):
    text = data.draw(mutated(VALID[fmt]))
    assert_puzzle_or_format_error(text.encode("utf-8", "surrogatepass"), fmt)


# Hostile inputs that would raise something other than PuzzleFormatError without the guards.
CRASHERS = [
    ("json", b"[" * 100_000),  # RecursionError in the JSON scanner
    ("json", b'{"rows": [[' + b"9" * 5000 + b"]], \"cols\": [[1]]}"),  # int() digit limit
    ("xml", b"<a>" * 100_000),  # nesting depth
    ("px", b"2,2\n" + b"9" * 5000 + b"\n1\n1\n1\n"),  # int() digit limit
    # Found by atheris (run 1): a space inside a comma-separated clue slipped through the fast path.
    ("px", b"3,3\n1\n1 1\n2?\n2\n1\n3\n"),
]


@pytest.mark.parametrize("fmt,data", CRASHERS, ids=[f"{f}-{i}" for i, (f, _) in enumerate(CRASHERS)])
def test_pinned_crashers(fmt, data):
    with pytest.raises(PuzzleFormatError):
        read_all(data, fmt)
