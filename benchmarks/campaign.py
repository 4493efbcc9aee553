"""The bad-input campaign: a few hundred ``qpicross`` command lines a user could get wrong, each run and classified.

Every case is one command line ``python -m qpicross ARGS`` run in a fresh process, in a temporary working
folder that holds the bad inputs the campaign writes itself (:func:`write_inputs`: malformed ``.px``, ``.non``,
``.json``, ``.xml`` and tournament files, huge, negative and unicode numbers, empty and binary files, a
directory, a FIFO, ``/dev/zero``, missing files, a formula as a puzzle's name), with a clean environment
(a fresh ``HOME`` and ``TMPDIR``, no ``DWAVE_*``, ``AMPLIFY_TOKEN`` or ``QPICROSS_*`` variables), a wall limit
of :data:`WALL_LIMIT_S` seconds and standard input from ``/dev/null``. A case says what it expects
(:class:`Case`): ``refuse`` (exit 1 or 2, one line), ``succeed`` (exit 0), ``run`` (exit 0, or 1: its reads
found no solution), ``interrupt`` (SIGINT to its
process group after a delay, as Ctrl-C sends it: exit 130 within :data:`INTERRUPT_GRACE_S` seconds, one line)
or ``pipe`` (standard output closed after its first bytes, as ``| head`` does: exit 0 or 141, nothing on
standard error). :func:`classify` names what each run shows, worst first (:data:`CLASSES`):

* ``hang``: it hit the wall limit, or did not obey its SIGINT within :data:`INTERRUPT_GRACE_S` seconds;
* ``traceback``: standard error holds a Python traceback or the command line's "internal error" line (a bug
  caught by its last resort), or the exit status is none of 0, 1, 2, 130, 141;
* ``leak``: a file left in the run's temporary folder, a half-written ``.NAME.tmp`` / ``.probe`` file left
  beside an output, or the secret token of the case echoed on standard output or error;
* ``unsafe_output``: a CSV cell the run wrote starting with ``= + - @``, a tab or a carriage return (and not
  a number), or a raw escape character (``ESC``) in what it printed;
* ``silent_accept``: a ``refuse`` case that exited 0;
* ``noisy_error``: exit 2 with other than one line on standard error, exit 130 with more than one ``qpicross:``
  line (or another line than the notes of the files it wrote), a refusal whose line lacks the
  ``qpicross: error:`` prefix, a Python warning on standard error, or anything on standard error when the
  reader of standard output had gone;
* ``unexpected_exit``: none of the above, but not the exit the case expects (a ``succeed`` case refused, an
  ``interrupt`` case that finished before its SIGINT, a ``refuse`` case that crashed with exit 141...);
* ``ok``: everything else.

Run it from the repository root, on one core (``make campaign`` pins it to CPU 0; about 10 minutes)::

    python -m benchmarks.campaign --json results/campaign.json

It writes every run (its command line, what it expected, exit status, seconds, class, first line of standard
error) and the count per class, with the commit and the machine (:func:`~qpicross.experiments.result.machine_info`).
``--only TEXT`` runs the cases whose command line contains TEXT (for checking a fix).

Examples:
    >>> case = Case(("anneal", "empty.px"), "refuse")
    >>> classify(case, Outcome(exit_code=2, seconds=1.5, stderr="qpicross: error: empty.px: empty file\\n"))
    'ok'
    >>> classify(case, Outcome(exit_code=0, seconds=1.5))
    'silent_accept'
    >>> classify(case, Outcome(exit_code=1, seconds=1.5, stderr="Traceback (most recent call last):\\n  ...\\n"))
    'traceback'
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Case", "Outcome", "CLASSES", "counts_table", "EXPECTATIONS", "WALL_LIMIT_S", "INTERRUPT_GRACE_S", "cases", "classify",
           "write_inputs", "run_case", "run_campaign", "main"]

ROOT = Path(__file__).resolve().parent.parent

#: What a run can show, worst first (see the module docstring).
CLASSES = ("hang", "traceback", "leak", "unsafe_output", "silent_accept", "noisy_error", "unexpected_exit", "ok")

#: What a case can expect of its run.
EXPECTATIONS = ("refuse", "succeed", "run", "interrupt", "pipe")

#: Wall-clock limit of one run, seconds: a run still going then is killed and counted as a hang.
WALL_LIMIT_S = 60.0

#: Seconds an interrupted run has, after its SIGINT, to exit.
INTERRUPT_GRACE_S = 10.0

#: Address-space ceiling of a run (bytes): a net under the size guard, so that a regression that reads
#: ``/dev/zero`` whole fails its case instead of the machine.
MEMORY_LIMIT = 12 * 2**30

#: The token the cloud cases are given (in a file or the environment); never to be printed.
SECRET_TOKEN = "qpx-SECRET-7f3a9c0e51d24b86"

#: A puzzle name a spreadsheet would run as a command (CSV injection).
FORMULA_NAME = "=cmd|' /C calc'!A0"

#: The letter "A" (instances/5x5.px), written by :func:`write_inputs` as ``a.px`` and in the other formats.
_LETTER_A = "5,5\n1\n1,1\n5\n1,1\n1,1\n2\n2,1\n1,1\n2,1\n2\n"
_ROWS_A = [[1], [1, 1], [5], [1, 1], [1, 1]]
_COLS_A = [[2], [2, 1], [1, 1], [2, 1], [2]]

_EXIT_CODES = {0, 1, 2, 130, 141}
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_TEMP_NAME = re.compile(r"^\..*\.(tmp|probe)|\.tmp\.|\.probe$")


@dataclass(frozen=True)
class Case:
    """One command line of the campaign.

    Attributes:
        argv: The arguments after ``qpicross``, with paths relative to the working folder.
        expect: One of :data:`EXPECTATIONS`.
        interrupt_after: For ``interrupt``: seconds from the start to the SIGINT.
        env: Variables added to the run's clean environment.
        csv_output: A CSV file the run may write, whose cells are checked for formulas.
    """

    argv: tuple[str, ...]
    expect: str
    interrupt_after: float | None = None
    env: tuple[tuple[str, str], ...] = ()
    csv_output: str | None = None

    def __post_init__(self):
        if self.expect not in EXPECTATIONS:
            raise ValueError(f"expect must be one of {EXPECTATIONS}, got {self.expect!r}")
        if (self.expect == "interrupt") != (self.interrupt_after is not None):
            raise ValueError("an interrupt case, and only one, needs interrupt_after")


@dataclass
class Outcome:
    """What one run did.

    Attributes:
        exit_code: The exit status (negative: killed by that signal).
        seconds: Wall time from the start to the exit (or the kill).
        stdout, stderr: What it printed (decoded, invalid bytes replaced).
        timed_out: It hit :data:`WALL_LIMIT_S` and was killed.
        interrupt_ignored: Its SIGINT was sent but it had not exited :data:`INTERRUPT_GRACE_S` seconds later.
        interrupted_late: It had already exited when its SIGINT was due (the case finished too early).
        leaked: Files it left in its temporary folder, or half-written files beside its outputs.
        csv_cells: The cells of the CSV file it wrote, if any.
    """

    exit_code: int
    seconds: float
    stdout: str = ""
    stderr: str = ""
    timed_out: bool = False
    interrupt_ignored: bool = False
    interrupted_late: bool = False
    leaked: list[str] = field(default_factory=list)
    csv_cells: list[str] = field(default_factory=list)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _stderr_lines(outcome: Outcome) -> list[str]:
    return [line for line in outcome.stderr.splitlines() if line.strip()]


def classify(case: Case, outcome: Outcome) -> str:
    """The class (one of :data:`CLASSES`) of a run of ``case``: the worst thing it shows.

    >>> classify(Case(("show", "a.px"), "pipe"), Outcome(exit_code=141, seconds=1.0))
    'ok'
    >>> classify(Case(("anneal", "a.px", "--reads", "-1"), "refuse"),
    ...          Outcome(exit_code=2, seconds=1.0, stderr="qpicross: error: bad\\nand more\\n"))
    'noisy_error'
    >>> classify(Case(("bench", "f.json", "--csv", "o.csv"), "succeed", csv_output="o.csv"),
    ...          Outcome(exit_code=0, seconds=3.0, csv_cells=["puzzle", "=cmd", "-1.5"]))
    'unsafe_output'
    """
    lines = _stderr_lines(outcome)
    if outcome.timed_out or outcome.interrupt_ignored:
        return "hang"
    if ("Traceback (most recent call last)" in outcome.stderr or "internal error, a bug in qpicross" in outcome.stderr
            or outcome.exit_code not in _EXIT_CODES):
        return "traceback"
    if outcome.leaked or SECRET_TOKEN in outcome.stdout or SECRET_TOKEN in outcome.stderr:
        return "leak"
    if "\x1b" in outcome.stdout or "\x1b" in outcome.stderr or any(
            cell.startswith(_FORMULA_STARTS) and not _is_number(cell) for cell in outcome.csv_cells):
        return "unsafe_output"
    if case.expect == "refuse" and outcome.exit_code == 0:
        return "silent_accept"
    if outcome.exit_code == 2 and (len(lines) != 1 or not lines[0].startswith("qpicross: error: ")):
        return "noisy_error"
    said = [line for line in lines if not line.startswith("wrote ")]  # notes of the files written before the Ctrl-C
    if outcome.exit_code == 130 and (len(said) > 1 or said and not said[0].startswith("qpicross: ")):
        return "noisy_error"  # (an interrupted run may say so on standard output, beside its best board)
    if case.expect == "refuse" and lines and not lines[-1].startswith("qpicross: error: "):
        return "noisy_error"
    if re.search(r"\w+Warning: ", outcome.stderr) or (case.expect == "pipe" and lines):
        return "noisy_error"
    expected_codes = {"refuse": {1, 2}, "succeed": {0}, "run": {0, 1}, "interrupt": {130}, "pipe": {0, 141}}
    if outcome.exit_code not in expected_codes[case.expect] or outcome.interrupted_late:
        return "unexpected_exit"
    return "ok"


# --- the inputs ------------------------------------------------------------------------------------------------


def _tournament(puzzles: Sequence[tuple[list, list]]) -> str:
    out = []
    for number, (rows, cols) in enumerate(puzzles, 1):
        out.append(f"${number}")
        out += ["\t".join(map(str, clue)) for clue in cols]
        out += ["\t".join(map(str, clue)) for clue in rows]
    return "\n".join(out) + "\n"


def _non(width="5", height="5", rows=None, cols=None, extra="") -> str:
    rows = rows if rows is not None else "\n".join(",".join(map(str, c)) for c in _ROWS_A)
    cols = cols if cols is not None else "\n".join(",".join(map(str, c)) for c in _COLS_A)
    return f"width {width}\nheight {height}\n{extra}rows\n{rows}\n\ncolumns\n{cols}\n"


def _json(**fields) -> str:
    puzzle = {"name": "a", "rows": _ROWS_A, "cols": _COLS_A}
    puzzle.update(fields)
    return json.dumps(puzzle)


#: The bad puzzle files: name -> content (str written as UTF-8, bytes as is). Each must be refused.
BAD_FILES: dict[str, str | bytes] = {
    # .px
    "empty.px": "",
    "blank_lines.px": "\n\n\n",
    "header_only.px": "5,5\n",
    "too_few_lines.px": "5,5\n1\n1,1\n5\n",
    "too_many_lines.px": _LETTER_A + "1\n1\n",
    "negative_dims.px": "-5,5\n" + "1\n" * 10,
    "negative_clue.px": _LETTER_A.replace("\n5\n", "\n-5\n", 1),
    "zero_in_clue.px": _LETTER_A.replace("\n1,1\n", "\n1,0,1\n", 1),
    "letters.px": "5,5\n" + "a,b\n" * 10,
    "float_clue.px": _LETTER_A.replace("\n5\n", "\n1.5\n", 1),
    "exponent_clue.px": _LETTER_A.replace("\n5\n", "\n1e3\n", 1),
    "huge_number.px": _LETTER_A.replace("\n5\n", "\n" + "9" * 40 + "\n", 1),
    "huge_dims.px": "100000,100000\n" + "1\n" * 10,
    "huge_header_number.px": "9" * 400 + ",5\n" + "1\n" * 10,
    "clue_too_long.px": _LETTER_A.replace("\n5\n", "\n6\n", 1),
    "unequal_totals.px": _LETTER_A.replace("\n2\n2,1\n", "\n2\n3,1\n", 1),
    "three_numbers_header.px": "5,5,5\n" + "1\n" * 10,
    "fullwidth_digits.px": "５,５\n" + "1\n" * 10,
    "arabic_digits.px": _LETTER_A.replace("\n5\n", "\n٥\n", 1),
    "unicode_minus.px": _LETTER_A.replace("\n5\n", "\n\u22125\n", 1),
    "binary.px": bytes(range(256)) * 4,
    "invalid_utf8.px": b"5,5\n\xff\xfe\xfa\n" + b"1\n" * 9,
    "nul_bytes.px": _LETTER_A.replace("\n5\n", "\n5\x00\n", 1),
    "long_line.px": "5,5\n" + "1," * 500_000 + "1\n" + "1\n" * 9,
    "zero_dims.px": "0,0\n",
    # .non
    "empty.non": "",
    "no_width.non": _non().replace("width 5\n", ""),
    "negative_width.non": _non(width="-5"),
    "huge_width.non": _non(width="1000000000"),
    "letters_width.non": _non(width="five"),
    "goal_with_x.non": _non(extra='goal "00100010101111110001100x1"\n'),
    "goal_too_short.non": _non(extra='goal "0010"\n'),
    "no_rows.non": "width 5\nheight 5\ncolumns\n1\n1\n1\n1\n1\n",
    "unicode_width.non": _non(width="５"),
    "binary.non": b"\x00\x01\x02width\xff\n" * 20,
    # .json
    "empty.json": "",
    "not_json.json": "{rows: [1]",
    "list_empty.json": "[]",
    "object_empty.json": "{}",
    "rows_string.json": _json(rows="abc"),
    "negative_clue.json": _json(rows=[[1], [1, 1], [-5], [1, 1], [1, 1]]),
    "string_clue.json": _json(rows=[[1], [1, 1], ["5"], [1, 1], [1, 1]]),
    "float_clue.json": _json(rows=[[1], [1, 1], [5.0], [1, 1], [1, 1]]),
    "bool_clue.json": _json(rows=[[True], [1, 1], [5], [1, 1], [1, 1]]),
    "huge_int.json": _json(rows=[[1], [1, 1], [10 ** 400], [1, 1], [1, 1]]),
    "nan_clue.json": _json(rows=[[1], [1, 1], [5], [1, 1], [1, 1]]).replace("5]", "NaN]", 1),
    "deep_nesting.json": "[" * 100_000 + "]" * 100_000,
    "list_of_numbers.json": "[1, 2, 3]",
    "goal_wrong_size.json": _json(goal=["###"] * 5),
    "goal_bad_chars.json": _json(goal=["..x..", ".#.#.", "#####", "#...#", "#...#"]),
    "cols_missing.json": json.dumps({"name": "a", "rows": _ROWS_A}),
    "unequal_totals.json": _json(cols=[[2], [2, 1], [1, 1], [2, 1], [3]]),
    "binary.json": bytes(range(256)),
    # tournament .txt
    "empty.txt": "",
    "dollar_only.txt": "$\n",
    "dollar_letters.txt": "$abc\n" + "1\n" * 50,
    "tournament_short.txt": _tournament([(_ROWS_A, _COLS_A)]).rsplit("\n", 3)[0] + "\n",
    "tournament_negative.txt": _tournament([(_ROWS_A, _COLS_A)]).replace("\t1", "\t-1", 1),
    "tournament_huge.txt": "$1\n" + "\n".join(["99999999999999999999"] * 50) + "\n",
    "tournament_letters.txt": _tournament([(_ROWS_A, _COLS_A)]).replace("2\t1", "x\ty", 1),
    # xml
    "empty.xml": "",
    "not_xml.xml": "<puzzle><clues",
    "entities.xml": ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>'
                     "<puzzleset><puzzle><clues type=\"rows\"><line><count>&lol2;</count></line></clues>"
                     "</puzzle></puzzleset>"),
    "external_dtd.xml": ('<?xml version="1.0"?><!DOCTYPE puzzleset SYSTEM "http://127.0.0.1:1/x.dtd">'
                         "<puzzleset></puzzleset>"),
    "no_clues.xml": "<puzzleset><puzzle></puzzle></puzzleset>",
    # nonpack
    "empty.nonpack": "",
    "bad.nonpack": "====\nwidth x\n====\n",
    # formats the extension does not say
    "unknown_extension.xyz": _LETTER_A,
    "no_extension": _LETTER_A,
}

#: Tournament selectors that must be refused: the ``#...`` after ``set.txt`` (two puzzles).
BAD_SELECTORS = ("#0", "#-1", "#3", "#abc", "#", "#1-1000000000", "#2-1", "#1-2/0", "#1-2/-1", "#1.5",
                 "#99999999999999999999")


def write_inputs(folder: Path) -> None:
    """Write the campaign's puzzle files (good and bad) and other inputs into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    good = {
        "a.px": _LETTER_A,
        "a_crlf.px": _LETTER_A.replace("\n", "\r\n"),
        "a_bom.px": "\ufeff" + _LETTER_A,
        "a.non": _non(),
        "a.json": _json(),
        "set.txt": _tournament([(_ROWS_A, _COLS_A), (_ROWS_A, _COLS_A)]),
        "unsolvable.px": "2,2\n2\n0\n0\n2\n",
        "formula.json": _json(name=FORMULA_NAME),
        "goal_breaks_clues.json": _json(goal=["#####"] * 5),  # a goal is checked and reported, not refused
        "escape.json": _json(name="evil\x1b[31mred\x1b[0m\u202e"),
        "exists.csv": "kept\n",
        "exists.png": "kept\n",
        "exists.json": "kept\n",
        "exists.px": "kept\n",
        "secret_token.txt": SECRET_TOKEN + "\n",
        "empty_token.txt": "",
        "binary_token.txt": "\x00\xff" * 10,
    }
    for name, content in {**good, **BAD_FILES}.items():
        path = folder / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8", newline="")
    (folder / "formula_name").mkdir(exist_ok=True)
    shutil.copy(folder / "a.px", folder / "formula_name" / "@SUM(1+1)*cmd|' -C calc'!A0.px")  # no / in a file name
    (folder / "empty_dir").mkdir(exist_ok=True)
    (folder / "dir.px").mkdir(exist_ok=True)
    (folder / "dir.csv").mkdir(exist_ok=True)
    fifo = folder / "fifo.px"
    if not fifo.exists():
        os.mkfifo(fifo)
    loop = folder / "loop.px"
    if not loop.is_symlink():
        os.symlink("loop.px", loop)
    dangling = folder / "dangling.px"
    if not dangling.is_symlink():
        os.symlink("nowhere/none.px", dangling)


