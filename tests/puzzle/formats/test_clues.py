"""The clue-only reader (row clue lines, a blank line, column clue lines): the survey's gramcracker files,
small inline files, how a .txt is told apart from a tournament file, and one line naming file and line for
every malformed file."""

from __future__ import annotations

import pytest

from qpicross import Puzzle, PuzzleFormatError, load_puzzle
from qpicross.cli import main
from qpicross.puzzle.formats import (
    MAX_DIMENSION,
    expand_puzzle_specs,
    format_clues,
    load_puzzles,
    parse_clues,
    save_puzzle,
    txt_format,
)
from puzzles import LETTER_A_BOARD

#: The letter "A" in the layout: five row clues, the blank line, five column clues, as webpbn exports it.
CLUES_A = "1\n1 1\n1 1\n5\n1 1\n\n2\n3\n1 1\n3\n2\n"

#: The gramcracker copies of Jan Wolter's survey (../shared/instances/external/gramcracker/...).
SURVEY_DIR = ("external", "gramcracker", "nonograms", "survey_by_numbers_dataset")
#: The five survey puzzles that are only there in this layout: (rows, cols) as their index gives them (W x H).
ONLY_HERE = {"signed": (50, 60), "karate": (40, 40), "thing": (42, 36), "sierp12548": (40, 47), "gettys": (59, 99)}
#: The gramcracker files that are also in a .non file elsewhere under external/: the same clues.
ALSO_NON = {"cat6": "picross-solver/inputs/webpbn/webpbn-00006-cat.non",
            "edge23": "picross-solver/inputs/webpbn/webpbn-00023-edge.non",
            "knot16": "picross-solver/inputs/webpbn/webpbn-00016-knot.non",
            "swing529": "picross-solver/inputs/webpbn/webpbn-00529-swing.non",
            "bloop_bloop26167": "nonogram-db/db/webpbn/26167.non"}


def letter_a() -> Puzzle:
    return Puzzle.from_board(LETTER_A_BOARD, name="a")


# -- good files --------------------------------------------------------------------------------------


def test_the_letter_a_reads_as_its_clues():
    p = parse_clues(CLUES_A, "a")
    assert (p.rows, p.cols) == (letter_a().rows, letter_a().cols) and p.goal is None


@pytest.mark.parametrize("text", [
    CLUES_A.replace("\n", "\r\n"),           # CRLF
    "\ufeff" + CLUES_A,                      # a byte-order mark
    CLUES_A.rstrip("\n"),                    # no final newline
    CLUES_A + "\n\n  \n",                    # blank lines after the last column clue (gramcracker's cat6.txt has one)
    CLUES_A.replace("1 1", "1\t1"),          # tabs
    CLUES_A.replace("1 1", "  1   1 "),      # runs of spaces, indentation
])
def test_line_endings_marks_and_spacing_do_not_matter(text):
    p = parse_clues(text, "a")
    assert (p.rows, p.cols) == (letter_a().rows, letter_a().cols)


def test_an_empty_clue_is_a_zero():
    p = parse_clues("0\n1\n\n1\n0\n", "z")
    assert p.rows == ((), (1,)) and p.cols == ((1,), ())


def test_the_writer_round_trips(tmp_path):
    p = letter_a()
    assert format_clues(p) == CLUES_A
    blank = Puzzle([[1], []], [[1], []], name="dot")
    assert parse_clues(format_clues(blank), "dot") == blank
    path = tmp_path / "a.txt"
    save_puzzle(p, path, format="clues")
    assert load_puzzle(path) == load_puzzle(path, format="clues") == Puzzle(p.rows, p.cols, name="a")


# -- which .txt is which ----------------------------------------------------------------------------------


def test_a_txt_of_clues_is_told_from_a_tournament_file_and_from_other_text(tmp_path):
    clues, tournament, notes = tmp_path / "a.txt", tmp_path / "set.txt", tmp_path / "notes.txt"
    clues.write_text(CLUES_A)
    tournament.write_text("$1\n1\n1\n1\n1\n$2\n2\n\n1\n1\n")
    notes.write_text("1. buy milk\n")
    assert [txt_format(f) for f in (clues, tournament, notes)] == ["clues", "tournament", None]
    assert load_puzzle(clues).name == "a"
    assert [p.name for p in load_puzzles(tournament)] == ["set#1", "set#2"]
    with pytest.raises(PuzzleFormatError, match=r"notes\.txt:1: cannot tell the format from the extension '\.txt' "
                                                 r"\(it starts as clue lines, but line 1 is not one: '1\. buy milk'\); "
                                                 r".*clue lines starting with a number"):
        load_puzzle(notes)
    # a directory takes both kinds of .txt, and leaves the other text out
    assert [p.name for p in expand_puzzle_specs([tmp_path])] == ["a", "set#1", "set#2"]
    assert [p.name for p in expand_puzzle_specs([tmp_path], format="clues")] == ["a"]


