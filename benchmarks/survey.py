"""Jan Wolter's survey of nonogram solvers: its published run times, which the results page shows beside ours
(:func:`benchmarks.report.survey_table`, from ``make bench-survey``'s files).

:data:`PUBLISHED` is the survey's table of run times (webpbn.com/survey, seven solvers on each puzzle) for the 22
black-and-white survey puzzles ``../shared/instances/external`` holds, as ``WOLTER_SURVEY_INDEX.txt`` there gives
them (copied from nonogrid's ``benches/perf.csv``, which copies the survey). It is committed here, published data
and nothing else, so that the results page is the same with or without ``../shared`` beside the clone; it was
written by ``python -m benchmarks.survey published INDEX`` (:func:`parse_index`), and
``tests/benchmarks/test_survey.py`` checks it against the index wherever ``../shared`` is present. The index itself
(and the puzzles, most not redistributable) stays outside the repository.

Examples:
    >>> line = "6      Cat      20x20   0  0  0  0  0  0.08  4.0  | picross-solver/inputs/webpbn/webpbn-00006-cat.non"
    >>> cat = parse_index(line)[6]
    >>> cat.name, cat.size, cat.times, cat.files
    ('Cat', '20x20', (0.0, 0.0, 0.0, 0.0, 0.0, 0.08, 4.0), ('webpbn-00006-cat',))
"""

from __future__ import annotations

import argparse
import math
import re
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

__all__ = ["SOLVERS", "SurveyPuzzle", "PUBLISHED", "parse_index", "published_for", "survey_name", "survey_median",
           "main"]

#: The survey's solvers, in the index's column order (its author, and the solver where the column is named for
#: the author).
SOLVERS = ("Wu (Naughty)", "Syromolotov (JSolver)", "Wolter (pbnsolve)", "Olšák", "Simpson", "BGU",
           "Tamura (Copris)")


class SurveyPuzzle(NamedTuple):
    """A survey puzzle: its webpbn number, name, size (width x height), the published seconds of each of
    :data:`SOLVERS` (``math.inf``: not finished within the survey's limit, ``+``; ``None``: not run, ``-``), and the
    stems of the files under ``../shared/instances/external`` that hold it (a results row's puzzle name)."""

    webpbn: int
    name: str
    size: str
    times: tuple[float | None, ...]
    files: tuple[str, ...]


_ROW = re.compile(r"^(\d+)\s+(\S+)\s+(\d+x\d+)\s+" + r"(\S+)\s+" * len(SOLVERS) + r"\|\s*(.*)$")


def _seconds(cell: str) -> float | None:
    return math.inf if cell == "+" else None if cell == "-" else float(cell)


def parse_index(text: str) -> dict[int, SurveyPuzzle]:
    """The puzzles of ``WOLTER_SURVEY_INDEX.txt`` that have a file (not ``MISSING``), by webpbn number."""
    out = {}
    for line in text.splitlines():
        match = _ROW.match(line.strip())
        if match is None or match[len(SOLVERS) + 4].startswith("MISSING"):
            continue
        files = []
        for entry in match[len(SOLVERS) + 4].split(";"):
            path = entry.split("[")[0].split("(")[0].strip()
            files.append(Path(path).stem)
        out[int(match[1])] = SurveyPuzzle(int(match[1]), match[2], match[3],
                                          tuple(_seconds(c) for c in match.groups()[3:3 + len(SOLVERS)]), tuple(files))
    return out


