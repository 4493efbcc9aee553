"""CLI tests for ``solve``, ``generate`` and ``anneal --presolve``."""

import json
import sys

import pytest

from qpicross import Puzzle, check, load_puzzle, save_puzzle
from qpicross.cli import main

from puzzles import LETTER_A_BOARD, LETTER_A_FILE


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("method", ["sat", "cpsat"])
def test_solve_json(capsys, method):
    code, out, _ = run(capsys, "solve", LETTER_A_FILE, "--method", method, "--json")
    data = json.loads(out)
    assert code == 0
    assert data["solved"] is True and data["unique"] is True and data["method"] == method
    assert data["board"] == LETTER_A_BOARD and data["time_s"] > 0
    assert data["model"] == ("M3" if method == "cpsat" else None)


@pytest.mark.parametrize("model", ["M1", "M2", "M3"])
def test_solve_cpsat_models_text(capsys, model):
    code, out, _ = run(capsys, "solve", LETTER_A_FILE, "--method", "cpsat", "--model", model)
    assert code == 0 and f"unique solution [cpsat {model}" in out and "# # # # #  | 5" in out


def test_solve_reports_a_second_solution(capsys, tmp_path):
    path = tmp_path / "two.px"
    save_puzzle(Puzzle([[1], [1]], [[1], [1]], name="two"), path)
    code, out, _ = run(capsys, "solve", path)
    assert code == 0 and "NOT unique" in out and "another solution" in out
    code, out, _ = run(capsys, "solve", path, "--json")
    data = json.loads(out)
    assert data["unique"] is False
    assert sorted([data["board"], data["second_board"]]) == [["#.", ".#"], [".#", "#."]]


@pytest.mark.parametrize("method", ["sat", "cpsat", "logic"])
def test_no_solution_exits_1(capsys, tmp_path, method):
    path = tmp_path / "bad.px"
    save_puzzle(Puzzle([[1, 1], [1], [1, 1]], [[3], [1], [1]], name="bad"), path)
    code, out, err = run(capsys, "solve", path, "--method", method)
    assert code == 1 and "no solution" in out and err == ""


def test_solve_logic_shows_unknown_cells(capsys, tmp_path):
    path = tmp_path / "part.px"
    save_puzzle(Puzzle.from_board(["#....", ".##..", "##..#", ".#.##", ".#.#."], name="part"), path)
    code, out, _ = run(capsys, "solve", path, "--method", "logic")
    assert code == 1 and "line logic settles 44.0% of the cells, not solved: 14 cells unknown" in out
    assert "? ? ? . .  | 1" in out
    code, out, _ = run(capsys, "solve", LETTER_A_FILE, "--method", "logic", "--json")
    data = json.loads(out)
    assert code == 0 and data["solved"] and data["unique"] and data["fraction_settled"] == 1.0
    assert data["board"] == LETTER_A_BOARD and data["method"] == "logic"


def test_solve_several_puzzles_and_bad_input(capsys, tmp_path):
    code, out, _ = run(capsys, "solve", LETTER_A_FILE, LETTER_A_FILE, "--json")
    assert code == 0 and len(json.loads(out)) == 2
    bad = tmp_path / "bad.px"
    bad.write_text("5,5\n1\nx\n")
    code, out, err = run(capsys, "solve", LETTER_A_FILE, bad)
    assert code == 2 and out == "" and "bad.px" in err and err.count("\n") == 1


def test_generate_writes_a_unique_puzzle(capsys, tmp_path):
    path = tmp_path / "out.px"
    code, out, _ = run(capsys, "generate", "--size", "6x7", "--density", "0.55", "--seed", "1", "--unique",
                       "-o", path)
    assert code == 0 and "unique solution" in out
    assert out.count("\n") == 1 and "#" not in out  # one line: the solution is not printed (issue 59, item 9)
    puzzle = load_puzzle(path)
    assert puzzle.shape == (6, 7)
    code, out, _ = run(capsys, "solve", path, "--json")
    assert json.loads(out)["unique"] is True
    code, _, err = run(capsys, "generate", "--size", "6x7", "-o", path)
    assert code == 2 and "exists; pass --force" in err
    code, out, _ = run(capsys, "generate", "--size", "6x7", "--seed", "1", "--unique", "-o", path, "--force",
                       "--json")
    data = json.loads(out)
    assert code == 0 and data["unique"] is True and check(load_puzzle(path), data["board"]) == []


