"""Bad input gets one clear line, big input is estimated before it is built, same seed gives the same answer."""

from __future__ import annotations

import json
import os
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from qpicross import Puzzle, PuzzleFormatError, anneal, load_puzzle
from qpicross.cli import main
from qpicross.cli._output_files import write_output
from qpicross.exceptions import UsageError
from qpicross.model.formulation import build_formulation
from qpicross.model.size import ModelTooLargeError, estimate_size, max_couplers_limit
from puzzles import LETTER_A_FILE

# -- bad input: one class per row, every reader ------------------------------------------------------

PX = "2,2\n1\n1\n1\n1\n"
NON = "width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n"
TOURNAMENT = "$1\n1\n1\n1\n1\n"
XML = ('<puzzleset><puzzle>\n<clues type="columns">\n<line><count>1</count></line>\n<line><count>1</count></line>\n'
       '</clues>\n<clues type="rows">\n<line><count>1</count></line>\n<line><count>1</count></line>\n</clues>\n'
       "</puzzle></puzzleset>\n")
JSON = '{\n  "rows": [\n    [1],\n    [1]\n  ],\n  "cols": [\n    [1],\n    [1]\n  ]\n}\n'

# (file name, contents, expected line, expected message)
BAD = [
    ("wrong-count.px", "2,2\n1\n1\n1\n", 4, r"header says 2 rows \+ 2 columns = 5 lines in all, but the file has 4"),
    ("extra-line.px", PX + "1\n", 6, "= 5 lines in all, but the file has 6"),
    ("non-numeric.px", "2,2\n1\nx\n1\n1\n", 3, "expected a non-negative integer for row 2 clue, got 'x'"),
    ("negative.px", "2,2\n1\n-1\n1\n1\n", 3, "non-negative integer for row 2 clue, got '-1'"),
    ("zero.px", "2,2\n1\n1,0\n1\n1\n", 3, "holds a 0 among other blocks"),
    ("too-long.px", "2,2\n1,1\n1\n1\n1\n", 2, "row 1: clue 1 1 needs 3 cells but the line has 2"),
    ("totals.px", "2,2\n1\n1\n1\n0\n", 4, "row clues fill 2 cells but column clues fill 1"),
    ("no-dimensions.px", "1\n1\n1\n1\n", 1, "expected 'rows,cols' on line 1"),
    ("garbage.px", b"\x89PNG\r\n\x1a\n\x00\x00", 3, "binary data"),
    ("latin1.px", b"2,2\n\xff\n", 2, "not UTF-8 text"),
    ("empty.px", "", 1, "empty file"),
    ("huge.px", "2,2\n1\n" + "9" * 30 + "\n1\n1\n", 3, "absurdly large"),
    ("huge-header.px", "100000,2\n", 1, r"out of range \(1..10000\)"),
    ("wrong-count.non", NON.replace("columns\n1\n1\n", "columns\n1\n"), 7, "needs 2 clue lines .width 2. but the file ends"),
    ("extra-line.non", NON.replace("rows\n1\n1\n", "rows\n1\n1\n1\n"), 6, "outside a 'rows' or 'columns' section"),
    ("non-numeric.non", NON.replace("rows\n1\n", "rows\nx\n"), 4, "non-negative integer for row 1 clue"),
    ("negative.non", NON.replace("rows\n1\n", "rows\n-1\n"), 4, "non-negative integer for row 1 clue, got '-1'"),
    ("zero.non", NON.replace("rows\n1\n", "rows\n1,0\n"), 4, "holds a 0 among other blocks"),
    ("too-long.non", NON.replace("rows\n1\n", "rows\n1,1\n"), 4, "needs 3 cells but the line has 2"),
    ("totals.non", NON.replace("columns\n1\n1\n", "columns\n1\n0\n"), 6, "must agree"),
    ("no-width.non", NON.replace("width 2\n", ""), 5, "'columns' before 'width'"),
    ("empty.non", "", 1, "empty file"),
    ("huge.non", NON.replace("width 2", "width 99999"), 1, "width 99999 out of range"),
    ("colour.non", NON.replace("rows\n1\n", "rows\n1a\n"), 4, "only black-and-white"),
    ("short-goal.non", NON + 'goal "101"\n', 9, "goal has 3 cells, expected width x height = 4"),
    ("wrong-count.txt", TOURNAMENT + "$2\n1\n1\n1\n", 6, r"puzzle \$2 has 3 clue lines; expected 4"),
    ("non-numeric.txt", "$1\n1\nx\n1\n1\n", 3, "for column 2 clue, got 'x'"),
    ("zero.txt", "$1\n1\t0\n1\n1\n1\n", 2, "holds a 0"),
    ("too-long.txt", "$1\n1\t1\n1\n1\n1\n", 2, "column 1: clue 1 1 needs 3 cells"),
    ("totals.txt", "$1\n1\n1\n1\n\n", 1, "must agree"),
    ("duplicate.txt", TOURNAMENT + TOURNAMENT, 6, r"puzzle \$1 appears twice"),
    ("non-numeric.xml", XML.replace("<count>1</count>", "<count>one</count>", 1), 3, "got 'one'"),
    ("negative.xml", XML.replace("<count>1</count>", "<count>-1</count>", 1), 3, "got '-1'"),
    ("too-long.xml", XML.replace("<count>1</count>", "<count>3</count>", 1), 3, "needs 3 cells"),
    ("totals.xml", XML.replace("<line><count>1</count></line>\n</clues>", "<line/>\n</clues>", 1), 3, "must agree"),
    ("no-rows.xml", XML.split('<clues type="rows">')[0] + "</puzzle></puzzleset>", 1, 'missing <clues type="rows">'),
    ("not.xml", "hello", 1, "not well-formed XML"),
    ("empty.xml", "", 1, "not well-formed XML: no element found"),
    ("huge.xml", XML.replace("<count>1</count>", "<count>" + "9" * 5000 + "</count>", 1), 3, "absurdly large"),
    ("bomb.xml", '<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aa"><!ENTITY b "&a;&a;">]><puzzle>&b;</puzzle>', 1,
     "entity declarations are not accepted"),
    ("non-numeric.json", JSON.replace("[1],", '["1"],', 1), 3, "expected a list of block lengths"),
    ("negative.json", JSON.replace("[1],", "[-1],", 1), 3, "got '-1'"),
    ("zero.json", JSON.replace("[1],", "[1, 0],", 1), 3, "holds a 0"),
    ("too-long.json", JSON.replace("[1],", "[3],", 1), 3, "needs 3 cells"),
    ("no-cols.json", '{"rows": [[1]]}', 1, "missing 'cols'"),
    ("not.json", "{rows: 1}", 1, "not valid JSON"),
    ("empty.json", "", 1, "empty file"),
    ("huge.json", JSON.replace("[1],", "[" + "9" * 5000 + "],", 1), 3, "thousands of digits"),
    ("nan.json", JSON.replace("[1],", "[NaN],", 1), 3, "NaN"),
    ("deep.json", "[" * 100_000, 1, "nested too deeply"),
]


