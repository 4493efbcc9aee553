"""Formats by name and extension, and loading puzzles from files and ``FILE#N`` specs."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from qpicross._files import UnreadableFileError, read_bounded
from qpicross.exceptions import ParameterError
from qpicross.puzzle.puzzle import Puzzle, PuzzleFormatError
from qpicross.puzzle.formats._text import _decode_text, _numbered_names, MAX_FILE_BYTES

from qpicross.puzzle.formats.clues import format_clues, parse_clues
from qpicross.puzzle.formats.jsonfile import format_json, parse_json
from qpicross.puzzle.formats.non import format_non, parse_non, parse_nonpack
from qpicross.puzzle.formats.px import format_px, parse_px
from qpicross.puzzle.formats.tournament import _tournament_solution_file, parse_tournament
from qpicross.puzzle.formats.webpbn import parse_xml

__all__ = ["load_puzzle", "load_puzzles", "iter_puzzles", "expand_puzzle_specs", "split_spec", "txt_format", "save_puzzle", "save_format", "READERS", "MULTI_READERS", "WRITERS", "EXTENSIONS"]


# -- registries ----------------------------------------------------------------------------------

Reader = Callable[[str, str, str], Puzzle]  # (text, name, path) -> Puzzle
MultiReader = Callable[[str, str, str], list]  # (text, name, path) -> [(number, Puzzle)]
Writer = Callable[[Puzzle], str]


def _single(multi: MultiReader) -> Reader:
    def read(text: str, name: str, path: str | None) -> Puzzle:
        puzzles = multi(text, name, path)
        if len(puzzles) != 1:
            raise PuzzleFormatError(f"the file holds {len(puzzles)} puzzles; pick one as FILE#N", path)
        return puzzles[0][1]

    return read


#: Multi-puzzle readers by format name: ``(text, name, path) -> [(number, Puzzle), ...]``.
MULTI_READERS: dict[str, MultiReader] = {
    "px": lambda text, name, path: [(1, parse_px(text, name, path))],
    "non": lambda text, name, path: [(1, parse_non(text, name, path))],
    "nonpack": lambda text, name, path: _numbered_names(name, parse_nonpack(text, name, path)),
    "tournament": lambda text, name, path: parse_tournament(text, name, path),
    "clues": lambda text, name, path: [(1, parse_clues(text, name, path))],
    "xml": lambda text, name, path: _numbered_names(name, parse_xml(text, name, path)),
    "json": lambda text, name, path: _numbered_names(name, parse_json(text, name, path)),
}
#: Single-puzzle readers by format name: ``(text, name, path) -> Puzzle``.
READERS: dict[str, Reader] = {fmt: _single(reader) for fmt, reader in MULTI_READERS.items()}
READERS["px"] = lambda text, name, path: parse_px(text, name, path)
READERS["non"] = lambda text, name, path: parse_non(text, name, path)
READERS["clues"] = lambda text, name, path: parse_clues(text, name, path)
#: Writers by format name.
WRITERS: dict[str, Writer] = {"px": format_px, "non": format_non, "json": format_json, "clues": format_clues}
#: File extensions (lower case, with dot) to format names (``.txt`` is sniffed: :func:`txt_format`).
EXTENSIONS: dict[str, str] = {".px": "px", ".non": "non", ".nonpack": "nonpack", ".xml": "xml", ".pbn": "xml",
                              ".json": "json"}


def _format_for(path: Path, format: str | None, table: dict) -> str:
    if format is not None:
        if format not in table:
            raise PuzzleFormatError(f"unknown format {format!r}; known: {', '.join(sorted(table))}",
                                    str(path))
        return format
    fmt = EXTENSIONS.get(path.suffix.lower())
    if fmt is None and table is MULTI_READERS:
        fmt = txt_format(path)
    if fmt is None or fmt not in table:
        line, text = _not_a_clue_line(path) if path.suffix.lower() == ".txt" else (None, "")
        raise PuzzleFormatError(
            f"cannot tell the format from the extension {path.suffix!r}"
            + (f" (it starts as clue lines, but line {line} is not one: {text!r})" if line else "")
            + f"; use one of {', '.join(sorted(EXTENSIONS))} (or a .txt: a tournament file starting with '$', or "
            f"clue lines starting with a number) or pass --format / format=",
            str(path), line,
        )
    return fmt


#: Bytes of a ``.txt`` file :func:`txt_format` reads to tell its layout.
_SNIFF_BYTES = 256
#: The head of a clue-only file: a number first, then only numbers, spaces, tabs and line ends.
_CLUES_HEAD = re.compile(rb"[0-9][0-9 \t\r\n]*")


def txt_format(path: str | os.PathLike) -> str | None:
    """The format of a ``.txt`` puzzle file told from its first :data:`_SNIFF_BYTES` bytes: ``"tournament"`` when
    its first text starts with ``$``, ``"clues"`` when it starts with a number and holds nothing but numbers,
    spaces, tabs and line ends, ``None`` otherwise (and for any other extension, or a file that cannot be read).

    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> for name, text in (("t.txt", "$1\\n1\\n1\\n"), ("c.txt", "1\\n\\n1\\n"), ("n.txt", "notes\\n"), ("c.px", "1\\n")):
    ...     _ = (folder / name).write_text(text)
    >>> [txt_format(folder / name) for name in ("t.txt", "c.txt", "n.txt", "c.px")]
    ['tournament', 'clues', None, None]
    """
    return _sniff(Path(path)) if Path(path).suffix.lower() == ".txt" else None


def _head(path: Path) -> bytes | None:
    """The first :data:`_SNIFF_BYTES` bytes of a file, without a UTF-8 byte-order mark; ``None`` if unreadable."""
    try:
        return read_bounded(path, _SNIFF_BYTES, head=True).removeprefix(b"\xef\xbb\xbf")
    except UnreadableFileError:
        return None


def _not_a_clue_line(path: Path) -> tuple[int | None, str]:
    """For a file whose head starts with a number but is not all clue lines (a typo in a clue file, or other text):
    the number of the first line in its head that is not a clue line, and that line (at most 40 characters);
    ``(None, "")`` for any other file."""
    head = _head(path)
    if not head or not head[:1].isdigit() or _CLUES_HEAD.fullmatch(head):
        return None, ""
    bad = re.search(rb"[^0-9 \t\r\n]", head).start()
    start = head.rfind(b"\n", 0, bad) + 1
    end = head.find(b"\n", bad)
    text = head[start:end if end >= 0 else len(head)].decode("utf-8", "replace").strip()
    return head.count(b"\n", 0, bad) + 1, text[:40]


def _sniff(path: Path) -> str | None:
    """``"tournament"``, ``"clues"`` or ``None`` from the head of a file, whatever its extension."""
    head = _head(path)
    if head is None:
        return None
    if head.lstrip(b"\r\n").startswith(b"$"):
        return "tournament"
    return "clues" if _CLUES_HEAD.fullmatch(head) else None


def _read_text(path: Path) -> str:
    """The text of a puzzle file: a regular file (symlinks followed) of at most :data:`MAX_FILE_BYTES`."""
    try:
        data = read_bounded(path, MAX_FILE_BYTES)
    except UnreadableFileError as exc:
        raise PuzzleFormatError(str(exc), str(path)) from None
    return _decode_text(data, str(path))


def _read_numbered(path: Path, format: str | None, wanted=None, last: int | None = None) -> list[tuple[int, Puzzle]]:
    """The numbered puzzles of a file.

    ``last``: only puzzles 1..last are needed; a JSON list is then read no further
    than puzzle ``last + 1`` (one more, to know whether there are several).
    """
    if path.is_dir():
        raise PuzzleFormatError("a directory, not a puzzle file (bench, tune and solve read every puzzle "
                                "in a directory)", str(path))
    if format is not None and format not in MULTI_READERS:  # a format the caller named is checked first
        _format_for(path, format, MULTI_READERS)
    if not path.exists() and not path.is_symlink():  # a missing file is told so, not about its extension
        raise PuzzleFormatError("no such file or directory", str(path))
    fmt = _format_for(path, format, MULTI_READERS)
    text = _read_text(path)
    if fmt == "tournament":
        solution = _tournament_solution_file(path)
        return parse_tournament(text, path.stem, str(path), _read_text(solution) if solution else None,
                                str(solution) if solution else None, wanted)
    if fmt == "json" and last is not None:  # one more than needed: numbered names need to know there are several
        return _numbered_names(path.stem, parse_json(text, path.stem, str(path), limit=last + 1))
    return MULTI_READERS[fmt](text, path.stem, str(path))


def _count_json_puzzles(path: Path) -> int | None:
    """How many puzzles a JSON file holds, counted without building them (None: not valid JSON)."""
    try:
        data = json.loads(_read_text(path).removeprefix("\ufeff"))
    except ValueError:
        return None
    return len(data) if isinstance(data, list) else 1


# -- specs: FILE, FILE#N, FILE#a-b, FILE#a-b/s, directories --------------------------------------------

_SPEC = re.compile(r"^(?P<path>.+)#(?P<first>[0-9]+)(?:-(?P<last>[0-9]+)(?:/(?P<step>[0-9]+))?)?$")  # ASCII digits only


def split_spec(spec: str | os.PathLike) -> tuple[Path, range | None]:
    """Split ``FILE#N`` / ``FILE#a-b`` / ``FILE#a-b/s`` into the path and the puzzle numbers (a range).

    ``FILE#a-b/s`` is every ``s``-th puzzle from ``a`` to ``b`` (``a``, ``a + s``, ...): a sample
    spread over a whole collection. A path that exists as written wins (a file may have ``#`` in its name).

    >>> split_spec("set.txt#17")
    (PosixPath('set.txt'), range(17, 18))
    >>> split_spec("set.txt#1-100")
    (PosixPath('set.txt'), range(1, 101))
    >>> list(split_spec("set.txt#1-50/10")[1])
    [1, 11, 21, 31, 41]
    >>> split_spec("puzzle.px")
    (PosixPath('puzzle.px'), None)
    """
    if not isinstance(spec, (str, os.PathLike)):
        raise ParameterError(f"path must be a puzzle file's path (a str or os.PathLike), got {type(spec).__name__}")
    text = os.fspath(spec)
    match = _SPEC.match(text)
    if match is None or Path(text).exists():
        return Path(text), None
    first = int(match["first"])
    last = int(match["last"]) if match["last"] is not None else first
    step = int(match["step"]) if match["step"] is not None else 1
    return Path(match["path"]), range(first, last + 1, step) if step else range(0)


def load_puzzles(spec: str | os.PathLike, format: str | None = None) -> list[Puzzle]:
    """Every puzzle a spec names: ``FILE`` (all its puzzles), ``FILE#N``, ``FILE#a-b`` or ``FILE#a-b/s``.

    Raises:
        PuzzleFormatError: For a bad file, or a number the file does not hold.
    """
    path, selection = split_spec(spec)
    asked = "#" + os.fspath(spec).rsplit("#", 1)[-1]
    if selection is not None and not selection:
        raise PuzzleFormatError(f"empty range {asked}; write #FIRST-LAST with FIRST <= LAST "
                                "(and #FIRST-LAST/STEP with STEP >= 1)", str(path))
    wanted = None if selection is None else selection.__contains__
    numbered = _read_numbered(path, format, wanted, None if selection is None else selection[-1])
    if selection is None:
        return [p for _, p in numbered]
    chosen = [p for n, p in numbered if n in selection]
    if len(chosen) != len(selection):
        count = _count_json_puzzles(path) if _format_for(path, format, MULTI_READERS) == "json" else None
        if count is not None:  # JSON puzzles are numbered 1..count
            low, high = 1, count
        else:  # error path only: read it all
            numbers = [n for n, _ in _read_numbered(path, format)]
            count, low, high = len(numbers), min(numbers), max(numbers)
        if len(selection) > 1:
            asked += f" ({len(selection)} puzzles)"
        raise PuzzleFormatError(f"{asked} asked for, but the file holds {len(chosen) or 'none'} of them "
                                + (f"(1 puzzle, numbered {low})" if count == 1 else
                                   f"({count} puzzles numbered {low}..{high})"), str(path))
    return chosen


def iter_puzzles(path: str | os.PathLike, format: str | None = None) -> Iterator[Puzzle]:
    """Iterate over every puzzle of a file (one for single-puzzle formats), or of a spec.

    >>> import pathlib, tempfile
    >>> from qpicross import Puzzle
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "letter.px"
    >>> save_puzzle(Puzzle.from_board(["..#..", ".#.#.", ".#.#.", "#####", "#...#"]), path)
    >>> [p.name for p in iter_puzzles(path)]
    ['letter']
    """
    yield from load_puzzles(path, format)


def load_puzzle(path: str | os.PathLike, format: str | None = None) -> Puzzle:
    """Read one puzzle, choosing the reader by extension unless ``format`` is given.

    Args:
        path: The file, or ``FILE#N`` for one puzzle of a multi-puzzle file.
        format: A key of :data:`READERS` (e.g. ``"px"``), overriding the extension.

    Raises:
        PuzzleFormatError: If the file is missing, unreadable, not a puzzle,
            or holds several puzzles and no ``#N`` picks one.

    Examples:
        >>> import pathlib, tempfile
        >>> from qpicross import Puzzle
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "letter.px"
        >>> save_puzzle(Puzzle.from_board(["..#..", ".#.#.", ".#.#.", "#####", "#...#"]), path)
        >>> p = load_puzzle(path)
        >>> p.name, p.shape, p.rows[3]
        ('letter', (5, 5), (5,))
    """
    file, selection = split_spec(path)
    if selection is not None:
        puzzles = load_puzzles(path, format)
        count = len(puzzles)
    else:  # one puzzle wanted: a JSON list is read no further than its second puzzle
        puzzles = [p for _, p in _read_numbered(file, format, last=1)]
        count = len(puzzles)
        if count > 1 and _format_for(file, format, MULTI_READERS) == "json":
            count = _count_json_puzzles(file) or count
    if count != 1:
        raise PuzzleFormatError(f"holds {count} puzzles; pick one as FILE#N (e.g. {file}#1)", str(file))
    return puzzles[0]


def _directory_files(directory: Path, format: str | None) -> list[Path]:
    files = []
    for child in sorted(directory.iterdir()):
        if not child.is_file() or child.name.startswith("."):
            continue
        known = EXTENSIONS.get(child.suffix.lower())
        if known is None and (format is not None or child.suffix.lower() == ".txt"):  # a named format: any extension
            known = _sniff(child)
        if known is not None and (format is None or known == format):
            files.append(child)
    return files


def expand_puzzle_specs(specs: Iterable[str | os.PathLike], format: str | None = None) -> list[Puzzle]:
    """Every puzzle named by a list of command-line specs, in order.

    A spec is a file (all its puzzles), ``FILE#N``, ``FILE#a-b``, or a
    directory (every puzzle file directly in it, sorted by name; ``.txt`` files
    only when they look like tournament or clue files; sub-directories are not
    entered).

    Raises:
        PuzzleFormatError: For a missing path, a bad file, or an empty directory.

    Examples:
        >>> import pathlib, tempfile
        >>> from qpicross import Puzzle
        >>> folder = pathlib.Path(tempfile.mkdtemp())
        >>> for name, board in (("a", ["#.", ".#"]), ("b", ["##", "#."])):
        ...     save_puzzle(Puzzle.from_board(board), folder / f"{name}.px")
        >>> [p.name for p in expand_puzzle_specs([str(folder)])]
        ['a', 'b']
    """
    out: list[Puzzle] = []
    for spec in specs:
        path = Path(spec)
        if path.is_dir():
            files = _directory_files(path, format)
            if not files:
                raise PuzzleFormatError("no puzzle files in this directory", str(path))
            for file in files:
                out.extend(load_puzzles(file, format))
        else:
            file, _ = split_spec(spec)
            if not file.exists():
                raise PuzzleFormatError("no such file or directory", str(file))
            out.extend(load_puzzles(spec, format))
    return out


def save_format(path: str | os.PathLike, format: str | None = None) -> str:
    """The format :func:`save_puzzle` writes ``path`` in: ``format`` if given, else the extension's.

    >>> save_format("out.non"), save_format("out.txt", "px")
    ('non', 'px')

    Raises:
        PuzzleFormatError: For a format no writer has, naming ``path``.
    """
    return _format_for(Path(path), format, WRITERS)


def save_puzzle(puzzle: Puzzle, path: str | os.PathLike, format: str | None = None) -> None:
    """Write a puzzle; the format follows the extension unless given."""
    if not isinstance(puzzle, Puzzle):
        raise ParameterError(f"puzzle must be a Puzzle, got {type(puzzle).__name__}")
    if not isinstance(path, (str, os.PathLike)):
        raise ParameterError(f"path must be a str or os.PathLike, got {type(path).__name__}")
    path = Path(path)
    fmt = save_format(path, format)
    path.write_text(WRITERS[fmt](puzzle), encoding="utf-8")