def test_a_typo_near_the_top_of_a_clue_file_is_named_by_its_line(tmp_path):
    # within the head the reader sniffs, a typo makes the layout unknown; the error still names the line
    path = tmp_path / "typo.txt"
    path.write_text("1\n1 1\n\n1\nx 1\n")
    with pytest.raises(PuzzleFormatError, match=r"typo\.txt:5: cannot tell the format .* line 5 is not one: 'x 1'"):
        load_puzzle(path)
    with pytest.raises(PuzzleFormatError, match=r"typo\.txt:5: expected a non-negative integer"):
        load_puzzle(path, format="clues")
    # text that does not start with a number names no line
    path.write_text("hello\n")
    with pytest.raises(PuzzleFormatError, match=r"typo\.txt: cannot tell the format from the extension '\.txt'; "):
        load_puzzle(path)


def test_an_explicit_format_reads_any_extension(tmp_path):
    path = tmp_path / "a.clues"
    path.write_text(CLUES_A)
    assert load_puzzle(path, format="clues").rows == letter_a().rows
    with pytest.raises(PuzzleFormatError, match="cannot tell the format from the extension '.clues'"):
        load_puzzle(path)


# -- malformed files: one line naming the file and the line --------------------------------------------------

BAD = [
    ("", 1, "empty file; expected row clue lines, one blank line, then column clue lines"),
    ("\n\n", 1, "empty file; expected row clue lines, one blank line, then column clue lines"),
    ("\n1\n\n1\n", 1, "blank line before the first row clue; expected row clue lines, one blank line, then column "
                      "clue lines (an empty clue is written 0)"),
    ("1\n1\n1\n", 3, "no blank line between the row clues and the column clues"),
    ("1\n\n1\n\n1\n", 4, "a second blank line (the first is line 2); expected row clue lines, one blank line, then "
                         "column clue lines, and an empty clue is written 0"),
    ("1\n\n\n1\n", 3, "a second blank line (the first is line 2)"),
    ("1\nx\n\n1\n1\n", 2, "expected a non-negative integer for row 2 clue, got 'x'"),
    ("1\n1\n\n1,1\n", 4, "expected a non-negative integer for column 1 clue, got '1,1'"),
    ("1\n1\n\n2\n-1\n", 5, "expected a non-negative integer for column 2 clue, got '-1'"),
    ("1\n1 0\n\n1\n1\n", 2, "row 2 clue '1,0' holds a 0 among other blocks; blocks are positive"),
    ("9999999999\n\n1\n", 1, "row 1 clue 9999999999 is absurdly large"),
    ("3\n1\n\n1\n1\n", 1, "row 1: clue 3 needs 3 cells but the line has 2"),
    ("1\n1\n\n1\n0\n", 4, "row clues fill 2 cells but column clues fill 1; they must agree"),
    ("1\n\x00\n\n1\n", 2, "binary data (a NUL byte at offset 2), not a text puzzle file"),
    ("1\n\n\u0661\n", 3, "expected a non-negative integer for column 1 clue, got '\u0661'"),
]


@pytest.mark.parametrize("text,line,message", BAD, ids=[f"bad-{i}" for i in range(len(BAD))])
def test_every_malformed_file_names_its_file_and_line(tmp_path, text, line, message):
    path = tmp_path / "bad.txt"
    path.write_bytes(text.encode())
    with pytest.raises(PuzzleFormatError) as info:
        load_puzzle(path, format="clues")
    assert str(info.value).startswith(f"{path}:{line}: {message}"), str(info.value)
    assert "\n" not in str(info.value)


def test_the_dimensions_are_bounded_before_a_clue_is_parsed(monkeypatch):
    monkeypatch.setattr("qpicross.puzzle.formats.clues.MAX_DIMENSION", 3)
    parsed = []
    monkeypatch.setattr("qpicross.puzzle.formats.clues._parse_clue", lambda *a: parsed.append(a) or (1,))
    with pytest.raises(PuzzleFormatError, match=r"^big\.txt:4: more than 3 row clue lines \(at most 3 a side\)$"):
        parse_clues("1\n" * 5 + "\n1\n", path="big.txt")
    with pytest.raises(PuzzleFormatError, match=r"^big\.txt:7: more than 3 column clue lines"):
        parse_clues("1\n1\n\n" + "1\n" * 5, path="big.txt")
    assert parsed == [] and MAX_DIMENSION == 10_000


def test_the_command_line_refuses_a_malformed_file_in_one_line_and_reads_a_good_one(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("1\n1\n\n1\n0\n")
    assert main(["show", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err == f"qpicross: error: {bad}:4: row clues fill 2 cells but column clues fill 1; they must agree\n"
    good = tmp_path / "a.txt"
    good.write_text(CLUES_A)
    assert main(["show", str(good)]) == 0
    assert "a (5x5)" in capsys.readouterr().out


# -- the survey's files ----------------------------------------------------------------------------------------


def test_every_gramcracker_survey_file_reads(shared_instances):
    folder = shared_instances.joinpath(*SURVEY_DIR)
    files = sorted(folder.glob("*.txt"))
    assert len(files) == 10, files
    puzzles = {p.name: p for p in expand_puzzle_specs([folder])}  # the README.md beside them is left out
    assert sorted(puzzles) == sorted(f.stem for f in files)
    for name, shape in ONLY_HERE.items():
        assert puzzles[name].shape == shape, name
    assert puzzles["gettys"].rows[5] == () and puzzles["gettys"].cols[-1] == ()  # written 0
    for name, other in ALSO_NON.items():
        twin = load_puzzle(shared_instances / "external" / other)
        assert (puzzles[name].rows, puzzles[name].cols) == (twin.rows, twin.cols), name