@pytest.mark.parametrize("name,content,line,message", BAD, ids=[b[0] for b in BAD])
def test_bad_input_is_one_line_naming_file_and_line(tmp_path, capsys, name, content, line, message):
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(PuzzleFormatError, match=message) as info:
        load_puzzle(path, format="tournament" if name.endswith(".txt") else None)
    assert (info.value.path, info.value.line) == (str(path), line)
    assert str(info.value).startswith(f"{path}:{line}: ")
    args = ["show", str(path)] + (["--format", "tournament"] if name.endswith(".txt") else [])
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{path}:{line}: " in err and "Traceback" not in err


@pytest.mark.parametrize("ext", [".px", ".non", ".txt", ".xml", ".json"])
def test_byte_order_mark_is_accepted(tmp_path, ext):
    text = {".px": PX, ".non": NON, ".txt": TOURNAMENT, ".xml": XML, ".json": JSON}[ext]
    path = tmp_path / f"bom{ext}"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert load_puzzle(path).rows == ((1,), (1,))


def test_known_malformed_collection_file(shared_instances):
    path = shared_instances / "bompol" / "history" / "lepers.px"
    with pytest.raises(PuzzleFormatError, match="36 rows \\+ 51 columns = 88 lines in all, but the file has 87"):
        load_puzzle(path)


