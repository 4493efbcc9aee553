"""benchmarks.window_exchange: the exchanges one ladder keeps, counted by the kernels that keep them."""

from benchmarks.window_exchange import exchange_rates, window_table
from qpicross import Puzzle
from tests.benchmarks.test_stall import RANDOM_30  # a 30x30 board: a few sweeps leave broken lines


def test_counts_are_of_the_ladder_and_the_energy_is_the_bqms():
    row = exchange_rates(Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]]), windows=(1, 2, 0),
                         sweeps=40, burn_in=20)
    assert row["best_energy"] == 0.0  # the ladder found the solution: the BQM's ground energy, not the chain's
    assert [w["lines"] for w in row["windows"]] == [1, 2, 5] and row["free_lines"] == 5
    assert all(w["attempts"] == 40 * (row["rungs"] - 1) for w in row["windows"])
    hard = exchange_rates(RANDOM_30, windows=(1, 8), sweeps=30, burn_in=5)
    assert hard["best_energy"] > 0 and 0 < hard["replica_kept"] < hard["replica_attempts"]
    assert sum(w["kept"] for w in hard["windows"]) > 0  # some windows are kept on a ladder far from its ground state
    assert len(window_table([hard]).splitlines()) == 5  # header, rule, the row, a blank line, the note
