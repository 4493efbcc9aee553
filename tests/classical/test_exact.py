import itertools

import numpy as np
import pytest

from qpicross import Puzzle, check, load_puzzle
from qpicross.classical.exact import MODELS, solve_cpsat, solve_exact
from qpicross.classical.sat import encode_sat, solve_sat
from qpicross.puzzle import line_runs
from conftest import INSTANCES
from puzzles import CORNER, TWO_DIAGONALS


def brute_force_solutions(puzzle: Puzzle, limit: int = 3) -> list[np.ndarray]:
    """Up to ``limit`` solutions, by enumerating each row's fitting lines and checking columns."""
    n_rows, n_cols = puzzle.shape
    candidates = []
    for clue in puzzle.rows:
        lines = [np.array(b) for b in itertools.product((0, 1), repeat=n_cols) if line_runs(b) == clue]
        candidates.append(lines)
    found = []
    for rows in itertools.product(*candidates):
        board = np.array(rows)
        if all(line_runs(board[:, j]) == puzzle.cols[j] for j in range(n_cols)):
            found.append(board)
            if len(found) >= limit:
                break
    return found


def tiny_puzzles():
    """Planted random puzzles (unique or not) and clue pairs from two boards (often unsolvable)."""
    rng = np.random.default_rng(2024)
    puzzles = [Puzzle([[1], [1]], [[1], [1]], name="two-diagonals"),
               Puzzle([[1, 1], [1], [1, 1]], [[3], [1], [1]], name="unsolvable")]
    for n in range(30):
        shape = tuple(rng.integers(2, 5, size=2))
        a = (rng.random(shape) < 0.5).astype(int)
        if n % 3 == 2:
            b = a.copy()
            rng.shuffle(b.reshape(-1))  # same number of filled cells, other columns
            puzzles.append(Puzzle([line_runs(r) for r in a], [line_runs(c) for c in b.T], name=f"mixed{n}"))
        else:
            puzzles.append(Puzzle.from_board(a, name=f"planted{n}"))
    return puzzles


@pytest.mark.parametrize("puzzle", tiny_puzzles(), ids=lambda p: p.name)
def test_exact_solvers_agree_with_brute_force(puzzle):
    solutions = brute_force_solutions(puzzle)
    expected = {0: "infeasible", 1: "unique"}.get(len(solutions), "multiple")
    results = [solve_sat(puzzle)] + [solve_cpsat(puzzle, model=m) for m in MODELS]
    for result in results:
        assert result.status == expected, (result.method, result.model)
        assert result.unique is (expected == "unique")
        if solutions:
            assert result.solved and check(puzzle, result.board) == []
            assert any((result.board == s).all() for s in solutions)
        else:
            assert not result.solved and result.board is None
        if expected == "multiple":
            assert check(puzzle, result.second_board) == []
            assert (result.second_board != result.board).any()
        if expected == "unique":
            assert (result.board == solutions[0]).all()


def test_without_uniqueness_check_and_bad_arguments():
    puzzle = TWO_DIAGONALS
    assert solve_exact(puzzle, "sat", check_unique=False).status == "solved"
    result = solve_exact(puzzle, "cpsat", check_unique=False)
    assert result.status == "solved" and result.unique is None and "second_s" not in result.timing
    with pytest.raises(ValueError, match="unknown method"):
        solve_exact(puzzle, "magic")
    with pytest.raises(ValueError, match="unknown model"):
        solve_cpsat(puzzle, model="M4")


def test_to_dict_has_the_anneal_keys():
    data = solve_exact(CORNER, "sat").to_dict()
    assert data["solved"] is True and data["unique"] is True and data["method"] == "sat"
    assert data["board"] == ["##", "#."] and data["time_s"] > 0
    assert set(data["timing"]) == {"build_s", "first_s", "second_s"}