# -- size guard -----------------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 9), st.integers(1, 9), st.sampled_from(["stacking", "published"]), st.data())
def test_estimate_counts_what_the_build_allocates(n_rows, n_cols, bounds, data):
    cells = data.draw(st.lists(st.integers(0, 1), min_size=n_rows * n_cols, max_size=n_rows * n_cols))
    board = np.array(cells).reshape(n_rows, n_cols)
    puzzle = Puzzle.from_board(board)
    mask = np.array(data.draw(st.lists(st.booleans(), min_size=board.size, max_size=board.size))).reshape(board.shape)
    for known in (None, np.where(mask, board, -1)):  # with presolve-style settled cells too
        estimate = estimate_size(puzzle, bounds, known)
        built = build_formulation(puzzle, bounds=bounds, known=known)
        assert estimate["num_variables"] == built.num_variables
        assert estimate["couplers_per_term"] == {name: len(t.data) for name, t in built.terms.items()}
        assert estimate["num_couplers"] >= built.bqm().num_interactions


def test_anneal_refuses_a_model_above_the_limit_unless_forced(letter_a):
    with pytest.raises(ModelTooLargeError, match=r"44 variables and \d+ couplers .* use force=True") as info:
        anneal(letter_a, max_couplers=10)
    assert info.value.estimate["num_variables"] == 44
    assert anneal(letter_a, max_couplers=10, force=True, num_reads=5, seed=1).bqm.num_variables == 44


def test_cli_refuses_big_models_with_one_line_and_force_overrides(letter_a, capsys, monkeypatch):
    monkeypatch.setenv("QPICROSS_MAX_COUPLERS", "10")
    assert main(["anneal", LETTER_A_FILE, "--reads", "5", "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "couplers" in err and "--force" in err and "--presolve" not in err
    assert main(["anneal", LETTER_A_FILE, "--reads", "5", "--seed", "1", "--presolve"]) == 2  # no hint that loops
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--presolve" not in err
    assert main(["anneal", LETTER_A_FILE, "--reads", "20", "--seed", "1", "--force"]) in (0, 1)
    monkeypatch.setenv("QPICROSS_MAX_COUPLERS", "lots")
    with pytest.raises(ValueError, match="QPICROSS_MAX_COUPLERS must be a positive integer"):
        max_couplers_limit()


# -- same answer twice ------------------------------------------------------------------------------------

TIMING = re.compile(r'"timing": \{[^}]*\}')


# Not tabu: dwave-samplers' TabuSampler stops on a wall-clock timeout (20 ms by default), so
# its reads depend on machine speed even with a seed.
@pytest.mark.parametrize("extra", [[], ["--reads", "120"], ["--bounds", "published", "--weights", "match=2"],
                                   ["--presolve"]])
def test_same_seed_gives_byte_identical_json(tmp_path, capsys, extra):
    board = np.random.default_rng(5).integers(0, 2, (8, 8))
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"rows": [list(map(int, r)) for r in Puzzle.from_board(board).rows],
                                "cols": [list(map(int, c)) for c in Puzzle.from_board(board).cols]}))
    outputs = []
    for _ in range(2):
        main(["anneal", str(path), "--seed", "11", "--reads", "30", "--json", *extra])
        outputs.append(TIMING.sub('"timing": {}', capsys.readouterr().out).encode())
    assert outputs[0] == outputs[1]
    assert b'"seed": 11' in outputs[0] and b'"timing": {}' in outputs[0]