def test_generate_to_stdout_and_bad_size(capsys):
    code, out, _ = run(capsys, "generate", "--size", "3x4", "--seed", "2")
    assert code == 0 and out.splitlines()[0] == "3,4" and len(out.splitlines()) == 8
    code, out, err = run(capsys, "generate", "--size", "0x4")
    assert code == 2 and "--size" in err
    code, out, err = run(capsys, "generate", "--density", "2")
    assert code == 2 and "--density" in err


def test_anneal_presolve_json(capsys):
    code, out, _ = run(capsys, "anneal", LETTER_A_FILE, "--presolve", "--json", "--seed", "1")
    data = json.loads(out)
    assert code == 0 and data["solved"] and data["num_variables"] == 0
    assert data["presolve"]["variables_after"] == 0 and data["presolve"]["solved_by_logic"]
    assert data["presolve"]["variables_before"] > 0
    code, out, _ = run(capsys, "anneal", LETTER_A_FILE, "--presolve", "--seed", "1")
    assert "line logic solved the puzzle, nothing left to anneal" in out
    assert "(none)" not in out and "read 1 of" not in out and "success probability" not in out  # no reads to count
    code, out, _ = run(capsys, "anneal", LETTER_A_FILE, "--presolve", "--reads", "10", "--seed", "1")
    assert code == 0 and "nothing left to anneal" in out and "(none)" not in out


@pytest.mark.parametrize("method", ["sat", "cpsat", "logic"])
def test_solve_takes_a_time_limit_for_every_method_and_says_the_size_first(capsys, monkeypatch, method):
    code, out, err = run(capsys, "solve", LETTER_A_FILE, "--method", method, "--time-limit", "none", "--json")
    assert code == 0 and json.loads(out)["solved"] and err == ""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # on a terminal: the size, then a status line
    code, out, err = run(capsys, "solve", LETTER_A_FILE, "--method", method, "--time-limit", "30")
    assert code == 0 and "unique" in out
    if method != "logic":
        size = "109 variables, 354 clauses" if method == "sat" else "83 variables, 176 constraints"
        assert f"5x5 (5x5): about {size} ({method}); time limit 30 s" in err
        assert f"solving 5x5 ({method}, time limit 30 s): 00:00" in err


@pytest.mark.parametrize("limit", ["0", "-1", "nan", "inf", "soon"])
def test_solve_refuses_a_time_limit_that_is_no_number_of_seconds(capsys, limit):
    code, _, err = run(capsys, "solve", LETTER_A_FILE, "--time-limit", limit)
    assert code == 2 and "--time-limit wants a positive number of seconds or 'none'" in err


def test_solve_out_of_time_says_so_and_how_to_lift_the_limit(capsys):
    code, out, _ = run(capsys, "solve", LETTER_A_FILE, "--time-limit", "1e-9")
    assert code == 1 and "no solution found within the time limit (1e-09 s; --time-limit none for no limit)" in out


@pytest.mark.parametrize("found", [False, True])
def test_ctrl_c_during_a_solve_says_interrupted_and_exits_130(capsys, monkeypatch, found):
    """Ctrl-C in a search ends it with what it found (never "within the time limit"), and no further puzzle starts."""
    import qpicross.classical.exact as exact

    real = exact.solve_exact
    calls = []

    def interrupted(puzzle, method, **kwargs):
        calls.append(puzzle.name)
        result = real(puzzle, method, **kwargs)
        status = "solved" if found else "unknown"
        return exact.ExactResult(puzzle, method, status, result.board if found else None, result.time_s,
                                 result.timing, interrupted=True)

    monkeypatch.setattr(exact, "solve_exact", interrupted)
    code, out, _ = run(capsys, "solve", LETTER_A_FILE, LETTER_A_FILE)
    assert code == 130 and len(calls) == 1
    assert ("solved (uniqueness interrupted)" if found else "interrupted before a solution was found") in out
    assert "time limit" not in out
