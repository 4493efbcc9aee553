"""The .non / nonpack / tournament / XML / JSON readers, FILE#N specs, goal grids, writers."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qpicross import Puzzle, PuzzleFormatError, check, load_puzzle
from qpicross.cli import main
from qpicross.puzzle.formats import (
    expand_puzzle_specs,
    format_json,
    format_non,
    iter_puzzles,
    load_puzzles,
    parse_json,
    parse_non,
    parse_nonpack,
    parse_tournament,
    parse_xml,
    save_puzzle,
    split_spec,
)
from puzzles import LETTER_A_BOARD


NON_A = """catalogue "test"
title "Letter A"
width 5
height 5

rows
1
1,1
1,1
5
1,1

columns
2
3
1,1
3
2

goal "0010001010010101111110001"
"""

XML_A = """<?xml version="1.0"?>
<!DOCTYPE pbn SYSTEM "http://webpbn.com/pbn-0.3.dtd">
<puzzleset>
<puzzle type="grid" defaultcolor="black">
<title>Letter A</title>
<color name="white" char=".">FFFFFF</color>
<color name="black" char="X">000000</color>
<clues type="columns">
<line><count>2</count></line>
<line><count>3</count></line>
<line><count>1</count><count>1</count></line>
<line><count>3</count></line>
<line><count>2</count></line>
</clues>
<clues type="rows">
<line><count>1</count></line>
<line><count>1</count><count>1</count></line>
<line><count>1</count><count>1</count></line>
<line><count>5</count></line>
<line><count>1</count><count>1</count></line>
</clues>
<solution type="goal">
<image>
|..X..|
|.X.X.|
|.X.X.|
|XXXXX|
|X...X|
</image>
</solution>
</puzzle>
</puzzleset>
"""

# Two 3x3 tournament puzzles: columns first, then rows; puzzle 2 has an empty row.
TOURNAMENT = "$1\n1\n1\n1\n3\n\n\n$2\n1\n1\n1\n1\n1\n1\n"
TOURNAMENT_SOLUTIONS = "$1\n1\t1\t1\n0\t0\t0\n0\t0\t0\n$2\n1\t0\t0\n0\t1\t0\n0\t0\t1\n"


def letter_a() -> Puzzle:
    return Puzzle.from_board(LETTER_A_BOARD, name="A")


# -- every collection file under ../shared/instances/external ------------------------------------


def test_every_tournament_file_parses_and_its_goals_check(shared_instances):
    files = sorted((shared_instances / "external" / "NonogramRecord" / "question").glob("*.txt"))
    assert len(files) == 5
    for path in files:
        puzzles = load_puzzles(path)
        assert len(puzzles) == 1000, path
        assert all(p.shape == (25, 25) and p.goal is not None for p in puzzles), path
        broken = [p.name for p in puzzles if check(p, p.goal)]
        assert broken == [], f"{path}: goal grids break their clues: {broken[:5]}"
        assert puzzles[16].name == f"{path.stem}#17"


def test_every_non_and_xml_file_parses_and_its_goal_checks(shared_instances):
    external = shared_instances / "external"
    files = sorted(external.rglob("*.non")) + sorted(external.rglob("*.xml"))
    assert len(files) >= 70
    with_goal = 0
    for path in files:
        puzzle = load_puzzle(path)
        assert puzzle.num_filled > 0, path
        if puzzle.goal is not None:
            with_goal += 1
            assert check(puzzle, puzzle.goal) == [], path
    assert with_goal >= 60  # nonograms.org files and lion.non carry none, the rest do


def test_tournament_spec_picks_one_puzzle_and_ranges(shared_instances):
    question = shared_instances / "external" / "NonogramRecord" / "question" / "icga2018.txt"  # CRLF
    p = load_puzzle(f"{question}#17")
    assert p.name == "icga2018#17" and check(p, p.goal) == []
    assert [q.name for q in load_puzzles(f"{question}#999-1000")] == ["icga2018#999", "icga2018#1000"]
    with pytest.raises(PuzzleFormatError, match="1000 puzzles numbered 1..1000"):
        load_puzzles(f"{question}#1001")
    with pytest.raises(PuzzleFormatError, match=r"pick one as FILE#N"):
        load_puzzle(question)


def test_a_stepped_range_picks_every_step_th_puzzle_and_bad_steps_are_one_line_errors(tmp_path):
    question = tmp_path / "set.txt"
    question.write_text(TOURNAMENT + TOURNAMENT.replace("$1", "$3").replace("$2", "$4"))
    assert [p.name for p in load_puzzles(f"{question}#1-4/2")] == ["set#1", "set#3"]
    assert [p.name for p in load_puzzles(f"{question}#2-4/2")] == ["set#2", "set#4"]
    assert [p.name for p in load_puzzles(f"{question}#1-4/9")] == ["set#1"]
    with pytest.raises(PuzzleFormatError, match=r"empty range #1-4/0") as info:
        load_puzzles(f"{question}#1-4/0")
    assert "\n" not in str(info.value)
    with pytest.raises(PuzzleFormatError, match=r"#1-9/4 \(3 puzzles\) asked for, but the file holds 1 of them"):
        load_puzzles(f"{question}#1-9/4")


def test_directory_spec_skips_non_puzzle_files(shared_instances):
    puzzles = expand_puzzle_specs([shared_instances / "external" / "number-loom" / "examples" / "wolter"])
    assert [p.name for p in puzzles] == ["webpbn-00803", "webpbn-01611"]
    bompol = expand_puzzle_specs([str(shared_instances / "bompol")])
    assert len(bompol) == 17  # history/ (with the malformed lepers.px) is not entered


# -- .non -------------------------------------------------------------------------------------------


def test_non_reads_clues_and_goal():
    p = parse_non(NON_A, name="A")
    assert (p.rows, p.cols) == (letter_a().rows, letter_a().cols)
    assert p.goal.tolist() == letter_a_board().tolist()
    assert check(p, p.goal) == []


def letter_a_board() -> np.ndarray:
    return np.array([[ch == "#" for ch in row] for row in LETTER_A_BOARD], dtype=np.uint8)


def test_non_tolerates_key_order_crlf_bom_zero_and_blank_clues():
    text = "\ufeffheight 2\r\nwidth 3\r\ncolumns\r\n0\r\n\r\n2\r\nrows\r\n1\r\n1\r\nlicense MIT\r\n"
    p = parse_non(text)
    assert p.rows == ((1,), (1,)) and p.cols == ((), (), (2,))


def test_non_goal_of_wrong_length_is_an_error():
    with pytest.raises(PuzzleFormatError, match="goal has 3 cells, expected width x height = 25") as info:
        parse_non(NON_A.replace("0010001010010101111110001", "001"), path="a.non")
    assert info.value.line == 20


@pytest.mark.parametrize("cell", ["x", "#", " ", "2", "\u00e9"])
def test_non_goal_cell_other_than_0_or_1_is_an_error_at_its_line(cell):
    with pytest.raises(PuzzleFormatError, match="goal cell .* at position 3: a goal holds only 0") as info:
        parse_non(NON_A.replace('goal "00100', f'goal "00{cell}00'), path="a.non")
    assert info.value.line == 20 and str(info.value).startswith("a.non:20: ")


def test_non_goal_that_breaks_the_clues_is_kept_and_check_reports_it():
    p = parse_non(NON_A.replace('goal "00100', 'goal "10100'))
    assert [b.kind for b in check(p, p.goal)] == ["row", "col"]


def test_nonpack_reads_every_puzzle():
    text = NON_A + "====\n" + format_non(Puzzle([[1]], [[1]], name="dot"))
    puzzles = parse_nonpack(text, "pack")
    assert [p.shape for p in puzzles] == [(5, 5), (1, 1)]


def test_non_round_trip_keeps_goal():
    p = Puzzle(letter_a().rows, letter_a().cols, name="A", goal=LETTER_A_BOARD)
    again = parse_non(format_non(p), name="A")
    assert again == p and again.goal.tolist() == p.goal.tolist()


# -- tournament ------------------------------------------------------------------------------------


def test_tournament_reads_columns_first_and_empty_clues():
    (n1, p1), (n2, p2) = parse_tournament(TOURNAMENT, "t", solutions=TOURNAMENT_SOLUTIONS)
    assert (n1, n2) == (1, 2)
    assert p1.cols == ((1,), (1,), (1,)) and p1.rows == ((3,), (), ())
    assert p1.name == "t#1" and check(p1, p1.goal) == [] and check(p2, p2.goal) == []


def test_tournament_crlf_and_tabs_and_spaces():
    text = TOURNAMENT.replace("\n", "\r\n").replace("$2\r\n1", "$2\r\n 1 ")
    assert [p.rows for _, p in parse_tournament(text)] == [((3,), (), ()), ((1,), (1,), (1,))]


def test_tournament_file_with_solution_folder_and_specs(tmp_path):
    (tmp_path / "question").mkdir()
    (tmp_path / "solution").mkdir()
    question = tmp_path / "question" / "set.txt"
    question.write_text(TOURNAMENT)
    (tmp_path / "solution" / "set.txt").write_text(TOURNAMENT_SOLUTIONS)
    assert [p.name for p in iter_puzzles(question)] == ["set#1", "set#2"]
    p = load_puzzle(f"{question}#2")
    assert p.goal.tolist() == np.eye(3, dtype=int).tolist()
    assert [p.name for p in expand_puzzle_specs([f"{question}#1-2", str(tmp_path / "question")])] == [
        "set#1", "set#2", "set#1", "set#2"]
    (tmp_path / "solution" / "set.txt").write_text(TOURNAMENT_SOLUTIONS.replace("0\t1\t0", "0\t2\t0"))
    with pytest.raises(PuzzleFormatError, match=r"solution/set.txt:7: solution \$2 row 2") as info:
        load_puzzle(f"{question}#2")
    assert "\n" not in str(info.value)


def test_split_spec_prefers_an_existing_path(tmp_path):
    odd = tmp_path / "odd#2"
    odd.write_text("1,1\n1\n1\n")
    assert split_spec(str(odd)) == (odd, None)
    assert split_spec(f"{tmp_path}/x.txt#3-5") == (tmp_path / "x.txt", range(3, 6))


# -- XML ----------------------------------------------------------------------------------------------


def test_xml_reads_clues_and_goal():
    (p,) = parse_xml(XML_A, name="A")
    assert (p.rows, p.cols) == (letter_a().rows, letter_a().cols)
    assert p.goal.tolist() == letter_a_board().tolist()


def test_xml_with_coloured_counts_of_one_colour_is_black_and_white():
    text = XML_A.replace('defaultcolor="black"', 'defaultcolor="white"').replace("<count>", '<count color="black">')
    (p,) = parse_xml(text)
    assert p.rows == letter_a().rows


def test_xml_refuses_entities_and_colour_puzzles():
    bomb = '<?xml version="1.0"?><!DOCTYPE p [<!ENTITY a "aaaa">]><puzzle>&a;</puzzle>'
    with pytest.raises(PuzzleFormatError, match="entity declarations"):
        parse_xml(bomb)
    external = '<?xml version="1.0"?><!DOCTYPE p [<!ENTITY x SYSTEM "file:///etc/passwd">]><puzzle>&x;</puzzle>'
    with pytest.raises(PuzzleFormatError, match="entity declarations"):
        parse_xml(external)
    colour = XML_A.replace("<line><count>5</count>", '<line><count color="red">5</count>')
    with pytest.raises(PuzzleFormatError, match="colour puzzle"):
        parse_xml(colour)


def test_xml_errors_name_the_line():
    with pytest.raises(PuzzleFormatError, match="not well-formed") as info:
        parse_xml(XML_A.replace("</clues>\n<clues type=\"rows\">", "</clue>"), path="a.xml")
    assert info.value.line == 14
    with pytest.raises(PuzzleFormatError, match="row 4 clue") as info:
        parse_xml(XML_A.replace("<count>5</count>", "<count>five</count>"), path="a.xml")
    assert info.value.line == 19


# -- JSON ---------------------------------------------------------------------------------------------


def test_json_round_trip_with_goal_and_list_form():
    p = Puzzle(letter_a().rows, letter_a().cols, name="A", goal=LETTER_A_BOARD)
    (again,) = parse_json(format_json(p))
    assert again == p and again.name == "A" and again.goal.tolist() == p.goal.tolist()
    two = parse_json("[" + format_json(p) + "," + format_json(Puzzle([[1]], [[1]])) + "]")
    assert [q.shape for q in two] == [(5, 5), (1, 1)]


def test_json_errors_name_the_line():
    text = format_json(letter_a()).replace("[1, 1]", '[1, "x"]', 1)
    with pytest.raises(PuzzleFormatError, match="row 2 clue: expected a list of block lengths") as info:
        parse_json(text, path="a.json")
    assert info.value.line == 7
    with pytest.raises(PuzzleFormatError, match="unknown key 'columns'"):
        parse_json('{"rows": [[1]], "columns": [[1]]}')


# -- writers and files --------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_writers_round_trip_with_goal(n_rows, n_cols, data):
    cells = data.draw(st.lists(st.integers(0, 1), min_size=n_rows * n_cols, max_size=n_rows * n_cols))
    board = np.array(cells, dtype=np.uint8).reshape(n_rows, n_cols)
    p = Puzzle.from_board(board, name="r")
    p = Puzzle(p.rows, p.cols, name="r", goal=board)
    for again in (parse_non(format_non(p), "r"), parse_json(format_json(p))[0]):
        assert again == p and again.goal.tolist() == board.tolist()


@pytest.mark.parametrize("suffix", [".px", ".non", ".json"])
def test_save_and_load_by_extension(tmp_path, suffix):
    path = tmp_path / f"a{suffix}"
    save_puzzle(letter_a(), path)
    assert (load_puzzle(path).rows, load_puzzle(path).cols) == (letter_a().rows, letter_a().cols)


def test_format_flag_overrides_the_extension(tmp_path, capsys):
    path = tmp_path / "a.dat"
    path.write_text(NON_A)
    assert main(["show", str(path), "--format", "non"]) == 0
    assert "goal grid: matches the clues" in capsys.readouterr().out
    assert main(["show", str(path)]) == 2
    assert "cannot tell the format" in capsys.readouterr().err


def test_cli_accepts_file_hash_n(tmp_path, capsys):
    path = tmp_path / "set.txt"
    path.write_text(TOURNAMENT)
    assert main(["show", f"{path}#2"]) == 0
    assert "set#2 (3x3)" in capsys.readouterr().out
    assert main(["show", str(path)]) == 2
    err = capsys.readouterr().err
    assert "holds 2 puzzles; pick one as FILE#N" in err and err.count("\n") == 1
