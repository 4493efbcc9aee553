"""The formulation's promise, proven exhaustively on small puzzles.

For every assignment of the BQM: energy 0 exactly when the assignment encodes
a board that satisfies every clue, and energy >= the smallest weight otherwise.
"""

import itertools

import dimod
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from qpicross import PenaltyWeights, Puzzle, build_formulation, check, decode_sample
from qpicross.model.formulation import TERMS, placement_windows
from puzzles import TWO_DIAGONALS

SMALL_PUZZLES = {
    "2x2 diagonal": TWO_DIAGONALS,
    "2x3": Puzzle([[1, 1], [2]], [[1], [1], [2]]),
    "3x3 corner": Puzzle([[3], [1], [1]], [[3], [1], [1]]),
    "3x3 blank row": Puzzle([[1, 1], [], [3]], [[1, 1], [1], [1, 1]]),
    "3x4": Puzzle.from_board(["##..", "#..#", "####"]),
    "3x3 cross": Puzzle.from_board([".#.", "###", ".#."]),
    "1x5 line": Puzzle([[1, 2]], [[1], [], [1], [1], []]),
    "4x1 line": Puzzle([[1], [], [1], [1]], [[1, 2]]),
    "ambiguous 2x2": Puzzle([[1], [1]], [[1], [1]], name="two solutions"),
}


def all_solutions(puzzle):
    """Every board that satisfies the clues, by brute force over all 2^(rows*cols) boards."""
    n_rows, n_cols = puzzle.shape
    found = []
    for bits in itertools.product((0, 1), repeat=n_rows * n_cols):
        board = np.array(bits, dtype=np.uint8).reshape(n_rows, n_cols)
        if not check(puzzle, board):
            found.append(board)
    return found


def exhaustive(formulation, weights):
    bqm = formulation.bqm(weights)
    assert bqm.num_variables <= 20, "keep the exhaustive tests small"
    sampleset = dimod.ExactSolver().sample(bqm)
    samples = formulation.samples_to_array(sampleset)
    return bqm, samples, np.asarray(sampleset.record.energy)


#: The (puzzle, bounds) pairs whose one-hot BQM is small enough to enumerate: every puzzle with the stacking
#: bounds, and those whose published (looser) bounds keep it within 20 variables.
ENUMERABLE = [(name, bounds) for name in sorted(SMALL_PUZZLES) for bounds in ("stacking", "published")
              if build_formulation(SMALL_PUZZLES[name], bounds=bounds).num_variables <= 20]


def test_every_small_puzzle_is_enumerated_with_the_stacking_bounds():
    assert {name for name, bounds in ENUMERABLE if bounds == "stacking"} == set(SMALL_PUZZLES)
    assert any(bounds == "published" for _, bounds in ENUMERABLE)


@pytest.mark.parametrize("name, bounds", ENUMERABLE)
@pytest.mark.parametrize(
    "weights", [PenaltyWeights(), PenaltyWeights(one_hot=2.5, at_most_one=0.5, order=3, match=0.75)]
)
def test_ground_states_are_exactly_the_solutions(name, bounds, weights):
    puzzle = SMALL_PUZZLES[name]
    formulation = build_formulation(puzzle, bounds=bounds)
    bqm, samples, energies = exhaustive(formulation, weights)
    row_boards = formulation.boards(samples, "row")
    col_boards = formulation.boards(samples, "col")

    zero = np.isclose(energies, 0.0, atol=1e-9)
    # Every zero-energy assignment paints a valid board, the same from rows and columns.
    for k in np.flatnonzero(zero):
        assert check(puzzle, row_boards[k]) == []
        assert (row_boards[k] == col_boards[k]).all()
    # Every other assignment costs at least the smallest weight.
    assert energies[~zero].min() >= weights.smallest - 1e-9
    # And zero-energy assignments are in one-to-one correspondence with solutions.
    solutions = all_solutions(puzzle)
    assert zero.sum() == len(solutions) > 0
    for board in solutions:
        assert bqm.energy(formulation.sample_from_board(board)) == pytest.approx(0.0)


def test_ambiguous_puzzle_has_two_ground_states():
    formulation = build_formulation(SMALL_PUZZLES["ambiguous 2x2"])
    _, _, energies = exhaustive(formulation, PenaltyWeights())
    assert np.isclose(energies, 0).sum() == 2


@pytest.mark.parametrize("name", sorted(SMALL_PUZZLES))
def test_violation_amounts_add_up_to_term_energies(name):
    """decode_sample's per-place amounts sum to each term's energy, on every assignment."""
    formulation = build_formulation(SMALL_PUZZLES[name])
    rng = np.random.default_rng(0)
    for _ in range(200):
        x = rng.integers(0, 2, formulation.num_variables)
        read = decode_sample(formulation, x)
        for term in TERMS:
            total = sum(v.amount for v in read.violations if v.term == term)
            assert total == pytest.approx(read.term_energies[term]), term


