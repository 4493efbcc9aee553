import numpy as np
import pytest

from qpicross import check, load_puzzle
from qpicross.classical.sat import solve_sat
from qpicross.classical.generate import generate_puzzle, parse_size, random_board


def test_generated_puzzle_is_its_boards_clues_and_reproducible():
    a = generate_puzzle((7, 9), density=0.4, seed=5)
    b = generate_puzzle((7, 9), density=0.4, seed=5)
    assert a.puzzle.shape == (7, 9) and a.unique is None and a.tries == 1
    assert check(a.puzzle, a.board) == []
    assert a.puzzle.rows == b.puzzle.rows and a.puzzle.cols == b.puzzle.cols
    assert (a.board == b.board).all()


def test_unique_retries_until_the_exact_solver_proves_uniqueness():
    # Sparse boards are often not unique: with this seed the generator rejects some first.
    g = generate_puzzle((5, 5), density=0.3, seed=4, unique=True)
    assert g.unique is True and g.tries > 1
    assert solve_sat(g.puzzle).unique
    assert check(g.puzzle, g.board) == []


def test_gives_up_after_max_tries(monkeypatch):
    import qpicross.classical.generate as gen

    # Every draw is the 2x2 diagonal, whose clues also fit the other diagonal: never unique.
    monkeypatch.setattr(gen, "random_board", lambda shape, density, rng: np.eye(2, dtype=np.uint8))
    with pytest.raises(RuntimeError, match="no puzzle with a unique solution in 3"):
        gen.generate_puzzle((2, 2), unique=True, max_tries=3)


def test_a_ctrl_c_in_the_uniqueness_check_stops_the_drawing(monkeypatch):
    """The exact solvers answer Ctrl-C by returning what they had (``interrupted``): the generator must not take
    that for "not unique" and draw the next board, up to max_tries of them."""
    import qpicross.classical.exact as exact

    solves = []

    def interrupted_solve(puzzle, method):
        solves.append(puzzle)
        return exact.ExactResult(puzzle=puzzle, method="sat", status="unknown", board=None, time_s=0.0, timing={},
                                 interrupted=True)

    monkeypatch.setattr(exact, "solve_exact", interrupted_solve)
    with pytest.raises(KeyboardInterrupt):
        generate_puzzle((5, 5), seed=1, unique=True, max_tries=50)
    assert len(solves) == 1


def test_density_extremes_and_bad_arguments():
    rng = np.random.default_rng(0)
    assert random_board((3, 4), 0.0, rng).sum() == 0
    assert random_board((3, 4), 1.0, rng).sum() == 12
    with pytest.raises(ValueError):
        generate_puzzle((3, 3), density=1.5)
    with pytest.raises(ValueError):
        parse_size("ax3")
    assert parse_size("4") == (4, 4) and parse_size("15x20") == (15, 20)


def test_density_is_respected_on_average():
    boards = [generate_puzzle((20, 20), density=0.55, seed=s).board for s in range(5)]
    assert abs(np.mean(boards) - 0.55) < 0.03


def test_saved_puzzle_loads_back(tmp_path):
    from qpicross import save_puzzle

    g = generate_puzzle((6, 6), seed=3, unique=True)
    save_puzzle(g.puzzle, tmp_path / "g.px")
    loaded = load_puzzle(tmp_path / "g.px")
    assert loaded.rows == g.puzzle.rows and loaded.cols == g.puzzle.cols
