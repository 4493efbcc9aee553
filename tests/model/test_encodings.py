"""Every encoding a generic sampler may anneal keeps the formulation's promise, proven exhaustively.

For the thermometer encoding (also reduced by presolve), the domain-wall encoding and the
one-hot model reduced by presolve: enumerate every assignment of small puzzles' BQMs with ``dimod.ExactSolver``; the
zero-energy assignments are exactly the solutions (one to one), and every other assignment
costs at least the smallest weight the encoding uses.
"""

import dimod
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from qpicross import PenaltyWeights, Puzzle, SolverConfig, anneal, build_formulation, check, load_puzzle
from qpicross.classical.presolve import fix_variables, presolve, presolve_formulation
from qpicross.model.domain_wall import domain_wall_bqm
from qpicross.model.thermometer import THERMOMETER_TERMS, thermometer_bqm

from conftest import INSTANCES
from test_formulation import SMALL_PUZZLES, all_solutions
from puzzles import LETTER_A_FILE, PARTLY_LOGICAL_4X4

SKEWED = PenaltyWeights(one_hot=2.5, at_most_one=0.5, order=3, match=0.75)


def assert_ground_states_are_solutions(puzzle, formulation, bqm, to_one_hot, smallest_weight):
    """Zero energy <=> a solution, one to one; everything else >= ``smallest_weight``."""
    assert 0 < bqm.num_variables <= 20, "keep the exhaustive tests small"
    sampleset = dimod.ExactSolver().sample(bqm)
    samples = np.asarray(sampleset.record.sample)[:, [list(sampleset.variables).index(v) for v in bqm.variables]]
    energies = np.asarray(sampleset.record.energy)
    zero = np.isclose(energies, 0.0, atol=1e-9)
    one_hot = to_one_hot(samples[zero])
    boards = formulation.boards(one_hot, "row")
    for k in range(len(boards)):
        assert check(puzzle, boards[k]) == []
        assert (boards[k] == formulation.boards(one_hot[k:k + 1], "col")[0]).all()
    solutions = all_solutions(puzzle)
    assert zero.sum() == len(solutions) > 0
    assert {b.tobytes() for b in boards} == {np.asarray(s, np.uint8).tobytes() for s in solutions}
    if (~zero).any():
        assert energies[~zero].min() >= smallest_weight - 1e-9


def used_smallest(weights, names):
    return min(getattr(weights, n) for n in names)


# -- thermometer ----------------------------------------------------------------------------

def _pairs(size) -> list[tuple[str, str]]:
    """The (puzzle, bounds) pairs of the small puzzles whose encoded BQM has a size ``size`` accepts."""
    return [(name, bounds) for name in sorted(SMALL_PUZZLES) for bounds in ("stacking", "published")
            if size(build_formulation(SMALL_PUZZLES[name], bounds=bounds))]


#: Pairs whose thermometer BQM has variables (where every block has one start it has none: nothing to enumerate).
THERMOMETER_PAIRS = _pairs(lambda f: thermometer_bqm(f, PenaltyWeights()).bqm.num_variables > 0)
#: Pairs whose domain-wall BQM has between 1 and 20 variables.
DOMAIN_WALL_PAIRS = _pairs(lambda f: 0 < domain_wall_bqm(f, PenaltyWeights(one_hot=4)).bqm.num_variables <= 20)


def test_the_enumerated_pairs_leave_out_only_models_without_variables_or_too_large():
    assert len(THERMOMETER_PAIRS) >= len(SMALL_PUZZLES) and len(DOMAIN_WALL_PAIRS) >= len(SMALL_PUZZLES)
    for name in SMALL_PUZZLES:
        for bounds in ("stacking", "published"):
            formulation = build_formulation(SMALL_PUZZLES[name], bounds=bounds)
            if (name, bounds) not in THERMOMETER_PAIRS:  # every block has one start: presolved away entirely
                assert thermometer_bqm(formulation, PenaltyWeights()).bqm.num_variables == 0


@pytest.mark.parametrize("name, bounds", THERMOMETER_PAIRS)
@pytest.mark.parametrize("weights", [PenaltyWeights(), SKEWED])
def test_thermometer_ground_states_are_exactly_the_solutions(name, bounds, weights):
    puzzle = SMALL_PUZZLES[name]
    formulation = build_formulation(puzzle, bounds=bounds)
    model = thermometer_bqm(formulation, weights)
    assert model.bqm.num_variables > 0  # the same for every weight: the pairs are chosen with the default ones
    assert_ground_states_are_solutions(puzzle, formulation, model.bqm, model.to_one_hot,
                                       used_smallest(weights, set(THERMOMETER_TERMS.values())))


def test_thermometer_is_smaller_than_one_hot_at_scale():
    f = build_formulation(load_puzzle(INSTANCES / "boat12.px"))
    model = thermometer_bqm(f)
    assert model.bqm.num_variables < f.num_variables
    assert model.bqm.num_interactions < f.bqm().num_interactions


boards = st.integers(1, 8).flatmap(
    lambda r: st.integers(1, 8).flatmap(
        lambda c: st.lists(st.lists(st.integers(0, 1), min_size=c, max_size=c), min_size=r, max_size=r)))


