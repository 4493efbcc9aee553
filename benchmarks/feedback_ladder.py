"""Rungs placed by feedback on the replicas' flow (issue 58, item 2; Katzgraber, Trebst, Huse and Troyer 2006):
does a ladder of the same size, placed where the replicas stop flowing, mix where the default's geometric one
does not?

Each replica is labelled by the end of the ladder it visited last (the hottest or the coldest rung), and ``f`` at
a rung is the fraction of the labelled replicas there whose last end was the hottest. On the ladder the
method seeks ``f`` falls from 1 at the hottest rung to 0 at the coldest by as much at every pair; where replicas do
not flow, ``f`` drops steeply between two rungs. The feedback step (:func:`feedback_betas`) moves the rungs towards those drops:
in temperature ``T = 1/β`` the new rungs follow the density ``η(T) ∝ sqrt(|df/dT| / ΔT)``, ``ΔT`` the old
spacing, the two ends kept. The step is repeated on runs twice as long each time (``ROUNDS``).

This module is a probe, not a sampler change: on one restart of a default read (:func:`~benchmarks.stall.
start_ladder`: the sampler's settings, self-tuned range, seed and chain) it tunes the 12-rung ladder of the long
restarts (level 2) by feedback, then runs a fresh restart of ``SWEEPS`` sweeps on the tuned ladder and one on the
default ladder, with the same seed, and records for each the lowest energy, the sweep it first reached 0, the
pairs' exchange acceptance and the round trips (:func:`~benchmarks.stall.watch_sweeps`). The kernels count no
exchanges, so the flow is counted here, sweep by sweep, as the stall study counts it.

``python -m benchmarks.feedback_ladder FILE... --seeds 0 1 --json results/feedback_ladder.json``
(``make bench-feedback-ladder``).

>>> from qpicross import Puzzle
>>> five = Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]])
>>> row = compare_ladders(five, seed=0, rounds=(16, 32), sweeps=64)
>>> [r["ladder"] for r in row["runs"]], row["runs"][0]["betas"][0] == row["runs"][1]["betas"][0]
(['default', 'feedback'], True)
"""

from __future__ import annotations

import argparse
import math
import sys

import numpy as np

from benchmarks.stall import start_ladder, watch_sweeps
from qpicross import load_puzzle

__all__ = ["feedback_betas", "flow", "tune_ladder", "compare_ladders", "feedback_table", "main"]

#: The ladder tuned: level 2 of the restart plan, the long restarts' (12 rungs).
LEVEL = 2
#: Sweeps of each feedback round, each twice the one before (Katzgraber et al. double them likewise).
ROUNDS = (2_000, 4_000, 8_000, 16_000)
#: Sweeps of the restarts compared, on the tuned and the default ladder: four of the restart unit.
SWEEPS = 32_000


def feedback_betas(betas, f) -> np.ndarray:
    """One feedback step: the inverse temperatures ``betas`` (increasing) moved where ``f`` (at each rung, the
    fraction of labelled replicas whose last end was the hottest) drops, both ends kept. A rung with no labelled
    replica yet takes ``f`` from its neighbours; a pair across which ``f`` does not drop keeps a sliver of the
    density (a thousandth of the largest), so that every new rung has a place.

    >>> betas = 1 / np.array([4.0, 3.0, 2.0, 1.0])           # T = 4, 3, 2, 1 (hot to cold)
    >>> [round(float(1 / b), 3) for b in feedback_betas(betas, [1.0, 2 / 3, 1 / 3, 0.0])]  # even flow: unchanged
    [4.0, 3.0, 2.0, 1.0]
    >>> [round(float(1 / b), 2) for b in feedback_betas(betas, [1.0, 1.0, 0.0, 0.0])]  # all of the drop between T 3 and 2
    [4.0, 2.67, 2.33, 1.0]
    """
    betas, f = np.asarray(betas, float), np.asarray(f, float)
    known = ~np.isnan(f)
    f = np.interp(np.arange(len(f)), np.flatnonzero(known), f[known]) if known.any() else np.linspace(1, 0, len(f))
    temps = 1.0 / betas  # decreasing, hottest first
    spacing = temps[:-1] - temps[1:]
    density = np.sqrt(np.abs(np.diff(f)) / spacing / spacing)  # sqrt(|df/dT| / ΔT) on each interval
    density = np.maximum(density, 1e-3 * density.max() if density.max() > 0 else 1.0)
    mass = np.concatenate(([0.0], np.cumsum(density * spacing)))  # from the hottest rung down
    new_temps = np.interp(np.linspace(0.0, mass[-1], len(betas)), mass, -temps) * -1
    new_temps[0], new_temps[-1] = temps[0], temps[-1]
    return 1.0 / new_temps


