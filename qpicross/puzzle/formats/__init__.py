"""Reading and writing puzzle files.

Formats (chosen by extension unless ``format=`` / ``--format`` says otherwise):

========== ============ ===================================================== =======
name       extensions   what                                                  writer
========== ============ ===================================================== =======
px         .px          Bompol's CP-report format (below)                     yes
non        .non         Simpson's format as extended by nonogram-db           yes
nonpack    .nonpack     several ``.non`` puzzles separated by ``====`` lines  no
tournament .txt [#t]_   TAAI/TCGA/ICGA ``$n`` files, 1000 puzzles each        no
clues      .txt [#t]_   row clue lines, a blank line, column clue lines       yes
xml        .xml, .pbn   webpbn XML (``<puzzleset><puzzle><clues ...>``)       no
json       .json        qpicross JSON (below)                                 yes
========== ============ ===================================================== =======

.. [#t] a ``.txt`` file is read as a tournament file when its first line starts
   with ``$``, as a clue-only file (:func:`parse_clues`) when it starts with a number
   and its first 256 bytes hold only numbers, spaces, tabs and line ends; other
   ``.txt`` layouts need an explicit format.

The ``.px`` format (Bompol's CP report, section I.2)::

    5,5          <- rows,cols
    1            <- one line per row clue, top to bottom
    1,1
    ...
    2            <- then one line per column clue, left to right

Numbers are separated by commas without spaces; an empty line or a lone ``0``
is an all-blank line. CRLF line endings and a missing final newline are fine.

The JSON form (one object per puzzle; a file may hold one object or a list)::

    {
      "format": "qpicross-puzzle",   <- optional on reading
      "version": 1,                  <- optional on reading
      "name": "letter A",            <- optional
      "rows": [[1], [1, 1], ...],    <- row clues; [] (or [0]) is a blank line
      "cols": [[2], [3], ...],       <- column clues
      "goal": ["..#..", ...]         <- optional: '#' filled, '.' empty
    }

Goal grids (``.non`` ``goal``, XML ``<solution type="goal">``, JSON ``goal``, the
tournament's ``solution/`` file next to its ``question/`` file) are kept in
:attr:`Puzzle.goal <qpicross.puzzle.puzzle.Puzzle>`; ``check(puzzle, puzzle.goal)``
verifies them against the clues.

Multi-puzzle files are addressed as ``FILE#17`` (the puzzle numbered 17: the
``$17`` of a tournament file, the 17th puzzle of any other file) or
``FILE#1-100`` (an inclusive range); :func:`load_puzzles` and
:func:`expand_puzzle_specs` understand these specs, :func:`iter_puzzles`
iterates a whole file.

Every reader raises :class:`~qpicross.exceptions.PuzzleFormatError` naming the file
and line for anything that is not a puzzle, never another exception.

Examples:
    >>> from qpicross.puzzle.formats import parse_px, format_px, parse_non
    >>> p = parse_px("2,2\\n1\\n1\\n0\\n2\\n", name="tiny")
    >>> p.rows, p.cols
    (((1,), (1,)), ((), (2,)))
    >>> print(format_px(p), end="")
    2,2
    1
    1
    0
    2
    >>> parse_non("width 2\\nheight 2\\nrows\\n1\\n1\\ncolumns\\n\\n2\\n").cols
    ((), (2,))
"""

from __future__ import annotations


from qpicross.puzzle.formats._text import MAX_DIMENSION, MAX_FILE_BYTES, MAX_XML_DEPTH
from qpicross.puzzle.formats.clues import format_clues, parse_clues
from qpicross.puzzle.formats.jsonfile import format_json, parse_json
from qpicross.puzzle.formats.non import format_non, parse_non, parse_nonpack
from qpicross.puzzle.formats.px import format_px, parse_px
from qpicross.puzzle.formats.registry import (
    EXTENSIONS,
    MULTI_READERS,
    READERS,
    WRITERS,
    expand_puzzle_specs,
    iter_puzzles,
    load_puzzle,
    load_puzzles,
    save_puzzle,
    split_spec,
    txt_format,
)
from qpicross.puzzle.formats.tournament import parse_tournament, parse_tournament_solutions
from qpicross.puzzle.formats.webpbn import parse_xml

__all__ = [
    "load_puzzle",
    "load_puzzles",
    "iter_puzzles",
    "expand_puzzle_specs",
    "split_spec",
    "txt_format",
    "save_puzzle",
    "parse_px",
    "format_px",
    "parse_non",
    "parse_nonpack",
    "format_non",
    "parse_tournament",
    "parse_tournament_solutions",
    "parse_clues",
    "format_clues",
    "parse_xml",
    "parse_json",
    "format_json",
    "READERS",
    "MULTI_READERS",
    "WRITERS",
    "EXTENSIONS",
    "MAX_DIMENSION",
    "MAX_FILE_BYTES",
]