@settings(max_examples=60, deadline=None)
@given(boards, st.sampled_from(["stacking", "published"]), st.integers(0, 2**32 - 1))
def test_thermometer_planted_board_round_trip(board, bounds, seed):
    """A planted board's code has energy 0 and maps back to its start variables; also with known cells."""
    board = np.array(board, np.int8)
    puzzle = Puzzle.from_board(board)
    known = None
    if seed % 2:  # prune by some cells of the solution (fixed blocks become constants)
        known = np.where(np.random.default_rng(seed).random(board.shape) < 0.5, board, -1)
    f = build_formulation(puzzle, bounds=bounds, known=known)
    model = thermometer_bqm(f, SKEWED)
    one_hot = f.sample_from_board(board) if not f.fixed_labels else {
        v: x for v, x in build_formulation(puzzle, bounds=bounds).sample_from_board(board).items() if v in f.labels}
    bits = model.from_one_hot(one_hot)
    assert model.bqm.energy(bits) == pytest.approx(0.0) if bits else model.bqm.offset == pytest.approx(0.0)
    back = model.to_one_hot([[bits[v] for v in model.bqm.variables]])[0]
    assert back.tolist() == [one_hot[v] for v in f.labels]


def test_thermometer_run_solves_house8_with_plain_sa():
    result = anneal(load_puzzle(INSTANCES / "house8.px"), SolverConfig(encoding="thermometer", num_reads=5,
                                                                       num_sweeps=1000, seed=3))
    assert result.solved
    assert result.sampled_bqm.num_variables < result.bqm.num_variables
    dimod.testing.assert_sampleset_energies(result.sampleset, result.bqm)


# -- domain wall ---------------------------------------------------------------------------

@pytest.mark.parametrize("name, bounds", DOMAIN_WALL_PAIRS)
def test_domain_wall_ground_states_are_the_solutions_with_a_strong_wall(name, bounds):
    """With the wall weight at 4 (others 1) the promise holds on every small puzzle small enough to enumerate."""
    puzzle = SMALL_PUZZLES[name]
    formulation = build_formulation(puzzle, bounds=bounds)
    weights = PenaltyWeights(one_hot=4)
    model = domain_wall_bqm(formulation, weights)
    assert_ground_states_are_solutions(puzzle, formulation, model.bqm, model.to_one_hot, 1.0)


@pytest.mark.parametrize("wall, name, bounds", [(1, "3x4", "stacking"), (1, "3x3 corner", "stacking"),
                                                (2, "3x4", "published")])
def test_domain_wall_with_a_weak_wall_breaks_the_promise(wall, name, bounds):
    """Broken walls read as q = -1 make order / at-most-one products negative: energy <= 0 off the solutions.

    This is why the study tunes the domain-wall weight and why the thermometer encoding exists.
    """
    puzzle = SMALL_PUZZLES[name]
    formulation = build_formulation(puzzle, bounds=bounds)
    model = domain_wall_bqm(formulation, PenaltyWeights(one_hot=wall))
    energies = dimod.ExactSolver().sample(model.bqm).record.energy
    assert np.isclose(energies, 0).sum() + (energies < -1e-9).sum() > len(all_solutions(puzzle))


# -- one-hot reduced by presolve ---------------------------------------------------------

#: Puzzles that line logic settles only in part (the reduced model still has variables).
PARTLY_SETTLED = {
    "4x4": PARTLY_LOGICAL_4X4,
    "4x3": Puzzle.from_board(["###", ".#.", "##.", ".##"]),
    "3x4": Puzzle.from_board([".##.", "..##", "..##"]),
    "3x3 corners": Puzzle.from_board(["..#", "...", "#.."]),
}


@pytest.mark.parametrize("name", sorted(PARTLY_SETTLED))
@pytest.mark.parametrize("weights", [PenaltyWeights(), SKEWED])
def test_presolved_ground_states_are_exactly_the_solutions(name, weights):
    puzzle = PARTLY_SETTLED[name]
    formulation = build_formulation(puzzle)
    found = presolve(formulation)
    assert not found.logic.solved and 0 < len(found.fixed) < formulation.num_variables
    reduced = fix_variables(formulation.bqm(weights), found.fixed)

    def to_one_hot(samples):
        full = np.zeros((len(samples), formulation.num_variables), np.int8)
        index = {v: i for i, v in enumerate(formulation.labels)}
        for v, x in found.fixed.items():
            full[:, index[v]] = x
        full[:, [index[v] for v in reduced.variables]] = samples
        return full

    assert_ground_states_are_solutions(puzzle, formulation, reduced, to_one_hot, weights.smallest)


# -- thermometer reduced by presolve -------------------------------------------------------

def test_domain_wall_refuses_presolve_and_thermometer_takes_it():
    with pytest.raises(ValueError, match="one-hot and thermometer encodings only"):
        SolverConfig(encoding="domain_wall", presolve=True).validate()
    SolverConfig(encoding="thermometer", presolve=True).validate()