def flow(run, betas, sweeps: int, last_end: np.ndarray) -> dict:
    """``sweeps`` sweeps of ``run`` (:func:`~benchmarks.stall.start_ladder`) on ``betas``, counting at each rung
    the labelled replicas by their last end (``last_end``, updated in place: 0 hottest, 1 coldest, -1 neither):
    ``f`` (NaN where none was labelled), the pairs' acceptance, the round trips, the lowest energy (the BQM's)
    and the first sweep at 0 (``None`` if never)."""
    hot, cold = np.zeros(len(betas)), np.zeros(len(betas))
    accepted, trips, first_zero = np.zeros(len(betas) - 1), 0, None
    for sweep, after, swapped, trip in watch_sweeps(run, betas, sweeps, last_end):
        accepted += swapped
        trips += trip
        labels = last_end[after]
        hot += labels == 0
        cold += labels == 1
        if first_zero is None and run.offset + run.params.w * float(run.best) <= 1e-9:
            first_zero = sweep + 1
    with np.errstate(invalid="ignore", divide="ignore"):
        f = hot / (hot + cold)
    return {"f": f, "exchange_acceptance": (accepted / sweeps).tolist(), "round_trips": trips,
            "best_energy": run.offset + run.params.w * float(run.best), "first_zero_sweep": first_zero}


def _set_ladder(run, betas) -> None:
    """Put ``betas`` on a running restart: each replica keeps its rung, the rung its new inverse temperature."""
    from qpicross.samplers.blockshift.engine import fill_table

    work = run.work
    for r in range(len(betas)):
        work.beta_of[r] = betas[work.slot_of[r]]
        fill_table(float(betas[r]), run.params.w, work.tables[r])


def tune_ladder(puzzle, seed: int = 0, rounds=ROUNDS) -> tuple[np.ndarray, list[dict]]:
    """The level-2 ladder of a default read's restart on ``puzzle`` tuned by :func:`feedback_betas`, one step after
    each of ``rounds`` (sweeps) of one continuing restart; returns the tuned inverse temperatures and each round's
    flow (its ``f`` as a list)."""
    from qpicross.samplers.blockshift.plans import RUNGS

    run = start_ladder(puzzle, LEVEL, RUNGS, seed)
    betas, last_end, history = run.betas.copy(), np.full(len(run.betas), -1), []
    for sweeps in rounds:
        seen = flow(run, betas, sweeps, last_end)
        history.append({**seen, "f": [None if math.isnan(x) else float(x) for x in seen["f"]], "sweeps": sweeps,
                        "betas": betas.tolist()})
        betas = feedback_betas(betas, seen["f"])
        _set_ladder(run, betas)
    return betas, history


def compare_ladders(puzzle, seed: int = 0, rounds=ROUNDS, sweeps: int = SWEEPS) -> dict:
    """The default level-2 ladder against the one :func:`tune_ladder` tunes (its tuning paid apart): a fresh
    restart of ``sweeps`` sweeps on each from ``seed``, as a JSON-ready dict."""
    from qpicross.samplers.blockshift.plans import RUNGS

    tuned, history = tune_ladder(puzzle, seed, rounds)
    runs = []
    for name, betas in (("default", None), ("feedback", tuned)):
        run = start_ladder(puzzle, LEVEL, RUNGS, seed)
        betas = run.betas if betas is None else betas
        if name == "feedback":
            _set_ladder(run, betas)
        seen = flow(run, betas, sweeps, np.full(len(betas), -1))
        runs.append({"ladder": name, "betas": [float(b) for b in betas], "best_energy": seen["best_energy"],
                     "first_zero_sweep": seen["first_zero_sweep"], "exchange_acceptance": seen["exchange_acceptance"],
                     "round_trips": seen["round_trips"]})
    return {"puzzle": str(puzzle.name), "rows": puzzle.num_rows, "cols": puzzle.num_cols, "seed": seed,
            "level": LEVEL, "sweeps": sweeps, "tuning_rounds": list(rounds), "tuning": history, "runs": runs}