#: Big puzzles the campaign makes with ``qpicross generate`` before its cases (argv after ``qpicross``).
GENERATED = (
    ("generate", "--size", "120x120", "--seed", "1", "-o", "big120.px"),
    ("generate", "--size", "30x30", "--seed", "3", "-o", "mid30.px"),
    ("generate", "--size", "1000x1000", "--seed", "2", "-o", "big1000.px"),
)


# --- the cases -------------------------------------------------------------------------------------------------


def _refuse(*argv: str, **kw) -> Case:
    return Case(tuple(argv), "refuse", **kw)


def _succeed(*argv: str, **kw) -> Case:
    return Case(tuple(argv), "succeed", **kw)


def _interrupt(after: float, *argv: str) -> Case:
    return Case(tuple(argv), "interrupt", interrupt_after=after)


def _pipe(*argv: str) -> Case:
    return Case(tuple(argv), "pipe")


#: A quick anneal: plain SA, few reads.
_QUICK = ("--sampler", "sa", "--reads", "5", "--seed", "1")

#: Special paths: name -> path (absolute ones live outside the working folder).
_SPECIAL_PATHS = ("missing.px", "missing/none.px", "dir.px", "empty_dir", "fifo.px", "/dev/zero", "/dev/null",
                  "/dev/urandom", "loop.px", "dangling.px", "x" * 300 + ".px", "", "-", "a.px#2", "a.px#0")