@pytest.mark.parametrize("name", sorted(PARTLY_SETTLED))
@pytest.mark.parametrize("weights", [PenaltyWeights(), SKEWED])
def test_presolved_thermometer_ground_states_are_exactly_the_solutions(name, weights):
    """Line logic prunes the starts it rules out and makes the blocks it places constants; the
    thermometer model of what is left still has exactly the solutions as its zero-energy states."""
    puzzle = PARTLY_SETTLED[name]
    full = build_formulation(puzzle)
    formulation, report = presolve_formulation(full)
    assert 0 < formulation.num_variables == report["variables_after"] < full.num_variables
    model = thermometer_bqm(formulation, weights)
    assert 0 < model.bqm.num_variables < thermometer_bqm(full, weights).bqm.num_variables
    assert_ground_states_are_solutions(puzzle, formulation, model.bqm, model.to_one_hot,
                                       used_smallest(weights, set(THERMOMETER_TERMS.values())))


@settings(max_examples=60, deadline=None)
@given(boards, st.integers(0, 2**32 - 1))
def test_presolved_thermometer_keeps_a_planted_board(board, seed):
    """Whatever board is planted, its code survives the presolve with energy 0, and the pipeline's
    presolved thermometer run judges that code a solution."""
    board = np.array(board, np.int8)
    puzzle = Puzzle.from_board(board)
    formulation, report = presolve_formulation(build_formulation(puzzle))
    assert not report["contradiction"]
    planted = build_formulation(puzzle).sample_from_board(board)
    model = thermometer_bqm(formulation, SKEWED)
    bits = model.from_one_hot({v: planted[v] for v in formulation.labels})
    energy = model.bqm.energy(bits) if bits else model.bqm.offset
    assert energy == pytest.approx(0.0)
    for label in formulation.fixed_labels:  # a block logic placed is where the planted board has it
        assert planted[label] == 1


def test_presolved_thermometer_run_anneals_fewer_bits_and_solves():
    puzzle = PARTLY_SETTLED["4x4"]
    plain = anneal(puzzle, SolverConfig(sampler="sa", encoding="thermometer", num_reads=20, num_sweeps=200, seed=1))
    pre = anneal(puzzle, SolverConfig(sampler="sa", encoding="thermometer", presolve=True, num_reads=20,
                                      num_sweeps=200, seed=1))
    assert pre.solved and check(puzzle, pre.board) == []
    assert 0 < pre.presolve["variables_annealed"] == pre.sampled_bqm.num_variables < plain.sampled_bqm.num_variables
    assert pre.to_dict()["num_variables"] == pre.sampled_bqm.num_variables
    assert pre.timing["presolve_s"] <= pre.timing["sample_s"]
    # the presolve's counts are those of the thermometer model annealed, not of the one-hot starts
    assert (pre.presolve["variables_before"], pre.presolve["variables_after"]) == (
        plain.sampled_bqm.num_variables, pre.sampled_bqm.num_variables)


def test_presolved_thermometer_run_when_logic_settles_everything():
    r = anneal(load_puzzle(LETTER_A_FILE), SolverConfig(sampler="sa", encoding="thermometer", presolve=True,
                                                                num_reads=3, seed=1))
    assert r.solved and r.presolve["solved_by_logic"] and r.presolve["variables_annealed"] == 0
    assert (r.presolve["variables_before"], r.presolve["variables_after"]) == (30, 0)  # thermometer bits
    assert r.sampled_bqm.num_variables == 0


@pytest.mark.parametrize("presolved", [False, True], ids=["whole", "presolved"])
@pytest.mark.parametrize("pair", THERMOMETER_PAIRS, ids=lambda p: f"{p[0]}-{p[1]}")
def test_thermometer_bit_spans_hold_every_cell_the_bit_meets(pair, presolved):
    """A row bit and a column bit are coupled by the match term only at their shared cell: that cell lies in both
    bits' spans (``bit_spans``), and every bit of a block lies on its block's line (after line logic too, where a
    block's starts need not be consecutive)."""
    formulation = build_formulation(SMALL_PUZZLES[pair[0]], bounds=pair[1])
    if presolved:
        formulation = presolve_formulation(formulation)[0]
    model = thermometer_bqm(formulation, PenaltyWeights())
    spans = model.bit_spans()
    assert set(spans) == set(model.bqm.variables)
    for (_, axis, line, _, start), (span_axis, span_line, first, last) in spans.items():
        assert (span_axis, span_line) == (axis, line) and 0 <= first < start <= last
    for u, v in model.terms["match"].quadratic:
        if u[1] == v[1]:  # two bits of one line share a cell: their spans overlap
            assert u[2] == v[2] and max(spans[u][2], spans[v][2]) <= min(spans[u][3], spans[v][3]), (u, v)
            continue
        row, col = (u, v) if u[1] == "row" else (v, u)
        cell_col, cell_row = col[2], row[2]  # the row bit's cell is in column col[2], the column bit's in row row[2]
        assert spans[row][2] <= cell_col <= spans[row][3], (row, col)
        assert spans[col][2] <= cell_row <= spans[col][3], (row, col)