_INF = math.inf
#: The survey's published times (seconds) of the 22 puzzles ``../shared`` holds, by webpbn number: written by
#: ``python -m benchmarks.survey published ../shared/instances/external/WOLTER_SURVEY_INDEX.txt``.
PUBLISHED: dict[int, SurveyPuzzle] = {
    1: SurveyPuzzle(1, 'Dancer', '5x10', (0.0, 0.0, 0.0, 0.0, 0.0, 0.06, 0.92), ('webpbn-00001-dancer', '1')),
    6: SurveyPuzzle(6, 'Cat', '20x20', (0.0, 0.0, 0.0, 0.0, 0.0, 0.08, 4.0), ('webpbn-00006-cat', '6', 'cat6')),
    21: SurveyPuzzle(21, 'Skid', '14x25', (0.0, 0.0, 0.0, 0.0, 0.0, 0.08, 4.1), ('webpbn-00021-skid', '21')),
    27: SurveyPuzzle(27, 'Bucks', '27x23', (0.0, 0.0, 0.0, 0.0, 0.0, 0.16, 6.2), ('webpbn-00027-bucks',)),
    23: SurveyPuzzle(23, 'Edge', '10x11', (0.0, 0.0, 0.0, 0.0, 0.0, 0.09, 1.3), ('webpbn-00023-edge', 'edge23')),
    2413: SurveyPuzzle(2413, 'Smoke', '20x20', (0.0, 0.0, 0.0, 0.0, 0.0, 0.19, 5.5), ('webpbn-02413-smoke',)),
    16: SurveyPuzzle(16, 'Knot', '34x34', (0.0, 0.0, 0.0, 0.0, 0.0, 0.2, 9.7), ('webpbn-00016-knot', '16', 'knot16')),
    529: SurveyPuzzle(529, 'Swing', '45x45', (0.0, 0.0, 0.0, 0.0, 0.0, 0.25, 10.3), ('webpbn-00529-swing', '529', 'swing529')),
    65: SurveyPuzzle(65, 'Mum', '34x40', (0.0, 0.01, 0.01, 0.0, 0.01, 0.26, 9.5), ('webpbn-00065-mum',)),
    1611: SurveyPuzzle(1611, 'Merka', '55x60', (0.02, 0.01, 0.01, 0.01, 0.0, 0.35, 15.5), ('webpbn-01611',)),
    436: SurveyPuzzle(436, 'Petro', '40x35', (0.01, 0.04, 0.06, 15.2, 0.1, 0.58, 8.3), ('webpbn-00436-petroglyph',)),
    4645: SurveyPuzzle(4645, 'M&M', '50x70', (None, 0.07, 0.07, 0.1, 0.02, 0.84, 12.2), ('webpbn-04645-marilyn',)),
    3541: SurveyPuzzle(3541, 'Signed', '60x50', (0.07, 0.09, 0.04, 1.1, 324.0, 0.68, 12.9), ('signed',)),
    803: SurveyPuzzle(803, 'Light', '50x45', (0.2, 0.19, 0.38, _INF, 0.02, 1.1, 8.4), ('webpbn-00803',)),
    6574: SurveyPuzzle(6574, 'Forever', '25x25', (0.34, 13.9, 3.7, 2.0, 18.9, 44.3, 6.4), ('webpbn-06574-forever',)),
    10810: SurveyPuzzle(10810, 'Center', '60x60', (5.4, 0.05, 8.6, 0.0, 0.01, 0.86, 21.3), ('webpbn-10810-centerpiece',)),
    6739: SurveyPuzzle(6739, 'Karate', '40x40', (0.06, 0.03, 0.8, 17.3, 1098.0, 0.61, 10.8), ('karate',)),
    8098: SurveyPuzzle(8098, '9-Dom', '19x19', (20.3, 11.7, 11.0, 240.0, _INF, 168.0, 4.9), ('9-dom',)),
    2712: SurveyPuzzle(2712, 'Lion', '47x47', (53.4, 24.8, 6.3, _INF, _INF, 7.8, 20.3), ('webpbn-02712-lion',)),
    18297: SurveyPuzzle(18297, 'Thing', '36x42', (504.0, _INF, 402.0, _INF, _INF, 120.0, 46.8), ('thing',)),
    12548: SurveyPuzzle(12548, 'Sierp', '47x40', (_INF, 132.0, _INF, _INF, _INF, _INF, 84.0), ('sierp12548',)),
    22336: SurveyPuzzle(22336, 'Gettys', '99x59', (None, _INF, _INF, _INF, _INF, _INF, 630.0), ('gettys',)),
}


def published_for(puzzle: str) -> SurveyPuzzle | None:
    """The survey entry of a results row's puzzle name (a file stem), or ``None``."""
    return next((entry for entry in PUBLISHED.values() if puzzle in entry.files), None)


def survey_name(puzzle: str) -> str:
    """A results row's puzzle as a table shows it: the survey's name with the file stem, or the stem alone.

    >>> survey_name("webpbn-00803"), survey_name("taai2011#1")
    ('Light (webpbn-00803)', 'taai2011#1')
    """
    entry = published_for(puzzle)
    return puzzle if entry is None else f"{entry.name} ({puzzle})"


def survey_median(times: Sequence[float | None]) -> float:
    """The median of the solvers that ran (``+`` counting as infinite; ``nan`` where none ran).

    >>> survey_median((0.1, 0.2, None, math.inf)), survey_median((1.0, math.inf))
    (0.2, inf)
    """
    ran = [t for t in times if t is not None]
    return statistics.median(ran) if ran else math.nan


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``published INDEX`` prints :data:`PUBLISHED` as written from the index."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.survey", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    published = commands.add_parser("published", help="print the published-times table from the survey's index")
    published.add_argument("index", help="../shared/instances/external/WOLTER_SURVEY_INDEX.txt")
    args = parser.parse_args(argv)
    try:
        entries = parse_index(Path(args.index).read_text())
    except OSError as exc:
        print(f"python -m benchmarks.survey: error: {exc}", file=sys.stderr)
        return 2
    print("PUBLISHED: dict[int, SurveyPuzzle] = {")
    for number, entry in entries.items():
        times = "(" + ", ".join("_INF" if t == math.inf else repr(t) for t in entry.times) + ")"
        print(f"    {number}: SurveyPuzzle({entry.webpbn}, {entry.name!r}, {entry.size!r}, {times}, {entry.files!r}),")
    print("}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