def _bad_file_cases() -> Iterable[Case]:
    """Every bad file through ``show`` and ``anneal``; a spread of them through the other commands."""
    for name in list(BAD_FILES) + list(_SPECIAL_PATHS):
        yield _refuse("show", name)
        if name.endswith(".px") or name in _SPECIAL_PATHS:  # the other formats through anneal: a spread below
            yield _refuse("anneal", name, *_QUICK)
    spread = ["empty.px", "binary.px", "huge_dims.px", "negative_clue.json", "deep_nesting.json", "goal_with_x.non",
              "entities.xml", "tournament_huge.txt", "unequal_totals.px", "fifo.px", "/dev/zero", "missing.px",
              "dir.px", "invalid_utf8.px"]
    for name in spread:
        if not (name.endswith(".px") or name in _SPECIAL_PATHS):
            yield _refuse("anneal", name, *_QUICK)
        yield _refuse("solve", name)
        yield _refuse("info", name)
        yield _refuse("export", name, "-o", f"out_{_slug(name)}.json")
        yield _refuse("bench", name, "--sampler", "sa", "--reads", "2")
        yield _refuse("tune", name, "--grid", "one_hot=1:2:2", "--sampler", "sa", "--reads", "2", "--workers", "1")
    for selector in BAD_SELECTORS:
        yield _refuse("show", "set.txt" + selector)
        yield _refuse("bench", "set.txt" + selector, "--sampler", "sa", "--reads", "2")
    yield _refuse("bench", "empty_dir", "--sampler", "sa", "--reads", "2")
    yield _refuse("solve", "empty_dir")
    yield _refuse("show", "a.px", "--format", "nope")
    yield _refuse("show", "a.json", "--format", "px")
    yield _refuse("anneal", "a.px", "a.px")
    for name in ("a.px", "a_crlf.px", "a_bom.px", "a.non", "a.json", "set.txt#2", "goal_breaks_clues.json"):
        yield _succeed("show", name)
    yield _succeed("solve", "set.txt#1-2")
    yield _succeed("solve", "a.px", "a.non", "a.json", "--json")
    yield _refuse("solve", "unsolvable.px")
    yield _refuse("anneal", "unsolvable.px", *_QUICK)
    yield _succeed("info", "mid30.px")


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_")[:40] or "blank"


