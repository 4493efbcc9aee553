"""How often a window exchange is kept between neighbouring rungs (issue 58, item 2: a move that changes many lines).

The reads of the unsolved survey puzzles end in distinct false minima hundreds of cells apart (``make bench-traps``),
so a move that changes one line at a time must climb far to leave one. The window exchange
(:func:`qpicross.samplers.blockshift.profile.window_exchange`, ``--option window_exchange=N``) swaps 1 to ``N``
consecutive free lines between two neighbouring rungs of the tempering ladder, kept by Metropolis on both replicas'
energies: a colder replica could take the rows a warmer one has right. This measures whether it is kept.

For each puzzle: one ladder of the profile chain with rows free (the ladder a restart ``2^level`` units long runs,
:func:`~qpicross.samplers.blockshift.plans.ladder`, seed 0, begun as the stall study begins one), ``burn_in``
sweeps, then ``sweeps`` sweeps, each followed by the window exchanges of each of ``windows`` in turn (one between
each neighbouring pair of rungs, of 1 to ``N`` lines, ``N`` the entry; 0: up to all the free lines). It counts the
replica exchanges the sweeps kept (the engine's, whole states; exactly, as the stall study counts them) and the
window exchanges kept, and the mean energy of each rung. Where neighbouring rungs hold different minima, a window of
one's rows brings mismatches with the other's rows around it and is not kept.

``python -m benchmarks.window_exchange FILE... --json results/window_exchange.json`` (``make bench-window``).

>>> from qpicross import Puzzle
>>> row = exchange_rates(Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]]), sweeps=50,
...                      burn_in=10, windows=(1, 0))
>>> row["rungs"], row["replica_attempts"], [w["attempts"] for w in row["windows"]]
(12, 550, [550, 550])
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from benchmarks.stall import _holders, exchanges, start_ladder
from benchmarks.survey import survey_name
from qpicross import load_puzzle

__all__ = ["exchange_rates", "window_table", "main", "WINDOWS", "SWEEPS", "BURN_IN", "LEVEL"]

#: Window sizes measured (0: all the free lines), sweeps counted, sweeps before them, the ladder's Luby level.
WINDOWS, SWEEPS, BURN_IN, LEVEL = (1, 2, 4, 8, 0), 2000, 1000, 2


def exchange_rates(puzzle, windows=WINDOWS, sweeps: int = SWEEPS, burn_in: int = BURN_IN, level: int = LEVEL,
                   seed: int = 0) -> dict:
    """The replica and window exchanges one profile-chain ladder of ``puzzle`` keeps: the row of ``make
    bench-window``. The ladder is begun as :func:`benchmarks.stall.start_ladder` begins it, with the plan's
    :data:`~qpicross.samplers.blockshift.plans.RUNGS`; the replica exchanges kept are counted by
    :func:`benchmarks.stall.exchanges`."""
    from qpicross.samplers.blockshift.chains import PROFILE
    from qpicross.samplers.blockshift.plans import RUNGS

    run = start_ladder(puzzle, level, RUNGS, seed)
    betas, params, work, data, signals = run.betas, run.params, run.work, run.data, run.signals
    w, R, n_free = params.w, len(run.betas), len(run.data[2].free_chains)
    sizes = [n_free if W == 0 else min(W, n_free) for W in windows]
    started = time.perf_counter()
    _, best = PROFILE.restart_sweeps(0, burn_in, betas, run.best, params, work, data, signals)
    kept_replicas, kept_windows = 0, [0] * len(windows)
    energy_sum = np.zeros(R)
    for s in range(burn_in, burn_in + sweeps):
        before = _holders(work.slot_of)
        _, best = PROFILE.restart_sweeps(s, 1, betas, best, params, work, data, signals)
        kept_replicas += int(exchanges(before, _holders(work.slot_of)).sum())
        for k, size in enumerate(sizes):
            kept_windows[k] += PROFILE.window_exchange(w, params.moves._replace(window=size), work, data)
        energy_sum += work.energy[_holders(work.slot_of)]
    return {"puzzle": puzzle.name, "rows": puzzle.num_rows, "cols": puzzle.num_cols, "free_lines": n_free,
            "level": level, "rungs": R, "betas": [round(float(b * w), 4) for b in betas], "seed": seed,
            "burn_in": burn_in, "sweeps": sweeps, "replica_attempts": sweeps * (R - 1),
            "replica_kept": kept_replicas, "best_energy": run.offset + w * float(best),  # the BQM's
            "mean_energy_by_rung": [round(float(e), 2) for e in w * energy_sum / sweeps],
            "windows": [{"window": W, "lines": size, "attempts": sweeps * (R - 1), "kept": kept}
                        for W, size, kept in zip(windows, sizes, kept_windows)],
            "seconds": round(time.perf_counter() - started, 2)}


def _share(kept: int, attempts: int) -> str:
    return f"{100 * kept / attempts:.2g} % ({kept:,} of {attempts:,})" if attempts else "–"


def window_table(rows: list[dict]) -> str:
    """Markdown: each puzzle's kept replica and window exchanges (:func:`exchange_rates`' rows) in a row.

    >>> row = {"puzzle": "x", "rows": 2, "cols": 3, "rungs": 12, "replica_attempts": 110, "replica_kept": 55,
    ...        "best_energy": 4.0, "sweeps": 10, "burn_in": 5, "level": 2,
    ...        "windows": [{"window": 1, "lines": 1, "attempts": 110, "kept": 11}]}
    >>> print(window_table([row]).splitlines()[2])
    | x | 3×2 | 4 | 50 % (55 of 110) | 10 % (11 of 110) |
    """
    sizes = [w["window"] for w in rows[0]["windows"]] if rows else []
    head = " | ".join("windows of 1 line" if W == 1 else f"windows of 1 to {W} lines" if W else
                      "windows of 1 to all lines" for W in sizes)
    lines = [f"| puzzle | width × height | lowest energy | replica exchanges kept | {head} |",
             "|---|---|---:|---:|" + "---:|" * len(sizes)]
    for r in rows:
        lines.append(f"| {survey_name(r['puzzle'])} | {r['cols']}×{r['rows']} | {r['best_energy']:g} | "
                     f"{_share(r['replica_kept'], r['replica_attempts'])} | "
                     + " | ".join(_share(w["kept"], w["attempts"]) for w in r["windows"]) + " |")
    if rows:
        r = rows[0]
        lines.append(f"\nEach row: one ladder of the profile chain, rows free, {r['rungs']} rungs (a restart "
                     f"{2 ** r['level']} units long), seed 0; {r['burn_in']:,} sweeps, then {r['sweeps']:,} sweeps "
                     "each followed by the window exchanges of each size in turn (one between each neighbouring pair "
                     "of rungs, the window's length and place drawn uniformly); replica exchanges: the engine's, "
                     "whole states, after every sweep between every neighbouring pair; lowest energy: the ladder's "
                     "lowest in all its sweeps.")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from benchmarks.provenance import write_results

    parser = argparse.ArgumentParser(prog="python -m benchmarks.window_exchange", description=__doc__.split("\n\n")[0])
    parser.add_argument("puzzles", nargs="+", help="puzzle files (FILE#N for a collection's puzzle)")
    parser.add_argument("--sweeps", type=int, default=SWEEPS)
    parser.add_argument("--burn-in", type=int, default=BURN_IN)
    parser.add_argument("--json", required=True, help="results file to write")
    args = parser.parse_args(argv)
    rows = []
    for spec in args.puzzles:
        row = exchange_rates(load_puzzle(spec), sweeps=args.sweeps, burn_in=args.burn_in)
        row["source"] = spec
        rows.append(row)
        print(f"{row['puzzle']}: replica exchanges kept {row['replica_kept']} of {row['replica_attempts']}; windows "
              + ", ".join(f"{w['window']}: {w['kept']}/{w['attempts']}" for w in row["windows"]), flush=True)
    data = {"meta": {"command": "python -m benchmarks.window_exchange "
                     + " ".join(argv if argv is not None else sys.argv[1:])}, "results": rows}
    write_results(args.json, data)  # stamped with the fingerprint of the default's samples on one core
    return 0


if __name__ == "__main__":
    sys.exit(main())
