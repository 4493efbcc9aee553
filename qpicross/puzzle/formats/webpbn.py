"""webpbn XML (``<puzzleset><puzzle><clues ...>``), read with a depth-limited expat parser."""

from __future__ import annotations

from xml.parsers import expat

import numpy as np

from qpicross.puzzle.puzzle import Puzzle, PuzzleFormatError
from qpicross.puzzle.formats._text import _quote, _parse_clue, _build, MAX_DIMENSION, MAX_XML_DEPTH

__all__ = ["parse_xml"]


# -- webpbn XML ----------------------------------------------------------------------------------


class _Element:
    """A minimal XML element that remembers its line (ElementTree does not)."""

    __slots__ = ("tag", "attrs", "children", "text", "line")

    def __init__(self, tag: str, attrs: dict, line: int):
        self.tag, self.attrs, self.line = tag, attrs, line
        self.children: list[_Element] = []
        self.text = ""

    def find_all(self, tag: str) -> list[_Element]:
        return [c for c in self.children if c.tag == tag]


def _parse_xml_tree(text: str, path: str | None) -> _Element:
    """Parse XML with expat, refusing DTD entity declarations (no entity-expansion bombs,
    no external entities) and absurd nesting."""
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    stack: list[_Element] = []
    root: list[_Element] = []

    def refuse_entity(*args):
        raise PuzzleFormatError("XML entity declarations are not accepted", path, parser.CurrentLineNumber)

    def start(tag, attrs):
        if len(stack) >= MAX_XML_DEPTH:
            raise PuzzleFormatError(f"XML nested deeper than {MAX_XML_DEPTH} elements", path,
                                    parser.CurrentLineNumber)
        element = _Element(tag, attrs, parser.CurrentLineNumber)
        (stack[-1].children if stack else root).append(element)
        stack.append(element)

    def end(tag):
        stack.pop()

    def data(chunk):
        if stack:
            stack[-1].text += chunk

    parser.EntityDeclHandler = refuse_entity
    parser.UnparsedEntityDeclHandler = refuse_entity
    parser.ExternalEntityRefHandler = lambda *a: refuse_entity()
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = data
    try:
        parser.Parse(text, True)
    except expat.ExpatError as exc:
        raise PuzzleFormatError(f"not well-formed XML: {expat.ErrorString(exc.code)}",
                                path, exc.lineno) from None
    except RecursionError:  # pragma: no cover - depth is capped above
        raise PuzzleFormatError("XML nested too deeply", path) from None
    if not root:  # pragma: no cover - expat reports "no element found" first
        raise PuzzleFormatError("no XML element found", path, 1)
    return root[0]


def parse_xml(text: str, name: str = "puzzle", path: str | None = None) -> list[Puzzle]:
    """Parse webpbn XML (``pbn-0.3.dtd``): every ``<puzzle>`` of a ``<puzzleset>``.

    Clues are ``<clues type="columns">`` and ``<clues type="rows">`` holding one
    ``<line>`` per line with one ``<count>`` per block (an empty ``<line/>`` is a
    blank line). Counts in a colour other than black (the ``defaultcolor`` of a
    count without one) make it a colour puzzle, which is refused. A
    ``<solution type="goal">`` image (``|..X.|`` rows) becomes the goal.
    Entity declarations are refused (so is every DTD-driven expansion); a
    ``<!DOCTYPE ... SYSTEM "...">`` reference is allowed and never fetched.

    Raises:
        PuzzleFormatError: With the offending line number.

    Examples:
        >>> xml = ('<puzzleset><puzzle><clues type="columns"><line><count>1</count></line>'
        ...        '<line/></clues><clues type="rows"><line><count>1</count></line>'
        ...        '<line></line></clues></puzzle></puzzleset>')
        >>> [(p.rows, p.cols) for p in parse_xml(xml)]
        [(((1,), ()), ((1,), ()))]
    """
    root = _parse_xml_tree(text.removeprefix("\ufeff"), path)
    if root.tag == "puzzleset":
        elements = root.find_all("puzzle")
    elif root.tag == "puzzle":
        elements = [root]
    else:
        raise PuzzleFormatError(f"expected a <puzzleset> or <puzzle> root element, got <{root.tag[:40]}>",
                                path, root.line)
    if not elements:
        raise PuzzleFormatError("the <puzzleset> holds no <puzzle>", path, root.line)
    return [_xml_puzzle(e, name, path) for e in elements]


