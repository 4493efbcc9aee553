import pytest
from hypothesis import given, strategies as st

from qpicross import Puzzle, PuzzleFormatError, load_puzzle, save_puzzle
from qpicross.puzzle.formats import format_px, parse_px

A_PX = "5,5\n1\n1,1\n1,1\n5\n1,1\n2\n3\n1,1\n3\n2\n"


def test_letter_a_file(letter_a):
    assert letter_a.rows == ((1,), (1, 1), (1, 1), (5,), (1, 1))
    assert letter_a.cols == ((2,), (3,), (1, 1), (3,), (2,))
    assert letter_a.name == "5x5"


@pytest.mark.parametrize("text", [A_PX, A_PX.rstrip("\n"), A_PX.replace("\n", "\r\n"), "\ufeff" + A_PX])
def test_line_endings_and_final_newline(text):
    assert parse_px(text).rows == parse_px(A_PX).rows


def test_zero_and_empty_lines_are_blank():
    p = parse_px("2,3\n0\n\n0\n0\n0\n")
    assert p.rows == ((), ()) and p.cols == ((), (), ())


def test_round_trip(tmp_path, letter_a):
    out = tmp_path / "a.px"
    save_puzzle(letter_a, out)
    assert out.read_text() == A_PX
    assert load_puzzle(out).rows == letter_a.rows


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("", 1, "empty file"),
        ("5;5\n", 1, "rows,cols"),
        ("2,2\n1\n1\n1\n", 4, "5 lines in all"),
        ("2,2\n1\nx\n1\n1\n", 3, "non-negative integer"),
        ("2,2\n1\n-1\n1\n1\n", 3, "non-negative integer"),
        ("2,2\n1\n1,0\n1\n1\n", 3, "holds a 0"),
        ("2,2\n3\n1\n1\n1\n", 2, "needs 3 cells"),
        ("2,2\n1\n1\n1\n0\n", 4, "must agree"),  # the first column clue line
        ("0,2\n", 1, "out of range"),
        ("2,2\n1\n1\n1\n1\n1\n1\n", 6, "5 lines in all"),
    ],
)
def test_bad_px_names_the_line(text, line, message):
    with pytest.raises(PuzzleFormatError, match=message) as info:
        parse_px(text, path="bad.px")
    assert info.value.line == line
    assert str(info.value).startswith("bad.px:")
    assert "\n" not in str(info.value)


def test_binary_and_missing_files(tmp_path):
    garbage = tmp_path / "g.px"
    garbage.write_bytes(b"\x00\xff\x10")
    with pytest.raises(PuzzleFormatError, match="binary"):
        load_puzzle(garbage)
    with pytest.raises(PuzzleFormatError, match="no such file or directory"):
        load_puzzle(tmp_path / "missing.px")
    (tmp_path / "puzzle.txt").write_text("2,2\n1\n1\n1\n1\n")  # an existing file is told about its extension
    with pytest.raises(PuzzleFormatError, match="extension"):
        load_puzzle(tmp_path / "puzzle.txt")


clue = st.lists(st.integers(1, 3), max_size=3)


@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_px_round_trip_property(n_rows, n_cols, data):
    cells = data.draw(st.lists(st.integers(0, 1), min_size=n_rows * n_cols, max_size=n_rows * n_cols))
    puzzle = Puzzle.from_board([cells[r * n_cols:(r + 1) * n_cols] for r in range(n_rows)])
    again = parse_px(format_px(puzzle))
    assert (again.rows, again.cols) == (puzzle.rows, puzzle.cols)


def test_every_bompol_instance_parses(shared_instances):
    files = sorted((shared_instances / "bompol").glob("*.px"))
    assert len(files) == 17
    for path in files:
        assert load_puzzle(path).num_filled > 0


def test_malformed_historic_instance_is_a_clean_error(shared_instances):
    with pytest.raises(PuzzleFormatError, match="lepers.px"):
        load_puzzle(shared_instances / "bompol" / "history" / "lepers.px")
