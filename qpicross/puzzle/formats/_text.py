"""Helpers every reader shares: decoding, numbers, clues, limits; one line per error."""

from __future__ import annotations

import re
from collections.abc import Sequence

from qpicross.puzzle.puzzle import Puzzle, PuzzleFormatError

__all__ = ["MAX_DIMENSION", "MAX_FILE_BYTES", "MAX_XML_DEPTH"]


#: Largest rows/cols a file may declare; far above any annealable size, it only
#: stops absurd headers from allocating memory.
MAX_DIMENSION = 10_000
#: Largest file read (bytes): the biggest real collection file is ~2 MB. At most this many
#: bytes (+1) are ever read, whatever the file claims (see :func:`qpicross._files.read_bounded`).
MAX_FILE_BYTES = 16 * 1024 * 1024
#: Deepest XML element nesting accepted (webpbn files nest 5 deep).
MAX_XML_DEPTH = 32



# -- shared helpers ----------------------------------------------------------------------------

#: Characters of text that may be (part of) a clue, a header or a goal row: quoted up to 40 of them.
_CLUE_LIKE = re.compile(r"[0-9\s,;:.()\[\]|#+\-]*")
#: Most characters of any other text an error message quotes.
QUOTED_PREFIX = 8


def _quote(text: str) -> str:
    """Text from a file as an error message quotes it: a clue-like line up to 40 characters, anything
    else at most :data:`QUOTED_PREFIX` characters, visibly cut (a secret token given as a puzzle file
    must not be echoed).

    >>> _quote("1 2 3"), _quote("one"), _quote("DEV-0123456789abcdef0123456789abcdef")
    ("'1 2 3'", "'one'", "'DEV-0123'... (36 characters)")
    """
    if _CLUE_LIKE.fullmatch(text):
        return repr(text[:40]) + ("..." if len(text) > 40 else "")
    if len(text) <= QUOTED_PREFIX:
        return repr(text)
    return f"{text[:QUOTED_PREFIX]!r}... ({len(text)} characters)"



def _decode_text(data: bytes, path: str | None) -> str:
    nul = data.find(b"\x00")
    if nul >= 0:
        raise PuzzleFormatError(f"binary data (a NUL byte at offset {nul}), not a text puzzle file", path,
                                data.count(b"\n", 0, nul) + 1)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PuzzleFormatError(f"not UTF-8 text (byte {exc.start}: {data[exc.start:exc.start + 1]!r}); "
                                "puzzle files are UTF-8", path, data.count(b"\n", 0, exc.start) + 1) from None
    return text


def _parse_number(token: str, path: str | None, line: int | None, what: str) -> int:
    token = token.strip()
    if not token.isdigit() or not token.isascii():
        raise PuzzleFormatError(f"expected a non-negative integer for {what}, got {_quote(token)}", path, line)
    if len(token) > 9 or int(token) > MAX_DIMENSION * 10:
        raise PuzzleFormatError(f"{what} {token[:20]}{'...' if len(token) > 20 else ''} is absurdly large "
                                f"(at most {MAX_DIMENSION * 10})", path, line)
    return int(token)


def _parse_dimension(token: str, path: str | None, line: int | None, what: str) -> int:
    value = _parse_number(token, path, line, what)
    if not 1 <= value <= MAX_DIMENSION:
        raise PuzzleFormatError(f"{what} {value} out of range (1..{MAX_DIMENSION})", path, line)
    return value


def _parse_clue(tokens: Sequence[str], path: str | None, line: int | None, what: str) -> tuple[int, ...]:
    """Block lengths from number tokens; a lone 0 (or nothing) is a blank line."""
    if all(t.isascii() and t.isdigit() and len(t) <= 5 for t in tokens):  # fast path, the common case
        numbers = tuple(map(int, tokens))
    else:
        numbers = tuple(_parse_number(tok, path, line, what) for tok in tokens)
    if numbers == (0,):
        return ()
    if 0 in numbers:
        text = ",".join(map(str, numbers))
        raise PuzzleFormatError(f"{what} {text!r} holds a 0 among other blocks; blocks are positive",
                                path, line)
    return numbers


def _build(
    rows: Sequence[tuple[int, ...]],
    cols: Sequence[tuple[int, ...]],
    name: str,
    path: str | None,
    row_lines: Sequence[int | None],
    col_lines: Sequence[int | None],
    totals_line: int | None,
    goal=None,
    goal_line: int | None = None,
) -> Puzzle:
    """A :class:`Puzzle`, its validation errors re-raised with the file's line."""
    try:
        return Puzzle(rows, cols, name=name, goal=goal)
    except PuzzleFormatError as exc:
        reason = exc.reason
        kind, _, rest = reason.partition(" ")
        index = rest.partition(":")[0]
        line = totals_line
        if kind in ("row", "column") and index.isdigit():  # named as line_name names it, counted from 1
            lines = row_lines if kind == "row" else col_lines
            line = lines[int(index) - 1] if 0 < int(index) <= len(lines) else None
        elif reason.startswith("goal"):
            line = goal_line
        raise PuzzleFormatError(reason, path, line) from None


def _numbered_names(name: str, puzzles: list[Puzzle]) -> list[tuple[int, Puzzle]]:
    """Number puzzles 1.. and rename them ``name#k`` when there are several."""
    if len(puzzles) == 1:
        return [(1, puzzles[0])]
    return [(k, _renamed(p, f"{name}#{k}")) for k, p in enumerate(puzzles, 1)]


def _renamed(puzzle: Puzzle, name: str) -> Puzzle:
    return Puzzle(puzzle.rows, puzzle.cols, name=name, goal=puzzle.goal)


