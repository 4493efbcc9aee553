"""Where the reads end on the puzzles the annealer leaves unsolved (issue 58, item 1), and how far apart they are.

The stall study (:mod:`benchmarks.stall`) shows restarts whose lowest energy stops falling early. This asks what
those states are. For each puzzle: its solution from the exact SAT solver (the first it finds, and whether it is
unique), then ``reads`` default reads (``qpicross anneal FILE --option threads=1 --seed S --time-limit BUDGET``,
seeds 0, 1, ...), and for each read its lowest energy, its broken lines and the cells where its board differs from
the solution; for each pair of reads, the cells where their two boards differ. Reads that end at the same low energy
on boards hundreds of cells apart, and as far from the solution, are in different false minima: the landscape has
many low states far apart (a glass), not one slope the chain descends slowly.

``python -m benchmarks.traps FILE... --json results/traps.json`` (``make bench-traps``).

>>> from qpicross import Puzzle
>>> row = watch_reads(Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]]), reads=2, budget_s=5)
>>> row["solved"], row["cells_off"], row["apart"]
(2, [0, 0], [0])
"""

from __future__ import annotations

import argparse
import itertools
import sys

import numpy as np

from qpicross import anneal, check, load_puzzle
from benchmarks.survey import survey_name
from qpicross.classical.sat import solve_sat

__all__ = ["watch_reads", "traps_table", "main", "READS", "BUDGET_S"]

#: Reads a puzzle, and each read's seconds (the survey's budget: ``make bench-survey``).
READS, BUDGET_S = 4, 60.0


def watch_reads(puzzle, reads: int = READS, budget_s: float = BUDGET_S, sweeps: int | None = None) -> dict:
    """``reads`` default reads of ``puzzle`` on one core (seeds ``0 .. reads - 1``, each until it solves or
    ``budget_s`` seconds, or within ``sweeps`` sweeps), against the puzzle's solution: the row of ``make
    bench-traps``."""
    exact = solve_sat(puzzle)
    if exact.board is None:
        raise ValueError(f"{puzzle.name}: the SAT solver found no solution ({exact.status})")
    solution = np.asarray(exact.board, bool)
    boards, energies, broken, done, seconds = [], [], [], [], []
    for seed in range(reads):
        result = anneal(puzzle, seed=seed, threads=1, num_reads=1, time_limit=budget_s, num_sweeps=sweeps)
        boards.append(np.asarray(result.board, bool))
        energies.append(float(result.energy))
        broken.append(len(check(puzzle, boards[-1])))  # the independent verifier's broken lines
        done.append(int(result.sampleset.info["sweeps"][0]))
        seconds.append(float(result.timing["sample_s"]))
    return {"puzzle": puzzle.name, "rows": puzzle.num_rows, "cols": puzzle.num_cols,
            "cells": puzzle.num_rows * puzzle.num_cols, "painted": int(solution.sum()),
            "unique": exact.status == "unique",
            "sampler": "shift", "options": "threads=1", "budget_s": budget_s, "reads": reads,
            "solved": sum(e == 0 and b == 0 for e, b in zip(energies, broken)),  # ground state, board checked
            "energies": energies, "broken_lines": broken,
            "cells_off": [int((b != solution).sum()) for b in boards],
            "apart": [int((a != b).sum()) for a, b in itertools.combinations(boards, 2)],
            "sweeps": done, "sample_s": seconds}


def _spread(values) -> str:
    values = sorted(values)
    return "–" if not values else f"{values[0]:,}" if values[0] == values[-1] else f"{values[0]:,} to {values[-1]:,}"


def traps_table(rows: list[dict]) -> str:
    """Markdown: each puzzle's reads (:func:`watch_reads`'s rows of ``make bench-traps``) in a row.

    >>> row = {"puzzle": "x", "rows": 2, "cols": 3, "cells": 6, "painted": 3, "reads": 2, "budget_s": 1.0,
    ...        "solved": 0, "energies": [2.0, 4.0], "broken_lines": [2, 3], "cells_off": [4, 2], "apart": [4]}
    >>> print(traps_table([row]).splitlines()[2])
    | x | 3×2 | 6 (3 painted) | 0 of 2 | 2, 4 | 2, 3 | 4, 2 | 4 |
    """
    lines = ["| puzzle | width × height | cells | reads solved | lowest energy of each read | broken lines | "
             "cells off the solution | cells between two reads |", "|---|---|---:|---:|---|---|---|---|"]
    for r in rows:
        painted = f"{r['painted']:,} painted" + ("" if r.get("unique", True) else "; more than one solution")
        lines.append(f"| {survey_name(r['puzzle'])} | {r['cols']}×{r['rows']} | {r['cells']:,} ({painted}) | "
                     f"{r['solved']} of {r['reads']} | " + ", ".join(f"{e:g}" for e in r["energies"]) + " | "
                     + ", ".join(str(b) for b in r["broken_lines"]) + " | "
                     + ", ".join(f"{c:,}" for c in r["cells_off"]) + f" | {_spread(r['apart'])} |")
    budgets = sorted({r["budget_s"] for r in rows})
    return "\n".join(lines) + ("\n\nEach row: default reads on one core, seeds 0 to "
                               f"{max(r['reads'] for r in rows) - 1}, each until it solves or "
                               f"{' or '.join(f'{b:g}' for b in budgets)} s; the solution: the SAT solver's (the "
                               "first it finds where there are several); cells off: where a read's best board differs "
                               "from it (a read that solves a puzzle of several solutions may end on another); between "
                               "two reads: the same for each pair of reads (the fewest to the most).")


def main(argv: list[str] | None = None) -> int:
    from benchmarks.provenance import write_results

    parser = argparse.ArgumentParser(prog="python -m benchmarks.traps", description=__doc__.split("\n\n")[0])
    parser.add_argument("puzzles", nargs="+", help="puzzle files (FILE#N for a collection's puzzle)")
    parser.add_argument("--reads", type=int, default=READS)
    parser.add_argument("--budget", type=float, default=BUDGET_S, help="seconds a read (default %(default)s)")
    parser.add_argument("--json", required=True, help="results file to write")
    args = parser.parse_args(argv)
    rows = []
    for spec in args.puzzles:
        row = watch_reads(load_puzzle(spec), args.reads, args.budget)
        row["source"] = spec
        rows.append(row)
        print(f"{row['puzzle']}: solved {row['solved']} of {row['reads']}; energies {row['energies']}; cells off "
              f"{row['cells_off']}; apart {row['apart']}", flush=True)
    data = {"meta": {"command": "python -m benchmarks.traps " + " ".join(argv if argv is not None else sys.argv[1:])},
            "results": rows}
    write_results(args.json, data)  # stamped with the fingerprint of the default's samples on one core
    return 0


if __name__ == "__main__":
    sys.exit(main())