def _option_cases() -> Iterable[Case]:
    """Bad option values for every command on the letter A."""
    anneal = ("anneal", "a.px")
    for value in ("0", "-1", "10000001", "1e3", "abc", "", "99999999999999999999999"):
        yield _refuse(*anneal, "--reads", value)
    for value in ("0", "-1", "100000000000", "nan", "abc", "1.5"):
        yield _refuse(*anneal, "--sampler", "sa", "--reads", "5", "--sweeps", value)
    for value in ("-1", "4294967296", "abc", "1.5", "99999999999999999999999"):
        yield _refuse(*anneal, "--seed", value)
    for value in ("1", "a,b", "-1,5", "0,0", "inf,1", "nan,nan", "5,1,2", "1,"):
        yield _refuse(*anneal, "--sampler", "sa", "--reads", "5", "--beta-range", value)
    for value in ("one_hot=-1", "one_hot=abc", "nope=1", "one_hot", "=1", "one_hot=inf", "one_hot=nan",
                  "one_hot=1e400", "one_hot=1,one_hot=2"):
        yield _refuse(*anneal, "--sampler", "sa", "--reads", "5", "--weights", value)
    for value in ("0", "-1", "nan", "inf", "abc"):
        yield _refuse(*anneal, "--time-limit", value)
    yield _succeed(*anneal, *_QUICK, "--weights", "")  # the defaults, as --weights says
    yield _succeed(*anneal, "--time-limit", "1e20")  # a finite limit, if a long one
    yield _refuse(*anneal, "--early-stop", "nope")
    for value in ("nope=1", "threads=0", "threads=-1", "threads=abc", "=", "noequals", "num_replicas=1000000000",
                  "restart_sweeps=0", "target_energy=nan", "schedule=nope", "chain=nope", "threads=1,threads=2"):
        yield _refuse(*anneal, "--option", value)
    yield _refuse(*anneal, "--sampler", "sa", "--reads", "5", "--option", "nope=1")
    for value in ("nope", "", "one_hot", "ONE-HOT"):
        yield _refuse(*anneal, "--sampler", "sa", "--reads", "5", "--encoding", value)
    for value in ("nope", "", "SA", "sa,tabu", "baseline"):
        yield _refuse(*anneal, "--sampler", value)
    yield _refuse("anneal", "mid30.px", "--sampler", "exact")
    for sampler in ("qpu", "hybrid", "hybrid-cqm", "amplify"):
        yield _refuse(*anneal, "--sampler", sampler)
        yield _refuse(*anneal, "--sampler", sampler, "--token-file", "missing_token.txt")
        yield _refuse(*anneal, "--sampler", sampler, "--token-file", "empty_token.txt")
    yield _refuse(*anneal, "--sampler", "qpu", "--token-file", "dir.px")
    yield _refuse(*anneal, "--sampler", "qpu", "--token-file", "binary_token.txt")
    yield _refuse(*anneal, "--sampler", "qpu", "--token-file", "secret_token.txt", "--chain-strength", "-1")
    yield _refuse(*anneal, "--sampler", "qpu", "--token-file", "secret_token.txt", "--chain-strength", "abc")
    yield _refuse(*anneal, "--sampler", "qpu", "--profile", "nope")
    yield _refuse(*anneal, "--sampler", "qpu", "--token-file", "secret_token.txt")
    yield _refuse(*anneal, "--sampler", "amplify", "--token-file", "secret_token.txt")
    yield _refuse(*anneal, "--sampler", "hybrid", "--seed", "1", env=(("DWAVE_API_TOKEN", SECRET_TOKEN),))
    yield _refuse(*anneal, "--sampler", "amplify", "--seed", "1", env=(("AMPLIFY_TOKEN", SECRET_TOKEN),))
    yield _refuse(*anneal, *_QUICK, "--plot", "missing/x.png")
    yield _refuse(*anneal, *_QUICK, "--plot", "exists.png")
    yield _refuse(*anneal, *_QUICK, "--plot", "x.txt")
    yield _refuse(*anneal, *_QUICK, "--plot", "dir.px")
    yield _refuse(*anneal, *_QUICK, "--plot", "/dev/full")
    yield _succeed(*anneal, *_QUICK, "--plot", "anneal_plot.png")
    for value in ("-1", "abc", "1000000000"):
        yield _refuse(*anneal, *_QUICK, "--presolve", "--logic-rounds", value)
    yield _succeed(*anneal, *_QUICK, "--presolve", "--logic-rounds", "0")  # 0, the default: no rounds
    yield _succeed(*anneal, *_QUICK, "--logic-rounds", "2")  # the rounds presolve first, with or without --presolve
    for value in ("0", "-1", "abc", "1X", "1", "1e3G", ""):
        yield _refuse(*anneal, *_QUICK, "--max-memory", value)
    yield _succeed(*anneal, *_QUICK, "--max-memory", "10T")
    yield _refuse(*anneal, "--bounds", "nope")
    yield _succeed(*anneal, *_QUICK, "--json")
    yield _succeed(*anneal, "--sampler", "sa", "--reads", "20", "--encoding", "thermometer", "--seed", "1")
    yield _refuse(*anneal, "--encoding", "domain-wall", "--seed", "1", "--reads", "3")  # shift anneals one-hot only
    yield Case((*anneal, "--encoding", "domain-wall", "--sampler", "sa", "--seed", "1", "--reads", "3"), "run")
    yield _succeed(*anneal, "--presolve", "--seed", "1", "--option", "threads=1")
    yield _succeed(*anneal, "--seed", "1", "--option", "threads=1")

    solve = ("solve", "a.px")
    yield _refuse(*solve, "--method", "nope")
    yield _refuse(*solve, "--model", "M4")
    for value in ("0", "-1", "abc", "nan", "inf"):
        yield _refuse(*solve, "--time-limit", value)
    yield _succeed(*solve, "--time-limit", "1e20")
    yield _succeed(*solve, "--time-limit", "none")
    yield _succeed(*solve, "--method", "cpsat", "--model", "M1")
    yield _succeed(*solve, "--method", "logic")
    yield _refuse(*solve, "--max-memory", "1")

    for value in ("0x0", "-5x5", "axb", "10001x10001", "100000x1", "5x5x5", "", "5x0", "1e3x5"):
        yield _refuse("generate", "--size", value)
    yield _succeed("generate", "--size", "5")  # a square, as --size says
    yield _succeed("generate", "--size", "５x５")  # full-width digits are digits to Python's int()
    for value in ("-0.1", "1.5", "nan", "abc", "inf"):
        yield _refuse("generate", "--size", "5x5", "--density", value)
    for value in ("-1", "4294967296", "abc"):
        yield _refuse("generate", "--size", "5x5", "--seed", value)
    for value in ("0", "-1", "abc"):
        yield _refuse("generate", "--size", "5x5", "--unique", "--max-tries", value)
    yield _refuse("generate", "--size", "5x5", "--unique", "--method", "nope")
    yield _refuse("generate", "--size", "5x5", "-o", "missing/g.px")
    yield _refuse("generate", "--size", "5x5", "-o", "exists.px")
    yield _refuse("generate", "--size", "5x5", "-o", "g.unknownext")
    yield _refuse("generate", "--size", "5x5", "-o", "g.px", "--format", "nope")
    yield _refuse("generate", "--size", "5x5", "-o", "dir.px", "--force")
    yield _refuse("generate", "--size", "5x5", "-o", "/dev/full")
    yield _succeed("generate", "--size", "5x5", "--seed", "1", "-o", "g.json", "--name", FORMULA_NAME)
    yield _succeed("generate", "--size", "8x8", "--seed", "1", "--unique", "--json")

    for value in ("-1", "1000000", "abc"):
        yield _refuse("info", "a.px", "--time", value)
    yield _succeed("info", "a.px", "--time", "0")  # the default: no timing
    yield _refuse("info", "a.px", "--bounds", "nope")
    yield _refuse("info", "a.px", "--presolve")
    yield _succeed("info", "a.px", "--time", "2", "--json")

    yield _refuse("export", "a.px")
    yield _refuse("export", "a.px", "-o", "missing/x.json")
    yield _refuse("export", "a.px", "-o", "x.xyz")
    yield _refuse("export", "a.px", "-o", "exists.json")
    yield _refuse("export", "a.px", "-o", "dir.px")
    yield _refuse("export", "a.px", "-o", "w.json", "--weights", "one_hot=-1")
    yield _refuse("export", "a.px", "-o", "m.cqm", "--matching", "nope")
    for ext in ("json", "bqm", "coo", "cqm"):
        yield _succeed("export", "a.px", "-o", f"model.{ext}")

    yield _refuse("show", "a.px", "--plot", "missing/x.png")
    yield _refuse("show", "a.px", "--plot", "exists.png")
    yield _refuse("show", "a.px", "--plot", "x.txt")
    yield _succeed("show", "a.px", "--plot", "show_plot.svg")

    bench = ("bench", "a.px")
    for value in ("0", "-1", "abc"):
        yield _refuse(*bench, "--sampler", "sa", "--reads", value)
    for value in ("0", "-1", "1000000", "abc"):
        yield _refuse(*bench, "--sampler", "sa", "--reads", "2", "--workers", value)
    for value in ("1,abc", "0", "-5", "1,,2"):
        yield _refuse(*bench, "--sampler", "sa", "--reads", "2", "--sweeps", value)
    for value in ("sa,nope", "", ",", "sa,,tabu"):
        yield _refuse(*bench, "--sampler", value, "--reads", "2")
    yield _refuse(*bench, "--sampler", "sa", "--reads", "2", "--csv", "missing/x.csv")
    yield _refuse(*bench, "--sampler", "sa", "--reads", "2", "--csv", "exists.csv")
    yield _refuse(*bench, "--sampler", "sa", "--reads", "2", "--csv", "dir.csv")
    yield _refuse(*bench, "--sampler", "sa", "--reads", "2", "--json", "missing/x.json")
    yield _refuse(*bench, "--sampler", "sa", "--reads", "2", "--json", "exists.json")
    yield _refuse(*bench, "--sampler", "sa", "--reads", "2", "--plot", "exists.png")
    yield _refuse(*bench, "--sampler", "sa", "--reads", "2", "--time-limit", "-1")
    yield _refuse(*bench, "--sampler", "qpu", "--reads", "2")
    yield _refuse(*bench, "--sampler", "sa", "--reads", "2", "--option", "nope=1")
    yield _refuse(*bench, "--tournament", "--sampler", "sa", "--time-limit", "-5")
    yield _succeed(*bench, "--sampler", "sa,tabu", "--reads", "3", "--json")
    yield _succeed(*bench, "--sampler", "sa", "--reads", "3", "--baseline", "--csv", "bench_base.csv",
                   csv_output="bench_base.csv")
    yield _succeed("bench", "formula.json", "--sampler", "sa", "--reads", "2", "--csv", "formula_bench.csv",
                   csv_output="formula_bench.csv")
    yield _succeed("bench", "formula_name", "--sampler", "sa", "--reads", "2", "--csv", "formula_dir.csv",
                   csv_output="formula_dir.csv")
    yield _succeed(*bench, "--sampler", "sa", "--reads", "2", "--label", FORMULA_NAME, "--csv", "label.csv",
                   csv_output="label.csv")
    yield _succeed("bench", "escape.json", "--sampler", "sa", "--reads", "2", "--csv", "escape.csv",
                   csv_output="escape.csv")
    yield _succeed("show", "escape.json")
    yield _succeed("anneal", "escape.json", *_QUICK)

    tune = ("tune", "a.px", "--sampler", "sa", "--reads", "2", "--workers", "1")
    for value in ("", "one_hot", "one_hot=a:b:c", "one_hot=2:1:3", "one_hot=0.5:4:0", "one_hot=0.5:4:-1",
                  "nope=1:2:3", "one_hot=1:2:1000000", "one_hot=1:2:3,one_hot=1:2:3", "one_hot=-1:2:3",
                  "one_hot=nan:2:3", "one_hot=1:2", "one_hot=1:2:3:4", "one_hot=1:inf:3"):
        yield _refuse(*tune, "--grid", value)
    yield _refuse("tune", "a.px", "--sampler", "sa", "--reads", "2")
    yield _refuse(*tune, "--grid", "one_hot=0:4:3", "--log")
    for value in ("0", "-1", "1000000000", "abc"):
        yield _refuse(*tune, "--grid", "one_hot=1:2:2", "--random", value)
    for value in ("0", "-1", "abc"):
        yield _refuse(*tune, "--grid", "one_hot=1:2:2", "--seeds", value)
    yield _refuse("tune", "a.px", "--grid", "one_hot=1:2:2", "--sampler", "sa", "--reads", "2", "--workers", "0")
    yield _refuse(*tune, "--grid", "one_hot=1:2:2", "--csv", "exists.csv")
    yield _refuse(*tune, "--grid", "one_hot=1:2:2", "--csv", "missing/t.csv")
    yield _refuse(*tune, "--grid", "one_hot=1:2:2", "--plot", "exists.png")
    yield _succeed("tune", "formula.json", "--sampler", "sa", "--reads", "2", "--workers", "1",
                   "--grid", "one_hot=1:2:2", "--csv", "formula_tune.csv", csv_output="formula_tune.csv")

    yield _refuse()
    yield _refuse("nope")
    yield _refuse("anneal")
    yield _refuse("--debug")
    yield _refuse("anneal", "a.px", "--nope")
    yield _succeed("--version")
    yield _succeed("--help")


