"""Issue 35, formats and quoting: ambiguous or colour puzzles are refused in one line, and an error
never echoes more than a short, visibly cut prefix of a line that is not a clue (a token file given
as a puzzle must not be printed)."""

from __future__ import annotations

import pytest

from qpicross.cli import main

TOKEN = "DEV-0123456789abcdef0123456789abcdef01234567"

RED = ('<puzzleset><puzzle defaultcolor="red"><clues type="columns"><line><count>1</count></line>'
       '<line><count>1</count></line></clues><clues type="rows"><line><count>1</count></line>'
       '<line><count>1</count></line></clues></puzzle></puzzleset>')


@pytest.mark.parametrize("name, text, words", [
    ("six-rows-five-clues.non", "width 5\nheight 6\nrows\n1\n1\n1\n1\n1\n\ncolumns\n1\n1\n1\n1\n1\n",
     "needs 6 clue lines (height 6) but its last one is blank (5 written): write an empty clue as 0"),
    ("before-goal.non", "width 2\nheight 2\nrows\n1\n1\ncolumns\n2\n\ngoal 1111\n", "needs 2 clue lines (width 2)"),
    ("empty-goal.json", '{"rows": [[1], [1]], "cols": [[1], [1]], "goal": []}', "goal has 0 rows, the clues 2"),
    ("red.xml", RED, "colour puzzle ('red')"),
    ("red-count.xml", RED.replace(' defaultcolor="red"', "").replace("<count>", '<count color="red">'),
     "colour puzzle ('red')"),
])
def test_ambiguous_or_colour_puzzle_is_one_line(tmp_path, capsys, name, text, words):
    path = tmp_path / name
    path.write_text(text)
    assert main(["show", str(path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith(f"qpicross: error: {path}:"), err
    assert words in err[0]


def test_blank_clue_inside_a_section_is_still_an_empty_clue(tmp_path, capsys):
    path = tmp_path / "inner-blank.non"
    path.write_text("width 2\nheight 3\nrows\n1\n\n1\ncolumns\n1\n1\n")
    assert main(["show", str(path)]) == 0


@pytest.mark.parametrize("name, text", [
    ("token.px", TOKEN + "\n"),
    ("token.non", f"width 2\nheight 2\nrows\n{TOKEN}\n1\ncolumns\n1\n1\n"),
    ("token2.px", f"2,2\n{TOKEN}\n1\n1\n1\n"),
    ("token.txt", f"$1\n{TOKEN}\n1\n1\n1\n"),
    ("token.json", '{"rows": [["%s"]], "cols": [[1]]}' % TOKEN),
    ("key.json", '{"%s": 1}' % TOKEN),
])
def test_a_secret_is_never_echoed(tmp_path, capsys, name, text):
    path = tmp_path / name
    path.write_text(text)
    assert main(["show", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1, err
    assert TOKEN[:9] not in err and "0123456789abcdef" not in err, err
