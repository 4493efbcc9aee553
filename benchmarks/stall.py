"""Why large puzzles stall (issue 58, item 1): one restart of the default chain watched sweep by sweep.

The default read is Luby restarts of parallel tempering on the profile chain. This script runs the first restart
of a read, as the sampler would (its settings, self-tuned inverse temperatures, seed and chain), one sweep per call
of the compiled restart (:func:`~qpicross.samplers.blockshift.engine.restart_sweeps`, the kernel a read runs in one
call: the same states sweep by sweep), on a ladder of the restart plan (:func:`~qpicross.samplers.blockshift.plans.
ladder`: level 0, the short restarts' 4 rungs, level 2, the long restarts' 8), without a target, and records:

* the lowest energy so far, and the mean energy at each rung, at sweeps 1, 2, 4, ... (the energy is the board's:
  broken clue matches times the match weight);
* the sweep after which the lowest energy last fell (where the restart stalled);
* each neighbouring pair's replica-exchange acceptance, counted exactly from the rungs' replicas before and after
  each sweep's exchange pass (the pass swaps pairs hot to cold in turn, so rung ``i`` ends with a new replica
  exactly when pair ``i`` swapped);
* round trips: the times a replica reached the hottest rung with the coldest as the last end it had visited;
* the cost of a replica-sweep (a compiled read of a few hundred sweeps, timed apart) and per cell.

Move acceptance is not measured: the kernels keep no counters of their moves, and adding them would change the
kernels this issue is about to change anyway.

``python -m benchmarks.stall FILE... --json results/stall.json`` (``make bench-stall``).

>>> from qpicross import Puzzle
>>> run = watch_restart(Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]]), 0, 64)
>>> run["rungs"], run["checkpoints"][-1]["sweep"], run["best_energy"]
(4, 64, 0.0)
>>> len(run["exchange_acceptance"]) == run["rungs"] - 1 and all(0 <= a <= 1 for a in run["exchange_acceptance"])
True
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from types import SimpleNamespace

import numpy as np

from benchmarks.survey import survey_name
from qpicross import build_formulation, load_puzzle

__all__ = ["start_ladder", "watch_sweeps", "watch_restart", "exchanges", "stall_table", "main"]

#: The ladders watched (levels of :func:`~qpicross.samplers.blockshift.plans.ladder`) and their sweeps: the restart
#: unit's 8 000 and the long restarts' unit, 8 000 at level 2 (``LONG_SWEEPS``), each four times over.
LEVELS = {0: 32_000, 2: 32_000}
#: Sweeps of the compiled read timed for a replica-sweep's cost.
TIMED_SWEEPS = 400


def exchanges(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """Which neighbouring pairs swapped in one exchange pass, from the replica at each rung before and after it.

    The pass (:func:`~qpicross.samplers.blockshift.engine.exchange_replicas`) tries pairs ``(0, 1)``, ``(1, 2)``,
    ... in turn, each on the rungs' replicas as the pairs before it left them, and never returns to a rung: rung
    ``i`` ends with another replica than the pass had put there exactly when pair ``i`` swapped.

    >>> exchanges(np.array([0, 1, 2]), np.array([1, 2, 0]))  # replica 0 climbed two rungs
    array([ True,  True])
    >>> exchanges(np.array([0, 1, 2]), np.array([0, 2, 1]))
    array([False,  True])
    """
    current, swapped = before.copy(), np.zeros(len(before) - 1, bool)
    for i in range(len(before) - 1):
        if current[i] != after[i]:
            swapped[i] = True
            current[i], current[i + 1] = current[i + 1], current[i]
    if not np.array_equal(current, after):
        raise AssertionError(f"no exchange pass takes rungs {before.tolist()} to {after.tolist()}")
    return swapped


def _holders(slot_of: np.ndarray) -> np.ndarray:
    """The replica at each rung (slot ``slot_of[r]`` is replica ``r``'s rung)."""
    holders = np.empty_like(slot_of)
    holders[slot_of] = np.arange(len(slot_of))
    return holders


def start_ladder(puzzle, level: int, rungs: int, seed: int = 0, axis: int = 0) -> SimpleNamespace:
    """One restart of a default read of ``puzzle`` begun as the sampler begins it (its settings, self-tuned inverse
    temperatures, seed and chain; rows free, or with ``axis=1`` columns, as every other restart of a read has them)
    on the ladder of ``level`` with ``rungs``
    (:func:`~qpicross.samplers.blockshift.plans.ladder`), without a target, for a caller to run sweep by sweep: the
    sampler's ``model`` and ``runner``, the ``betas``, the chain's ``data``, ``params``, ``signals`` and ``work``,
    the lowest energy ``best`` (the chain's) and ``offset`` (a chain energy ``e`` is the BQM's ``offset + w e``)."""
    from qpicross.samplers.blockshift.chains import PROFILE  # the kernels: only where a restart is watched
    from qpicross.samplers.blockshift.layouts import Signals
    from qpicross.samplers.blockshift.plans import ladder
    from qpicross.samplers.blockshift.sampler import _Model, _settings
    from qpicross.samplers.control import RunControl, stop_flag

    f = build_formulation(puzzle)
    bqm = f.bqm()
    model = _Model(bqm, _settings(bqm, {"layout": f.layout(), "seed": seed, "threads": 1}))
    runner = model.runner(RunControl())
    betas = ladder(model.beta_range, level, rungs)
    data = (runner.model, runner.board[0], runner._chain_of(0, restart=axis))  # restart 1 (from 0): the columns free
    params = runner.board_params._replace(target=-math.inf)
    signals = Signals(stop_flag(), np.array([0.0, math.inf]))
    work = runner._buffers(len(betas), restart=axis)
    PROFILE.seed_rng(work.rng, seed)
    best = PROFILE.restart_begin(betas, params.w, params.moves, work, data)
    return SimpleNamespace(model=model, runner=runner, betas=betas, data=data, params=params, signals=signals,
                           work=work, best=best, offset=float(params.constant + model.binary.offset))


def watch_sweeps(run, betas, sweeps: int, last_end: np.ndarray):
    """Run ``sweeps`` sweeps of ``run`` (:func:`start_ladder`) on ``betas``, one a call, keeping ``run.best``; after
    each, yield the sweep's index, the replica at each rung, which pairs swapped (:func:`exchanges`) and whether the
    hottest rung's replica ends a round trip. ``last_end`` (one per replica: 0 the hottest rung, 1 the coldest, -1
    neither yet) is updated in place, so that a caller may go on where another call stopped."""
    from qpicross.samplers.blockshift.chains import PROFILE

    for sweep in range(sweeps):
        before = _holders(run.work.slot_of)
        _, lower = PROFILE.restart_sweeps(sweep, 1, betas, run.best, run.params, run.work, run.data, run.signals)
        run.best = min(run.best, lower)
        after = _holders(run.work.slot_of)
        hottest, coldest = after[0], after[-1]
        trip = bool(last_end[hottest] == 1)
        last_end[hottest], last_end[coldest] = 0, 1
        yield sweep, after, exchanges(before, after), trip


def watch_restart(puzzle, level: int, sweeps: int, seed: int = 0, rungs: int | None = None) -> dict:
    """The first restart of a default read of ``puzzle`` on the ladder of ``level`` (:func:`~qpicross.samplers.
    blockshift.plans.ladder` with ``rungs``: by default ``FIRST_RUNGS``, a read's first restart's, the plan's before issue 58
    gave its later restarts 8), ``sweeps`` sweeps without a target, one sweep a call: what the module docstring
    lists, as a JSON-ready dict."""
    from qpicross.samplers.blockshift.chains import PROFILE
    from qpicross.samplers.blockshift.plans import FIRST_RUNGS

    run = start_ladder(puzzle, level, FIRST_RUNGS if rungs is None else rungs, seed)
    model, runner, betas, data, params, signals = run.model, run.runner, run.betas, run.data, run.params, run.signals
    work, offset = run.work, run.offset
    rungs = len(betas)
    accepted, trips = np.zeros(rungs - 1), 0
    window, window_sweeps, checkpoints, improved = np.zeros(rungs), 0, [], 0
    best = run.best
    started = time.perf_counter()
    for sweep, after, swapped, trip in watch_sweeps(run, betas, sweeps, np.full(rungs, -1)):
        if run.best < best:
            best, improved = run.best, sweep + 1
        accepted += swapped
        trips += trip
        window += work.energy[after]
        window_sweeps += 1
        if (sweep + 1) & sweep == 0 or sweep + 1 == sweeps:  # sweeps 1, 2, 4, ... and the last
            checkpoints.append({"sweep": sweep + 1, "best": offset + params.w * float(best),
                                "rung_mean": (offset + params.w * window / window_sweeps).tolist()})
            window, window_sweeps = np.zeros(rungs), 0
    watched_s = time.perf_counter() - started

    timed = runner._buffers(rungs)  # the kernel alone: a compiled read of TIMED_SWEEPS, without the calls between
    out = np.zeros(model.n, np.int8)
    PROFILE.read(out, seed, betas, 2, params, timed, data, signals)  # compiled already; warms the buffers
    t0 = time.perf_counter()
    PROFILE.read(out, seed, betas, TIMED_SWEEPS, params, timed, data, signals)
    replica_sweep_s = (time.perf_counter() - t0) / (TIMED_SWEEPS * rungs)
    cells = puzzle.num_rows * puzzle.num_cols
    return {"puzzle": str(puzzle.name), "sampler": "shift", "options": "threads=1", "rows": puzzle.num_rows, "cols": puzzle.num_cols, "cells": cells,
            "clues": sum(len(c) for c in (*puzzle.rows, *puzzle.cols)), "variables": model.n, "seed": seed,
            "level": level, "rungs": rungs, "beta_range": list(model.beta_range), "betas": betas.tolist(),
            "sweeps": sweeps, "best_energy": offset + params.w * float(best),
            "last_improvement_sweep": improved, "checkpoints": checkpoints,
            "exchange_acceptance": (accepted / sweeps).tolist(), "round_trips": trips,
            "replica_sweep_s": replica_sweep_s, "replica_sweep_per_cell_s": replica_sweep_s / cells,
            "watched_s": watched_s, "free_lines": "rows" if data[2].prof_stride != 1 else "columns"}


def stall_table(rows: list[dict]) -> str:
    """Markdown: each watched restart (:func:`watch_restart`'s rows of ``make bench-stall``) in a row, then what the
    rows say about the ladders as puzzles grow.

    >>> row = {"puzzle": "x", "rows": 2, "cols": 3, "cells": 6, "variables": 9, "level": 0, "rungs": 4,
    ...        "betas": [1.0, 2.0, 3.0, 4.0], "sweeps": 8, "best_energy": 0.0, "last_improvement_sweep": 3,
    ...        "exchange_acceptance": [0.5, 0.25, 0.125], "round_trips": 1, "replica_sweep_s": 2e-6}
    >>> print(stall_table([row]).splitlines()[2])
    | x | 3×2 | 9 | 0: 4 rungs, β 1 → 4 | 0 | 3 of 8 | 0.50, 0.25, 0.12 | 1 | 2 µs (333 ns a cell) |
    """
    lines = ["| puzzle | width × height | variables | ladder (level: rungs, β hot → cold) | lowest energy | last fell after sweep "
             "| exchange acceptance, hot pair → cold pair | round trips | a replica-sweep |",
             "|---|---|---:|---|---:|---:|---|---:|---:|"]
    for r in rows:
        betas = r["betas"]
        lines.append(f"| {survey_name(r['puzzle'])} | {r['cols']}×{r['rows']} | {r['variables']:,} | "
                     f"{r['level']}: {r['rungs']} rungs, "
                     f"β {betas[0]:.3g} → {betas[-1]:.3g} | {r['best_energy']:g} | {r['last_improvement_sweep']:,} of "
                     f"{r['sweeps']:,} | " + ", ".join(f"{a:.2f}" for a in r["exchange_acceptance"])
                     + f" | {r['round_trips']:,} | {1e6 * r['replica_sweep_s']:.3g} µs "
                       f"({1e9 * r['replica_sweep_s'] / r['cells']:.3g} ns a cell) |")
    sweeps = sorted({r["sweeps"] for r in rows})
    notes = [f"Each row: the first restart of a default read (seed {rows[0].get('seed', 0)}), "
             f"{' or '.join(f'{n:,}' for n in sweeps)} sweeps without a target; energy: the BQM's (0 at a "
             "solution). Lowest energy and the sweep after which it last fell: over the whole restart."]
    for level in sorted({r["level"] for r in rows}):
        mine = sorted((r for r in rows if r["level"] == level), key=lambda r: r["cells"])
        if len(mine) > 1:
            worst = [min(r["exchange_acceptance"]) for r in mine]
            notes.append(f"Level {level}: the same {mine[0]['rungs']} inverse temperatures on every puzzle; the "
                         f"least-accepted pair's acceptance goes from {worst[0]:.2f} on the smallest "
                         f"({survey_name(mine[0]['puzzle'])}, {mine[0]['cells']:,} cells) to {worst[-1]:.2f} on the "
                         "largest "
                         f"({survey_name(mine[-1]['puzzle'])}, {mine[-1]['cells']:,} cells).")
    return "\n".join(lines) + "\n\n" + " ".join(notes)


def main(argv: list[str] | None = None) -> int:
    from benchmarks.provenance import write_results

    parser = argparse.ArgumentParser(prog="python -m benchmarks.stall", description=__doc__.split("\n\n")[0])
    parser.add_argument("puzzles", nargs="+", help="puzzle files (FILE#N for a collection's puzzle)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sweeps", type=int, default=None, help="sweeps of every ladder (default: LEVELS')")
    parser.add_argument("--json", required=True, help="results file to write")
    args = parser.parse_args(argv)
    runs = []
    for spec in args.puzzles:
        puzzle = load_puzzle(spec)
        for level, sweeps in LEVELS.items():
            run = watch_restart(puzzle, level, args.sweeps or sweeps, args.seed)
            run["source"] = spec
            runs.append(run)
            print(f"{run['puzzle']} ({run['rows']}x{run['cols']}) level {level}: best {run['best_energy']:g}, last fell "
                  f"after sweep {run['last_improvement_sweep']} of {run['sweeps']}; exchanges "
                  f"{', '.join(f'{a:.2f}' for a in run['exchange_acceptance'])}; {run['round_trips']} round trips; "
                  f"{1e6 * run['replica_sweep_s']:.1f} us a replica-sweep", flush=True)
    data = {"meta": {"command": "python -m benchmarks.stall " + " ".join(argv if argv is not None else sys.argv[1:]),
                     "levels": {str(k): v for k, v in LEVELS.items()}}, "results": runs}
    write_results(args.json, data)  # stamped with the fingerprint of the kernels' samples (shift, threads=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