def _scheduler_cases() -> Iterable[Case]:
    """``--scheduler`` addresses, good and bad, for anneal, bench and tune."""
    addresses = ("tcp://127.0.0.1:1", "local:0", "local:-1", "local:abc", "local:100000", "ucx://127.0.0.1:1",
                 "tls://127.0.0.1:1", "tcp://127.0.0.1:99999", "tcp://:abc", "nope", "", "inproc://x", "local:")
    for address in addresses:
        yield _refuse("anneal", "a.px", "--scheduler", address)
    yield _refuse("anneal", "a.px", "--sampler", "sa", "--scheduler", "local:2")
    for address in ("tcp://127.0.0.1:1", "local:2", "ucx://127.0.0.1:1", "tcp://127.0.0.1:99999", "nope"):
        yield _refuse("bench", "a.px", "--sampler", "sa", "--reads", "2", "--scheduler", address)
        yield _refuse("tune", "a.px", "--sampler", "sa", "--reads", "2", "--grid", "one_hot=1:2:2",
                      "--scheduler", address)
    yield _succeed("anneal", "a.px", "--seed", "1", "--scheduler", "local:2")


def _interrupt_cases() -> Iterable[Case]:
    """Ctrl-C (SIGINT to the process group) during long runs: at start-up and once they work."""
    long_anneal = ("anneal", "a.px", "--sampler", "sa", "--reads", "1000000")
    long_tune = ("tune", "a.px", "--grid", "one_hot=0.5:4:6,match=0.5:4:6", "--reads", "200")
    for after in (1.0, 3.0):
        yield _interrupt(after, *long_anneal, "--seed", str(int(after * 10)))
    for after in (1.0, 3.0):
        yield _interrupt(after, *long_tune, "--workers", "1", "--seed", str(int(after * 10)))
    yield _interrupt(4.0, *long_tune, "--workers", "2")
    yield _interrupt(1.0, "solve", "big120.px", "--time-limit", "none")
    yield _interrupt(3.0, "solve", "big120.px", "--time-limit", "none", "--no-unique")
    yield _interrupt(4.0, "solve", "big120.px", "--method", "cpsat", "--time-limit", "none")
    yield _interrupt(3.0, "bench", "a.px", "--sampler", "sa", "--reads", "100000", "--json", "interrupted.json")
    yield _interrupt(4.0, "anneal", "big120.px", "--force", "--max-memory", "4G")
    yield _interrupt(4.0, "anneal", "mid30.px", "--reads", "100000", "--seed", "1")
    yield _interrupt(3.0, "generate", "--size", "60x60", "--density", "0.3", "--unique", "--seed", "1")
    yield _interrupt(6.0, "anneal", "mid30.px", "--reads", "100000", "--scheduler", "local:2")