# -- files the CLI writes ----------------------------------------------------------------------------------


def test_write_output_is_atomic_and_refuses_to_overwrite(tmp_path):
    path = tmp_path / "out.csv"
    write_output(path, "a,b\n", force=False)
    assert path.read_text() == "a,b\n"
    with pytest.raises(UsageError, match="exists; pass --force"):
        write_output(path, b"new", force=False)

    def failing(tmp):
        tmp.write_text("half")
        raise OSError(28, "No space left on device")

    with pytest.raises(UsageError, match="No space left"):
        write_output(path, failing, force=True)
    assert path.read_text() == "a,b\n"  # the old file is intact
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.csv"]  # no temporary left behind
    write_output(path, lambda tmp: tmp.write_text("c,d\n"), force=True)
    assert path.read_text() == "c,d\n"
    umask = os.umask(0)
    os.umask(umask)
    assert os.stat(path).st_mode & 0o777 == 0o666 & ~umask  # a plain file's mode, not mkstemp's 0600
    with pytest.raises(UsageError, match="no such directory"):
        write_output(tmp_path / "missing" / "x.csv", "x", force=False)


def test_plot_options_refuse_to_overwrite_without_force(tmp_path, capsys):
    plot = tmp_path / "a.png"
    plot.write_bytes(b"old")
    puzzle = LETTER_A_FILE
    assert main(["show", puzzle, "--plot", str(plot)]) == 2
    assert main(["anneal", puzzle, "--reads", "5", "--plot", str(plot)]) == 2
    assert capsys.readouterr().err.count("exists; pass --force") == 2
    assert plot.read_bytes() == b"old"
    assert main(["show", puzzle, "--plot", str(plot), "--force"]) == 0
    assert plot.read_bytes()[:4] == b"\x89PNG"
    assert main(["show", puzzle, "--plot", str(tmp_path / "a.bmp")]) == 2
    assert "unsupported extension" in capsys.readouterr().err


# -- unsolvable but well-formed ----------------------------------------------------------------------------


def test_unsolvable_puzzle_reports_lowest_energy_and_broken_lines(tmp_path, capsys):
    # Column 2 needs two stacked cells, but rows 0 and 1 are blank: no board fits, totals agree.
    path = tmp_path / "impossible.px"
    path.write_text("3,3\n0\n0\n2\n0\n0\n2\n")
    # a time budget: with no ground state to stop at, 20 reads of the default sampler take 70 s
    assert main(["anneal", str(path), "--reads", "20", "--seed", "2", "--time-limit", "1", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["solved"] is False and report["energy"] >= 1 and report["broken_lines"]
    assert main(["anneal", str(path), "--reads", "20", "--seed", "2", "--time-limit", "1"]) == 1
    out = capsys.readouterr().out
    assert "NOT SOLVED" in out and "broken lines" in out and "energy" in out


def test_size_message_after_presolve_says_so(letter_a):
    from qpicross.model.size import check_size

    with pytest.raises(ModelTooLargeError) as info:
        check_size(letter_a, known=np.full(letter_a.shape, -1), max_couplers=1, presolved=True)
    assert "after presolve" in str(info.value) and "--presolve" not in str(info.value)
    assert check_size(letter_a, max_couplers=10**7)["num_variables"] == 44


def test_info_above_the_guard_counts_from_the_clues(capsys, monkeypatch):
    monkeypatch.setenv("QPICROSS_MAX_COUPLERS", "10")
    assert main(["info", LETTER_A_FILE]) == 0  # reporting sizes is its job: it counts without building
    out = capsys.readouterr().out
    assert "above the size guard, so counted from the clues, not built" in out and "variables:    44\n" in out
    assert main(["info", LETTER_A_FILE, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["built"] is False and report["num_variables"] == 44
    assert main(["info", LETTER_A_FILE, "--force"]) == 0