def feedback_table(rows: list[dict]) -> str:
    """Markdown: each puzzle and seed, the default ladder's restart beside the feedback ladder's.

    >>> run = {"best_energy": 2.0, "first_zero_sweep": None, "exchange_acceptance": [0.5, 0.0], "round_trips": 0,
    ...        "betas": [1.0, 2.0, 5.0]}
    >>> row = {"puzzle": "x", "rows": 2, "cols": 3, "seed": 0, "sweeps": 8, "tuning_rounds": [2, 4],
    ...        "runs": [{**run, "ladder": "default"}, {**run, "ladder": "feedback", "best_energy": 0.0,
    ...                                               "first_zero_sweep": 5, "betas": [1.0, 1.5, 5.0]}]}
    >>> print(feedback_table([row]).splitlines()[2])
    | x | 3×2 | 0 | 2 (never 0) | 0 (sweep 5) | 0.50, 0.00 | 0.50, 0.00 | 0 / 0 | 1, 2, 5 | 1, 1.5, 5 |
    """
    from benchmarks.survey import survey_name

    lines = ["| puzzle | width × height | seed | default: lowest energy | feedback: lowest energy "
             "| default: exchange acceptance, hot → cold | feedback: exchange acceptance | round trips "
             "(default / feedback) | default β | feedback β |",
             "|---|---|---:|---:|---:|---|---|---:|---|---|"]

    def energy(run):
        at = f"sweep {run['first_zero_sweep']:,}" if run["first_zero_sweep"] else "never 0"
        return f"{run['best_energy']:g} ({at})"

    first = {}
    for row in rows:
        first.setdefault(row["puzzle"], len(first))
    rows = sorted(rows, key=lambda row: (first[row["puzzle"]], row["seed"]))
    tally = {}
    for row in rows:
        default, tuned = (next(r for r in row["runs"] if r["ladder"] == name) for name in ("default", "feedback"))
        counts = tally.setdefault(row["puzzle"], [0, 0, 0, 0, 0])  # restarts, default at 0, feedback at 0, lower
        counts[0] += 1                                             # with feedback, lower with the default
        counts[1] += default["first_zero_sweep"] is not None
        counts[2] += tuned["first_zero_sweep"] is not None
        counts[3] += tuned["best_energy"] < default["best_energy"]
        counts[4] += default["best_energy"] < tuned["best_energy"]
        lines.append(f"| {survey_name(row['puzzle'])} | {row['cols']}×{row['rows']} | {row['seed']} | "
                     f"{energy(default)} | {energy(tuned)} | "
                     + " | ".join(", ".join(f"{a:.2f}" for a in r["exchange_acceptance"]) for r in (default, tuned))
                     + f" | {default['round_trips']:,} / {tuned['round_trips']:,} | "
                     + " | ".join(", ".join(f"{b:.3g}" for b in r["betas"]) for r in (default, tuned)) + " |")
    sweeps = sorted({r["sweeps"] for r in rows})
    tuning = rows[0]["tuning_rounds"] if rows else []
    summary = "; ".join(f"{survey_name(name)}: at 0 in {d} of {n} restarts on the default ladder, {t} of {n} on the "
                        f"feedback ladder; lower with feedback in {lo}, with the default in {hi}"
                        for name, (n, d, t, lo, hi) in tally.items())
    return "\n".join(lines) + ("\n\n" + summary + "." if summary else "") + (
        f"\n\nEach row: a fresh restart of {' or '.join(f'{n:,}' for n in sweeps)} sweeps from that seed on the default "
        f"level-{rows[0].get('level', LEVEL) if rows else LEVEL} ladder and on the ladder tuned by feedback, "
        f"the tuning paid apart ({' + '.join(f'{n:,}' for n in tuning)} sweeps of one restart, a step after each); "
        "energy: the BQM's (0 at a solution), with the first sweep that reached 0.")


def main(argv: list[str] | None = None) -> int:
    from benchmarks.provenance import write_results

    parser = argparse.ArgumentParser(prog="python -m benchmarks.feedback_ladder", description=__doc__.split("\n\n")[0])
    parser.add_argument("puzzles", nargs="+", help="puzzle files (FILE#N for a collection's puzzle)")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--json", required=True, help="results file to write")
    args = parser.parse_args(argv)
    rows = []
    for spec in args.puzzles:
        puzzle = load_puzzle(spec)
        for seed in args.seeds:
            row = compare_ladders(puzzle, seed)
            row["source"] = spec
            rows.append(row)
            print(" | ".join(f"{r['ladder']}: best {r['best_energy']:g} (first 0 at {r['first_zero_sweep']}), "
                             f"acceptance {', '.join(f'{a:.2f}' for a in r['exchange_acceptance'])}, "
                             f"{r['round_trips']} trips" for r in row["runs"]) + f"  [{row['puzzle']} seed {seed}]",
                  flush=True)
    data = {"meta": {"command": "python -m benchmarks.feedback_ladder "
                                + " ".join(argv if argv is not None else sys.argv[1:])}, "results": rows}
    write_results(args.json, data)  # stamped with the fingerprint of the kernels' samples (shift, threads=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