def _pipe_cases() -> Iterable[Case]:
    """Standard output closed after its first bytes, as ``| head`` does."""
    yield _pipe("generate", "--size", "3000x3000", "--seed", "1")
    yield _pipe("generate", "--size", "1500x1500", "--seed", "1", "--json")
    yield _pipe("show", "big1000.px")
    yield _pipe("solve", "set.txt#1-2", "a.px", "--json")
    yield _pipe("bench", "--help")
    yield _pipe("anneal", "--help")
    yield _pipe("info", "mid30.px", "--json")


def cases() -> list[Case]:
    """Every case of the campaign, in the order they run."""
    return [*_bad_file_cases(), *_option_cases(), *_scheduler_cases(), *_pipe_cases(), *_interrupt_cases()]


# --- running ---------------------------------------------------------------------------------------------------


def clean_environment(home: Path, tmp: Path, extra: Iterable[tuple[str, str]] = ()) -> dict:
    """The run's environment: this one without credentials or qpicross settings, with ``HOME`` and ``TMPDIR``
    given, importing this checkout's ``qpicross``."""
    drop = re.compile(r"^(DWAVE_|AMPLIFY|QPICROSS_|XDG_CONFIG|DASK_)")
    env = {key: value for key, value in os.environ.items() if not drop.match(key)}
    paths = [str(ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p and p != str(ROOT)]
    env.update(HOME=str(home), TMPDIR=str(tmp), PYTHONPATH=os.pathsep.join(paths), PYTHONIOENCODING="utf-8")
    env.pop("PYTHONWARNINGS", None)
    env.update(dict(extra))
    return env


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def _files_under(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if not p.is_dir() or p.is_symlink()}


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run_case(case: Case, work: Path, tmp: Path, home: Path) -> Outcome:
    """Run ``case`` in ``work`` (its inputs written there) with ``tmp`` as its temporary folder (emptied first)."""
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    before = {name for name in _files_under(work) if _TEMP_NAME.search(Path(name).name)}
    argv = [sys.executable, "-m", "qpicross", *case.argv]
    pipe = case.expect == "pipe"
    start = time.monotonic()
    proc = subprocess.Popen(argv, cwd=work, env=clean_environment(home, tmp, case.env), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=_limit_memory)
    timed_out = interrupt_ignored = interrupted_late = False
    stdout = b""
    try:
        if pipe:  # read the first bytes, then close: the reader has gone
            stdout = os.read(proc.stdout.fileno(), 100)
            proc.stdout.close()
            proc.stdout = None
        if case.interrupt_after is not None:
            try:
                proc.wait(timeout=case.interrupt_after)
                interrupted_late = True
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGINT)
                try:
                    out, err = proc.communicate(timeout=INTERRUPT_GRACE_S)
                except subprocess.TimeoutExpired:
                    interrupt_ignored = True
                    _kill_group(proc)
                    out, err = proc.communicate()
                return _outcome(case, proc, start, out, err, timed_out, interrupt_ignored, interrupted_late, work,
                                tmp, before)
        out, err = proc.communicate(timeout=max(WALL_LIMIT_S - (time.monotonic() - start), 1))
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(proc)
        out, err = proc.communicate()
    finally:
        _kill_group(proc)  # workers it left behind
    return _outcome(case, proc, start, stdout + (out or b""), err, timed_out, interrupt_ignored, interrupted_late,
                    work, tmp, before)