def _xml_puzzle(element: _Element, name: str, path: str | None) -> Puzzle:
    kind = element.attrs.get("type", "grid")
    if kind != "grid":
        raise PuzzleFormatError(f"puzzle type {_quote(kind)} is not supported (only 'grid')",
                                path, element.line)
    background = element.attrs.get("backgroundcolor", "white")
    default = element.attrs.get("defaultcolor", "black")
    chars = {c.attrs.get("name"): c.attrs.get("char") for c in element.find_all("color")}
    clue_sets: dict[str, tuple[list, list]] = {}
    colours: set[str] = set()
    for clues in element.find_all("clues"):
        which = clues.attrs.get("type")
        if which not in ("rows", "columns"):
            raise PuzzleFormatError(f"<clues type={_quote(which) if isinstance(which, str) else which!r}>: "
                                    f"expected type 'rows' or 'columns'",
                                    path, clues.line)
        if which in clue_sets:
            raise PuzzleFormatError(f"<clues type={which!r}> given twice", path, clues.line)
        lines, numbers = clue_sets.setdefault(which, ([], []))
        for k, line in enumerate(clues.find_all("line")):
            what = f"{'row' if which == 'rows' else 'column'} {k + 1} clue"
            counts = line.find_all("count")
            for count in counts:
                colour = count.attrs.get("color", default)
                if colour == background:
                    raise PuzzleFormatError(f"{what}: a block in the background colour {_quote(str(colour))}",
                                            path, count.line)
                colours.add(colour)
            numbers.append(_parse_clue([c.text for c in counts], path, line.line, what))
            lines.append(line.line)
        if len(lines) > MAX_DIMENSION:
            raise PuzzleFormatError(f"<clues type={which!r}> has more than {MAX_DIMENSION} lines",
                                    path, clues.line)
    for which in ("columns", "rows"):
        if which not in clue_sets:
            raise PuzzleFormatError(f'missing <clues type="{which}">', path, element.line)
    if len(colours) > 1 or colours - {"black"}:  # blocks in several colours, or in one that is not black
        raise PuzzleFormatError(f"colour puzzle ({', '.join(_quote(str(c)) for c in sorted(colours, key=str))}): "
                                "only black-and-white puzzles are supported", path, element.line)
    row_lines, rows = clue_sets["rows"]
    col_lines, cols = clue_sets["columns"]
    goal, goal_line = None, None
    for solution in element.find_all("solution"):
        if solution.attrs.get("type", "goal") != "goal":
            continue
        images = solution.find_all("image")
        if not images:
            raise PuzzleFormatError("<solution> without an <image>", path, solution.line)
        goal_line = images[0].line
        goal = _xml_image(images[0], chars.get(background) or ".", len(rows), len(cols), path)
        break
    if not rows or not cols:
        raise PuzzleFormatError(f"puzzle has {len(rows)} row and {len(cols)} column clue lines; "
                                "it needs at least one of each", path, element.line)
    return _build(rows, cols, name, path, row_lines, col_lines, col_lines[0], goal, goal_line)


def _xml_image(image: _Element, background_char: str, num_rows: int, num_cols: int, path) -> np.ndarray:
    rows = [line.strip() for line in image.text.splitlines() if line.strip()]
    if len(rows) != num_rows:
        raise PuzzleFormatError(f"goal image has {len(rows)} rows; the clues say {num_rows}",
                                path, image.line)
    grid = np.zeros((num_rows, num_cols), np.uint8)
    for r, row in enumerate(rows):
        cells = row[1:-1] if len(row) >= 2 and row[0] == row[-1] == "|" else row
        if len(cells) != num_cols or "?" in cells:
            raise PuzzleFormatError(f"goal image row {r + 1}: expected {num_cols} cells between '|' and '|', "
                                    f"got {_quote(row)}", path, image.line + 1 + r)
        grid[r] = [ch != background_char for ch in cells]
    return grid


