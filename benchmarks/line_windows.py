"""How many lines a move must change to leave the annealer's low states (issue 58, item 2), found exactly.

The reads of the unsolved survey puzzles end in distinct false minima far from the solution (``make bench-traps``).
A heat-bath move of two (or more) neighbouring lines at once, the first move issue 58 names, can only leave one if
some window of that many lines, re-arranged together with every other line held, lowers the energy; at a low
temperature it otherwise returns the lines where they were. This asks that of every window, exactly.

For each puzzle and free axis (rows, then columns): one ladder of the profile chain (begun as the stall study begins
one, :func:`benchmarks.stall.start_ladder`; the ladder of a restart ``2^LEVEL`` units long with the plan's rungs),
``sweeps`` sweeps, then its lowest replica's state. For each window of ``k`` consecutive free lines (every place,
each ``k`` of ``sizes``), the lowest profile energy over every clue-consistent arrangement of those ``k`` lines, the
others held and the profiled lines minimised out as the chain does: the cost of each profiled line for each of the
``2^k`` values of the cells the window has on it (the chain's own max-plus pass,
:func:`qpicross.samplers.blockshift.profile.column`), and OR-tools' CP-SAT over the window's cells (each line an
automaton of its clue, each profiled line's cost a table over its ``k`` cells). A window lowers the state where that
optimum is below the state's energy; it is the best a heat-bath move of those lines could reach.

``python -m benchmarks.line_windows FILE... --json results/line_windows.json`` (``make bench-line-windows``; needs
the ``classical`` extra, in ``make test``'s install).

>>> from qpicross import Puzzle
>>> row = window_gains(Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]]), sweeps=0,
...                    sizes=(5,))
>>> row["state_energy"] >= 0, row["windows"][0]["windows"], row["windows"][0]["lowest"]  # every row free: a solution
(True, 1, 0.0)
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time

import numpy as np

from benchmarks.stall import start_ladder
from benchmarks.survey import survey_name
from qpicross import load_puzzle

__all__ = ["line_automaton", "window_lowest", "window_gains", "windows_table", "main", "SIZES", "SWEEPS", "LEVEL"]

#: Window sizes (consecutive free lines), sweeps before the state is taken, the ladder's Luby level.
SIZES, SWEEPS, LEVEL = (1, 2, 3), 4000, 2
#: Seconds CP-SAT may take on one window (a window it does not close in time is counted apart, not as a gain).
WINDOW_LIMIT_S = 60.0


def line_automaton(lengths) -> tuple[int, list[int], list[tuple[int, int, int]]]:
    """``(start, finals, transitions)`` of the lines of these block lengths, for CP-SAT's ``AddAutomaton``: a
    transition ``(state, cell, next)`` reads one cell (0 blank, 1 painted), blocks in order, at least one blank
    between two.

    >>> start, finals, moves = line_automaton([2, 1])
    >>> def accepts(cells):
    ...     state = start
    ...     for c in cells:
    ...         state = next((b for a, v, b in moves if a == state and v == c), None)
    ...         if state is None:
    ...             return False
    ...     return state in finals
    >>> [accepts(c) for c in ([1, 1, 0, 1], [0, 1, 1, 0, 1, 0], [1, 1, 1, 0], [1, 1, 0, 0], [1, 0, 1, 1])]
    [True, True, False, False, False]
    """
    moves, gap, fresh = [(0, 0, 0)], 0, 1  # gap: the state before the next block (its blanks loop)
    finals = [0] if not len(lengths) else []
    for k, length in enumerate(lengths):
        state = gap
        for _ in range(int(length)):
            moves.append((state, 1, fresh))
            state, fresh = fresh, fresh + 1
        if k == len(lengths) - 1:
            finals.append(state)  # the last block may end the line
        gap, fresh = fresh, fresh + 1
        moves += [(state, 0, gap), (gap, 0, gap)]
    if len(lengths):
        finals.append(gap)
    return 0, finals, moves


def _window_tables(run, r: int, lines: list[int]) -> list[list[tuple[int, ...]]]:
    """For each profiled line: ``(cell values..., cost)`` for every value of the cells the free ``lines`` have on
    it, the cost its fewest mismatches with replica ``r``'s other cells (the chain's :func:`~qpicross.samplers.
    blockshift.profile.column`)."""
    from qpicross.samplers.blockshift.chains import PROFILE

    board, pmodel = run.data[1], run.data[2]
    work = run.work
    own = work.boards[r, 0].copy()
    marg = work.marg[r].copy()  # not written: no marginals asked for
    tables = []
    for j in range(len(pmodel.prof_chain)):
        cells = [int(board.cell0[c] + j * board.stride[c]) for c in lines]
        assert all(pmodel.cross[cell] == j for cell in cells)  # free line c meets profiled line j there
        saved = own[cells].copy()
        table = []
        for values in itertools.product((0, 1), repeat=len(lines)):
            own[cells] = values
            table.append((*values, int(PROFILE.column(j, own, work.dp, work.scratch, marg, False, run.data))))
        own[cells] = saved
        tables.append(table)
    return tables


def window_lowest(run, r: int, t0: int, k: int) -> tuple[int | None, np.ndarray | None]:
    """The lowest profile energy (the chain's mismatches) of replica ``r`` of ``run`` over every clue-consistent
    arrangement of its free lines ``t0`` to ``t0 + k - 1`` (of ``free_chains``), the others held; with the
    arrangement (``k`` rows of cells, each along its line). ``(None, None)`` where CP-SAT did not prove it within
    :data:`WINDOW_LIMIT_S`."""
    from ortools.sat.python import cp_model

    model, board, pmodel = run.data
    lines = [int(c) for c in pmodel.free_chains[t0:t0 + k]]
    tables = _window_tables(run, r, lines)
    n = int(board.line_len[lines[0]])
    cp = cp_model.CpModel()
    cells = [[cp.NewBoolVar(f"x{i}_{j}") for j in range(n)] for i in range(k)]
    for i, c in enumerate(lines):
        start, finals, moves = line_automaton(board.glen[model.chain_ptr[c]:model.chain_ptr[c + 1]])
        cp.AddAutomaton(cells[i], start, finals, moves)
    costs = []
    for j, table in enumerate(tables):
        cost = cp.NewIntVar(0, max(t[-1] for t in table), f"cost{j}")
        cp.AddAllowedAssignments([cells[i][j] for i in range(k)] + [cost], table)
        costs.append(cost)
    cp.Minimize(sum(costs))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    solver.parameters.max_time_in_seconds = WINDOW_LIMIT_S
    if solver.Solve(cp) != cp_model.OPTIMAL:
        return None, None
    return int(round(solver.ObjectiveValue())), np.array([[solver.Value(x) for x in row] for row in cells])


def window_gains(puzzle, sizes=SIZES, sweeps: int = SWEEPS, level: int = LEVEL, seed: int = 0,
                 axis: int = 0) -> dict:
    """One ladder of ``puzzle`` with free axis ``axis``, ``sweeps`` sweeps, and for its lowest replica each window
    of each of ``sizes`` consecutive free lines: how many lower its energy, and by how much: the row of ``make
    bench-line-windows`` (energies: the BQM's)."""
    from qpicross.samplers.blockshift.chains import PROFILE
    from qpicross.samplers.blockshift.plans import RUNGS

    run = start_ladder(puzzle, level, RUNGS, seed, axis)
    started = time.perf_counter()
    PROFILE.restart_sweeps(0, sweeps, run.betas, run.best, run.params, run.work, run.data, run.signals)
    annealed = time.perf_counter() - started
    r = int(np.argmin(run.work.energy))
    energy = int(run.work.energy[r])
    assert energy == int(run.work.pcost[r].sum())
    w, n_free = float(run.params.w), len(run.data[2].free_chains)
    windows = []
    for k in sizes:
        k = min(int(k), n_free)
        lowest = [window_lowest(run, r, t0, k)[0] for t0 in range(n_free - k + 1)]
        proved = [e for e in lowest if e is not None]
        windows.append({"lines": k, "windows": len(lowest), "unproved": len(lowest) - len(proved),
                        "lower": sum(e < energy for e in proved),
                        "lowest": run.offset + w * min(proved) if proved else None})
    return {"puzzle": puzzle.name, "rows": puzzle.num_rows, "cols": puzzle.num_cols,
            "free": "rows" if axis == 0 else "columns", "free_lines": n_free, "level": level,
            "rungs": len(run.betas), "seed": seed, "sweeps": sweeps, "state_energy": run.offset + w * energy,
            "windows": windows, "anneal_s": round(annealed, 2),
            "windows_s": round(time.perf_counter() - started - annealed, 2)}


def windows_table(rows: list[dict]) -> str:
    """Markdown: each puzzle and free axis (:func:`window_gains`' rows) in a row.

    >>> row = {"puzzle": "x", "rows": 2, "cols": 3, "free": "rows", "state_energy": 4.0, "sweeps": 10, "rungs": 12,
    ...        "level": 2, "windows": [{"lines": 1, "windows": 2, "unproved": 0, "lower": 0, "lowest": 4.0}]}
    >>> print(windows_table([row]).splitlines()[2])
    | x | 3×2 | rows | 4 | 0 of 2 (4) |
    """
    sizes = [w["lines"] for w in rows[0]["windows"]] if rows else []
    head = " | ".join(f"windows of {k} line{'s' * (k > 1)} that lower it (lowest)" for k in sizes)
    lines = [f"| puzzle | width × height | free lines | state's energy | {head} |",
             "|---|---|---|---:|" + "---:|" * len(sizes)]
    for r in rows:
        cells = []
        for w in r["windows"]:
            low = "–" if w["lowest"] is None else f"{w['lowest']:g}"
            unproved = f"; {w['unproved']} not proved" if w["unproved"] else ""
            cells.append(f"{w['lower']} of {w['windows']} ({low}{unproved})")
        lines.append(f"| {survey_name(r['puzzle'])} | {r['cols']}×{r['rows']} | {r['free']} | "
                     f"{r['state_energy']:g} | " + " | ".join(cells) + " |")
    if rows:
        r = rows[0]
        lines.append(f"\nEach row: one ladder of the profile chain with those lines free, {r['rungs']} rungs (a "
                     f"restart {2 ** r['level']} units long), seed 0, {r['sweeps']:,} sweeps; the state: its lowest "
                     "replica then. A window: that many consecutive free lines, every place; it lowers the state "
                     "when the lowest energy over every arrangement of its lines (the others held, the other axis "
                     "minimised out), found exactly by CP-SAT, is below the state's; lowest: the lowest of all "
                     "windows of that size (energies: the BQM's, 0 at a solution).")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from benchmarks.provenance import write_results

    parser = argparse.ArgumentParser(prog="python -m benchmarks.line_windows", description=__doc__.split("\n\n")[0])
    parser.add_argument("puzzles", nargs="+", help="puzzle files (FILE#N for a collection's puzzle)")
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="window sizes, comma-separated")
    parser.add_argument("--sweeps", type=int, default=SWEEPS)
    parser.add_argument("--json", required=True, help="results file to write")
    args = parser.parse_args(argv)
    sizes = tuple(int(k) for k in args.sizes.split(","))
    rows = []
    for spec in args.puzzles:
        for axis in (0, 1):
            row = window_gains(load_puzzle(spec), sizes, args.sweeps, axis=axis)
            row["source"] = spec
            rows.append(row)
            print(f"{row['puzzle']} ({row['free']} free): energy {row['state_energy']:g}; "
                  + ", ".join(f"{w['lines']}: {w['lower']} of {w['windows']} lower it" for w in row["windows"])
                  + f" ({row['windows_s']:.0f} s)", flush=True)
    data = {"meta": {"command": "python -m benchmarks.line_windows "
                     + " ".join(argv if argv is not None else sys.argv[1:])}, "results": rows}
    write_results(args.json, data)  # stamped with the fingerprint of the default's samples on one core
    return 0


if __name__ == "__main__":
    sys.exit(main())