def _outcome(case, proc, start, out, err, timed_out, interrupt_ignored, interrupted_late, work, tmp, before):
    seconds = time.monotonic() - start
    leaked = [f"TMPDIR/{name}" for name in sorted(_files_under(tmp))]
    leaked += sorted(name for name in _files_under(work) - before if _TEMP_NAME.search(Path(name).name))
    cells: list[str] = []
    if case.csv_output and (work / case.csv_output).is_file():
        with open(work / case.csv_output, newline="", encoding="utf-8", errors="replace") as f:
            cells = [cell for row in csv.reader(f) for cell in row]
    return Outcome(exit_code=proc.returncode, seconds=round(seconds, 3), stdout=(out or b"").decode("utf-8", "replace"),
                   stderr=(err or b"").decode("utf-8", "replace"), timed_out=timed_out,
                   interrupt_ignored=interrupt_ignored, interrupted_late=interrupted_late, leaked=leaked,
                   csv_cells=cells)


def _record(case: Case, outcome: Outcome) -> dict:
    lines = _stderr_lines(outcome)
    row = {
        "argv": ["qpicross", *case.argv],
        "expected": case.expect,
        "exit_code": outcome.exit_code,
        "seconds": outcome.seconds,
        "class": classify(case, outcome),
        "stderr_first_line": lines[0][:300] if lines else "",
        "stderr_lines": len(lines),
    }
    if case.interrupt_after is not None:
        row["interrupt_after_s"] = case.interrupt_after
    if case.env:
        row["env"] = sorted(key for key, _ in case.env)
    if outcome.leaked:
        row["leaked"] = outcome.leaked[:20]
    if row["class"] in ("traceback", "noisy_error", "hang"):
        row["stderr_tail"] = outcome.stderr[-1500:]
    return row