def test_sat_encoding_is_compact():
    # One 60-cell line with 20 blocks of 1: the DNF->CNF expansion would be astronomically
    # large (C(41, 20) placements); the order encoding stays linear in L * K.
    clue = [1] * 20
    puzzle = Puzzle([clue], [[1] if j % 3 == 0 else [] for j in range(60)][:60])
    clauses, num_vars = encode_sat(puzzle)
    line_cells = 60
    assert len(clauses) < 10 * line_cells * len(clue) + 10 * 60
    assert num_vars < 3 * line_cells * len(clue) + 60


def test_bompol_uniqueness(shared_instances):
    paths = sorted((shared_instances / "bompol").glob("*.px"))
    assert len(paths) == 17
    for path in paths:
        puzzle = load_puzzle(path)
        result = solve_sat(puzzle)
        assert result.solved and check(puzzle, result.board) == [], path.name
        assert result.unique is (puzzle.name != "phantom"), path.name


@pytest.mark.parametrize("name", ["knife", "ouhbatman", "ratz"])
def test_bompol_cpsat_matches_sat(shared_instances, name):
    puzzle = load_puzzle(shared_instances / "bompol" / f"{name}.px")
    cp, sat = solve_cpsat(puzzle), solve_sat(puzzle)
    assert cp.unique and sat.unique
    assert (cp.board == sat.board).all()


def test_a_search_stops_at_ctrl_c_and_at_its_time_limit():
    """The wait loop stops a running search (here one that only returns once stopped) with the solver's own stop."""
    import math
    import threading
    import time

    from qpicross.classical.search import search as _search

    stop = threading.Event()

    def search_until_stopped():
        stop.wait(60)
        return "stopped" if stop.is_set() else "ran on"

    def ctrl_c(elapsed):
        raise KeyboardInterrupt

    assert _search(search_until_stopped, stop.set, math.inf, ctrl_c, time.perf_counter()) == ("stopped", "interrupted")
    stop.clear()
    now = time.perf_counter()
    assert _search(search_until_stopped, stop.set, now, None, now) == ("stopped", "time_limit")
    assert _search(lambda: 7, stop.set, math.inf, None, now) == (7, None)


@pytest.mark.parametrize("method", ["sat", "cpsat"])
def test_a_spent_time_limit_gives_unknown_and_none_is_no_limit(method, letter_a):
    out_of_time = solve_exact(letter_a, method, time_limit_s=1e-9)
    assert out_of_time.status == "unknown" and not out_of_time.solved and not out_of_time.interrupted
    assert solve_exact(letter_a, method, time_limit_s=None).unique
    with pytest.raises(ValueError, match="time_limit_s"):
        solve_exact(letter_a, method, time_limit_s=0)


@pytest.mark.parametrize("method", ["sat", "cpsat"])
def test_size_estimates_count_the_variables_built(method):
    from qpicross.classical.exact import estimate_size

    puzzle = load_puzzle(INSTANCES / "boat12.px")
    estimate = estimate_size(puzzle, method)
    if method == "sat":
        clauses, num_vars = encode_sat(puzzle)
        built = {"variables": num_vars, "clauses": len(clauses)}
    else:
        built = solve_cpsat(puzzle, model="M3").size
    assert estimate["variables"] == built["variables"]
    key = "clauses" if method == "sat" else "constraints"
    assert built[key] <= estimate[key] <= 1.5 * built[key]


def test_a_second_ctrl_c_is_raised_once_the_stopped_search_has_returned():
    """Freeing a solver while its search still runs crashes the process (python-sat): a second Ctrl-C waits for the
    search to return, then ends the solve."""
    import _thread
    import math
    import threading
    import time

    from qpicross.classical.search import search as _search

    stopped, returned = threading.Event(), threading.Event()

    def slow_to_stop():
        stopped.wait(60)
        time.sleep(1.0)  # the solver winding down
        returned.set()

    def stop():
        stopped.set()
        threading.Timer(0.2, _thread.interrupt_main).start()  # the second Ctrl-C, while the search winds down

    def ctrl_c(elapsed):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _search(slow_to_stop, stop, math.inf, ctrl_c, time.perf_counter())
    assert returned.is_set()