def test_weighted_bqm_is_the_weighted_sum_of_terms(letter_a):
    formulation = build_formulation(letter_a)
    weights = PenaltyWeights(one_hot=2, at_most_one=0.5, order=3, match=1.5)
    expected = sum((w * formulation.term_bqm(name) for name, w in weights.as_dict().items()),
                   dimod.BinaryQuadraticModel(dimod.BINARY))
    got = formulation.bqm(weights)
    rng = np.random.default_rng(1)
    for _ in range(50):
        sample = dict(zip(formulation.labels, rng.integers(0, 2, formulation.num_variables).tolist()))
        assert got.energy(sample) == pytest.approx(expected.energy(sample))


def test_labels_and_stacking_bounds(letter_a):
    formulation = build_formulation(letter_a)
    assert ("row", 3, 0, 0) in formulation.labels  # the 5 in row 3 can only start at column 0
    assert not any(lab[:2] == ("row", 3) and lab[2] != 0 for lab in formulation.labels)
    assert ("col", 2, 0, 0) in formulation.labels
    assert formulation.num_variables < build_formulation(letter_a, bounds="published").num_variables


def test_placement_windows_match_the_cp_report():
    # x_k >= sum_{k'<k} b_k' + k  and  x_k <= m - (K - k - 1) - sum_{k'>=k} b_k'
    clue, m = [3, 1, 2], 12
    for k, (lo, hi) in enumerate(placement_windows(clue, m)):
        assert lo == sum(clue[:k]) + k
        assert hi == m - (len(clue) - k - 1) - sum(clue[k:])


boards = st.integers(1, 9).flatmap(
    lambda r: st.integers(1, 9).flatmap(
        lambda c: st.lists(st.lists(st.integers(0, 1), min_size=c, max_size=c), min_size=r, max_size=r)
    )
)


@settings(max_examples=150, deadline=None)
@given(boards, st.sampled_from(["stacking", "published"]))
def test_planted_solution_has_energy_zero(board, bounds):
    puzzle = Puzzle.from_board(board)
    formulation = build_formulation(puzzle, bounds=bounds)
    bqm = formulation.bqm()
    sample = formulation.sample_from_board(np.array(board))
    assert bqm.energy(sample) == 0.0
    read = decode_sample(formulation, sample)
    assert read.solved and read.boards_agree and read.violations == []
    assert (read.board == np.array(board)).all()


@settings(max_examples=60, deadline=None)
@given(boards, st.integers(0, 2**32 - 1))
def test_presolve_knowledge_keeps_the_planted_solution(board, seed):
    """Pruning and fixing with cells of the solution keep its energy at 0."""
    board = np.array(board, dtype=np.int8)
    puzzle = Puzzle.from_board(board)
    rng = np.random.default_rng(seed)
    known = np.where(rng.random(board.shape) < 0.5, board, -1)
    formulation = build_formulation(puzzle, known=known)
    full = formulation.sample_from_board(board) if formulation.num_variables else {}
    bqm = formulation.bqm()
    assert bqm.energy({lab: full[lab] for lab in bqm.variables}) == pytest.approx(0.0)
    read = decode_sample(formulation, {lab: full[lab] for lab in formulation.labels})
    assert read.solved


def test_fully_known_board_leaves_nothing_to_anneal(letter_a):
    board = np.array([[0, 0, 1, 0, 0], [0, 1, 0, 1, 0], [0, 1, 0, 1, 0], [1, 1, 1, 1, 1], [1, 0, 0, 0, 1]])
    formulation = build_formulation(letter_a, known=board)
    assert formulation.num_variables == 0
    assert len(formulation.fixed_labels) == 14
    assert formulation.bqm().offset == 0


def test_contradictory_knowledge_is_an_error(letter_a):
    known = -np.ones(letter_a.shape, dtype=int)
    known[3, :] = 0  # row 3 is a full 5: it cannot be blank
    with pytest.raises(ValueError, match="no start"):
        build_formulation(letter_a, known=known)


def test_info_counts(letter_a):
    info = build_formulation(letter_a).info()
    assert info["num_variables"] == 44
    assert info["terms"]["one_hot"]["offset"] == 14  # one per block: 8 row blocks + 6 column blocks
    assert info["terms"]["last_block"]["pruned_variables"] == info["num_published_variables"] - 44
    assert set(info["terms"]) == set(TERMS) | {"last_block"}


@pytest.mark.parametrize("text", ["one_hot=x", "bogus=1", "one_hot"])
def test_bad_weights(text):
    with pytest.raises(ValueError):
        PenaltyWeights.parse(text)
    with pytest.raises(ValueError):
        PenaltyWeights(one_hot=-1)