def _prepare(work: Path, home: Path, tmp: Path) -> None:
    write_inputs(work)
    for argv in GENERATED:
        if not (work / argv[-1]).exists():
            subprocess.run([sys.executable, "-m", "qpicross", *argv, "--force"], cwd=work, check=True,
                           env=clean_environment(home, tmp), stdout=subprocess.DEVNULL)


def run_campaign(selected: Sequence[Case], *, progress=None) -> dict:
    """Run ``selected`` in a fresh temporary folder; the results file's content (``meta``, ``counts``, ``runs``)."""
    from benchmarks.provenance import run_meta

    meta = {**run_meta(), "wall_limit_s": WALL_LIMIT_S,
            "interrupt_grace_s": INTERRUPT_GRACE_S}
    started = time.monotonic()
    runs = []
    with tempfile.TemporaryDirectory(prefix="qpicross-campaign-") as root:
        work, home, tmp = Path(root) / "work", Path(root) / "home", Path(root) / "tmp"
        home.mkdir()
        tmp.mkdir()
        _prepare(work, home, tmp)
        for number, case in enumerate(selected, 1):
            row = _record(case, run_case(case, work, tmp, home))
            runs.append(row)
            if progress:
                progress(number, len(selected), row)
    meta["total_s"] = round(time.monotonic() - started, 1)
    counts = Counter(row["class"] for row in runs)
    return {"meta": meta, "counts": {name: counts.get(name, 0) for name in CLASSES}, "runs": runs}


def _print_progress(number: int, total: int, row: dict) -> None:
    mark = "" if row["class"] == "ok" else f"  <-- {row['class']}: {row['stderr_first_line'][:100]}"
    print(f"[{number}/{total}] {row['exit_code']:>4} {row['seconds']:6.1f}s {' '.join(row['argv'])[:110]}{mark}",
          file=sys.stderr, flush=True)


def counts_table(runs: dict[str, dict]) -> str:
    """Markdown: one row per campaign run (a results file by its label), the runs and their count per class.

    >>> print(counts_table({"abc1234": {"counts": {"ok": 3, "hang": 1}}}))
    | code | runs | hang | traceback | leak | unsafe_output | silent_accept | noisy_error | unexpected_exit | ok |
    |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|
    | abc1234 | 4 | 1 | 0 | 0 | 0 | 0 | 0 | 0 | 3 |
    """
    lines = ["| code | runs | " + " | ".join(CLASSES) + " |", "|---|---:|" + "---:|" * len(CLASSES)]
    for label, data in runs.items():
        counts = [int(data["counts"].get(name, 0)) for name in CLASSES]
        lines.append(f"| {label} | {sum(counts)} | " + " | ".join(map(str, counts)) + " |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.campaign", description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", metavar="FILE", help="write every run and the counts per class here")
    parser.add_argument("--only", metavar="TEXT", help="run only the cases whose command line contains TEXT")
    parser.add_argument("--quiet", action="store_true", help="no line per run on standard error")
    args = parser.parse_args(argv)
    selected = [c for c in cases() if args.only is None or args.only in " ".join(c.argv)]
    result = run_campaign(selected, progress=None if args.quiet else _print_progress)
    print(json.dumps(result["counts"]))
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        from benchmarks.provenance import write_results

        write_results(args.json, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
